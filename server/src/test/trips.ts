import type { FastifyInstance } from 'fastify';
import type { Store } from '../db/database.ts';

/** The Budapest clock 'HH:MM' at `now` + `minutes`: a saved trip's departure time. */
export const budapestClock = (now: number, minutes = 0) =>
  new Intl.DateTimeFormat('en-GB', {
    timeZone: 'Europe/Budapest',
    hourCycle: 'h23',
    hour: '2-digit',
    minute: '2-digit',
  }).format(new Date(now + minutes * 60_000));

/** A saved trip across Budapest (west to east, ~9 km) every day, departing within the hour of `now`. */
export const savedTripBody = (now: number, overrides: Record<string, unknown> = {}) => ({
  label: 'Munkába',
  from: { lat: 47.4979, lng: 19.0 },
  to: { lat: 47.4979, lng: 19.12 },
  mode: 'bike',
  weekdays: [1, 2, 3, 4, 5, 6, 7],
  time: budapestClock(now, 30),
  ...overrides,
});

/** The id of the newest change committed: what the change feed's listeners are waited on for. */
export async function newestChange(store: Store) {
  const newest = await store.db
    .selectFrom('change_log')
    .select((eb) => eb.fn.max('id').as('id'))
    .executeTakeFirst();
  return Number(newest?.id ?? 0);
}

/** Every one of `apps` has offered (trip offers) and pushed every change committed so far. */
export async function offeredAndPushed(store: Store, apps: FastifyInstance[]) {
  const id = await newestChange(store);
  await Promise.all(apps.map((app) => Promise.all([app.tripOffers.settledThrough(id), app.push.settledThrough(id)])));
}
