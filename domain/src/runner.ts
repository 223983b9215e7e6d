import { z } from 'zod';
import {
  accountResponseSchema,
  accountSchema,
  newAccountSchema,
  profileUpdateSchema,
  userNameField,
} from './account.ts';
import { messages } from './messages.ts';
import { listQuerySchema, pageOf, parcelIdSchema } from './parcel.ts';
import { ratingSummarySchema } from './ratings.ts';
import { searchField } from './text.ts';
import { runnerTrustSchema } from './trust.ts';

/**
 * The back office's runners (DESIGN §4): GET·POST /api/runners, GET·PATCH·DELETE /api/runners/:userName.
 * An account leaves the server only in accountSchema's shape — never a password in any form.
 */

/**
 * GET /api/runners. `q` searches name and user name (case- and accent-insensitive); `near`
 * (a parcel id) orders by distance from that parcel's pickup point instead of by name.
 */
export const runnerListQuerySchema = listQuerySchema.extend({
  // Longer than a parcel cursor: it carries a name (up to 100 characters).
  cursor: z.string().max(600, { error: messages.invalidCursor }).optional(),
  q: searchField.optional(),
  near: parcelIdSchema.optional(),
});
export type RunnerListQuery = z.infer<typeof runnerListQuerySchema>;

/**
 * With `near`: metres from the pickup point, null when the runner has never shared a position.
 * `rating`: the shown average of senders' and receivers' ratings (issue 15), null while unrated.
 */
export const runnerListItemSchema = accountSchema.extend({
  distanceMetres: z.number().int().nullable().optional(),
  rating: ratingSummarySchema.nullable(),
  /** How many parcels the runner carries now (in transit in their hands). */
  parcelsInTransit: z.number().int(),
});
export type RunnerListItem = z.infer<typeof runnerListItemSchema>;

export const runnerListSchema = pageOf(runnerListItemSchema);
export type RunnerList = z.infer<typeof runnerListSchema>;

/** POST /api/runners: the same fields and rules as self-registration; the role is always runner. */
export const runnerCreateBodySchema = newAccountSchema;
export type RunnerCreateBody = z.infer<typeof runnerCreateBodySchema>;

/**
 * PATCH /api/runners/:userName: name, password (empty keeps the old one), phone, address. The edit
 * form sends the read-only email and user name back; equal values are accepted, others refused.
 */
export const runnerUpdateSchema = profileUpdateSchema.extend({ userName: userNameField.optional() });
export type RunnerUpdate = z.infer<typeof runnerUpdateSchema>;

export const runnerParamsSchema = z.object({ userName: userNameField });

/** GET /api/runners/:userName (and the trust actions' answer): the account and the back office's trust in it (issue 15). */
export const runnerDetailSchema = accountResponseSchema.extend({ trust: runnerTrustSchema });
