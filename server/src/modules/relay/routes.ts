import { parcelIdSchema, parcelSchema } from '@csomag/domain/parcel';
import {
  custodyChainSchema,
  custodyOverrideBodySchema,
  relayBodySchema,
  relayLinkSchema,
  relayOfferBodySchema,
  relayOfferListSchema,
  relayOfferSchema,
  relayQuerySchema,
  relaySummarySchema,
} from '@csomag/domain/relay';
import { relayMeetingPointsSchema, relayMeetingQuerySchema } from '@csomag/domain/trip-api';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses } from '../../errors.ts';
import { GUARD_CODES, signedIn } from '../../plugins/auth.ts';
import { answerWith } from '../../plugins/idempotency.ts';
import { CARRIER_TRUST_CODES } from '../../policy.ts';
import { EMAIL_VERIFICATION_CODES, verifiedEmailGuard } from '../auth/email-verification.ts';
import { handoverPinKey } from '../handover/pin.ts';
import { CARRIER_REFUSALS } from '../parcels/changes.ts';
import { parcelGuard } from '../parcels/policy.ts';
import { presentParcel } from '../parcels/present.ts';
import { findMeetingPoints } from './meeting-points.ts';
import { relayOfferGuard } from './policy.ts';
import { createRelayOffer, listRelayOffers, takeRelayOffer, withdrawRelayOffer } from './relay-offers.ts';
import {
  createRelayLink,
  getCustodyChain,
  getRelaySummary,
  overrideHolder,
  type RelayContext,
  takeOver,
} from './service.ts';
import { relayKey } from './token.ts';

const params = z.object({ id: parcelIdSchema });
const LINK_REFUSALS = [
  'parcel_not_found',
  'relay_link_invalid',
  'relay_own_parcel',
  'relay_link_expired',
  'relay_link_used',
] as const;

/** Runner → runner hand-over by QR link, and the superadmin's custody chain and override (docs/decisions/0022). */
export const relayRoutes: FastifyPluginAsyncZod = async (app) => {
  const key = relayKey(app.config.sessionSecret);
  const pins = { key: handoverPinKey(app.config.sessionSecret), limits: app.limits };
  const context = (request: FastifyRequest): RelayContext => ({
    db: app.store.db,
    changes: app.changeFeed.forRequest(request.id),
    key,
    now: Date.now,
    pins,
  });

  app.post(
    '/parcels/:id/relay-token',
    {
      onRequest: parcelGuard('showHandoverCode'),
      schema: {
        tags: ['relay'],
        summary: 'A signed, single-use link for the next runner’s QR code, valid 15 minutes (the holder, in transit)',
        params,
        response: { 200: relayLinkSchema, ...errorResponses(...GUARD_CODES, ...CARRIER_REFUSALS) },
      },
    },
    async (request) => {
      const origin = app.config.publicUrl ?? `${request.protocol}://${request.host}`;
      return createRelayLink(context(request), signedIn(request), request.params.id, origin);
    },
  );

  app.get(
    '/relay/:id',
    {
      onRequest: parcelGuard('takeOver'),
      schema: {
        tags: ['relay'],
        summary: 'What the next runner sees for a valid relay link before confirming (a signed-in runner)',
        params,
        querystring: relayQuerySchema,
        response: {
          200: relaySummarySchema,
          ...errorResponses(...GUARD_CODES, ...CARRIER_TRUST_CODES, ...LINK_REFUSALS),
        },
      },
    },
    async (request) => getRelaySummary(context(request), signedIn(request), request.params.id, request.query.token),
  );

  app.post(
    '/parcels/:id/relay',
    {
      onRequest: [parcelGuard('takeOver'), verifiedEmailGuard(app.config.requireEmailVerification)],
      config: { idempotentAnswer: answerWith(200, presentParcel) },
      schema: {
        tags: ['relay'],
        summary:
          'The next runner confirms a relay link, or types the code its holder read out: custody moves to them (exactly one of any number at once)',
        params,
        body: relayBodySchema,
        response: {
          200: parcelSchema,
          ...errorResponses(
            ...GUARD_CODES,
            ...LINK_REFUSALS,
            ...CARRIER_TRUST_CODES,
            ...EMAIL_VERIFICATION_CODES,
            'relay_offer_reserved',
            'handover_pin_wrong',
            'handover_pin_locked',
          ),
        },
      },
    },
    async (request) => {
      const taker = signedIn(request);
      const parcel = await takeOver(context(request), taker, request.params.id, request.body);
      request.log.info({ parcelId: parcel.id, runner: taker.user_name }, 'parcel relayed');
      return presentParcel(parcel);
    },
  );

  app.get(
    '/parcels/:id/custody',
    {
      onRequest: parcelGuard('seeCustody'),
      schema: {
        tags: ['relay'],
        summary: 'The parcel’s custody chain with names, and the first row that fails verification (superadmin)',
        params,
        response: { 200: custodyChainSchema, ...errorResponses(...GUARD_CODES, 'parcel_not_found') },
      },
    },
    async (request) => getCustodyChain(app.store.db, request.params.id),
  );

  app.post(
    '/parcels/:id/custody-override',
    {
      onRequest: parcelGuard('edit'),
      config: { idempotentAnswer: answerWith(200, presentParcel) },
      schema: {
        tags: ['relay'],
        summary: 'The superadmin names the runner who holds an in-transit parcel now, with a reason (recorded)',
        params,
        body: custodyOverrideBodySchema,
        response: {
          200: parcelSchema,
          ...errorResponses(
            ...GUARD_CODES,
            'parcel_not_found',
            'parcel_not_in_transit',
            'custody_unchanged',
            'parcel_changed_meanwhile',
            'assignee_not_runner',
          ),
        },
      },
    },
    async (request) => {
      const admin = signedIn(request);
      const parcel = await overrideHolder(context(request), admin, request.params.id, request.body);
      request.log.info({ parcelId: parcel.id, runner: parcel.runner_user_name }, 'custody overridden');
      return presentParcel(parcel);
    },
  );

  app.post(
    '/parcels/:id/relay-offer',
    {
      onRequest: parcelGuard('offerForRelay'),
      schema: {
        tags: ['relay'],
        summary: 'The holder offers the parcel for relay at a meeting point in Hungary within a time window',
        params,
        body: relayOfferBodySchema,
        response: {
          201: relayOfferSchema,
          ...errorResponses(...GUARD_CODES, ...CARRIER_REFUSALS, ...CARRIER_TRUST_CODES, 'relay_offer_unavailable'),
        },
      },
    },
    async (request, reply) => {
      const changes = app.changeFeed.forRequest(request.id);
      const offer = await createRelayOffer(app.store.db, changes, signedIn(request), request.params.id, request.body);
      return reply.status(201).send(offer);
    },
  );

  app.get(
    '/parcels/:id/relay-meeting-points',
    {
      onRequest: parcelGuard('offerForRelay'),
      schema: {
        tags: ['relay'],
        summary:
          'Stops where the holder’s saved trip and other runners’ saved trips both pass within the window, by the timetable: where to offer the parcel for relay',
        params,
        querystring: relayMeetingQuerySchema,
        response: {
          200: relayMeetingPointsSchema,
          ...errorResponses(...GUARD_CODES, ...CARRIER_REFUSALS, ...CARRIER_TRUST_CODES),
        },
      },
    },
    async (request) =>
      findMeetingPoints(
        app.store.db,
        app.travelTimes,
        signedIn(request),
        request.params.id,
        request.query,
        app.tripOffers.now(),
      ),
  );

  app.delete(
    '/parcels/:id/relay-offer',
    {
      onRequest: relayOfferGuard('withdraw'),
      schema: {
        tags: ['relay'],
        summary: 'The holder withdraws their open relay offer for the parcel',
        params,
        response: { 204: z.null(), ...errorResponses(...GUARD_CODES) },
      },
    },
    async (request, reply) => {
      await withdrawRelayOffer(app.changeFeed.forRequest(request.id), signedIn(request), request.params.id);
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/relay-offers',
    {
      onRequest: relayOfferGuard('list'),
      schema: {
        tags: ['relay'],
        summary: 'Open relay offers for a runner: unreserved or reserved by them, and their own',
        response: { 200: relayOfferListSchema, ...errorResponses(...GUARD_CODES, ...CARRIER_TRUST_CODES) },
      },
    },
    async (request) => listRelayOffers(app.store.db, signedIn(request)),
  );

  app.post(
    '/relay-offers/:offerId/take',
    {
      onRequest: relayOfferGuard('reserve'),
      schema: {
        tags: ['relay'],
        summary: 'A runner reserves an open relay offer until its window ends (the hand-over still needs the QR link)',
        params: z.object({ offerId: z.coerce.number().int().positive() }),
        response: {
          200: relayOfferSchema,
          ...errorResponses(
            ...GUARD_CODES,
            ...CARRIER_TRUST_CODES,
            'relay_offer_not_found',
            'relay_offer_unavailable',
            'relay_own_parcel',
          ),
        },
      },
    },
    async (request) =>
      takeRelayOffer(app.store.db, app.changeFeed.forRequest(request.id), signedIn(request), request.params.offerId),
  );
};
