import { z } from 'zod';
import { LIST_DEFAULT_LIMIT, LIST_MAX_LIMIT } from './constants.ts';

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

export const coordinatesSchema = z.object({
  lat: z.number().min(-90).max(90),
  lng: z.number().min(-180).max(180),
});
export type Coordinates = z.infer<typeof coordinatesSchema>;

export const listQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(LIST_MAX_LIMIT).default(LIST_DEFAULT_LIMIT),
  cursor: z.string().max(200).optional(),
});
