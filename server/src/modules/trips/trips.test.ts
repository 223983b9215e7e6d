import { budapestDay } from '@csomag/domain/format';
import { messages } from '@csomag/domain/messages';
import type { Parcel } from '@csomag/domain/parcel';
import { SAVED_TRIPS_MAX, type SavedTrip, type TripMatch } from '@csomag/domain/trip-api';
import { TRIP_MAX_KM } from '@csomag/domain/trips';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type SignedIn, signInSuperadmin, signUp, type TestApp, testStore } from '../../test/harness.ts';
import { sendParcel } from '../../test/parcels.ts';
import { type FakePushService, startFakePushService, type TestDevice } from '../../test/push-service.ts';
import { listenLocally, openEventStream, type SseStream } from '../../test/sse.ts';
import { budapestClock, newestChange, savedTripBody } from '../../test/trips.ts';

/**
 * Trips through the API on a real database (issue 13, docs/decisions/0021): matches, saved trips
 * and their privacy, live and push offers of new parcels to active saved trips.
 */

let t: TestApp;
let other: FastifyInstance | undefined;
let baseUrl: string;
let otherUrl: string | undefined;
let service: FakePushService;
let sender: SignedIn;
let admin: SignedIn;
const streams: SseStream[] = [];
/** The clock the trips module decides "active" by: fixed for the whole file. */
const NOW = Date.now();

beforeAll(async () => {
  t = await createTestApp({ PUSH_ALLOW_LOOPBACK: '1' });
  t.app.tripOffers.now = () => NOW;
  baseUrl = await listenLocally(t.app);
  // PostgreSQL: a second instance offers to the streams it holds, and sends no second push.
  if (testStore === 'postgres') {
    other = await t.addInstance();
    other.tripOffers.now = () => NOW;
    otherUrl = await listenLocally(other);
  }
  service = await startFakePushService();
  sender = await signUp(t.app);
  admin = await signInSuperadmin(t.app);
});
afterAll(async () => {
  for (const stream of streams) stream.close();
  await t.close();
  await service.close();
});

const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, who?: SignedIn, payload?: unknown) =>
  t.app.inject({
    method,
    url,
    headers: who ? { cookie: who.cookie } : {},
    ...(payload !== undefined ? { payload: payload as Record<string, unknown> } : {}),
  });

// A trip across Budapest, west to east along one parallel (~9 km).
const FROM = { lat: 47.4979, lng: 19.0 };
const TO = { lat: 47.4979, lng: 19.12 };
const DEBRECEN = { lat: 47.5316, lng: 21.6273 };
const trip = (overrides: Record<string, unknown> = {}) => ({ from: FROM, to: TO, mode: 'bike', ...overrides });

const parcelAt = (pickup: { lat: number; lng: number }, delivery: { lat: number; lng: number }) =>
  sendParcel(t.app, sender.cookie, {
    senderAddress: '1052 Budapest, Váci utca 12',
    receiverAddress: '1087 Budapest, Kerepesi út 2',
    senderCoordinates: pickup,
    receiverCoordinates: delivery,
  });

async function matches(who: SignedIn, body: Record<string, unknown>) {
  const response = await call('POST', '/api/trips/matches', who, body);
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as { matches: TripMatch[]; trip: { minutes: number } };
}

const clockIn = (minutes: number) => budapestClock(NOW, minutes);

const savedTrip = (overrides: Record<string, unknown> = {}) => savedTripBody(NOW, { ...trip(), ...overrides });

async function save(who: SignedIn, overrides: Record<string, unknown> = {}) {
  const response = await call('POST', '/api/me/trips', who, savedTrip(overrides));
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as SavedTrip;
}

const countTrips = async () =>
  Number(
    (
      await t.store.db
        .selectFrom('saved_trips')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('POST /api/trips/matches', () => {
  let runner: SignedIn;
  const parcels: Record<string, Parcel> = {};
  beforeAll(async () => {
    runner = await signUp(t.app, { role: 'runner' });
    // Created in this order: onTheWay is older than onTheWayLater.
    parcels.onTheWay = await parcelAt({ lat: 47.4979, lng: 19.03 }, { lat: 47.4979, lng: 19.09 });
    parcels.onTheWayLater = await parcelAt({ lat: 47.4979, lng: 19.03 }, { lat: 47.4979, lng: 19.09 });
    parcels.aside = await parcelAt({ lat: 47.515, lng: 19.04 }, { lat: 47.515, lng: 19.08 });
    parcels.wrongWay = await parcelAt({ lat: 47.4979, lng: 19.09 }, { lat: 47.4979, lng: 19.03 });
    parcels.debrecen = await parcelAt(DEBRECEN, { lat: 47.52, lng: 21.62 });
  });
  const ours = (found: TripMatch[]) => found.filter((m) => Object.values(parcels).some((p) => p.id === m.id));

  it('answers the fitting parcels ranked by added minutes, then age, each with its +minutes', async () => {
    const { matches: found, trip: summary } = await matches(runner, trip());
    expect(summary.minutes).toBe(47);
    const mine = ours(found);
    expect(mine.map((m) => m.id)).toEqual([parcels.onTheWay?.id, parcels.onTheWayLater?.id, parcels.aside?.id]);
    expect(mine.map((m) => m.addedMinutes)).toEqual([0, 0, 6]);
    // The waiting list's shape: from, to, category, weight, coordinates.
    expect(mine[2]).toMatchObject({
      senderAddress: parcels.aside?.senderAddress,
      receiverAddress: parcels.aside?.receiverAddress,
      category: parcels.aside?.category,
      weightGrams: parcels.aside?.weightGrams,
      senderCoordinates: { lat: 47.515, lng: 19.04 },
      status: 'waiting',
    });
  });

  it('does not offer a parcel that fits only in the wrong direction (delivery before pickup)', async () => {
    // Both its points lie on the way; carried backwards it adds ~47 minutes.
    const found = ours((await matches(runner, trip({ maxDetourMinutes: 30 }))).matches);
    expect(found.map((m) => m.id)).not.toContain(parcels.wrongWay?.id);
    const generous = ours((await matches(runner, trip({ maxDetourMinutes: 60 }))).matches);
    expect(generous.find((m) => m.id === parcels.wrongWay?.id)?.addedMinutes).toBeGreaterThan(30);
  });

  it('does not offer a parcel in Debrecen for a trip across Budapest by public transport', async () => {
    const found = ours((await matches(runner, trip({ mode: 'transit', maxDetourMinutes: 120 }))).matches);
    expect(found.map((m) => m.id)).not.toContain(parcels.debrecen?.id);
    expect(found.length).toBeGreaterThan(0);
  });

  it('keeps only parcels within the minutes allowed', async () => {
    const found = ours((await matches(runner, trip({ maxDetourMinutes: 3 }))).matches);
    expect(found.map((m) => m.id)).toEqual([parcels.onTheWay?.id, parcels.onTheWayLater?.id]);
  });

  it('offers a parcel no longer once it is picked up', async () => {
    const taken = await parcelAt({ lat: 47.4979, lng: 19.05 }, { lat: 47.4979, lng: 19.06 });
    expect((await matches(runner, trip())).matches.map((m) => m.id)).toContain(taken.id);
    const pickup = await call('POST', `/api/parcels/${taken.id}/pickup`, runner, {});
    expect(pickup.statusCode, pickup.body).toBe(200);
    expect((await matches(runner, trip())).matches.map((m) => m.id)).not.toContain(taken.id);
  });

  it.each([
    ['from equal to to', { to: FROM }, 'to', messages.tripSamePoints],
    ['from within 50 m of to', { to: { lat: FROM.lat + 0.0002, lng: FROM.lng } }, 'to', messages.tripSamePoints],
    ['a trip of 2,000 km', { to: { lat: 47.5, lng: 45 } }, 'to', messages.tripTooLong(TRIP_MAX_KM)],
    ['0 minutes', { maxDetourMinutes: 0 }, 'maxDetourMinutes', messages.tripDetourInvalid(1, 120)],
    ['10,000 minutes', { maxDetourMinutes: 10_000 }, 'maxDetourMinutes', messages.tripDetourInvalid(1, 120)],
    ['2.5 minutes', { maxDetourMinutes: 2.5 }, 'maxDetourMinutes', messages.tripDetourInvalid(1, 120)],
    ['a mode by car', { mode: 'car' }, 'mode', messages.tripModeInvalid],
    ['a latitude of 91', { from: { lat: 91, lng: 19 } }, 'from.lat', messages.invalidCoordinates],
    ['a longitude of -181', { to: { lat: 47, lng: -181 } }, 'to.lng', messages.invalidCoordinates],
    ['a departure in the past', { departure: '2020-01-01T08:00:00+01:00' }, 'departure', messages.tripDepartureInPast],
    [
      'a departure the day after tomorrow',
      { departure: new Date(Date.now() + 3 * 86_400_000).toISOString() },
      'departure',
      messages.tripDepartureTooLate,
    ],
    ['a departure that is no time', { departure: 'holnap' }, 'departure', messages.tripDepartureInvalid],
  ])('refuses %s (400, in Hungarian)', async (_name, change, field, message) => {
    const response = await call('POST', '/api/trips/matches', runner, trip(change));
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe('invalid_body');
    expect(response.json().error.fields[field]).toBe(message);
  });

  it('takes a departure now or later today', async () => {
    await matches(runner, trip({ departure: 'now' }));
    await matches(runner, trip({ departure: new Date(Date.now() + 60_000).toISOString() }));
    expect(budapestDay(Date.now())).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it('refuses users (403), the superadmin (403) and strangers (401)', async () => {
    const user = await signUp(t.app);
    expect((await call('POST', '/api/trips/matches', user, trip())).statusCode).toBe(403);
    expect((await call('POST', '/api/trips/matches', admin, trip())).statusCode).toBe(403);
    const stranger = await call('POST', '/api/trips/matches', undefined, trip());
    expect(stranger.statusCode).toBe(401);
    expect(stranger.json().error.code).toBe('sign_in_required');
  });
});

describe('saved trips', () => {
  it('saves, lists, pauses, resumes, edits and deletes a trip ("Hétköznap 7:40")', async () => {
    const runner = await signUp(t.app, { role: 'runner' });
    const created = await save(runner, { label: 'Hétköznap reggel', weekdays: [5, 1, 2, 3, 4, 1], time: '07:40' });
    expect(created).toMatchObject({
      label: 'Hétköznap reggel',
      from: FROM,
      to: TO,
      mode: 'bike',
      maxDetourMinutes: 10,
      weekdays: [1, 2, 3, 4, 5],
      time: '07:40',
      paused: false,
      // Its ends named as a list of trips reads them (issue 27).
      fromPlace: expect.stringMatching(/^Budapest [IVX]+\. kerület$/),
      toPlace: expect.stringMatching(/^Budapest [IVX]+\. kerület$/),
    });
    const departure = new Date(created.nextDepartureAt);
    expect(departure.getTime()).toBeGreaterThanOrEqual(NOW);
    expect(
      new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/Budapest', hourCycle: 'h23', timeStyle: 'short' }).format(
        departure,
      ),
    ).toBe('07:40');

    expect((await call('GET', '/api/me/trips', runner)).json()).toEqual({ items: [created] });

    const paused = await call('PATCH', `/api/me/trips/${created.id}`, runner, { paused: true });
    expect(paused.statusCode).toBe(200);
    expect(paused.json()).toMatchObject({ paused: true, active: false, label: 'Hétköznap reggel' });
    const resumed = await call('PATCH', `/api/me/trips/${created.id}`, runner, { paused: false, time: '08:05' });
    expect(resumed.json()).toMatchObject({ paused: false, time: '08:05' });

    const removed = await call('DELETE', `/api/me/trips/${created.id}`, runner);
    expect(removed.statusCode).toBe(204);
    expect((await call('GET', '/api/me/trips', runner)).json()).toEqual({ items: [] });
    expect((await call('DELETE', `/api/me/trips/${created.id}`, runner)).statusCode).toBe(404);
  });

  it('is 404 for another runner: read, edit or delete; nothing changes', async () => {
    const owner = await signUp(t.app, { role: 'runner' });
    const stranger = await signUp(t.app, { role: 'runner' });
    const mine = await save(owner);
    for (const [method, payload] of [
      ['PATCH', { paused: true }],
      ['DELETE', undefined],
    ] as const) {
      const response = await call(method, `/api/me/trips/${mine.id}`, stranger, payload);
      expect(response.statusCode).toBe(404);
      expect(response.json().error).toEqual({ code: 'trip_not_found', message: messages.tripNotFound });
    }
    expect((await call('GET', '/api/me/trips', stranger)).json()).toEqual({ items: [] });
    expect((await call('GET', '/api/me/trips', owner)).json()).toEqual({ items: [mine] });
  });

  it('has no route for anyone else: users and the superadmin are refused (403), strangers (401)', async () => {
    const user = await signUp(t.app);
    for (const who of [user, admin]) {
      expect((await call('GET', '/api/me/trips', who)).statusCode).toBe(403);
      expect((await call('POST', '/api/me/trips', who, savedTrip())).statusCode).toBe(403);
    }
    expect((await call('GET', '/api/me/trips')).statusCode).toBe(401);
    expect((await call('POST', '/api/me/trips', undefined, savedTrip())).statusCode).toBe(401);
  });

  it.each([
    ['from equal to to', { to: FROM }, 'to', messages.tripSamePoints],
    ['a trip of 2,000 km', { to: { lat: 47.5, lng: 45 } }, 'to', messages.tripTooLong(TRIP_MAX_KM)],
    ['0 minutes', { maxDetourMinutes: 0 }, 'maxDetourMinutes', messages.tripDetourInvalid(1, 120)],
    ['10,000 minutes', { maxDetourMinutes: 10_000 }, 'maxDetourMinutes', messages.tripDetourInvalid(1, 120)],
    ['no weekday', { weekdays: [] }, 'weekdays', messages.tripWeekdaysInvalid],
    ['weekday 8', { weekdays: [8] }, 'weekdays.0', messages.tripWeekdaysInvalid],
    ['a time of 24:00', { time: '24:00' }, 'time', messages.tripTimeInvalid],
    ['an empty label', { label: '  ' }, 'label', messages.tripLabelInvalid(60)],
    ['a mode by car', { mode: 'car' }, 'mode', messages.tripModeInvalid],
  ])('refuses to save %s (400, in Hungarian), saving nothing', async (_name, change, field, message) => {
    const runner = await signUp(t.app, { role: 'runner' });
    const before = await countTrips();
    const response = await call('POST', '/api/me/trips', runner, savedTrip(change));
    expect(response.statusCode).toBe(400);
    expect(response.json().error.fields[field]).toBe(message);
    expect(await countTrips()).toBe(before);
  });

  it('refuses an edit that makes the trip invalid, changing nothing', async () => {
    const runner = await signUp(t.app, { role: 'runner' });
    const mine = await save(runner);
    const response = await call('PATCH', `/api/me/trips/${mine.id}`, runner, { to: FROM, label: 'Más' });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.fields.to).toBe(messages.tripSamePoints);
    expect((await call('GET', '/api/me/trips', runner)).json()).toEqual({ items: [mine] });
    expect((await call('PATCH', `/api/me/trips/${mine.id}`, runner, {})).statusCode).toBe(400);
  });

  it(`keeps at most ${SAVED_TRIPS_MAX} per runner (409)`, async () => {
    const runner = await signUp(t.app, { role: 'runner' });
    for (let i = 0; i < SAVED_TRIPS_MAX; i++) await save(runner, { label: `Út ${i}`, time: '23:59' });
    const response = await call('POST', '/api/me/trips', runner, savedTrip());
    expect(response.statusCode).toBe(409);
    expect(response.json().error).toEqual({
      code: 'saved_trips_limit',
      message: messages.tripLimitReached(SAVED_TRIPS_MAX),
    });
  });
});

describe('offers of new parcels to saved trips', () => {
  async function meStream(who: SignedIn, url = baseUrl) {
    const stream = await openEventStream(url, 'me', { cookie: who.cookie });
    streams.push(stream);
    expect(stream.status).toBe(200);
    return stream;
  }
  const onTheWay = () => parcelAt({ lat: 47.4979, lng: 19.03 }, { lat: 47.4979, lng: 19.09 });
  /** Every instance has offered every change committed so far. */
  const offers = async () => {
    const id = await newestChange(t.store);
    await Promise.all([t.app, ...(other ? [other] : [])].map((app) => app.tripOffers.settledThrough(id)));
  };

  it('reaches the owner live while the trip is active, not for a parcel that does not fit', async () => {
    const runner = await signUp(t.app, { role: 'runner' });
    const mine = await save(runner);
    expect(mine.active).toBe(true);
    const stream = await meStream(runner);
    await parcelAt(DEBRECEN, { lat: 47.52, lng: 21.62 });
    const fitting = await onTheWay();
    // The first message is the fitting parcel's offer: the Debrecen one, created before, was not offered.
    expect((await stream.next())?.data).toEqual({
      topic: 'me',
      kind: 'trip_offer',
      parcelId: fitting.id,
      status: 'waiting',
      tripId: mine.id,
      addedMinutes: 0,
    });
  });

  it('is not sent while the trip is paused, nor when it departs later than within the hour', async () => {
    const paused = await signUp(t.app, { role: 'runner' });
    const later = await signUp(t.app, { role: 'runner' });
    const pausedTrip = await save(paused, { paused: true });
    const laterTrip = await save(later, { time: clockIn(150) });
    expect(laterTrip.active).toBe(false);
    const pausedStream = await meStream(paused);
    const laterStream = await meStream(later);
    const first = await onTheWay();
    await offers();
    // Resumed and due now: the next parcel is offered, and it is the first thing either stream hears.
    await call('PATCH', `/api/me/trips/${pausedTrip.id}`, paused, { paused: false });
    await call('PATCH', `/api/me/trips/${laterTrip.id}`, later, { time: clockIn(45) });
    const second = await onTheWay();
    for (const stream of [pausedStream, laterStream]) {
      const message = await stream.next();
      expect(message?.data).toMatchObject({ kind: 'trip_offer', parcelId: second.id });
      expect(stream.raw.join('\n')).not.toContain(first.id);
    }
  });

  it("works out the active trips' times ahead, once each, and offers from them", async () => {
    const runner = await signUp(t.app, { role: 'runner' });
    await save(runner);
    const stream = await meStream(runner);
    // The trip saved just now has no plan yet; worked out once, it is not worked out again.
    expect(await t.app.tripOffers.warm()).toBeGreaterThanOrEqual(1);
    expect(await t.app.tripOffers.warm()).toBe(0);
    const offered = await onTheWay();
    expect((await stream.next())?.data).toMatchObject({ kind: 'trip_offer', parcelId: offered.id });
  });

  it('is never heard by another runner', async () => {
    const owner = await signUp(t.app, { role: 'runner' });
    const bystander = await signUp(t.app, { role: 'runner' });
    await save(owner);
    const bystanderStream = await meStream(bystander);
    const ownerStream = await meStream(owner);
    const offered = await onTheWay();
    expect((await ownerStream.next())?.data).toMatchObject({ kind: 'trip_offer', parcelId: offered.id });
    await offers();
    // The bystander's next message is its own: a parcel it picks up.
    const mineNow = await onTheWay();
    await call('POST', `/api/parcels/${mineNow.id}/pickup`, bystander, {});
    expect((await bystanderStream.next())?.data).toMatchObject({ kind: 'picked_up', parcelId: mineNow.id });
  });

  // PostgreSQL only: SQLite is one instance.
  if (testStore === 'postgres') {
    it('is offered by the instance holding the stream', async () => {
      const runner = await signUp(t.app, { role: 'runner' });
      await save(runner);
      const stream = await meStream(runner, otherUrl);
      const fitting = await onTheWay();
      expect((await stream.next())?.data).toMatchObject({ kind: 'trip_offer', parcelId: fitting.id });
    });
  }

  it('is pushed once to the owner, and not when the runner switched trip offers off', async () => {
    const runner = await signUp(t.app, { role: 'runner' });
    const device: TestDevice = service.device();
    const added = await call('POST', '/api/me/push-devices', runner, device.subscription);
    expect(added.statusCode, added.body).toBe(201);
    await save(runner);
    const fitting = await onTheWay();
    const [push] = await service.waitForPushes(device, 1);
    expect(device.open((push as { body: Buffer }).body)).toMatchObject({
      type: 'trip_offer',
      parcelId: fitting.id,
      status: messages.pushStatusTripOffer(fitting.id),
    });

    const off = await call('PATCH', '/api/me/push-preferences', runner, { kinds: { trip_offer: false } });
    expect(off.statusCode, off.body).toBe(200);
    await onTheWay();
    // The switch is back on for the third: only the first and the third arrive, each once.
    await settlePush();
    await call('PATCH', '/api/me/push-preferences', runner, { kinds: { trip_offer: true } });
    const third = await onTheWay();
    const pushes = await service.waitForPushes(device, 2);
    await settlePush();
    expect(service.pushesTo(device)).toHaveLength(2);
    expect(device.open((pushes[1] as { body: Buffer }).body).parcelId).toBe(third.id);
  });
});

async function settlePush() {
  const id = await newestChange(t.store);
  await Promise.all([t.app, ...(other ? [other] : [])].map((app) => app.push.settledThrough(id)));
}
