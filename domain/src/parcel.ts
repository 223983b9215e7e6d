import { z } from 'zod';
import { addressField, requiredText, userNameField } from './account.ts';
import { LIST_DEFAULT_LIMIT, LIST_MAX_LIMIT, MAX_WEIGHT_GRAMS } from './constants.ts';
import { messages } from './messages.ts';

export const PARCEL_STATUSES = ['waiting', 'in_transit', 'delivered'] as const;
export type ParcelStatus = (typeof PARCEL_STATUSES)[number];

/** SPEC §4's Hungarian status labels. */
export const parcelStatusLabels: Record<ParcelStatus, string> = {
  waiting: 'várakozik',
  in_transit: 'szállítás alatt',
  delivered: 'leadott',
};

export const PARCEL_EVENT_KINDS = [
  'created',
  'picked_up',
  'assigned',
  'delivered',
  'handed_over_qr',
  'edited',
  'status_changed',
  'deleted',
] as const;
export type ParcelEventKind = (typeof PARCEL_EVENT_KINDS)[number];

export const parcelEventLabels: Record<ParcelEventKind, string> = {
  created: 'Feladva',
  picked_up: 'Futár felvette',
  assigned: 'Futárhoz rendelve',
  delivered: 'Leadva',
  handed_over_qr: 'Átadva QR kóddal',
  edited: 'Adatok módosítva',
  status_changed: 'Státusz módosítva',
  deleted: 'Törölve',
};

/** Public tracking ids: 10 characters of Crockford base32 (no I, L, O, U). */
export const PARCEL_ID_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
export const PARCEL_ID_LENGTH = 10;
export const parcelIdSchema = z
  .string()
  .trim()
  .toUpperCase()
  .regex(/^[0-9A-HJKMNP-TV-Z]{10}$/, { error: 'Érvénytelen csomagazonosító.' });

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

/** Whole grams; the original's free text `123g` is gone (DESIGN §9). */
export const weightGramsField = z
  .number({ error: messages.weightInvalid })
  .int({ error: messages.weightInvalid })
  .positive({ error: messages.weightInvalid })
  .max(MAX_WEIGHT_GRAMS, { error: messages.weightTooHeavy(MAX_WEIGHT_GRAMS) });
export const categoryField = requiredText(60);

/** POST /api/parcels. Given coordinates (a pin the sender dragged) skip geocoding. */
export const parcelCreateBodySchema = z.object({
  senderAddress: addressField,
  receiverAddress: addressField,
  category: categoryField,
  weightGrams: weightGramsField,
  senderCoordinates: coordinatesSchema.optional(),
  receiverCoordinates: coordinatesSchema.optional(),
  /** Only the superadmin names the sender; a user always sends as themself. */
  senderUser: userNameField.optional(),
});
export type ParcelCreateBody = z.infer<typeof parcelCreateBodySchema>;

const isoTime = z.iso.datetime();

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
  createdAt: isoTime,
  pickedUpAt: isoTime.nullable(),
  deliveredAt: isoTime.nullable(),
});
export type Parcel = z.infer<typeof parcelSchema>;

/** One step of a parcel's timeline as anyone may see it. */
export const parcelEventSchema = z.object({ at: isoTime, kind: z.enum(PARCEL_EVENT_KINDS) });
export type ParcelEvent = z.infer<typeof parcelEventSchema>;

/** The timeline for the sender, the runner and the superadmin: who did it, too. */
export const parcelTimelineEventSchema = parcelEventSchema.extend({ actor: z.string().nullable() });
export type ParcelTimelineEvent = z.infer<typeof parcelTimelineEventSchema>;

export const parcelDetailSchema = parcelSchema.extend({ events: z.array(parcelTimelineEventSchema) });
export type ParcelDetail = z.infer<typeof parcelDetailSchema>;

/** Every list answers `{items, nextCursor}`; nextCursor is null on the last page. */
export const pageOf = <Item extends z.ZodType>(item: Item) =>
  z.object({ items: z.array(item), nextCursor: z.string().nullable() });

export const parcelListSchema = pageOf(parcelSchema);
export type ParcelList = z.infer<typeof parcelListSchema>;

export const parcelListQuerySchema = listQuerySchema.extend({ status: parcelStatusSchema.optional() });
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
  runnerPosition: coordinatesSchema.extend({ at: isoTime }).nullable(),
  events: z.array(parcelEventSchema),
});
export type TrackingView = z.infer<typeof trackingViewSchema>;
