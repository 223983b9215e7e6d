import {
  savedTripBodySchema,
  savedTripListSchema,
  savedTripParamsSchema,
  savedTripPatchSchema,
  savedTripSchema,
  tripMatchesResponseSchema,
  tripQuerySchema,
} from '@csomag/domain/trip-api';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses } from '../../errors.ts';
import { GUARD_CODES, signedIn } from '../../plugins/auth.ts';
import { CARRIER_TRUST_CODES } from '../../policy.ts';
import { tripGuard } from './policy.ts';
import { createSavedTrip, deleteSavedTrip, findMatches, listSavedTrips, updateSavedTrip } from './service.ts';

/**
 * A runner's trips (issue 13, docs/decisions/0021): the waiting parcels on the way, and saved
 * trips. Only runners; a saved trip only for its owner (another's is 404), nobody else — the
 * superadmin included — has a route to them.
 */
export const tripRoutes: FastifyPluginAsyncZod = async (app) => {
  const now = () => app.tripOffers.now();

  app.post(
    '/trips/matches',
    {
      onRequest: tripGuard('match'),
      schema: {
        tags: ['trips'],
        summary:
          'The trip at its departure (minutes, arrival and legs by the imported timetable, an external journey planner or the straight line, and which answered), the waiting parcels whose pickup and delivery fit it, ranked by the minutes they add, then by age (at most 50); and the open relay offers on the way that bring their parcel closer',
        body: tripQuerySchema,
        response: { 200: tripMatchesResponseSchema, ...errorResponses(...GUARD_CODES, ...CARRIER_TRUST_CODES) },
      },
    },
    async (request) =>
      findMatches(app.store, app.travelTimes, signedIn(request), request.body, now(), app.timetable.validUntil(), {
        pool: app.waitingPool,
      }),
  );

  app.get(
    '/me/trips',
    {
      onRequest: tripGuard('manage'),
      schema: {
        tags: ['trips'],
        summary: 'My saved trips, by departure time',
        response: { 200: savedTripListSchema, ...errorResponses(...GUARD_CODES) },
      },
    },
    async (request) => listSavedTrips(app.store.db, signedIn(request), now()),
  );

  app.post(
    '/me/trips',
    {
      onRequest: tripGuard('manage'),
      schema: {
        tags: ['trips'],
        summary: 'Save a regular trip (weekdays and a time); at most 20',
        body: savedTripBodySchema,
        response: { 201: savedTripSchema, ...errorResponses(...GUARD_CODES, 'saved_trips_limit') },
      },
    },
    async (request, reply) => {
      const trip = await createSavedTrip(app.store.db, signedIn(request), request.body, now());
      return reply.status(201).send(trip);
    },
  );

  app.patch(
    '/me/trips/:id',
    {
      onRequest: tripGuard('manage'),
      schema: {
        tags: ['trips'],
        summary: 'Edit, pause ({paused: true}) or resume ({paused: false}) one of my saved trips',
        params: savedTripParamsSchema,
        body: savedTripPatchSchema,
        response: { 200: savedTripSchema, ...errorResponses(...GUARD_CODES, 'trip_not_found') },
      },
    },
    async (request) => updateSavedTrip(app.store.db, signedIn(request), request.params.id, request.body, now()),
  );

  app.delete(
    '/me/trips/:id',
    {
      onRequest: tripGuard('manage'),
      schema: {
        tags: ['trips'],
        summary: 'Delete one of my saved trips',
        params: savedTripParamsSchema,
        response: { 204: z.null(), ...errorResponses(...GUARD_CODES, 'trip_not_found') },
      },
    },
    async (request, reply) => {
      await deleteSavedTrip(app.store.db, signedIn(request), request.params.id);
      return reply.status(204).send(null);
    },
  );
};
