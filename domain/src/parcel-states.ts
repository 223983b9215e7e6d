import { messages } from './messages.ts';

/*
 * A parcel's statuses, states, events and point precisions with their labels, and no schema library:
 * a page that only shows a parcel (the public tracking page) loads no zod (ADR 0008). domain/parcel.ts
 * re-exports all of it beside the schemas.
 */

/**
 * Where a parcel is in its life: with its sender waiting for a runner, carried, left with the
 * receiver's neighbour, delivered, back with its sender after a return, or written off as lost
 * (issue 28). Delivered, returned and lost are final.
 */
export const PARCEL_STATUSES = [
  'waiting',
  'in_transit',
  'with_neighbour',
  'at_drop_point',
  'delivered',
  'returned',
  'lost',
] as const;
export type ParcelStatus = (typeof PARCEL_STATUSES)[number];

/** SPEC §4's Hungarian status labels. */
export const parcelStatusLabels: Record<ParcelStatus, string> = {
  waiting: messages.statusWaiting,
  in_transit: messages.statusInTransit,
  with_neighbour: messages.stateWithNeighbour,
  at_drop_point: messages.stateAtDropPoint,
  delivered: messages.statusDelivered,
  returned: messages.stateReturned,
  lost: messages.stateLost,
};

/** Whether a parcel's journey is over: nothing more can happen to it but the back office's corrections. */
export const isFinal = (status: ParcelStatus) => status === 'delivered' || status === 'returned' || status === 'lost';

/**
 * What a person is shown and filters by: the status, with a carried parcel told apart when a
 * delivery attempt failed (the runner still has it, a new attempt is due) and when it is on its
 * way back to its sender (issue 28). Attempted and returning are states of the carrying, not
 * statuses: the carrier, the relay and the delivery treat them as in transit.
 */
export const PARCEL_STATES = [
  'waiting',
  'in_transit',
  'attempted',
  'returning',
  'with_neighbour',
  'at_drop_point',
  'delivered',
  'returned',
  'lost',
] as const;
export type ParcelState = (typeof PARCEL_STATES)[number];

export const parcelStateLabels: Record<ParcelState, string> = {
  ...parcelStatusLabels,
  attempted: messages.stateAttempted,
  returning: messages.stateReturning,
};

export function parcelStateOf(parcel: { status: ParcelStatus; attempts: number; returning: boolean }): ParcelState {
  if (parcel.status !== 'in_transit') return parcel.status;
  if (parcel.returning) return 'returning';
  return parcel.attempts > 0 ? 'attempted' : 'in_transit';
}

export const PARCEL_EVENT_KINDS = [
  'created',
  'picked_up',
  'assigned',
  'delivered',
  'handed_over_qr',
  'edited',
  'status_changed',
  'deleted',
  'given_back',
  'cancelled',
  'relayed',
  'custody_override',
  'proof_photo',
  'handed_over_pin',
  'left_with_neighbour',
  'collected',
  'incident_reported',
  'lost',
  'drop_point_chosen',
  'dropped_off',
  'collected_at_drop_point',
  'attempted',
  'redelivery_requested',
  'neighbour_requested',
  'return_started',
  'returned',
  'taken_from_drop_point',
  'attempt_photo',
] as const;
export type ParcelEventKind = (typeof PARCEL_EVENT_KINDS)[number];

export const parcelEventLabels: Record<ParcelEventKind, string> = {
  created: messages.eventCreated,
  picked_up: messages.eventPickedUp,
  assigned: messages.eventAssigned,
  delivered: messages.eventDelivered,
  handed_over_qr: messages.eventHandedOverQr,
  edited: messages.eventEdited,
  status_changed: messages.eventStatusChanged,
  deleted: messages.eventDeleted,
  given_back: messages.eventGivenBack,
  cancelled: messages.eventCancelled,
  relayed: messages.eventRelayed,
  custody_override: messages.eventCustodyOverride,
  proof_photo: messages.eventProofPhoto,
  handed_over_pin: messages.eventHandedOverPin,
  left_with_neighbour: messages.eventLeftWithNeighbour,
  collected: messages.eventCollected,
  incident_reported: messages.eventIncidentReported,
  drop_point_chosen: messages.eventDropPointChosen,
  dropped_off: messages.eventDroppedOff,
  collected_at_drop_point: messages.eventCollectedAtDropPoint,
  lost: messages.eventLost,
  attempted: messages.eventAttempted,
  redelivery_requested: messages.eventRedeliveryRequested,
  neighbour_requested: messages.eventNeighbourRequested,
  return_started: messages.eventReturnStarted,
  returned: messages.eventReturned,
  taken_from_drop_point: messages.eventTakenFromDropPoint,
  attempt_photo: messages.eventAttemptPhoto,
};

/**
 * How precisely a point is known (issue 25): the door of the address, only its street, only its
 * settlement or Budapest district centre, or a pin placed (or moved) by hand. Only a door or a pin
 * placed by hand is the door: delivery by position needs one, anything else the receiver's QR.
 */
export const POINT_PRECISIONS = ['door', 'street', 'settlement', 'manual'] as const;
export type PointPrecision = (typeof POINT_PRECISIONS)[number];
/** The same, as the stores' newer columns hold it (migration 0021). */
export type PlacePrecision = PointPrecision;

/** Whether a runner may deliver by position (within 15 m) or must hand over by QR; null: a parcel from before precision was recorded. */
export const isDoorKnown = (precision: PointPrecision | null) =>
  precision === null || precision === 'door' || precision === 'manual';
