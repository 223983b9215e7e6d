import type { Language } from './language.ts';
import { messages } from './messages.ts';
import { paths } from './paths.ts';
import type { Role } from './roles.ts';

/**
 * Web Push (issue 12): who is told what, without zod, so the service worker can show a
 * notification without loading the schemas (push.ts has those). Each kind can be switched off by
 * the person it goes to.
 * - sent_picked_up, sent_delivered: the sender of a parcel
 * - incoming_on_its_way, incoming_delivered: an account whose address is the parcel's receiver address
 * - assigned: a runner the back office gave a parcel to
 * - trip_offer: a runner one of whose active saved trips a new parcel fits (issue 13, docs/decisions/0021)
 * - sent_attempted, incoming_attempted: a failed delivery attempt, to the sender and the receiver,
 *   whose tracking page lets them ask a new time (issue 28, docs/decisions/0030)
 * - sent_returning, sent_returned: the parcel is on its way back to its sender, and is back
 * - incoming_with_neighbour, incoming_at_drop_point: the receiver's parcel was left with a
 *   neighbour, or waits for them at a drop point
 * - sent_uncollected: the sender's parcel was not collected at its drop point (in time, or its
 *   receiver refused it there) and comes back
 * - sent_lost, incoming_lost: the back office wrote the parcel off as lost
 */
export const PUSH_KINDS = [
  'sent_picked_up',
  'sent_delivered',
  'incoming_on_its_way',
  'incoming_delivered',
  'assigned',
  'trip_offer',
  // issue 28: a failed attempt (to both parties), the way back and the arrival back (to the sender)
  'sent_attempted',
  'incoming_attempted',
  'sent_returning',
  'sent_returned',
  'incoming_with_neighbour',
  'incoming_at_drop_point',
  'sent_uncollected',
  'sent_lost',
  'incoming_lost',
] as const;
export type PushKind = (typeof PUSH_KINDS)[number];

/**
 * What each role is told about (the rest never reaches them), in the order the profile page's
 * switches show them: senders and receivers, or runners. Every kind is some role's (push-kinds.test.ts).
 */
export const PUSH_KINDS_BY_ROLE: Record<Role, readonly PushKind[]> = {
  user: [
    'sent_picked_up',
    'sent_attempted',
    'sent_returning',
    'sent_uncollected',
    'sent_returned',
    'sent_delivered',
    'sent_lost',
    'incoming_on_its_way',
    'incoming_attempted',
    'incoming_with_neighbour',
    'incoming_at_drop_point',
    'incoming_delivered',
    'incoming_lost',
  ],
  runner: ['assigned', 'trip_offer'],
  superadmin: [],
};

export const isPushKind = (value: unknown): value is PushKind => PUSH_KINDS.includes(value as PushKind);

/** What each kind is called on the profile page's switches. */
export const pushKindLabels: Record<PushKind, string> = {
  sent_picked_up: messages.pushKindSentPickedUp,
  sent_delivered: messages.pushKindSentDelivered,
  incoming_on_its_way: messages.pushKindIncomingOnItsWay,
  incoming_delivered: messages.pushKindIncomingDelivered,
  assigned: messages.pushKindAssigned,
  trip_offer: messages.pushKindTripOffer,
  sent_attempted: messages.pushKindSentAttempted,
  incoming_attempted: messages.pushKindIncomingAttempted,
  sent_returning: messages.pushKindSentReturning,
  sent_returned: messages.pushKindSentReturned,
  incoming_with_neighbour: messages.pushKindWithNeighbour,
  incoming_at_drop_point: messages.pushKindAtDropPoint,
  sent_uncollected: messages.pushKindSentUncollected,
  sent_lost: messages.pushKindSentLost,
  incoming_lost: messages.pushKindIncomingLost,
};

/** The notification's title per kind (the service worker shows it). */
export const pushKindTitles: Record<PushKind, string> = {
  sent_picked_up: messages.pushTitleSentPickedUp,
  sent_delivered: messages.pushTitleSentDelivered,
  incoming_on_its_way: messages.pushTitleIncomingOnItsWay,
  incoming_delivered: messages.pushTitleIncomingDelivered,
  assigned: messages.pushTitleAssigned,
  trip_offer: messages.pushTitleTripOffer,
  sent_attempted: messages.pushTitleAttempted,
  incoming_attempted: messages.pushTitleAttempted,
  sent_returning: messages.pushTitleSentReturning,
  sent_returned: messages.pushTitleSentReturned,
  incoming_with_neighbour: messages.pushTitleWithNeighbour,
  incoming_at_drop_point: messages.pushTitleAtDropPoint,
  sent_uncollected: messages.pushTitleSentUncollected,
  sent_lost: messages.pushTitleLost,
  incoming_lost: messages.pushTitleLost,
};

const statusTexts: Record<PushKind, (parcelId: string) => string> = {
  sent_picked_up: messages.pushStatusSentPickedUp,
  sent_delivered: messages.pushStatusSentDelivered,
  incoming_on_its_way: messages.pushStatusIncomingOnItsWay,
  incoming_delivered: messages.pushStatusIncomingDelivered,
  assigned: messages.pushStatusAssigned,
  trip_offer: messages.pushStatusTripOffer,
  sent_attempted: messages.pushStatusSentAttempted,
  incoming_attempted: messages.pushStatusIncomingAttempted,
  sent_returning: messages.pushStatusSentReturning,
  sent_returned: messages.pushStatusSentReturned,
  incoming_with_neighbour: messages.pushStatusWithNeighbour,
  incoming_at_drop_point: messages.pushStatusAtDropPoint,
  sent_uncollected: messages.pushStatusSentUncollected,
  sent_lost: messages.pushStatusSentLost,
  incoming_lost: messages.pushStatusIncomingLost,
};

/**
 * The encrypted payload of every push: no names, addresses or phone numbers — only what the
 * parcel's public tracking page shows anyway (its id and status) and where a click leads.
 */
export interface PushMessage {
  type: PushKind;
  parcelId: string;
  /** The notification's title and status sentence, in the recipient's language (issue 30). */
  title: string;
  status: string;
  lang: Language;
  /** A path on this site: the parcel's tracking page, or the runner's list of parcels in transit. */
  url: string;
}

/** The push about `parcelId` for `type`, in Hungarian: the notifier says it in its recipient's language. */
export function pushMessage(type: PushKind, parcelId: string): PushMessage {
  return {
    type,
    parcelId,
    title: pushKindTitles[type],
    status: statusTexts[type](parcelId),
    lang: 'hu',
    url:
      type === 'assigned'
        ? paths.inProgressParcels
        : type === 'trip_offer'
          ? paths.runnerTrip
          : paths.tracking(parcelId),
  };
}
