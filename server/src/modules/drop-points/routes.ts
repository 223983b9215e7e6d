import {
  adminDropPointListSchema,
  adminDropPointSchema,
  chooseDropPointBodySchema,
  dropPointBodySchema,
  dropPointListSchema,
  dropPointParamsSchema,
  dropPointParcelsSchema,
  dropPointReturnListSchema,
} from '@csomag/domain/drop-points';
import { pinHandoverBodySchema } from '@csomag/domain/handover-pin';
import { parcelIdSchema, parcelSchema } from '@csomag/domain/parcel';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses } from '../../errors.ts';
import { GUARD_CODES, signedIn } from '../../plugins/auth.ts';
import { answerWith } from '../../plugins/idempotency.ts';
import { CARRIER_TRUST_CODES } from '../../policy.ts';
import { EMAIL_VERIFICATION_CODES, verifiedEmailGuard } from '../auth/email-verification.ts';
import { handoverPinKey } from '../handover/pin.ts';
import { parcelGuardOrLink, partyOf } from '../mail/receiver-link.ts';
import { parcelGuard } from '../parcels/policy.ts';
import { presentParcel } from '../parcels/present.ts';
import { dropPointGuard } from './policy.ts';
import {
  type DropPointsContext,
  dropPointParcels,
  listAllDropPoints,
  listDropPointReturns,
  listDropPoints,
  myDropPoints,
  refuseAtDropPoint,
  releaseWithPin,
  saveDropPoint,
  sendToDropPoint,
  takeReturnFromDropPoint,
} from './service.ts';

/** Drop points (issue 28): the back office's partner places, a parcel sent to one, its staff's work. */
export const dropPointRoutes: FastifyPluginAsyncZod = async (app) => {
  const pinKey = handoverPinKey(app.config.sessionSecret);
  const context = (request: FastifyRequest): DropPointsContext => ({
    db: app.store.db,
    changes: app.changeFeed.forRequest(request.id),
    pinKey,
    limits: app.limits,
  });

  app.get(
    '/drop-points',
    {
      // Public places: the policy's `list` lets anyone, signed in or not.
      schema: {
        tags: ['drop-points'],
        summary:
          'The active drop points, by name, with whether each is open now: public places, for anyone (a receiver by their link chooses one)',
        response: { 200: dropPointListSchema },
      },
    },
    async () => listDropPoints(app.store.db),
  );

  app.get(
    '/admin/drop-points',
    {
      onRequest: dropPointGuard('manage'),
      schema: {
        tags: ['drop-points'],
        summary: 'Every drop point with its staff (superadmin)',
        response: { 200: adminDropPointListSchema, ...errorResponses(...GUARD_CODES) },
      },
    },
    async () => listAllDropPoints(app.store.db),
  );

  app.post(
    '/drop-points',
    {
      onRequest: dropPointGuard('manage'),
      schema: {
        tags: ['drop-points'],
        summary: 'A new drop point: name, kind, address, point in Hungary, opening hours, staff (superadmin)',
        body: dropPointBodySchema,
        response: { 201: adminDropPointSchema, ...errorResponses(...GUARD_CODES, 'account_not_found') },
      },
    },
    async (request, reply) => reply.status(201).send(await saveDropPoint(app.store.db, request.body)),
  );

  app.put(
    '/drop-points/:id',
    {
      onRequest: dropPointGuard('manage'),
      schema: {
        tags: ['drop-points'],
        summary: 'Replace a drop point and its staff (superadmin); `active: false` takes it off every list',
        params: dropPointParamsSchema,
        body: dropPointBodySchema,
        response: {
          200: adminDropPointSchema,
          ...errorResponses(...GUARD_CODES, 'drop_point_not_found', 'account_not_found'),
        },
      },
    },
    async (request) => saveDropPoint(app.store.db, request.body, request.params.id),
  );

  app.get(
    '/me/drop-points',
    {
      onRequest: dropPointGuard('listStaffed'),
      schema: {
        tags: ['drop-points'],
        summary: 'The drop points I staff',
        response: { 200: dropPointListSchema, ...errorResponses(...GUARD_CODES) },
      },
    },
    async (request) => myDropPoints(app.store.db, signedIn(request)),
  );

  app.get(
    '/drop-points/:id/parcels',
    {
      onRequest: dropPointGuard('work'),
      schema: {
        tags: ['drop-points'],
        summary:
          "A drop point's parcels for its staff: on their way there (with the code to read out to the runner) and waiting there",
        params: dropPointParamsSchema,
        response: { 200: dropPointParcelsSchema, ...errorResponses(...GUARD_CODES, 'drop_point_not_found') },
      },
    },
    async (request, reply) => {
      void reply.header('cache-control', 'private, no-store');
      return dropPointParcels(context(request), signedIn(request), request.params.id);
    },
  );

  app.post(
    '/parcels/:id/drop-point',
    {
      onRequest: parcelGuardOrLink(app, 'chooseDropPoint'),
      config: { idempotentAnswer: answerWith(200, presentParcel) },
      schema: {
        tags: ['drop-points'],
        summary:
          'Send the parcel to a drop point instead of the door: its receiver (signed in, or by the link in their mail: X-Receiver-Link) or sender after a failed attempt, or its runner',
        params: z.object({ id: parcelIdSchema }),
        body: chooseDropPointBodySchema,
        response: {
          200: parcelSchema,
          ...errorResponses(
            ...GUARD_CODES,
            'receiver_link_invalid',
            'parcel_not_found',
            'drop_point_not_found',
            'parcel_not_in_transit',
            'parcel_already_delivered',
          ),
        },
      },
    },
    async (request) =>
      presentParcel(
        await sendToDropPoint(context(request), partyOf(request), request.params.id, request.body.dropPointId),
      ),
  );

  app.post(
    '/parcels/:id/release',
    {
      onRequest: dropPointGuard('release'),
      config: { idempotentAnswer: answerWith(200, presentParcel) },
      schema: {
        tags: ['drop-points'],
        summary:
          "The drop point's staff hands a waiting parcel over to the person whose code it is (its receiver, or its sender on the way back), while open",
        params: z.object({ id: parcelIdSchema }),
        body: pinHandoverBodySchema,
        response: {
          200: parcelSchema,
          ...errorResponses(
            ...GUARD_CODES,
            'parcel_not_found',
            'parcel_not_in_transit',
            'parcel_already_delivered',
            'drop_point_closed',
            'handover_pin_wrong',
            'handover_pin_locked',
          ),
        },
      },
    },
    async (request) => {
      const staff = signedIn(request);
      const parcel = presentParcel(await releaseWithPin(context(request), staff, request.params.id, request.body.pin));
      request.log.info({ parcelId: parcel.id, by: staff.user_name }, 'parcel collected at a drop point');
      return parcel;
    },
  );

  app.get(
    '/drop-point-returns',
    {
      onRequest: parcelGuard('pickUp'),
      schema: {
        tags: ['drop-points'],
        summary:
          'Parcels not collected at a drop point in time, waiting there on their way back: pickups for a runner to take to their senders',
        response: { 200: dropPointReturnListSchema, ...errorResponses(...GUARD_CODES, ...CARRIER_TRUST_CODES) },
      },
    },
    async () => listDropPointReturns(app.store.db),
  );

  app.post(
    '/parcels/:id/take-from-drop-point',
    {
      onRequest: [parcelGuard('pickUp'), verifiedEmailGuard(app.config.requireEmailVerification)],
      config: { idempotentAnswer: answerWith(200, presentParcel) },
      schema: {
        tags: ['drop-points'],
        summary:
          "A runner takes a parcel waiting at a drop point on its way back, with the code the staff read out, to carry it to its sender's door",
        params: z.object({ id: parcelIdSchema }),
        body: pinHandoverBodySchema,
        response: {
          200: parcelSchema,
          ...errorResponses(
            ...GUARD_CODES,
            ...CARRIER_TRUST_CODES,
            ...EMAIL_VERIFICATION_CODES,
            'parcel_not_found',
            'parcel_not_in_transit',
            'parcel_already_delivered',
            'parcel_taken',
            'drop_point_closed',
            'handover_pin_wrong',
            'handover_pin_locked',
          ),
        },
      },
    },
    async (request) => {
      const runner = signedIn(request);
      const parcel = presentParcel(
        await takeReturnFromDropPoint(context(request), runner, request.params.id, request.body.pin),
      );
      request.log.info(
        { parcelId: parcel.id, runner: runner.user_name },
        'parcel taken from a drop point back to its sender',
      );
      return parcel;
    },
  );

  app.post(
    '/parcels/:id/refused-at-drop-point',
    {
      onRequest: dropPointGuard('release'),
      config: { idempotentAnswer: answerWith(200, presentParcel) },
      schema: {
        tags: ['drop-points'],
        summary:
          "The drop point's staff: its receiver refused the waiting parcel at the counter, so it goes back to its sender",
        params: z.object({ id: parcelIdSchema }),
        response: {
          200: parcelSchema,
          ...errorResponses(
            ...GUARD_CODES,
            'parcel_not_found',
            'parcel_not_in_transit',
            'parcel_already_delivered',
            'parcel_changed_meanwhile',
          ),
        },
      },
    },
    async (request) => {
      const staff = signedIn(request);
      const parcel = presentParcel(await refuseAtDropPoint(context(request), staff, request.params.id));
      request.log.info({ parcelId: parcel.id, by: staff.user_name }, 'parcel refused at a drop point');
      return parcel;
    },
  );
};
