import { z } from 'zod';
import { requiredText, userNameField } from './account.ts';
import { LOCATION_BATCH_MAX_POINTS, MAX_POSITION_ACCURACY_M } from './constants.ts';
import { checkBounds, viewBoundsShape } from './geo.ts';
import { messages } from './messages.ts';
import {
  type Coordinates,
  coordinatesSchema,
  listQuerySchema,
  occurredAtField,
  PARCEL_STATUSES,
  pageOf,
  parcelSchema,
} from './parcel.ts';
import { signatureSchema } from './proof.ts';

/**
 * Runner-facing calls: the waiting pool, pickup, delivery by position or by the receiver's QR
 * confirmation, and the runner's live position.
 */

/** How far off the browser says its position may be, in metres. */
export const accuracyField = z
  .number({ error: messages.invalidAccuracy(MAX_POSITION_ACCURACY_M) })
  .min(0, { error: messages.invalidAccuracy(MAX_POSITION_ACCURACY_M) })
  .max(MAX_POSITION_ACCURACY_M, { error: messages.invalidAccuracy(MAX_POSITION_ACCURACY_M) });

/** A browser geolocation reading: PUT /api/runners/me/location, POST /api/parcels/:id/deliver. */
export const positionSchema = coordinatesSchema.extend({ accuracy: accuracyField });
export type Position = z.infer<typeof positionSchema>;

/**
 * PUT /api/runners/me/location: one position as the browser reads it (`occurredAt` optional: now),
 * or `points`, the positions recorded while offline, sent as one batch (each with its time). Only
 * the newest becomes the runner's position; the others are history nobody is shown.
 */
export const locationPointSchema = positionSchema.extend({
  occurredAt: occurredAtField.optional(),
});
export type LocationPoint = z.infer<typeof locationPointSchema>;

export const locationBodySchema = z
  .object({
    lat: coordinatesSchema.shape.lat.optional(),
    lng: coordinatesSchema.shape.lng.optional(),
    accuracy: accuracyField.optional(),
    occurredAt: occurredAtField.optional(),
    points: z
      .array(
        z
          .object(locationPointSchema.shape, { error: messages.locationBatchInvalid })
          .refine((point) => point.occurredAt !== undefined, {
            error: messages.locationPointTimeRequired,
            path: ['occurredAt'],
          }),
        { error: messages.locationBatchInvalid },
      )
      .min(1, { error: messages.locationBatchEmpty })
      .max(LOCATION_BATCH_MAX_POINTS, { error: messages.locationBatchTooLarge(LOCATION_BATCH_MAX_POINTS) })
      .optional(),
  })
  .superRefine((body, context) => {
    const single = { lat: body.lat, lng: body.lng, accuracy: body.accuracy };
    if (body.points !== undefined) {
      if (Object.values(single).some((value) => value !== undefined) || body.occurredAt !== undefined) {
        context.addIssue({ code: 'custom', path: ['points'], message: messages.locationBatchOrSingle });
      }
      return;
    }
    // One position: what is missing is refused as positionSchema words it.
    const parsed = positionSchema.safeParse(single);
    for (const issue of parsed.error?.issues ?? []) {
      context.addIssue({ code: 'custom', path: issue.path, message: issue.message });
    }
  })
  .transform((body): LocationPoint[] => {
    if (body.points) return body.points;
    const { lat = 0, lng = 0, accuracy = 0, occurredAt } = body;
    return [{ lat, lng, accuracy, ...(occurredAt ? { occurredAt } : {}) }];
  });

/** POST /api/parcels/:id/pickup: no body, or when the runner says they picked it up. */
export const pickUpBodySchema = z.object({ occurredAt: occurredAtField.optional() }).nullish();

/**
 * POST /api/parcels/:id/deliver. A runner must send all three (checked on the server, where the
 * role is known); the superadmin sends nothing (Fastify reads that as null), or `{}`.
 * `occurredAt`: when the runner says they delivered it (sent later from the offline outbox).
 */
export const deliverBodySchema = positionSchema.partial().extend({ occurredAt: occurredAtField.optional() }).nullish();
export type DeliverBody = z.infer<typeof deliverBodySchema>;

/**
 * The signed handover token: its expiry (ms since the epoch, base 36), a dot, and an
 * HMAC-SHA256 in base64url. Opaque to clients; only the server can check it.
 */
export const handoverTokenField = z
  .string({ error: messages.handoverInvalid })
  .regex(/^[0-9a-z]{1,11}\.[A-Za-z0-9_-]{43}$/, { error: messages.handoverInvalid });

/** POST /api/parcels/:id/handover-token → the link the runner's QR code carries. */
export const handoverLinkSchema = z.object({ url: z.string(), expiresAt: z.iso.datetime() });
export type HandoverLink = z.infer<typeof handoverLinkSchema>;

/** GET /api/handover/:id?token= */
export const handoverQuerySchema = z.object({ token: handoverTokenField });

/** POST /api/parcels/:id/handover — futar and felado as the QR link carries them. */
export const handoverBodySchema = z.object({
  token: handoverTokenField,
  futar: userNameField,
  felado: userNameField,
  /** When the receiver confirmed (sent later from the offline outbox). */
  occurredAt: occurredAtField.optional(),
  /** The receiver's signature on the pad (issue 15), stored with the handover. */
  signature: signatureSchema.optional(),
  /**
   * The name the person confirming typed (issue 27): recorded with the handover, read by the back
   * office beside the signed-in account, if any, that confirmed it.
   */
  name: requiredText(100).optional(),
});
export type HandoverBody = z.infer<typeof handoverBodySchema>;

/** What the receiver's page shows: no addresses or contacts, only what the QR link already implies. */
export const handoverSummarySchema = z.object({
  id: z.string(),
  category: z.string(),
  weightGrams: z.number().int(),
  senderUser: z.string(),
  runner: z.string(),
  status: z.enum(PARCEL_STATUSES),
});
export type HandoverSummary = z.infer<typeof handoverSummarySchema>;

/** `near=<lat>,<lng>` in a query string: where the runner stands. */
const nearField = z.string({ error: messages.invalidNear }).transform((value, context): Coordinates => {
  const parsed = coordinatesSchema.safeParse(
    /^\s*-?\d+(\.\d+)?\s*,\s*-?\d+(\.\d+)?\s*$/.test(value)
      ? { lat: Number(value.split(',')[0]), lng: Number(value.split(',')[1]) }
      : null,
  );
  if (parsed.success) return parsed.data;
  context.addIssue({ code: 'custom', message: messages.invalidNear });
  return z.NEVER;
});

/**
 * GET /api/parcels/waiting. With a view box (all four sides, or none) only parcels picked up
 * inside it: a runner's map asks for what is around them, not for the whole country. With `near`,
 * the nearest pickup first (each item then says how far it is); with `settlement`, only pickups
 * whose address names that settlement (case and accents do not matter).
 */
export const waitingQuerySchema = listQuerySchema
  .extend({
    near: nearField.optional(),
    settlement: z.string().trim().max(100, { error: messages.searchTooLong }).optional(),
    south: viewBoundsShape.south.optional(),
    west: viewBoundsShape.west.optional(),
    north: viewBoundsShape.north.optional(),
    east: viewBoundsShape.east.optional(),
  })
  .superRefine((query, context) => {
    const { south, west, north, east } = query;
    const given = [south, west, north, east].filter((side) => side !== undefined).length;
    if (given === 0) return;
    if (given < 4 || south === undefined || west === undefined || north === undefined || east === undefined) {
      context.addIssue({ code: 'custom', path: ['south'], message: messages.incompleteBounds });
      return;
    }
    checkBounds({ south, west, north, east }, context);
  });
export type WaitingQuery = z.infer<typeof waitingQuerySchema>;

/** A waiting parcel; `distanceMetres` (great-circle, from `near`) only when the list was asked with `near`. */
export const waitingParcelSchema = parcelSchema.extend({ distanceMetres: z.number().int().optional() });
export const waitingParcelListSchema = pageOf(waitingParcelSchema);
export type WaitingParcelList = z.infer<typeof waitingParcelListSchema>;
