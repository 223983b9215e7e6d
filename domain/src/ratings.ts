import { z } from 'zod';
import { messages } from './messages.ts';

/**
 * Ratings (issue 15): after delivery the sender and the receiver each rate the parcel's runner,
 * and the runner rates the sender — once per parcel and role, editable for a while.
 * PUT·GET /api/parcels/:id/rating(s), GET /api/me/delivered-parcels.
 */

export const RATER_ROLES = ['sender', 'receiver', 'runner'] as const;
export type RaterRole = (typeof RATER_ROLES)[number];

/** Those who rate the runner; the runner's own ratings are of senders. */
export const RUNNER_RATER_ROLES = ['sender', 'receiver'] as const satisfies readonly RaterRole[];

export const STARS_MIN = 1;
export const STARS_MAX = 5;
export const RATING_COMMENT_MAX = 500;
/** A rating may be changed this long after it was first given; then it stands. */
export const RATING_EDIT_WINDOW_HOURS = 24;
/** How many ratings' worth of weight the overall mean gets in a shown average. */
export const RATING_PRIOR_WEIGHT = 5;
/** The mean a shown average is pulled towards while nobody of that kind has been rated yet. */
export const RATING_DEFAULT_MEAN = 4;

const starsError = { error: messages.ratingStarsInvalid(STARS_MIN, STARS_MAX) };

/** PUT /api/parcels/:id/rating. The comment is plain text: stored and shown as typed, never as HTML. */
export const ratingBodySchema = z.object({
  stars: z.number(starsError).int(starsError).min(STARS_MIN, starsError).max(STARS_MAX, starsError),
  comment: z
    .string({ error: messages.ratingCommentInvalid })
    .trim()
    .max(RATING_COMMENT_MAX, { error: messages.ratingCommentTooLong(RATING_COMMENT_MAX) })
    .nullish()
    // An empty comment is no comment.
    .transform((comment) => (comment ? comment : null)),
});
export type RatingBody = z.input<typeof ratingBodySchema>;

const isoTime = z.iso.datetime();

/** One rating as its rater (or the superadmin) sees it. */
export const ratingSchema = z.object({
  raterRole: z.enum(RATER_ROLES),
  /** Whom it rates (user name); null when that account is gone. */
  ratee: z.string().nullable(),
  stars: z.number().int(),
  comment: z.string().nullable(),
  createdAt: isoTime,
  updatedAt: isoTime,
  /** Until when its rater may still change it. */
  editableUntil: isoTime,
});
export type Rating = z.infer<typeof ratingSchema>;

/**
 * GET /api/parcels/:id/ratings: the caller's part — their role on the parcel (null for the
 * superadmin), whom they rate, whether they may rate now, and their own rating (the superadmin: all).
 */
export const parcelRatingsSchema = z.object({
  role: z.enum(RATER_ROLES).nullable(),
  ratee: z.string().nullable(),
  canRate: z.boolean(),
  ratings: z.array(ratingSchema),
});
export type ParcelRatings = z.infer<typeof parcelRatingsSchema>;

/** PUT answers with the rating as stored. */
export const ratingResponseSchema = z.object({ rating: ratingSchema });

/** What is shown of someone's ratings: the shrunk average (one decimal) and how many there are. */
export const ratingSummarySchema = z.object({ average: z.number(), count: z.number().int() });
export type RatingSummary = z.infer<typeof ratingSummarySchema>;

/**
 * A Bayesian average: `count` ratings summing to `sum`, with `priorWeight` imaginary ratings at the
 * overall mean added, so a few ratings move the average only a little (one 1-star review does not
 * make a 1-star runner) while many outweigh the prior.
 */
export function shrunkAverage(
  sum: number,
  count: number,
  priorMean: number = RATING_DEFAULT_MEAN,
  priorWeight: number = RATING_PRIOR_WEIGHT,
): number {
  return (priorWeight * priorMean + sum) / (priorWeight + count);
}

/** The shown summary; null while nobody rated them. `overallMean` null: nobody of that kind rated yet. */
export function ratingSummary(sum: number, count: number, overallMean: number | null): RatingSummary | null {
  if (count <= 0) return null;
  const average = shrunkAverage(sum, count, overallMean ?? RATING_DEFAULT_MEAN);
  return { average: Math.round(average * 10) / 10, count };
}

/** When a rating first given at `createdAt` stops being editable. */
export const ratingEditableUntil = (createdAt: string): string =>
  new Date(new Date(createdAt).getTime() + RATING_EDIT_WINDOW_HOURS * 3_600_000).toISOString();

/** GET /api/me/delivered-parcels: a runner's recent deliveries, to rate their senders. */
export const deliveredParcelSchema = z.object({
  id: z.string(),
  category: z.string(),
  senderUser: z.string(),
  deliveredAt: isoTime,
  /** The runner's rating of the sender; null while not given. */
  myStars: z.number().int().nullable(),
});
export const deliveredParcelListSchema = z.object({ items: z.array(deliveredParcelSchema) });
export type DeliveredParcel = z.infer<typeof deliveredParcelSchema>;

/** How far back a runner's deliveries are listed for rating. */
export const DELIVERED_LIST_DAYS = 14;
export const DELIVERED_LIST_MAX = 20;
