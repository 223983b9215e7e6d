import {
  attemptBodySchema,
  attemptListSchema,
  attemptResultSchema,
  neighbourBodySchema,
  neighbourResultSchema,
  neighbourWishBodySchema,
  redeliveryBodySchema,
  returnBodySchema,
} from '@csomag/domain/attempts';
import { pinHandoverBodySchema } from '@csomag/domain/handover-pin';
import { parcelIdSchema, parcelSchema } from '@csomag/domain/parcel';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses } from '../../errors.ts';
import { GUARD_CODES, signedIn } from '../../plugins/auth.ts';
import { answerWith } from '../../plugins/idempotency.ts';
import { handoverPinKey } from '../handover/pin.ts';
import { parcelGuardOrLink, partyOf } from '../mail/receiver-link.ts';
import { CARRIER_REFUSALS } from '../parcels/changes.ts';
import { parcelGuard } from '../parcels/policy.ts';
import type { ParcelWithNames } from '../parcels/present.ts';
import { presentParcel } from '../parcels/present.ts';
import {
  type AttemptsContext,
  askAfterAttempt,
  collectWithPin,
  leaveWithNeighbourAt,
  listAttempts,
  neighbourPin,
  neighbourPinOf,
  recordAttemptAt,
  startReturnOf,
} from './service.ts';

const params = z.object({ id: parcelIdSchema });

/** What a wish after a failed attempt (a new time, a neighbour) can be refused with. */
const WISH_REFUSALS = [
  ...GUARD_CODES,
  'receiver_link_invalid',
  'parcel_not_found',
  'parcel_already_delivered',
  'redelivery_not_now',
] as const;

interface Recorded {
  parcel: ParcelWithNames;
  number: number;
  startedReturn: boolean;
}
const presentRecorded = ({ parcel, number, startedReturn }: Recorded) => ({
  parcel: presentParcel(parcel),
  attempt: number,
  startedReturn,
});

/** When a delivery does not go to plan (issue 28): attempts, a new time, the return to the sender. */
export const attemptRoutes: FastifyPluginAsyncZod = async (app) => {
  const context = (request: FastifyRequest): AttemptsContext => ({
    db: app.store.db,
    changes: app.changeFeed.forRequest(request.id),
    returnAfter: app.config.returnAfterAttempts,
  });

  app.post(
    '/parcels/:id/attempts',
    {
      onRequest: parcelGuard('recordAttempt'),
      config: { idempotentAnswer: answerWith(201, presentRecorded) },
      schema: {
        tags: ['attempts'],
        summary:
          "A failed delivery attempt by the parcel's runner at the door (15 m when the door is known); a refusal or the RETURN_AFTER_ATTEMPTS-th attempt turns the parcel back to its sender",
        params,
        body: attemptBodySchema,
        response: {
          201: attemptResultSchema,
          ...errorResponses(...GUARD_CODES, ...CARRIER_REFUSALS, 'too_far', 'position_too_imprecise'),
        },
      },
    },
    async (request, reply) => {
      const runner = signedIn(request);
      const recorded = await recordAttemptAt(context(request), runner, request.params.id, request.body);
      request.log.info(
        {
          parcelId: request.params.id,
          runner: runner.user_name,
          attempt: recorded.number,
          reason: request.body.reason,
        },
        'delivery attempt failed',
      );
      return reply.status(201).send(presentRecorded(recorded));
    },
  );

  app.get(
    '/parcels/:id/attempts',
    {
      onRequest: parcelGuardOrLink(app, 'seeAttempts'),
      schema: {
        tags: ['attempts'],
        summary:
          "A parcel's failed delivery attempts: its sender, receiver (signed in, or by the link in their mail: X-Receiver-Link), runner and the back office",
        params,
        response: {
          200: attemptListSchema,
          ...errorResponses(...GUARD_CODES, 'receiver_link_invalid', 'parcel_not_found'),
        },
      },
    },
    async (request) => listAttempts(app.store.db, partyOf(request), request.params.id, app.config.returnAfterAttempts),
  );

  app.post(
    '/parcels/:id/redelivery',
    {
      onRequest: parcelGuardOrLink(app, 'requestRedelivery'),
      config: { idempotentAnswer: answerWith(200, presentParcel) },
      schema: {
        tags: ['attempts'],
        summary:
          'The receiver (signed in, or by the link in their mail: X-Receiver-Link) or the sender asks for the next attempt within a window, after a failed attempt and before the parcel turns back',
        params,
        body: redeliveryBodySchema,
        response: {
          200: parcelSchema,
          ...errorResponses(...WISH_REFUSALS),
        },
      },
    },
    async (request) => {
      const wish = { kind: 'redelivery_requested' as const, ...request.body };
      return presentParcel(await askAfterAttempt(context(request), partyOf(request), request.params.id, wish));
    },
  );

  app.post(
    '/parcels/:id/neighbour-wish',
    {
      onRequest: parcelGuardOrLink(app, 'requestRedelivery'),
      config: { idempotentAnswer: answerWith(200, presentParcel) },
      schema: {
        tags: ['attempts'],
        summary:
          'The receiver (signed in, or by the link in their mail) or the sender asks that the parcel be left with a named neighbour, after a failed attempt and before it turns back',
        params,
        body: neighbourWishBodySchema,
        response: {
          200: parcelSchema,
          ...errorResponses(...WISH_REFUSALS),
        },
      },
    },
    async (request) => {
      const wish = { kind: 'neighbour_requested' as const, ...request.body };
      return presentParcel(await askAfterAttempt(context(request), partyOf(request), request.params.id, wish));
    },
  );

  app.post(
    '/parcels/:id/return',
    {
      onRequest: parcelGuard('startReturn'),
      config: { idempotentAnswer: answerWith(200, presentParcel) },
      schema: {
        tags: ['attempts'],
        summary:
          "The parcel's runner takes it back to its sender, saying why; it stays theirs until the sender confirms",
        params,
        body: returnBodySchema,
        response: {
          200: parcelSchema,
          ...errorResponses(...GUARD_CODES, ...CARRIER_REFUSALS, 'already_returning'),
        },
      },
    },
    async (request) => {
      const runner = signedIn(request);
      const parcel = presentParcel(
        await startReturnOf(context(request), runner, request.params.id, request.body.reason),
      );
      request.log.info({ parcelId: parcel.id, runner: runner.user_name }, 'parcel returning to its sender');
      return parcel;
    },
  );

  const pinKey = handoverPinKey(app.config.sessionSecret);
  // The code is worked out from the parcel as the change left it: a replay answers the same one.
  const presentLeft = (parcel: ParcelWithNames) => ({
    parcel: presentParcel(parcel),
    pin: neighbourPin(pinKey, parcel),
  });

  app.post(
    '/parcels/:id/neighbour',
    {
      onRequest: parcelGuard('leaveWithNeighbour'),
      config: { idempotentAnswer: answerWith(201, presentLeft) },
      schema: {
        tags: ['attempts'],
        summary:
          "The parcel's runner leaves it with the receiver's neighbour, who confirms by typing their name; answers the code the receiver collects it with",
        params,
        body: neighbourBodySchema,
        response: {
          201: neighbourResultSchema,
          ...errorResponses(...GUARD_CODES, ...CARRIER_REFUSALS, 'too_far', 'position_too_imprecise'),
        },
      },
    },
    async (request, reply) => {
      const runner = signedIn(request);
      const left = await leaveWithNeighbourAt(context(request), runner, request.params.id, request.body);
      request.log.info({ parcelId: request.params.id, runner: runner.user_name }, 'parcel left with a neighbour');
      return reply.status(201).send(presentLeft(left));
    },
  );

  app.get(
    '/parcels/:id/neighbour-pin',
    {
      onRequest: parcelGuard('seeNeighbourPin'),
      schema: {
        tags: ['attempts'],
        summary: 'The code the neighbour was given, again: for the runner who left the parcel there',
        params,
        response: {
          200: z.object({ pin: z.string() }),
          ...errorResponses(...GUARD_CODES, 'parcel_not_found', 'parcel_not_in_transit'),
        },
      },
    },
    async (request, reply) => {
      void reply.header('cache-control', 'private, no-store');
      return neighbourPinOf(app.store.db, pinKey, signedIn(request), request.params.id);
    },
  );

  app.post(
    '/parcels/:id/collect',
    {
      onRequest: parcelGuardOrLink(app, 'collect'),
      config: { idempotentAnswer: answerWith(200, presentParcel) },
      schema: {
        tags: ['attempts'],
        summary:
          "The receiver (signed in, or by the link in their mail) collects the parcel from the neighbour with the neighbour's code: delivered; 5 tries an hour",
        params,
        body: pinHandoverBodySchema,
        response: {
          200: parcelSchema,
          ...errorResponses(
            ...GUARD_CODES,
            'receiver_link_invalid',
            'parcel_not_found',
            'parcel_not_in_transit',
            'parcel_already_delivered',
            'handover_pin_wrong',
            'handover_pin_locked',
          ),
        },
      },
    },
    async (request) => {
      const ctx = { ...context(request), pinKey, limits: app.limits };
      const parcel = presentParcel(await collectWithPin(ctx, partyOf(request), request.params.id, request.body.pin));
      request.log.info({ parcelId: parcel.id }, 'parcel collected from a neighbour');
      return parcel;
    },
  );
};
