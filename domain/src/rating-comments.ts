import { z } from 'zod';
import { messages } from './messages.ts';
import { listQuerySchema } from './parcel.ts';
import { RUNNER_RATER_ROLES } from './ratings.ts';

/**
 * The comments of runners' ratings, read and moderated (docs/decisions/0025):
 * GET /api/runners/:userName/rating-comments — the back office reads every comment with its parcel,
 * rater and moderation; the runner reads the visible ones about them, without who wrote them.
 * POST /api/ratings/:id/comment/hide·show — the back office hides one with a reason, or shows it again.
 * Beside ratings.ts, not in it: these schemas build on parcel.ts's list query, and parcel.ts reads ratings.ts.
 * A comment is plain text: stored and shown as typed, never as HTML.
 */

export const HIDE_REASON_MAX = 500;

const isoTime = z.iso.datetime();
const cursorField = z.string().nullable();

export const ratingCommentsQuerySchema = listQuerySchema;
export type RatingCommentsQuery = z.infer<typeof ratingCommentsQuerySchema>;

/** A rating's id in a moderation's path; anything else names no comment. */
export const ratingCommentParamsSchema = z.object({
  id: z.coerce
    .number({ error: messages.ratingCommentNotFound })
    .int({ error: messages.ratingCommentNotFound })
    .positive({ error: messages.ratingCommentNotFound }),
});

export const hideCommentBodySchema = z.object({
  reason: z
    .string({ error: messages.ratingHideReasonRequired })
    .trim()
    .min(1, { error: messages.ratingHideReasonRequired })
    .max(HIDE_REASON_MAX, { error: messages.ratingHideReasonTooLong(HIDE_REASON_MAX) }),
});
export type HideCommentBody = z.infer<typeof hideCommentBodySchema>;

/** One hide or showing again of a comment, as recorded. */
export const commentModerationSchema = z.object({
  action: z.enum(['hide', 'show']),
  /** Who did it (user name); null when that account is gone since. */
  by: z.string().nullable(),
  at: isoTime,
  /** Why it was hidden; null for a showing again. */
  reason: z.string().nullable(),
});
export type CommentModeration = z.infer<typeof commentModerationSchema>;

/** A comment as the back office reads it: whose, on which parcel, and whether (and why) it is hidden. */
export const backOfficeCommentSchema = z.object({
  /** The rating's id: what the moderation routes name. */
  id: z.number().int(),
  parcelId: z.string(),
  /** The rater's user name; null when that account is gone since. */
  rater: z.string().nullable(),
  raterRole: z.enum(RUNNER_RATER_ROLES),
  stars: z.number().int(),
  comment: z.string(),
  createdAt: isoTime,
  updatedAt: isoTime,
  /** The hide in force; null while the runner sees the comment. */
  hidden: z.object({ at: isoTime, by: z.string().nullable(), reason: z.string() }).nullable(),
  /** Every hide and showing again, oldest first. */
  moderation: z.array(commentModerationSchema),
});
export type BackOfficeComment = z.infer<typeof backOfficeCommentSchema>;

/**
 * A comment as the rated runner reads it: no rater and no parcel (the parcel would name its sender),
 * and only while it is not hidden.
 */
export const rateeCommentSchema = z.object({
  id: z.number().int(),
  stars: z.number().int(),
  comment: z.string(),
  createdAt: isoTime,
});

export const backOfficeCommentListSchema = z.object({
  view: z.literal('backOffice'),
  items: z.array(backOfficeCommentSchema),
  nextCursor: cursorField,
});
export type BackOfficeCommentList = z.infer<typeof backOfficeCommentListSchema>;

export const rateeCommentListSchema = z.object({
  view: z.literal('ratee'),
  items: z.array(rateeCommentSchema),
  nextCursor: cursorField,
});
export type RateeCommentList = z.infer<typeof rateeCommentListSchema>;

/** GET /api/runners/:userName/rating-comments: newest first, each reader's view named by `view`. */
export const ratingCommentListSchema = z.discriminatedUnion('view', [
  backOfficeCommentListSchema,
  rateeCommentListSchema,
]);
export type RatingCommentList = z.infer<typeof ratingCommentListSchema>;

/** A hide or a showing again answers with the comment as it now stands. */
export const moderatedCommentSchema = z.object({ comment: backOfficeCommentSchema });
