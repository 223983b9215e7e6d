import {
  handoverBodySchema,
  handoverLinkSchema,
  handoverQuerySchema,
  handoverSummarySchema,
} from '@csomag/domain/delivery';
import { handoverPinSchema, pinHandoverBodySchema } from '@csomag/domain/handover-pin';
import { RECEIVER_LINK_HEADER } from '@csomag/domain/mail';
import { parcelIdSchema, parcelSchema } from '@csomag/domain/parcel';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses } from '../../errors.ts';
import { GUARD_CODES, signedIn } from '../../plugins/auth.ts';
import { answerWith } from '../../plugins/idempotency.ts';
import { mailKeys } from '../mail/parcel-mail.ts';
import { receiverByLink } from '../mail/receiver-link.ts';
import { CARRIER_REFUSALS } from '../parcels/changes.ts';
import { parcelGuard } from '../parcels/policy.ts';
import { presentParcel } from '../parcels/present.ts';
import { handOverByPin, handoverPinKey, handoverPinOf, type PinContext, receiverCodeByLink } from './pin.ts';
import { createHandoverLink, getHandoverSummary, type HandoverContext, handOver } from './service.ts';
import { handoverKey } from './token.ts';

const params = z.object({ id: parcelIdSchema });

/** The signature's image and its strokes (each bounded by handoverBodySchema), with room for the rest. */
const HANDOVER_BODY_LIMIT = 1024 * 1024;

/** Delivery by QR code: the runner's signed link, and the receiver's page that confirms it. */
export const handoverRoutes: FastifyPluginAsyncZod = async (app) => {
  const key = handoverKey(app.config.sessionSecret);
  const pinKey = handoverPinKey(app.config.sessionSecret);
  const context = (request: FastifyRequest): HandoverContext => ({
    db: app.store.db,
    changes: app.changeFeed.forRequest(request.id),
    key,
    now: Date.now,
  });

  app.post(
    '/parcels/:id/handover-token',
    {
      onRequest: parcelGuard('showHandoverCode'),
      schema: {
        tags: ['handover'],
        summary: 'A signed handover link for the QR code, valid 15 minutes (the parcel’s runner, in transit)',
        params,
        response: {
          200: handoverLinkSchema,
          ...errorResponses(...GUARD_CODES, ...CARRIER_REFUSALS),
        },
      },
    },
    async (request) => {
      // PUBLIC_URL when set (behind a proxy); otherwise the origin the runner's browser used.
      const origin = app.config.publicUrl ?? `${request.protocol}://${request.host}`;
      return createHandoverLink(context(request), signedIn(request), request.params.id, origin);
    },
  );

  app.get(
    '/handover/:id',
    {
      schema: {
        tags: ['handover'],
        summary: 'What the receiver’s page shows for a valid handover token (anyone holding it)',
        params,
        querystring: handoverQuerySchema,
        response: { 200: handoverSummarySchema, ...errorResponses('parcel_not_found', 'handover_link_invalid') },
      },
    },
    async (request) => getHandoverSummary(context(request), request.params.id, request.query.token),
  );

  app.post(
    '/parcels/:id/handover',
    {
      // A signature's PNG data URL (≤ 300 KB) and strokes do not fit the API's 64 KiB.
      bodyLimit: HANDOVER_BODY_LIMIT,
      schema: {
        tags: ['handover'],
        summary: 'The receiver confirms the handover with a valid token: in transit → delivered (no sign-in needed)',
        params,
        body: handoverBodySchema,
        response: {
          200: handoverSummarySchema,
          ...errorResponses('parcel_not_found', 'handover_link_invalid', 'handover_link_used', 'handover_link_stale'),
        },
      },
    },
    async (request) => {
      // Whoever is signed in on the phone that confirms is recorded as confirming (issue 27).
      const summary = await handOver(context(request), request.params.id, request.body, request.account);
      request.log.info({ parcelId: summary.id, runner: summary.runner }, 'parcel handed over by QR');
      return summary;
    },
  );

  const pinContext = (request: FastifyRequest): PinContext => ({
    db: app.store.db,
    changes: app.changeFeed.forRequest(request.id),
    key: pinKey,
    limits: app.limits,
  });

  app.get(
    '/parcels/:id/handover-pin',
    {
      onRequest: parcelGuard('seeHandoverPin'),
      schema: {
        tags: ['handover'],
        summary:
          "The leg's 6-digit handover PIN, for the person the parcel is brought to only (its receiver, or its sender on the way back); new with every change of hands",
        params,
        response: {
          200: handoverPinSchema,
          ...errorResponses(...GUARD_CODES, 'parcel_not_found', 'parcel_not_in_transit'),
        },
      },
    },
    async (request, reply) => {
      void reply.header('cache-control', 'private, no-store');
      return handoverPinOf(pinContext(request), signedIn(request), request.params.id);
    },
  );

  const keys = mailKeys(app.config.sessionSecret);
  app.get(
    '/parcels/:id/receiver-code',
    {
      schema: {
        tags: ['handover'],
        summary:
          "The receiver's handover PIN through the link in their mail (issue 29): no account, the link's key in the X-Receiver-Link header (never in a URL a log keeps)",
        params,
        headers: z.object({ [RECEIVER_LINK_HEADER]: z.string().max(200).optional() }),
        response: {
          200: handoverPinSchema,
          ...errorResponses('receiver_link_invalid', 'parcel_not_in_transit'),
        },
      },
    },
    async (request, reply) => {
      void reply.header('cache-control', 'private, no-store');
      const link = await receiverByLink(
        app.store.db,
        keys,
        request.params.id,
        request.headers[RECEIVER_LINK_HEADER] ?? '',
      );
      return receiverCodeByLink(pinContext(request), link);
    },
  );

  app.post(
    '/parcels/:id/pin-handover',
    {
      onRequest: parcelGuard('handOverByPin'),
      config: { idempotentAnswer: answerWith(200, presentParcel) },
      schema: {
        tags: ['handover'],
        summary:
          'The carrier hands the parcel over with the PIN the person at the door reads out: delivered, or returned on the way back; 5 tries per leg an hour',
        params,
        body: pinHandoverBodySchema,
        response: {
          200: parcelSchema,
          ...errorResponses(
            ...GUARD_CODES,
            ...CARRIER_REFUSALS,
            'handover_pin_wrong',
            'handover_pin_locked',
            'handover_link_stale',
          ),
        },
      },
    },
    async (request) => {
      const runner = signedIn(request);
      const parcel = presentParcel(await handOverByPin(pinContext(request), runner, request.params.id, request.body));
      request.log.info({ parcelId: parcel.id, runner: runner.user_name }, 'parcel handed over by PIN');
      return parcel;
    },
  );
};
