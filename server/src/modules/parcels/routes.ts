import { PARCEL_CREATE_LIMIT_PER_MINUTE } from '@csomag/domain/constants';
import { apiErrorSchema } from '@csomag/domain/errors';
import { messages } from '@csomag/domain/messages';
import {
  parcelCreateBodySchema,
  parcelDetailSchema,
  parcelIdSchema,
  parcelListQuerySchema,
  parcelListSchema,
  parcelSchema,
  trackingViewSchema,
} from '@csomag/domain/parcel';
import { ROLES } from '@csomag/domain/roles';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses, notFound } from '../../errors.ts';
import { requireRole, signedIn } from '../../plugins/auth.ts';
import {
  createParcel,
  getParcelDetail,
  getTrackingView,
  listIncomingParcels,
  listSentParcels,
  type ParcelsContext,
} from './service.ts';
import { cancelParcel } from './transitions.ts';

const errors = errorResponses(400, 401, 403, 404, 422, 429);

export const parcelRoutes: FastifyPluginAsyncZod = async (app) => {
  const context = (): ParcelsContext => ({ db: app.store.db, changes: app.changeFeed, geocoder: app.geocoder });

  app.post(
    '/parcels',
    {
      onRequest: requireRole('user', 'superadmin'),
      // 120 creations per account per minute (DESIGN §4); counted after sign-in and validation.
      config: {
        rateLimit: {
          max: PARCEL_CREATE_LIMIT_PER_MINUTE,
          timeWindow: '1 minute',
          hook: 'preHandler',
          keyGenerator: (request) => `parcel-create:${request.account?.id ?? request.ip}`,
        },
      },
      schema: {
        tags: ['parcels'],
        summary: 'Send a parcel (user: as themself; superadmin: for senderUser)',
        body: parcelCreateBodySchema,
        response: { 201: parcelSchema, ...errors },
      },
    },
    async (request, reply) => {
      const parcel = await createParcel(context(), signedIn(request), request.body);
      request.log.info({ parcelId: parcel.id, sender: parcel.senderUser }, 'parcel created');
      return reply.status(201).send(parcel);
    },
  );

  app.get(
    '/parcels/:id',
    {
      onRequest: requireRole(...ROLES),
      schema: {
        tags: ['parcels'],
        summary: 'A parcel with its timeline (its sender, its runner, the superadmin)',
        params: z.object({ id: parcelIdSchema }),
        response: { 200: parcelDetailSchema, ...errors },
      },
    },
    async (request) => getParcelDetail(app.store.db, signedIn(request), request.params.id),
  );

  app.post(
    '/parcels/:id/cancel',
    {
      onRequest: requireRole('user'),
      schema: {
        tags: ['parcels'],
        summary: "The sender withdraws a parcel while it waits ('Feladás visszavonása'); 409 once picked up",
        params: z.object({ id: parcelIdSchema }),
        response: { 204: z.null(), ...errorResponses(400, 401, 403, 404, 409, 429) },
      },
    },
    async (request, reply) => {
      const sender = signedIn(request);
      await cancelParcel(app.changeFeed, request.params.id, sender);
      request.log.info({ parcelId: request.params.id, sender: sender.user_name }, 'parcel cancelled');
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/me/sent-parcels',
    {
      onRequest: requireRole('user'),
      schema: {
        tags: ['parcels'],
        summary: 'Parcels I sent, newest first',
        querystring: parcelListQuerySchema,
        response: { 200: parcelListSchema, ...errors },
      },
    },
    async (request) => listSentParcels(app.store.db, signedIn(request), request.query),
  );

  app.get(
    '/me/incoming-parcels',
    {
      onRequest: requireRole('user'),
      schema: {
        tags: ['parcels'],
        summary: 'Parcels addressed to my address, newest first',
        querystring: parcelListQuerySchema,
        response: { 200: parcelListSchema, ...errors },
      },
    },
    async (request) => listIncomingParcels(app.store.db, signedIn(request), request.query),
  );

  app.get(
    '/tracking/:id',
    {
      schema: {
        tags: ['tracking'],
        summary: 'Public tracking view of a parcel (anyone holding its id)',
        // Any text: a mistyped id is simply "no such parcel" for the person tracking it.
        params: z.object({ id: z.string() }),
        response: { 200: trackingViewSchema, 404: apiErrorSchema },
      },
    },
    async (request) => {
      const id = parcelIdSchema.safeParse(request.params.id);
      const view = id.success ? await getTrackingView(app.store.db, id.data) : null;
      if (!view) throw notFound(messages.parcelNotFound);
      return view;
    },
  );
};
