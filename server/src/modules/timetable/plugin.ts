import fp from 'fastify-plugin';
import { motisTravelTimes } from './motis.ts';
import { TimetableTravelTimes } from './service.ts';
import type { TravelTimes } from './travel-times.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Trips' minutes (ADR 0029): an operator's MOTIS when configured, else the imported timetable, else the straight line. */
    travelTimes: TravelTimes;
    /** The imported timetable as this instance holds it. */
    timetable: TimetableTravelTimes;
  }
}

/** Loads the active timetable before the app answers; a newer import is noticed as trips ask (service.ts). */
export const timetablePlugin = fp(async (app) => {
  const timetable = new TimetableTravelTimes(app.store.db, app.log, app.config.timetableCheckMs);
  app.decorate('timetable', timetable);
  const { travelTimeUrl, travelTimeTimeoutMs } = app.config;
  app.decorate(
    'travelTimes',
    travelTimeUrl
      ? motisTravelTimes({ url: travelTimeUrl, timeoutMs: travelTimeTimeoutMs, fallback: timetable, log: app.log })
      : timetable,
  );
  app.addHook('onReady', () => timetable.refresh());
});
