import { budapestDay } from '@csomag/domain/format';
import { type TimetableStatus, timetableStatusSchema } from '@csomag/domain/trip-api';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponses } from '../../errors.ts';
import { GUARD_CODES } from '../../plugins/auth.ts';
import { timetableGuard } from './policy.ts';
import { activeFeeds } from './store.ts';

/** The back office's view of the timetables in use ('Menetrendek', ADR 0029). */
export const timetableRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/admin/timetables',
    {
      onRequest: timetableGuard('listFeeds'),
      schema: {
        tags: ['back office'],
        summary:
          'The GTFS feeds in use (npm run gtfs:import), the dates each covers and whether it has expired; whether an external journey planner (TRAVEL_TIME_URL) answers first',
        response: { 200: timetableStatusSchema, ...errorResponses(...GUARD_CODES) },
      },
    },
    async (): Promise<TimetableStatus> => {
      const active = await activeFeeds(app.store.db);
      const today = budapestDay(app.tripOffers.now());
      return {
        importedAt: active?.importedAt ?? null,
        feeds: (active?.feeds ?? []).map((feed) => ({ ...feed, expired: feed.validUntil < today })),
        external: app.config.travelTimeUrl !== undefined,
      };
    },
  );
};
