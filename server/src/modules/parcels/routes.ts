import { PARCEL_CREATE_LIMIT_PER_MINUTE } from '@csomag/domain/constants';
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
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses, refuse } from '../../errors.ts';
import { GUARD_CODES, signedIn } from '../../plugins/auth.ts';
import { answerWith } from '../../plugins/idempotency.ts';
import { EMAIL_VERIFICATION_CODES, verifiedEmailGuard } from '../auth/email-verification.ts';
import { PLACE_REFUSAL_CODES } from '../places/geocoder.ts';
import { cancelParcel } from './changes.ts';
import { parcelGuard } from './policy.ts';
import { presentParcel } from './present.ts';
import { MY_LISTS_CACHE_SIZE, myListTagsOf, ReadCache, receiverTag, replyFromMemory, senderTag } from './read-cache.ts';
import {
  createParcel,
  getParcelDetail,
  getTrackingView,
  listIncomingParcels,
  listSentParcels,
  type ParcelsContext,
} from './service.ts';
import { TrackingCache } from './tracking-cache.ts';

export const parcelRoutes: FastifyPluginAsyncZod = async (app) => {
  const tracking = new TrackingCache(app.changeFeed, (id) => getTrackingView(app.store.db, id));
  // A person's sent and incoming lists, kept until a change touches them (read-cache.ts).
  const myLists = new ReadCache<string>(app.changeFeed, myListTagsOf, MY_LISTS_CACHE_SIZE);
  const context = (request: FastifyRequest): ParcelsContext => ({
    db: app.store.db,
    changes: app.changeFeed.forRequest(request.id),
    geocoder: app.geocoder,
  });

  app.post(
    '/parcels',
    {
      onRequest: [parcelGuard('send'), verifiedEmailGuard(app.config.requireEmailVerification)],
      // 120 creations per account per minute (DESIGN §4); counted after sign-in and validation.
      config: {
        rateLimit: {
          max: PARCEL_CREATE_LIMIT_PER_MINUTE,
          timeWindow: '1 minute',
          hook: 'preHandler',
          keyGenerator: (request) => `parcel-create:${request.account?.id ?? request.ip}`,
        },
        idempotentAnswer: answerWith(201, presentParcel),
      },
      schema: {
        tags: ['parcels'],
        summary: 'Send a parcel (user: as themself; superadmin: for senderUser)',
        body: parcelCreateBodySchema,
        response: {
          201: parcelSchema,
          ...errorResponses(
            ...GUARD_CODES,
            ...EMAIL_VERIFICATION_CODES,
            'sender_required',
            'sender_not_self',
            'sender_not_found',
            'sender_not_user',
            ...PLACE_REFUSAL_CODES,
            'outside_hungary',
            'drop_point_not_found',
          ),
        },
      },
    },
    async (request, reply) => {
      const parcel = await createParcel(context(request), signedIn(request), request.body);
      request.log.info({ parcelId: parcel.id, sender: parcel.senderUser }, 'parcel created');
      return reply.status(201).send(parcel);
    },
  );

  app.get(
    '/parcels/:id',
    {
      onRequest: parcelGuard('view'),
      schema: {
        tags: ['parcels'],
        summary: 'A parcel with its timeline (its sender, its runner, the superadmin)',
        params: z.object({ id: parcelIdSchema }),
        response: { 200: parcelDetailSchema, ...errorResponses(...GUARD_CODES, 'parcel_not_found') },
      },
    },
    async (request) => getParcelDetail(app.store.db, signedIn(request), request.params.id),
  );

  app.post(
    '/parcels/:id/cancel',
    {
      onRequest: parcelGuard('cancel'),
      config: { idempotentAnswer: answerWith(204) },
      schema: {
        tags: ['parcels'],
        summary:
          'The sender withdraws a parcel while it waits (the cancel button of the sent list); 409 once picked up',
        params: z.object({ id: parcelIdSchema }),
        response: { 204: z.null(), ...errorResponses(...GUARD_CODES, 'parcel_not_found', 'parcel_not_waiting') },
      },
    },
    async (request, reply) => {
      const sender = signedIn(request);
      await cancelParcel(app.changeFeed.forRequest(request.id), request.params.id, sender);
      request.log.info({ parcelId: request.params.id, sender: sender.user_name }, 'parcel cancelled');
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/me/sent-parcels',
    {
      onRequest: parcelGuard('listSent'),
      schema: {
        tags: ['parcels'],
        summary: 'Parcels I sent, newest first',
        querystring: parcelListQuerySchema,
        response: { 200: parcelListSchema, ...errorResponses(...GUARD_CODES, 'invalid_cursor') },
      },
    },
    async (request, reply) => {
      const sender = signedIn(request);
      return replyFromMemory(
        myLists,
        reply,
        `sent ${sender.id} ${JSON.stringify(request.query)}`,
        [senderTag(sender.user_name)],
        () => listSentParcels(app.store.db, sender, request.query),
      );
    },
  );

  app.get(
    '/me/incoming-parcels',
    {
      onRequest: parcelGuard('listIncoming'),
      schema: {
        tags: ['parcels'],
        summary: 'Parcels addressed to my address, newest first',
        querystring: parcelListQuerySchema,
        response: { 200: parcelListSchema, ...errorResponses(...GUARD_CODES, 'invalid_cursor') },
      },
    },
    async (request, reply) => {
      const receiver = signedIn(request);
      const key = receiver.address_key;
      if (!key) return listIncomingParcels(app.store.db, receiver, request.query);
      return replyFromMemory(
        myLists,
        reply,
        `incoming ${key} ${JSON.stringify(request.query)}`,
        [receiverTag(key)],
        () => listIncomingParcels(app.store.db, receiver, request.query),
      );
    },
  );

  app.get(
    '/tracking/:id',
    {
      schema: {
        tags: ['tracking'],
        summary: 'Public tracking view of a parcel (anyone holding its id)',
        // Any text: a mistyped id is simply "no such parcel" for the person tracking it.
        params: z.object({ id: z.string() }),
        response: { 200: trackingViewSchema, ...errorResponses('parcel_not_found') },
      },
    },
    async (request) => {
      const id = parcelIdSchema.safeParse(request.params.id);
      const view = id.success ? await tracking.get(id.data) : null;
      if (!view) throw refuse('parcel_not_found', messages.parcelNotFound);
      return view;
    },
  );
};
