import {
  type HandoverConfirmer,
  type Parcel,
  type ParcelEvent,
  type ParcelTimelineEvent,
  parcelStateOf,
  type RelayLeg,
  type TrackingView,
} from '@csomag/domain/parcel';
import type { ParcelRow } from '../../db/schema.ts';
import { placePrecision } from '../places/precision.ts';

/** A parcel row with the user names its ids point to. */
export type ParcelWithNames = ParcelRow & {
  sender_user_name: string;
  runner_user_name: string | null;
  /** Its drop point's name and address (issue 28); null without one. */
  drop_point_name: string | null;
  drop_point_address: string | null;
};

/** The only way a parcel leaves the server to its sender, runner or the superadmin. */
export function presentParcel(row: ParcelWithNames): Parcel {
  return {
    id: row.id,
    status: row.status,
    category: row.category,
    weightGrams: row.weight_grams,
    senderUser: row.sender_user_name,
    runner: row.runner_user_name,
    senderAddress: row.sender_address,
    receiverAddress: row.receiver_address,
    senderCoordinates: { lat: row.sender_lat, lng: row.sender_lng },
    receiverCoordinates: { lat: row.receiver_lat, lng: row.receiver_lng },
    senderPrecision: placePrecision(row.sender_place_precision, row.sender_precision),
    receiverPrecision: placePrecision(row.receiver_place_precision, row.receiver_precision),
    createdAt: row.created_at,
    pickedUpAt: row.picked_up_at,
    deliveredAt: row.delivered_at,
    photoRequired: row.photo_required === 1,
    ...attemptFacts(row),
    neighbour: neighbourOf(row),
    neighbourWish:
      row.neighbour_wish_name !== null && row.neighbour_wish_door !== null
        ? { name: row.neighbour_wish_name, door: row.neighbour_wish_door }
        : null,
    dropPoint: dropPointOf(row),
  };
}

/** The drop point a parcel goes to or waits at instead of the door (issue 28): a public partner place. */
const dropPointOf = (row: ParcelWithNames): Parcel['dropPoint'] =>
  row.drop_point_id !== null && row.drop_point_name !== null && row.drop_point_address !== null
    ? { id: row.drop_point_id, name: row.drop_point_name, address: row.drop_point_address }
    : null;

/** A parcel's failed attempts and return as everyone shown it sees them (issue 28). */
function attemptFacts(row: ParcelRow): Pick<Parcel, 'state' | 'attempts' | 'redelivery'> {
  const { redelivery_from: from, redelivery_until: until } = row;
  return {
    state: parcelStateOf({ status: row.status, attempts: row.attempts, returning: row.returning === 1 }),
    attempts: row.attempts,
    redelivery: from !== null && until !== null ? { from, until } : null,
  };
}

/** The neighbour it was left with: for the parcel's own people, never on the public tracking page. */
const neighbourOf = ({ neighbour_name: name, neighbour_door: door }: ParcelRow) =>
  name !== null && door !== null ? { name, door } : null;

export interface EventRow {
  at: string;
  kind: ParcelEvent['kind'];
  /** The time the person gave (ADR 0017); null: at `at`. */
  occurred_at: string | null;
  /** The event's JSON data; only a relay's is shown (its ends and place's name). */
  data: string | null;
}

export interface TimelineRow extends EventRow {
  actor_user_name: string | null;
}

/** A timeline step: when the server recorded it, and when the person says it happened if they said. */
export const presentEvent = (row: EventRow): ParcelEvent => ({
  at: row.at,
  kind: row.kind,
  ...(row.occurred_at ? { occurredAt: row.occurred_at } : {}),
  ...(row.kind === 'relayed' && row.data ? { relay: relayLegOf(row.data) } : {}),
});

/** What changes.ts's relayParcel wrote: coordinates stay on the server, the place's name is shown. */
function relayLegOf(data: string): RelayLeg {
  const { from, to, placeName } = JSON.parse(data) as { from?: string | null; to?: string; placeName?: string };
  return { from: from ?? null, to: to ?? '', place: placeName ?? null };
}

/**
 * A timeline step with who did it. `withConfirmer`: the back office reads who confirmed a QR
 * hand-over (parcels/policy.ts seeHandoverConfirmer), as handover/service.ts recorded it.
 */
export const presentTimelineEvent = (row: TimelineRow, withConfirmer = false): ParcelTimelineEvent => {
  const confirmedBy = withConfirmer && row.kind === 'handed_over_qr' && row.data ? confirmerOf(row.data) : null;
  return { ...presentEvent(row), actor: row.actor_user_name, ...(confirmedBy ? { confirmedBy } : {}) };
};

/** Who confirmed a QR hand-over, from its event's data; null for one recorded before it was (issue 27). */
function confirmerOf(data: string): HandoverConfirmer | null {
  const { confirmedBy, signatureSha256 } = JSON.parse(data) as {
    confirmedBy?: { account?: string | null; name?: string | null };
    signatureSha256?: string;
  };
  if (!confirmedBy) return null;
  return {
    account: confirmedBy.account ?? null,
    name: confirmedBy.name ?? null,
    signed: signatureSha256 !== undefined,
  };
}

export type TrackingRow = ParcelWithNames & {
  runner_lat: number | null;
  runner_lng: number | null;
  runner_located_at: string | null;
};

/**
 * The public tracking view: points on the map but no addresses, no contact data, no ids of
 * accounts. The runner (and where they are) only while the parcel is on its way.
 */
export function presentTracking(
  row: TrackingRow,
  events: EventRow[],
  runnerRating: TrackingView['runnerRating'] = null,
): TrackingView {
  const inTransit = row.status === 'in_transit';
  const { runner_lat: lat, runner_lng: lng, runner_located_at: at } = row;
  return {
    id: row.id,
    status: row.status,
    category: row.category,
    weightGrams: row.weight_grams,
    senderUser: row.sender_user_name,
    runner: inTransit ? row.runner_user_name : null,
    createdAt: row.created_at,
    pickedUpAt: row.picked_up_at,
    deliveredAt: row.delivered_at,
    pickup: { lat: row.sender_lat, lng: row.sender_lng },
    destination: { lat: row.receiver_lat, lng: row.receiver_lng },
    pickupPrecision: placePrecision(row.sender_place_precision, row.sender_precision),
    destinationPrecision: placePrecision(row.receiver_place_precision, row.receiver_precision),
    runnerPosition: inTransit && lat !== null && lng !== null && at !== null ? { lat, lng, at } : null,
    runnerRating: inTransit ? runnerRating : null,
    events: events.map(presentEvent),
    ...attemptFacts(row),
    dropPoint: dropPointOf(row),
  };
}
