import {
  adminParcelListQuerySchema,
  adminParcelListSchema,
  parcelAdminUpdateSchema,
  parcelAssignBodySchema,
  parcelDeleteBodySchema,
} from '@csomag/domain/admin';
import { parcelIdSchema, parcelSchema } from '@csomag/domain/parcel';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses } from '../../errors.ts';
import { GUARD_CODES, signedIn } from '../../plugins/auth.ts';
import { answerWith } from '../../plugins/idempotency.ts';
import { CARRIER_TRUST_CODES } from '../../policy.ts';
import { PLACE_REFUSAL_CODES } from '../places/geocoder.ts';
import { assignParcel, listAllParcels, updateParcel } from './admin-service.ts';
import { deleteParcel } from './changes.ts';
import { parcelGuard } from './policy.ts';
import { presentParcel } from './present.ts';
import type { ParcelsContext } from './service.ts';

const params = z.object({ id: parcelIdSchema });

/** The back office's parcels (SPEC §2.8): all of them, edit, delete, assign to a runner. */
export const adminParcelRoutes: FastifyPluginAsyncZod = async (app) => {
  const context = (request: FastifyRequest): ParcelsContext => ({
    db: app.store.db,
    changes: app.changeFeed.forRequest(request.id),
    geocoder: app.geocoder,
  });

  app.get(
    '/parcels',
    {
      onRequest: parcelGuard('listAll'),
      schema: {
        tags: ['back office'],
        summary: 'Every parcel, newest first; filters status, runner and sender (user names), multi-leg',
        description: 'multiLeg=true: only parcels handed from runner to runner (a relay or a custody override).',
        querystring: adminParcelListQuerySchema,
        response: { 200: adminParcelListSchema, ...errorResponses(...GUARD_CODES, 'invalid_cursor') },
      },
    },
    async (request) => listAllParcels(app.store.db, request.query),
  );

  app.patch(
    '/parcels/:id',
    {
      onRequest: parcelGuard('edit'),
      schema: {
        tags: ['back office'],
        summary: 'Edit a parcel: category, weight, addresses (placed again unless coordinates are given), status',
        description:
          'waiting clears the runner and both times; in_transit needs a runner on the parcel (409 otherwise: ' +
          'assign instead); delivered stamps deliveredAt. 409 when the parcel changed since it was read.',
        params,
        body: parcelAdminUpdateSchema,
        response: {
          200: parcelSchema,
          ...errorResponses(
            ...GUARD_CODES,
            'parcel_not_found',
            'parcel_changed_meanwhile',
            'parcel_needs_runner',
            'status_own_flow',
            'reason_required',
            ...PLACE_REFUSAL_CODES,
            'outside_hungary',
          ),
        },
      },
    },
    async (request) => {
      const admin = signedIn(request);
      const parcel = await updateParcel(context(request), admin, request.params.id, request.body);
      request.log.info({ parcelId: parcel.id, by: admin.user_name }, 'parcel edited');
      return parcel;
    },
  );

  app.delete(
    '/parcels/:id',
    {
      onRequest: parcelGuard('delete'),
      schema: {
        tags: ['back office'],
        summary: 'Delete a parcel; one a runner carries needs a reason. Its timeline keeps a deleted entry',
        params,
        body: parcelDeleteBodySchema,
        response: { 204: z.null(), ...errorResponses(...GUARD_CODES, 'parcel_not_found', 'reason_required') },
      },
    },
    async (request, reply) => {
      const admin = signedIn(request);
      await deleteParcel(app.changeFeed.forRequest(request.id), request.params.id, admin, request.body?.reason);
      request.log.info({ parcelId: request.params.id, by: admin.user_name }, 'parcel deleted');
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/parcels/:id/assign',
    {
      onRequest: parcelGuard('assign'),
      config: { idempotentAnswer: answerWith(200, presentParcel) },
      schema: {
        tags: ['back office'],
        summary: 'Give a waiting parcel to a runner (409 when a runner picked it up first)',
        params,
        body: parcelAssignBodySchema,
        response: {
          200: parcelSchema,
          ...errorResponses(
            ...GUARD_CODES,
            ...CARRIER_TRUST_CODES,
            'assignee_not_runner',
            'parcel_not_found',
            'parcel_taken',
            'parcel_already_delivered',
          ),
        },
      },
    },
    async (request) => {
      const admin = signedIn(request);
      const parcel = await assignParcel(context(request), admin, request.params.id, request.body.runner);
      request.log.info({ parcelId: parcel.id, runner: parcel.runner, by: admin.user_name }, 'parcel assigned');
      return parcel;
    },
  );
};
