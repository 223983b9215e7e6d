import { z } from 'zod';
import { addressField, emailField, requiredText, userNameField } from './account.ts';
import { LIST_DEFAULT_LIMIT, LIST_MAX_LIMIT, OCCURRED_AT_MAX_AGE_MS, OCCURRED_AT_MAX_SKEW_MS } from './constants.ts';
import { messages } from './messages.ts';
import {
  PARCEL_EVENT_KINDS,
  PARCEL_STATES,
  PARCEL_STATUSES,
  type ParcelStatus,
  POINT_PRECISIONS,
} from './parcel-states.ts';
import { ratingSummarySchema } from './ratings.ts';
import { weightGramsField } from './weight.ts';

export {
  isDoorKnown,
  isFinal,
  PARCEL_EVENT_KINDS,
  PARCEL_STATES,
  PARCEL_STATUSES,
  type ParcelEventKind,
  type ParcelState,
  type ParcelStatus,
  type PlacePrecision,
  POINT_PRECISIONS,
  type PointPrecision,
  parcelEventLabels,
  parcelStateLabels,
  parcelStateOf,
  parcelStatusLabels,
} from './parcel-states.ts';

/**
 * How the back office may move a parcel between statuses — the same transitions as everywhere:
 * into transit only by pickup or assignment (a runner is needed), delivered only from transit.
 * Taking a parcel from its runner (back to waiting) or undoing a delivery is a correction that
 * needs a reason, recorded in the timeline.
 */
export type StatusChange = 'allowed' | 'needs_reason' | 'needs_runner' | 'own_flow';
export function backOfficeStatusChange(from: ParcelStatus, to: ParcelStatus): StatusChange {
  // A return ends with the sender confirming it, a neighbour's parcel with the receiver collecting
  // it (issue 28): no field reaches or leaves those.
  const ownFlow = (status: ParcelStatus) =>
    status === 'returned' || status === 'with_neighbour' || status === 'at_drop_point' || status === 'lost';
  if (ownFlow(from) || ownFlow(to)) return 'own_flow';
  if (from === 'waiting') return 'needs_runner';
  if (from === 'in_transit' && to === 'delivered') return 'allowed';
  return 'needs_reason';
}

export const reasonField = z
  .string({ error: messages.reasonInvalid })
  .trim()
  .min(3, { error: messages.reasonInvalid })
  .max(500, { error: messages.reasonInvalid });

/** Public tracking ids: 10 characters of Crockford base32 (no I, L, O, U). */
export const PARCEL_ID_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
export const PARCEL_ID_LENGTH = 10;
/** An id exactly as written: the alphabet's characters, PARCEL_ID_LENGTH of them. */
export const PARCEL_ID_PATTERN = /^[0-9A-HJKMNP-TV-Z]{10}$/;
export const parcelIdSchema = z
  .string()
  .trim()
  .toUpperCase()
  .regex(PARCEL_ID_PATTERN, { error: 'Érvénytelen csomagazonosító.' });

const coordinate = (limit: number) =>
  z
    .number({ error: messages.invalidCoordinates })
    .min(-limit, { error: messages.invalidCoordinates })
    .max(limit, { error: messages.invalidCoordinates });
export const coordinatesSchema = z.object({ lat: coordinate(90), lng: coordinate(180) });
export type Coordinates = z.infer<typeof coordinatesSchema>;

const limitError = { error: messages.invalidLimit(LIST_MAX_LIMIT) };
export const listQuerySchema = z.object({
  limit: z.coerce
    .number(limitError)
    .int(limitError)
    .min(1, limitError)
    .max(LIST_MAX_LIMIT, limitError)
    .default(LIST_DEFAULT_LIMIT),
  cursor: z.string().max(200, { error: messages.invalidCursor }).optional(),
});

export const parcelStatusSchema = z.enum(PARCEL_STATUSES, { error: messages.invalidStatus });

export const categoryField = requiredText(60);

export const pointPrecisionSchema = z.enum(POINT_PRECISIONS, { error: messages.invalidPrecision });

export const recipientPhoneField = z
  .string({ error: messages.recipientPhoneInvalid })
  .trim()
  .regex(/^\+?[0-9 ()-]{6,20}$/, { error: messages.recipientPhoneInvalid });

/**
 * When the person says the action happened (`occurredAt`, ISO 8601 with an offset): an action
 * queued offline is sent later. Kept only within bounds — not ahead of the server's clock by more
 * than a phone's drift, at most 72 h back — and given to the server as UTC (toISOString), so it
 * compares with the times the server writes. Checked against the clock when the request arrives.
 */
const isoWithOffset = z.iso.datetime({ offset: true });
export const occurredAtField = z
  .string({ error: messages.occurredAtInvalid })
  .describe('ISO 8601 date-time with an offset, at most 2 minutes ahead and 72 hours back')
  .superRefine((value, context) => {
    // One message per value: the bounds are not looked at when the format is wrong.
    const at = Date.parse(value);
    if (!isoWithOffset.safeParse(value).success || Number.isNaN(at)) {
      return context.addIssue({ code: 'custom', message: messages.occurredAtInvalid });
    }
    const now = Date.now();
    if (at > now + OCCURRED_AT_MAX_SKEW_MS) context.addIssue({ code: 'custom', message: messages.occurredAtInFuture });
    else if (at < now - OCCURRED_AT_MAX_AGE_MS) {
      context.addIssue({ code: 'custom', message: messages.occurredAtTooOld(OCCURRED_AT_MAX_AGE_MS / 3_600_000) });
    }
  })
  .transform((value) => new Date(value).toISOString());

/**
 * POST /api/parcels. Given coordinates (a pin on the form's map) skip geocoding; their precision
 * says whether the pin is where the address was placed or where the sender put it (default).
 */
export const parcelCreateBodySchema = z.object({
  senderAddress: addressField,
  receiverAddress: addressField,
  category: categoryField,
  weightGrams: weightGramsField,
  senderCoordinates: coordinatesSchema.optional(),
  receiverCoordinates: coordinatesSchema.optional(),
  senderPrecision: pointPrecisionSchema.optional(),
  receiverPrecision: pointPrecisionSchema.optional(),
  /** Only the superadmin names the sender; a user always sends as themself. */
  senderUser: userNameField.optional(),
  /** How the runner reaches the recipient; shown to the carrier and the superadmin only. */
  recipientName: requiredText(100).optional(),
  recipientPhone: recipientPhoneField.optional(),
  /** The receiver's email (issue 29): told of the parcel's way, with a link that shows them their code. */
  receiverEmail: emailField.optional(),
  /** 'Fotó szükséges a leadáskor': delivery by position needs a stored photo (issue 15). */
  photoRequired: z.boolean({ error: messages.invalidBody }).optional(),
  /** A drop point to deliver to instead of the receiver's door (issue 28); the receiver collects it there. */
  dropPointId: z
    .number({ error: messages.dropPointNotFound })
    .int({ error: messages.dropPointNotFound })
    .positive({ error: messages.dropPointNotFound })
    .optional(),
  /** When the sender filled the form in (sent later from the offline outbox); kept beside the server's time. */
  occurredAt: occurredAtField.optional(),
});
export type ParcelCreateBody = z.infer<typeof parcelCreateBodySchema>;

const isoTime = z.iso.datetime();

/** When the next delivery attempt is wanted (issue 28). */
export const redeliveryWindowSchema = z.object({ from: isoTime, until: isoTime });
export type RedeliveryWindow = z.infer<typeof redeliveryWindowSchema>;

/** The drop point a parcel goes to or waits at instead of the door (issue 28). */
const parcelDropPointSchema = z.object({ id: z.number().int(), name: z.string(), address: z.string() });

export const parcelSchema = z.object({
  id: z.string(),
  status: z.enum(PARCEL_STATUSES),
  category: z.string(),
  weightGrams: z.number().int(),
  senderUser: z.string(),
  runner: z.string().nullable(),
  senderAddress: z.string(),
  receiverAddress: z.string(),
  senderCoordinates: coordinatesSchema,
  receiverCoordinates: coordinatesSchema,
  /** null: a parcel from before precision was recorded. */
  senderPrecision: pointPrecisionSchema.nullable(),
  receiverPrecision: pointPrecisionSchema.nullable(),
  createdAt: isoTime,
  pickedUpAt: isoTime.nullable(),
  deliveredAt: isoTime.nullable(),
  /** The sender asked for a photo at delivery (issue 15). */
  photoRequired: z.boolean(),
  /** The status, with failed attempts and a return told apart (issue 28). */
  state: z.enum(PARCEL_STATES),
  /** Failed delivery attempts at the current destination. */
  attempts: z.number().int().nonnegative(),
  /** The window the receiver (or sender) asked for the next attempt; null: none asked. */
  redelivery: redeliveryWindowSchema.nullable(),
  /** Who it was left with (name and flat or door), while with them and after; null: never left with a neighbour. */
  neighbour: z.object({ name: z.string(), door: z.string() }).nullable(),
  /** The neighbour the receiver (or sender) asked it be left with after a failed attempt; null: none asked. */
  neighbourWish: z.object({ name: z.string(), door: z.string() }).nullable(),
  /** The drop point it goes to or waits at instead of the door; null: the door. */
  dropPoint: parcelDropPointSchema.nullable(),
});
export type Parcel = z.infer<typeof parcelSchema>;

/** Who to call about a parcel: for the runner carrying it and the superadmin, never on a public page. */
export const parcelContactsSchema = z.object({
  recipientName: z.string().nullable(),
  recipientPhone: z.string().nullable(),
  senderName: z.string(),
  senderPhone: z.string(),
});
export type ParcelContacts = z.infer<typeof parcelContactsSchema>;

/** A parcel in its carrier's hands (GET /api/me/assigned-parcels): with the contacts. */
export const carriedParcelSchema = parcelSchema.extend({ contacts: parcelContactsSchema });
export type CarriedParcel = z.infer<typeof carriedParcelSchema>;

/** One step of a parcel's timeline as anyone may see it. */
/** A runner → runner hand-over on the timeline (issue 14): 'Átadva: futár1 → futár2, <hely>, 14:32'. */
export const relayLegSchema = z.object({
  /** The carrier's user name (null: an account deleted since). */
  from: z.string().nullable(),
  to: z.string(),
  /** The place's name (the meeting point's label, else the nearest settlement); never coordinates. */
  place: z.string().nullable(),
});
export type RelayLeg = z.infer<typeof relayLegSchema>;

export const parcelEventSchema = z.object({
  /** When the server recorded it. */
  at: isoTime,
  kind: z.enum(PARCEL_EVENT_KINDS),
  /** When the person says it happened (an action sent later from the offline outbox); absent: at `at`. */
  occurredAt: isoTime.optional(),
  /** `relayed` only: who handed it to whom, and where. */
  relay: relayLegSchema.optional(),
});
export type ParcelEvent = z.infer<typeof parcelEventSchema>;

/**
 * Who confirmed a QR hand-over (issue 27), recorded with it and read by the back office only: the
 * account signed in on the phone that confirmed, else someone holding the link, by the name they
 * typed and whether they signed. Absent on hand-overs recorded before it was.
 */
export const handoverConfirmerSchema = z.object({
  /** The signed-in account's user name; null: a link holder without an account. */
  account: z.string().nullable(),
  /** The name typed on the confirmation page; null: none given. */
  name: z.string().nullable(),
  /** Whether a signature was stored with it. */
  signed: z.boolean(),
});
export type HandoverConfirmer = z.infer<typeof handoverConfirmerSchema>;

/** The timeline for the sender, the runner and the superadmin: who did it, too. */
export const parcelTimelineEventSchema = parcelEventSchema.extend({
  actor: z.string().nullable(),
  /** `handed_over_qr`, for the back office only: who confirmed it. */
  confirmedBy: handoverConfirmerSchema.optional(),
});
export type ParcelTimelineEvent = z.infer<typeof parcelTimelineEventSchema>;

/** GET /api/parcels/:id: contacts for its carrier and the superadmin, null for its sender. */
export const parcelDetailSchema = parcelSchema.extend({
  /** Increases with every change: an edit form sends back the version it showed (ADR 0006). */
  version: z.number().int().positive(),
  events: z.array(parcelTimelineEventSchema),
  contacts: parcelContactsSchema.nullable(),
});
export type ParcelDetail = z.infer<typeof parcelDetailSchema>;

/** Every list answers `{items, nextCursor}`; nextCursor is null on the last page. */
export const pageOf = <Item extends z.ZodType>(item: Item) =>
  z.object({ items: z.array(item), nextCursor: z.string().nullable() });

export const parcelListSchema = pageOf(parcelSchema);
export const carriedParcelListSchema = pageOf(carriedParcelSchema);
export type CarriedParcelList = z.infer<typeof carriedParcelListSchema>;
export type ParcelList = z.infer<typeof parcelListSchema>;

export const parcelStateSchema = z.enum(PARCEL_STATES, { error: messages.invalidStatus });
/** A list's filter is by state: 'attempted' and 'returning' are parcels in transit told apart. */
export const parcelListQuerySchema = listQuerySchema.extend({ status: parcelStateSchema.optional() });
export type ParcelListQuery = z.infer<typeof parcelListQuerySchema>;

/**
 * GET /api/tracking/:id — public, so only what a tracking page shows: no addresses, no contact
 * data, no account ids. The runner and its position only while the parcel is on its way.
 */
export const trackingViewSchema = z.object({
  id: z.string(),
  status: z.enum(PARCEL_STATUSES),
  category: z.string(),
  weightGrams: z.number().int(),
  senderUser: z.string(),
  runner: z.string().nullable(),
  createdAt: isoTime,
  pickedUpAt: isoTime.nullable(),
  deliveredAt: isoTime.nullable(),
  pickup: coordinatesSchema,
  destination: coordinatesSchema,
  /** How precisely each end is known (issue 25): the page says when a point is approximate. */
  pickupPrecision: pointPrecisionSchema.nullable(),
  destinationPrecision: pointPrecisionSchema.nullable(),
  runnerPosition: coordinatesSchema.extend({ at: isoTime }).nullable(),
  /** The runner's shown average while in transit (issue 15); null when not on its way or never rated. */
  runnerRating: ratingSummarySchema.nullable(),
  events: z.array(parcelEventSchema),
  /** The status, with failed attempts and a return told apart (issue 28). */
  state: z.enum(PARCEL_STATES),
  attempts: z.number().int().nonnegative(),
  redelivery: redeliveryWindowSchema.nullable(),
  /** The partner place it goes to or waits at instead of the door (issue 28); a public place, not the receiver's address. */
  dropPoint: parcelDropPointSchema.nullable(),
});
export type TrackingView = z.infer<typeof trackingViewSchema>;
