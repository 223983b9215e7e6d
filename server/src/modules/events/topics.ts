import { type LiveTopic, parcelTopic, RELAY_OFFER_KIND } from '@csomag/domain/live';
import { messages } from '@csomag/domain/messages';
import type { ParcelChange } from '../../db/change-feed.ts';
import type { AccountRow } from '../../db/schema.ts';
import { type AppError, refuse } from '../../errors.ts';
import { type Actor, mayParcel, type ParcelAction, parcelRefusal, relationship } from '../parcels/policy.ts';
import { touchesWaitingPool } from '../parcels/read-cache.ts';
import { mayTrip } from '../trips/policy.ts';

/**
 * Who is listening, as far as deciding what they may hear goes: no more than that (one per stream).
 * The actor's trust is what it was when the stream opened, until a `runner_trust` change (hub.ts).
 */
export interface Subscriber {
  actor: Actor;
  /** Lower case: user names are unique regardless of case. */
  userName: string | null;
  topics: readonly LiveTopic[];
}

export function subscriberOf(account: AccountRow | null, topics: LiveTopic[]): Subscriber {
  return {
    // Not the whole row: a stream may live for hours, and there may be thousands.
    actor: account && {
      id: account.id,
      role: account.role,
      address_key: account.address_key,
      approved_at: account.approved_at,
      suspended_at: account.suspended_at,
    },
    userName: account?.user_name.toLowerCase() ?? null,
    topics,
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

/**
 * 401 when a topic needs a session and there is none; 403 when the policy refuses every read of a
 * topic. A runner the back office suspended or has not approved is refused the waiting pool's
 * topic alone, and told why; asked with topics they may hear (`me`: what they still carry), the
 * stream opens narrowed — as one open before a suspension is narrowed (hub.ts) — and widens again
 * when they are trusted again.
 */
export function assertTopicsAllowed(account: AccountRow | null, topics: LiveTopic[]) {
  let untrusted: AppError | undefined;
  let heard = topics.some((topic) => topic !== 'parcels' && topic !== 'me');
  for (const topic of topics) {
    if (topic !== 'parcels' && topic !== 'me') continue;
    if (!account) throw refuse('sign_in_required', messages.signInRequired);
    const refusals = TOPIC_READS[topic].map((read) => parcelRefusal(account, read));
    if (refusals.includes(null)) {
      heard = true;
      continue;
    }
    untrusted = refusals.find((refusal) => refusal !== null && refusal.code !== 'forbidden') ?? undefined;
    if (!untrusted) throw refuse('forbidden', messages.forbidden);
  }
  if (untrusted && !heard) throw untrusted;
}

/** What the topic rules look at in a change, worked out once per change rather than once per stream. */
export interface ChangeFacts {
  kind: ParcelChange['kind'];
  parcelTopic: LiveTopic;
  touchesWaitingList: boolean;
  /** Lower case, now and before the change. */
  runners: (string | null)[];
  sender: string;
  receiverKeys: string[];
}

export function describeChange(change: ParcelChange): ChangeFacts {
  return {
    kind: change.kind,
    parcelTopic: parcelTopic(change.parcelId),
    // A drop point's parcels: those on their way back are runners' pickups (GET /api/drop-point-returns).
    touchesWaitingList:
      touchesWaitingPool(change) || change.status === 'at_drop_point' || change.previous?.status === 'at_drop_point',
    runners: [change.runner?.toLowerCase() ?? null, change.previous?.runner?.toLowerCase() ?? null],
    sender: change.senderUser.toLowerCase(),
    receiverKeys: change.previous ? [change.receiverKey, change.previous.receiverKey] : [change.receiverKey],
  };
}

/** Whether a change is about one of the subscriber's own lists: what they carry, sent or receive. */
function concernsMe(subscriber: Subscriber, change: ChangeFacts): boolean {
  const { actor, userName: me } = subscriber;
  if (me === null) return false;
  if (mayParcel(actor, 'listCarried')) return change.runners.includes(me);
  if (!mayParcel(actor, 'listSent')) return false;
  return change.sender === me || change.receiverKeys.some((key) => relationship.receiver(actor, { receiver_key: key }));
}

/** The subscriber's topics this change belongs to (often none). */
export function topicsOf(subscriber: Subscriber, change: ChangeFacts): LiveTopic[] {
  const { actor, topics } = subscriber;
  // A relay offer changes no parcel: every runner's (and the superadmin's) `parcels`, nobody else.
  if (change.kind === RELAY_OFFER_KIND) {
    const runnersHear = mayParcel(actor, 'listAll') || mayParcel(actor, 'listWaiting');
    return topics.includes('parcels') && runnersHear ? ['parcels'] : [];
  }
  const matched: LiveTopic[] = [];
  if (topics.includes(change.parcelTopic) && mayParcel(actor, 'track')) matched.push(change.parcelTopic);
  // A runner moving changes no list, only the tracking pages of what they carry (every ~10 s each).
  if (change.kind === 'runner_located') return matched;
  if (
    topics.includes('parcels') &&
    (mayParcel(actor, 'listAll') || (mayParcel(actor, 'listWaiting') && change.touchesWaitingList))
  ) {
    matched.push('parcels');
  }
  if (topics.includes('me') && concernsMe(subscriber, change)) matched.push('me');
  return matched;
}

/**
 * Whether a trip offer to the runner `userName` (lower case) goes to this subscriber: that runner's
 * `me` topic, while the back office trusts them.
 */
export const mayHearOffer = (subscriber: Subscriber, userName: string) =>
  subscriber.userName === userName && subscriber.topics.includes('me') && mayTrip(subscriber.actor, 'receiveOffers');

/** topicsOf for one subscriber and one change. */
export const topicsFor = (subscriber: Subscriber, change: ParcelChange) => topicsOf(subscriber, describeChange(change));
