import { type LiveTopic, parcelTopic } from '@csomag/domain/live';
import { messages } from '@csomag/domain/messages';
import type { Role } from '@csomag/domain/roles';
import type { ParcelChange } from '../../db/change-feed.ts';
import type { AccountRow } from '../../db/schema.ts';
import { forbidden, unauthorized } from '../../errors.ts';

/** Who is listening, as far as deciding what they may hear goes. */
export interface Subscriber {
  role: Role | null;
  userName: string | null;
  addressKey: string | null;
  topics: ReadonlySet<LiveTopic>;
}

export function subscriberOf(account: AccountRow | null, topics: LiveTopic[]): Subscriber {
  return {
    role: account?.role ?? null,
    userName: account?.user_name ?? null,
    addressKey: account?.address_key || null,
    topics: new Set(topics),
  };
}

const TOPIC_ROLES: Record<'parcels' | 'me', readonly Role[]> = {
  parcels: ['superadmin', 'runner'],
  me: ['user', 'runner'],
};

/** 401 when a topic needs a session and there is none; 403 when the role may not have it. */
export function assertTopicsAllowed(account: AccountRow | null, topics: LiveTopic[]) {
  for (const topic of topics) {
    if (topic !== 'parcels' && topic !== 'me') continue;
    if (!account) throw unauthorized(messages.signInRequired);
    if (!TOPIC_ROLES[topic].includes(account.role)) throw forbidden(messages.forbidden);
  }
}

const touchesWaitingList = (change: ParcelChange) =>
  change.status === 'waiting' || change.previous?.status === 'waiting';

function concernsMe(subscriber: Subscriber, change: ParcelChange): boolean {
  // User names are unique regardless of case.
  const me = subscriber.userName?.toLowerCase() ?? null;
  if (subscriber.role === 'runner') {
    return me !== null && (change.runner?.toLowerCase() === me || change.previous?.runner?.toLowerCase() === me);
  }
  if (subscriber.role !== 'user') return false;
  const key = subscriber.addressKey;
  return (
    change.senderUser.toLowerCase() === me ||
    (key !== null && (change.receiverKey === key || change.previous?.receiverKey === key))
  );
}

/** The subscriber's topics this change belongs to (often none). */
export function topicsFor(subscriber: Subscriber, change: ParcelChange): LiveTopic[] {
  const matched: LiveTopic[] = [];
  const parcel = parcelTopic(change.parcelId);
  if (subscriber.topics.has(parcel)) matched.push(parcel);
  // A runner moving changes no list, only the tracking pages of what they carry (every ~10 s each).
  if (change.kind === 'runner_located') return matched;
  if (
    subscriber.topics.has('parcels') &&
    (subscriber.role === 'superadmin' || (subscriber.role === 'runner' && touchesWaitingList(change)))
  ) {
    matched.push('parcels');
  }
  if (subscriber.topics.has('me') && concernsMe(subscriber, change)) matched.push('me');
  return matched;
}
