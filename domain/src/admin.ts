import { z } from 'zod';
import { accountSchema, addressField, userNameField } from './account.ts';
import { checkBounds, queryNumber, viewBoundsShape } from './geo.ts';
import { messages } from './messages.ts';
import {
  categoryField,
  coordinatesSchema,
  listQuerySchema,
  PARCEL_STATUSES,
  pageOf,
  parcelSchema,
  parcelStateSchema,
  parcelStatusSchema,
  reasonField,
} from './parcel.ts';
import { ROLES } from './roles.ts';
import { searchField } from './text.ts';
import { weightGramsField } from './weight.ts';

/** The back office's parcel routes (DESIGN §4) and the admin map. */

/**
 * GET /api/parcels: every parcel, newest first; `runner` and `sender` are user names.
 * `multiLeg=true` keeps the parcels handed from runner to runner (issue 14); `false` is no filter.
 */
export const adminParcelListQuerySchema = listQuerySchema.extend({
  status: parcelStateSchema.optional(),
  runner: userNameField.optional(),
  sender: userNameField.optional(),
  multiLeg: z
    .enum(['true', 'false'], { error: messages.multiLegFilterInvalid })
    .transform((value) => value === 'true')
    .optional(),
});
export type AdminParcelListQuery = z.infer<typeof adminParcelListQuerySchema>;

/** A parcel in the back office's list: also whether it travelled in more than one runner's hands. */
export const adminParcelSchema = parcelSchema.extend({ multiLeg: z.boolean() });
export type AdminParcel = z.infer<typeof adminParcelSchema>;
export const adminParcelListSchema = pageOf(adminParcelSchema);
export type AdminParcelList = z.infer<typeof adminParcelListSchema>;

/**
 * PATCH /api/parcels/:id. Every field optional; an address without coordinates is geocoded again.
 * Status is one of the three (DESIGN §9), changed only as `backOfficeStatusChange` allows: a
 * correction (back to waiting, or out of delivered) carries a `reason`.
 */
export const parcelAdminUpdateSchema = z.object({
  category: categoryField.optional(),
  weightGrams: weightGramsField.optional(),
  status: parcelStatusSchema.optional(),
  senderAddress: addressField.optional(),
  receiverAddress: addressField.optional(),
  senderCoordinates: coordinatesSchema.optional(),
  receiverCoordinates: coordinatesSchema.optional(),
  reason: reasonField.optional(),
  /** The version the form showed: a parcel changed since then is not overwritten (409). */
  version: z.number().int().positive().optional(),
});
export type ParcelAdminUpdate = z.infer<typeof parcelAdminUpdateSchema>;

/** GET /api/users (superadmin): accounts by name, e.g. the sender picker of the parcel form (role=user). */
export const accountListQuerySchema = listQuerySchema.extend({
  // Longer than a parcel cursor: it carries a name (up to 100 characters).
  cursor: z.string().max(600, { error: messages.invalidCursor }).optional(),
  q: searchField.optional(),
  role: z.enum(ROLES, { error: messages.invalidRole }).optional(),
});
export type AccountListQuery = z.infer<typeof accountListQuerySchema>;
export const accountListSchema = pageOf(accountSchema);
export type AccountList = z.infer<typeof accountListSchema>;

/** DELETE /api/parcels/:id: a parcel a runner carries is deleted only with a reason. */
export const parcelDeleteBodySchema = z.object({ reason: reasonField.optional() }).nullish();

/** POST /api/parcels/:id/assign. */
export const parcelAssignBodySchema = z.object({ runner: userNameField });

/** Up to this many parcels in view come as markers; more come as clusters. */
export const MAP_MARKER_LIMIT = 500;
export const MAP_MAX_ZOOM = 22;

const zoomError = messages.invalidZoom(MAP_MAX_ZOOM);

/** GET /api/map/parcels: the map's view (a box that does not cross the antimeridian) and zoom. */
export const mapQuerySchema = z
  .object({
    ...viewBoundsShape,
    zoom: queryNumber(zoomError).pipe(
      z.number().int({ error: zoomError }).min(0, { error: zoomError }).max(MAP_MAX_ZOOM, { error: zoomError }),
    ),
    status: parcelStatusSchema.optional(),
  })
  .superRefine(checkBounds);
export type MapQuery = z.infer<typeof mapQuerySchema>;

export const mapMarkerSchema = z.object({
  id: z.string(),
  status: z.enum(PARCEL_STATUSES),
  pickup: coordinatesSchema,
  destination: coordinatesSchema,
  receiverAddress: z.string(),
  senderUser: z.string(),
  runner: z.string().nullable(),
});
export type MapMarker = z.infer<typeof mapMarkerSchema>;

/** A grid cell's parcels, drawn at their average pickup point. */
export const mapClusterSchema = z.object({ lat: z.number(), lng: z.number(), count: z.number().int() });
export type MapCluster = z.infer<typeof mapClusterSchema>;

/** `total` counts the parcels in view either way. */
export const mapResponseSchema = z.discriminatedUnion('mode', [
  z.object({ mode: z.literal('markers'), total: z.number().int(), markers: z.array(mapMarkerSchema) }),
  z.object({
    mode: z.literal('clusters'),
    total: z.number().int(),
    /** The grid cell's size in degrees (latitude, longitude). */
    cell: z.object({ lat: z.number(), lng: z.number() }),
    clusters: z.array(mapClusterSchema),
  }),
]);
export type MapResponse = z.infer<typeof mapResponseSchema>;
