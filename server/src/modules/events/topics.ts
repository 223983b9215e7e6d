import { type LiveTopic, parcelTopic } from '@csomag/domain/live';
import { messages } from '@csomag/domain/messages';
import type { ParcelChange } from '../../db/change-feed.ts';
import type { AccountRow } from '../../db/schema.ts';
import { refuse } from '../../errors.ts';
import { type Actor, mayParcel, type ParcelAction } from '../parcels/policy.ts';

/** Who is listening, as far as deciding what they may hear goes. */
export interface Subscriber {
  actor: Actor;
  userName: string | null;
  addressKey: string | null;
  topics: ReadonlySet<LiveTopic>;
}

export function subscriberOf(account: AccountRow | null, topics: LiveTopic[]): Subscriber {
  return {
    actor: account,
    userName: account?.user_name ?? null,
    addressKey: account?.address_key || null,
    topics: new Set(topics),
  };
}

/**
 * Each list topic is the live side of HTTP reads, allowed exactly when the parcel policy allows one
 * of them: `parcels` = GET /api/parcels or /api/parcels/waiting; `me` = GET /api/me/… lists.
 */
export const TOPIC_READS: Record<'parcels' | 'me', readonly ParcelAction[]> = {
  parcels: ['listAll', 'listWaiting'],
  me: ['listSent', 'listIncoming', 'listCarried'],
};

const mayRead = (actor: Actor, topic: 'parcels' | 'me') => TOPIC_READS[topic].some((read) => mayParcel(actor, read));

/** 401 when a topic needs a session and there is none; 403 when the policy refuses its reads. */
export function assertTopicsAllowed(account: AccountRow | null, topics: LiveTopic[]) {
  for (const topic of topics) {
    if (topic !== 'parcels' && topic !== 'me') continue;
    if (mayRead(account, topic)) continue;
    throw account ? refuse('forbidden', messages.forbidden) : refuse('sign_in_required', messages.signInRequired);
  }
}

const touchesWaitingList = (change: ParcelChange) =>
  change.status === 'waiting' || change.previous?.status === 'waiting';

/** Whether a change is about one of the subscriber's own lists: what they carry, sent or receive. */
function concernsMe(subscriber: Subscriber, change: ParcelChange): boolean {
  // User names are unique regardless of case.
  const me = subscriber.userName?.toLowerCase() ?? null;
  if (me === null) return false;
  if (mayParcel(subscriber.actor, 'listCarried')) {
    return change.runner?.toLowerCase() === me || change.previous?.runner?.toLowerCase() === me;
  }
  if (!mayParcel(subscriber.actor, 'listSent')) return false;
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
  if (subscriber.topics.has(parcel) && mayParcel(subscriber.actor, 'track')) matched.push(parcel);
  // A runner moving changes no list, only the tracking pages of what they carry (every ~10 s each).
  if (change.kind === 'runner_located') return matched;
  if (
    subscriber.topics.has('parcels') &&
    (mayParcel(subscriber.actor, 'listAll') ||
      (mayParcel(subscriber.actor, 'listWaiting') && touchesWaitingList(change)))
  ) {
    matched.push('parcels');
  }
  if (subscriber.topics.has('me') && concernsMe(subscriber, change)) matched.push('me');
  return matched;
}
