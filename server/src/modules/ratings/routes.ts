import { parcelIdSchema } from '@csomag/domain/parcel';
import {
  deliveredParcelListSchema,
  parcelRatingsSchema,
  ratingBodySchema,
  ratingResponseSchema,
} from '@csomag/domain/ratings';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses } from '../../errors.ts';
import { allowedBy, GUARD_CODES, signedIn } from '../../plugins/auth.ts';
import { listDeliveredParcels, parcelRatings, RATING_CODES, rateParcel } from './service.ts';

const params = z.object({ id: parcelIdSchema });
const anyoneSignedIn = allowedBy(() => true);

/**
 * Ratings (issue 15): not parcel state changes, so no timeline event and no change-feed entry;
 * the averages they feed are read fresh (the tracking view's cache: see getTrackingView).
 */
export const ratingRoutes: FastifyPluginAsyncZod = async (app) => {
  app.put(
    '/parcels/:id/rating',
    {
      onRequest: anyoneSignedIn,
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
      onRequest: anyoneSignedIn,
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
      onRequest: allowedBy((actor) => actor.role === 'runner'),
      schema: {
        tags: ['ratings'],
        summary: "The runner's deliveries of the last 14 days (at most 20), with their rating of each sender",
        response: { 200: deliveredParcelListSchema, ...errorResponses(...GUARD_CODES) },
      },
    },
    async (request) => ({ items: await listDeliveredParcels(app.store.db, signedIn(request)) }),
  );
};
