import { parcelIdSchema } from '@csomag/domain/parcel';
import {
  hideCommentBodySchema,
  moderatedCommentSchema,
  ratingCommentListSchema,
  ratingCommentParamsSchema,
  ratingCommentsQuerySchema,
} from '@csomag/domain/rating-comments';
import {
  deliveredParcelListSchema,
  parcelRatingsSchema,
  ratingBodySchema,
  ratingResponseSchema,
} from '@csomag/domain/ratings';
import { runnerParamsSchema } from '@csomag/domain/runner';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses } from '../../errors.ts';
import { GUARD_CODES, signedIn } from '../../plugins/auth.ts';
import { ratingGuard } from './policy.ts';
import {
  COMMENT_CODES,
  listDeliveredParcels,
  listRatingComments,
  moderateComment,
  parcelRatings,
  RATING_CODES,
  rateParcel,
} from './service.ts';

const params = z.object({ id: parcelIdSchema });

/**
 * Ratings (issue 15): not parcel state changes, so no timeline event and no change-feed entry;
 * the averages they feed are read fresh (the tracking view's cache: see getTrackingView).
 * Their comments are read by the back office and the rated runner, and moderated by the back
 * office (ADR 0025). Every guard asks policy.ts.
 */
export const ratingRoutes: FastifyPluginAsyncZod = async (app) => {
  app.put(
    '/parcels/:id/rating',
    {
      onRequest: ratingGuard('rate'),
      schema: {
        tags: ['ratings'],
        summary:
          'Rate a delivered parcel: its sender or receiver rate the runner, its runner the sender; once per role, editable for 24 h',
        params,
        body: ratingBodySchema,
        response: {
          200: ratingResponseSchema,
          ...errorResponses(...GUARD_CODES, 'parcel_not_found', RATING_CODES.notDelivered, RATING_CODES.closed),
        },
      },
    },
    async (request) => {
      const actor = signedIn(request);
      const rating = await rateParcel(app.store.db, actor, request.params.id, request.body);
      request.log.info({ parcelId: request.params.id, by: actor.user_name, role: rating.raterRole }, 'parcel rated');
      return { rating };
    },
  );

  app.get(
    '/parcels/:id/ratings',
    {
      onRequest: ratingGuard('rate'),
      schema: {
        tags: ['ratings'],
        summary: "The caller's own rating of a parcel, their role and whether they may rate now (the superadmin: all)",
        params,
        response: { 200: parcelRatingsSchema, ...errorResponses(...GUARD_CODES, 'parcel_not_found') },
      },
    },
    async (request) => parcelRatings(app.store.db, signedIn(request), request.params.id),
  );

  app.get(
    '/me/delivered-parcels',
    {
      onRequest: ratingGuard('listDeliveredToRate'),
      schema: {
        tags: ['ratings'],
        summary: "The runner's deliveries of the last 14 days (at most 20), with their rating of each sender",
        response: { 200: deliveredParcelListSchema, ...errorResponses(...GUARD_CODES) },
      },
    },
    async (request) => ({ items: await listDeliveredParcels(app.store.db, signedIn(request)) }),
  );

  app.get(
    '/runners/:userName/rating-comments',
    {
      onRequest: ratingGuard('readComments'),
      schema: {
        tags: ['ratings'],
        summary:
          "The comments of a runner's ratings, newest first: the back office reads all with parcel, rater and moderation; the runner the visible ones about them, without the rater",
        params: runnerParamsSchema,
        querystring: ratingCommentsQuerySchema,
        response: {
          200: ratingCommentListSchema,
          ...errorResponses(...GUARD_CODES, 'runner_not_found', 'invalid_cursor'),
        },
      },
    },
    async (request) => listRatingComments(app.store.db, signedIn(request), request.params.userName, request.query),
  );

  app.post(
    '/ratings/:id/comment/hide',
    {
      onRequest: ratingGuard('moderateComments'),
      schema: {
        tags: ['ratings'],
        summary:
          "Hide a rating's comment from the runner, with a reason (superadmin; recorded with who and when; the stars still count)",
        params: ratingCommentParamsSchema,
        body: hideCommentBodySchema,
        response: {
          200: moderatedCommentSchema,
          ...errorResponses(...GUARD_CODES, COMMENT_CODES.notFound, COMMENT_CODES.hidden),
        },
      },
    },
    async (request) => {
      const admin = signedIn(request);
      const comment = await moderateComment(app.store.db, admin, request.params.id, {
        action: 'hide',
        reason: request.body.reason,
      });
      // Never the comment or the reason in the log: which rating, and who.
      request.log.info({ ratingId: comment.id, by: admin.user_name }, 'rating comment hidden');
      return { comment };
    },
  );

  app.post(
    '/ratings/:id/comment/show',
    {
      onRequest: ratingGuard('moderateComments'),
      schema: {
        tags: ['ratings'],
        summary: 'Show a hidden comment to the runner again (superadmin; recorded with who and when)',
        params: ratingCommentParamsSchema,
        response: {
          200: moderatedCommentSchema,
          ...errorResponses(...GUARD_CODES, COMMENT_CODES.notFound, COMMENT_CODES.shown),
        },
      },
    },
    async (request) => {
      const admin = signedIn(request);
      const comment = await moderateComment(app.store.db, admin, request.params.id, { action: 'show' });
      request.log.info({ ratingId: comment.id, by: admin.user_name }, 'rating comment shown again');
      return { comment };
    },
  );
};
