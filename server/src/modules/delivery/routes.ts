import {
  deliverBodySchema,
  pickUpBodySchema,
  waitingParcelListSchema,
  waitingQuerySchema,
} from '@csomag/domain/delivery';
import { carriedParcelListSchema, listQuerySchema, parcelIdSchema, parcelSchema } from '@csomag/domain/parcel';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses } from '../../errors.ts';
import { GUARD_CODES, signedIn } from '../../plugins/auth.ts';
import { answerWith } from '../../plugins/idempotency.ts';
import { CARRIER_TRUST_CODES } from '../../policy.ts';
import { EMAIL_VERIFICATION_CODES, verifiedEmailGuard } from '../auth/email-verification.ts';
import { CARRIER_REFUSALS } from '../parcels/changes.ts';
import { parcelGuard } from '../parcels/policy.ts';
import { presentParcel } from '../parcels/present.ts';
import { ReadCache, replyFromMemory, WAITING_CACHE_SIZE, WAITING_TAG, waitingTagsOf } from '../parcels/read-cache.ts';
import {
  type DeliveryContext,
  deliverParcelAt,
  listAssignedParcels,
  listWaitingParcels,
  pickUpParcel,
} from './service.ts';

const params = z.object({ id: parcelIdSchema });

/** The runner's side of a parcel: the waiting pool, what they carry, pickup and delivery. */
export const deliveryRoutes: FastifyPluginAsyncZod = async (app) => {
  const context = (request: FastifyRequest): DeliveryContext => ({
    db: app.store.db,
    changes: app.changeFeed.forRequest(request.id),
  });
  const waitingPool = new ReadCache<string>(app.changeFeed, waitingTagsOf, WAITING_CACHE_SIZE);

  app.get(
    '/parcels/waiting',
    {
      onRequest: parcelGuard('listWaiting'),
      schema: {
        tags: ['delivery'],
        summary:
          'Parcels waiting for a runner, the longest waiting first or (near=lat,lng) the nearest with its distance; optionally only those in a map view or a settlement',
        querystring: waitingQuerySchema,
        response: {
          200: waitingParcelListSchema,
          ...errorResponses(...GUARD_CODES, ...CARRIER_TRUST_CODES, 'invalid_cursor'),
        },
      },
    },
    // The same for every runner asking the same question: one read serves them all until the pool changes.
    async (request, reply) =>
      replyFromMemory(waitingPool, reply, JSON.stringify(request.query), [WAITING_TAG], () =>
        listWaitingParcels(app.store.db, request.query),
      ),
  );

  app.get(
    '/me/assigned-parcels',
    {
      onRequest: parcelGuard('listCarried'),
      schema: {
        tags: ['delivery'],
        summary: 'Parcels I carry (in transit), in the order I picked them up, with whom to call',
        querystring: listQuerySchema,
        response: { 200: carriedParcelListSchema, ...errorResponses(...GUARD_CODES, 'invalid_cursor') },
      },
    },
    async (request) => listAssignedParcels(app.store.db, signedIn(request), request.query),
  );

  app.post(
    '/parcels/:id/pickup',
    {
      onRequest: [parcelGuard('pickUp'), verifiedEmailGuard(app.config.requireEmailVerification)],
      config: { idempotentAnswer: answerWith(200, presentParcel) },
      schema: {
        tags: ['delivery'],
        summary: 'Pick up a waiting parcel (409 when another runner was faster); occurredAt: when, if sent later',
        params,
        body: pickUpBodySchema,
        response: {
          200: parcelSchema,
          ...errorResponses(
            ...GUARD_CODES,
            ...CARRIER_TRUST_CODES,
            ...EMAIL_VERIFICATION_CODES,
            'parcel_not_found',
            'parcel_taken',
            'parcel_already_delivered',
          ),
        },
      },
    },
    async (request) => {
      const runner = signedIn(request);
      const parcel = await pickUpParcel(context(request), runner, request.params.id, request.body?.occurredAt);
      request.log.info({ parcelId: parcel.id, runner: runner.user_name }, 'parcel picked up');
      return parcel;
    },
  );

  app.post(
    '/parcels/:id/deliver',
    {
      onRequest: parcelGuard('deliver'),
      config: { idempotentAnswer: answerWith(200, presentParcel) },
      schema: {
        tags: ['delivery'],
        summary:
          'Deliver a parcel: its runner within 15 m of the receiver (distance − accuracy), the superadmin without a position',
        params,
        body: deliverBodySchema,
        response: {
          200: parcelSchema,
          ...errorResponses(
            ...GUARD_CODES,
            ...CARRIER_REFUSALS,
            'position_required',
            'too_far',
            'destination_imprecise',
            'position_too_imprecise',
            'photo_required',
            'drop_point_needs_code',
          ),
        },
      },
    },
    async (request) => {
      const actor = signedIn(request);
      const parcel = await deliverParcelAt(context(request), actor, request.params.id, request.body);
      request.log.info({ parcelId: parcel.id, by: actor.user_name }, 'parcel delivered');
      return parcel;
    },
  );
};
