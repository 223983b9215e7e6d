import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { budapestDay, budapestInstant } from '@csomag/domain/format';
import type { Parcel } from '@csomag/domain/parcel';
import type { RelayMeetingPoints, TimetableStatus, TripMatchesResponse } from '@csomag/domain/trip-api';
import { straightLineModel } from '@csomag/domain/trips';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pickUp } from '../../test/delivery.ts';
import { m3Feed, m3Stops } from '../../test/gtfs-feeds.ts';
import { createTestApp, type SignedIn, signInSuperadmin, signUp, type TestApp } from '../../test/harness.ts';
import { sendParcel } from '../../test/parcels.ts';
import { newestChange } from '../../test/trips.ts';
import { GtfsFormatError } from '../timetable/gtfs/gtfs-format-error.ts';
import { writeGtfsZip } from '../timetable/gtfs/write-gtfs.ts';
import { activeFeeds, importTimetable } from '../timetable/store.ts';
import type { TripOffer } from './trip-offers.ts';

/**
 * Trips on a real timetable through the API, on both stores (issue 26, docs/decisions/0029): the
 * M3 from Újpest-központ to Deák Ferenc tér every 5 minutes (test/gtfs-feeds.ts). Every expected
 * minute is worked out from the feed's times and the walking model by hand below.
 */

let t: TestApp;
let folder: string;
let sender: SignedIn;
let runner: SignedIn;
let admin: SignedIn;

const DAY_MS = 86_400_000;
const today = budapestDay(Date.now());
const dayOffset = (days: number) => budapestDay(Date.parse(`${today}T12:00:00Z`) + days * DAY_MS);
const tomorrow = dayOffset(1);
/** A day ('YYYY-MM-DD') at hh:mm in Budapest, as an instant. */
const dayAt = (day: string, hour: number, minute: number) => {
  const [y = 0, m = 0, d = 0] = day.split('-').map(Number);
  return budapestInstant(y, m, d, hour, minute);
};
const tomorrowAt = (hour: number, minute: number) => dayAt(tomorrow, hour, minute);
const iso = (at: number) => new Date(at).toISOString();

/** `metres` north (negative: south) or east of a point. */
const north = (p: { lat: number; lng: number }, metres: number) => ({ lat: p.lat + metres / 111_195, lng: p.lng });
const east = (p: { lat: number; lng: number }, metres: number) => ({
  lat: p.lat,
  lng: p.lng + metres / (111_195 * Math.cos((p.lat * Math.PI) / 180)),
});
const walkMs = (a: { lat: number; lng: number }, b: { lat: number; lng: number }) =>
  straightLineModel.minutes(a, b, 'walk') * 60_000;

const FROM = north(m3Stops.ujpest, 60);
const TO = north(m3Stops.deak, -60);
const LEHEL_PARCEL = east(m3Stops.lehel, 40);
const NYUGATI_PARCEL = east(m3Stops.nyugati, 40);
const OBUDA = { lat: 47.5417, lng: 19.0373 };

async function importFeed(name: string, files: Record<string, string>) {
  const path = join(folder, name);
  writeGtfsZip(path, files);
  await importTimetable(t.store.db, [path]);
  await t.app.timetable.refresh();
  return path;
}

async function matches(body: Record<string, unknown>, who: SignedIn = runner) {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/trips/matches',
    headers: { cookie: who.cookie },
    payload: { from: FROM, to: TO, mode: 'transit', maxDetourMinutes: 30, ...body },
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as TripMatchesResponse;
}

const parcelAt = (pickup: { lat: number; lng: number }, delivery: { lat: number; lng: number }) =>
  sendParcel(t.app, sender.cookie, {
    senderAddress: '1052 Budapest, Váci utca 12',
    receiverAddress: '1087 Budapest, Kerepesi út 2',
    senderCoordinates: pickup,
    receiverCoordinates: delivery,
  });

beforeAll(async () => {
  t = await createTestApp();
  folder = mkdtempSync(join(tmpdir(), 'csomag-gtfs-'));
  sender = await signUp(t.app);
  runner = await signUp(t.app, { role: 'runner' });
  admin = await signInSuperadmin(t.app);
  await importFeed('bkk.zip', m3Feed({ start: dayOffset(-1), end: dayOffset(7) }));
});
afterAll(async () => {
  await t.close();
  rmSync(folder, { recursive: true, force: true });
});

describe('a trip by the timetable', () => {
  let onTheWay: Parcel;
  let farFromStops: Parcel;
  beforeAll(async () => {
    onTheWay = await parcelAt(LEHEL_PARCEL, NYUGATI_PARCEL);
    farFromStops = await parcelAt(OBUDA, north(m3Stops.deak, 30));
  });

  it('rides the M3 leaving at 7:40: the 7:42 from Újpest-központ, at Deák Ferenc tér 7:55, with the walks', async () => {
    const { trip } = await matches({ departure: iso(tomorrowAt(7, 40)) });
    expect(trip.source).toBe('timetable');
    expect(trip.fallback).toBeNull();
    // A minute's walk to the platform, the 7:42, 13 minutes to Deák, a minute's walk from it.
    const arrival = tomorrowAt(7, 55) + walkMs(m3Stops.deak, TO);
    expect(Math.abs(Date.parse(trip.arriveAt ?? '') - arrival)).toBeLessThan(1000);
    expect(trip.minutes).toBe(Math.ceil((arrival - tomorrowAt(7, 40)) / 60_000 - 0.01));
    expect(trip.legs.map((leg) => leg.kind)).toEqual(['walk', 'ride', 'walk']);
    const ride = trip.legs[1];
    if (ride?.kind !== 'ride') throw new Error('a ride');
    expect(ride.route).toBe('M3');
    expect(ride.from).toMatchObject({ name: 'Újpest-központ', at: iso(tomorrowAt(7, 42)) });
    expect(ride.to).toMatchObject({ name: 'Deák Ferenc tér', at: iso(tomorrowAt(7, 55)) });
    expect(ride.path).toHaveLength(5);
  });

  it('offers a parcel at Lehel tér for Nyugati with the minutes of the real ride: two trains later, +10', async () => {
    const { matches: found } = await matches({ departure: iso(tomorrowAt(7, 40)) });
    // Off at Lehel 7:49, the parcel and back, the 7:54 to Nyugati (7:56), the door and back, the 8:01
    // to Deák (8:05): ten minutes after the 7:55.
    expect(found.find((m) => m.id === onTheWay.id)?.addedMinutes).toBe(10);
    // Óbuda is 2.5 km from every stop of the line: the walk alone is over the 30 minutes allowed.
    expect(found.find((m) => m.id === farFromStops.id)).toBeUndefined();
  });

  it('answers another time differently: at 23:50 the last train has gone, and walking beats waiting for the 5:02', async () => {
    const { trip } = await matches({ departure: iso(tomorrowAt(23, 50)) });
    expect(trip.source).toBe('timetable');
    expect(trip.legs.map((leg) => leg.kind)).toEqual(['walk']);
    const walk = walkMs(FROM, TO);
    expect(Math.abs(Date.parse(trip.arriveAt ?? '') - (tomorrowAt(23, 50) + walk))).toBeLessThan(1000);
    expect(trip.minutes).toBeGreaterThan(100);
  });

  it('estimates in a straight line, and says why, where the timetable does not reach', async () => {
    const debrecen = { lat: 47.5316, lng: 21.6273 };
    const { trip } = await matches({ from: debrecen, to: north(debrecen, 3000), departure: 'now' });
    expect(trip).toMatchObject({ source: 'straight-line', fallback: 'outside_timetable', legs: [] });
    expect(trip.minutes).toBeGreaterThan(0);
  });

  it('offers a new parcel to an active saved trip with the timetable’s minutes', async () => {
    t.app.tripOffers.now = () => tomorrowAt(7, 10);
    const saved = await t.app.inject({
      method: 'POST',
      url: '/api/me/trips',
      headers: { cookie: runner.cookie },
      payload: {
        label: 'Reggel',
        from: FROM,
        to: TO,
        mode: 'transit',
        weekdays: [1, 2, 3, 4, 5, 6, 7],
        time: '07:40',
        maxDetourMinutes: 30,
      },
    });
    expect(saved.statusCode, saved.body).toBe(201);
    const seen: TripOffer[] = [];
    const stop = t.app.tripOffers.onOffer((offer) => seen.push(offer));
    try {
      const parcel = await parcelAt(LEHEL_PARCEL, NYUGATI_PARCEL);
      await t.app.tripOffers.settledThrough(await newestChange(t.store));
      expect(seen.find((offer) => offer.parcelId === parcel.id)).toMatchObject({ label: 'Reggel', addedMinutes: 10 });
    } finally {
      stop();
      t.app.tripOffers.now = Date.now;
    }
  });
});

describe('relay meeting points where trips meet', () => {
  it('suggests the stops both the carrier’s and another runner’s saved trips pass in the window', async () => {
    const carrier = await signUp(t.app, { role: 'runner' });
    const taker = await signUp(t.app, { role: 'runner' });
    // Going south: a trip on to Deák brings it closer, over a kilometre nearer than Lehel or Nyugati.
    const parcel = await parcelAt(LEHEL_PARCEL, { lat: 47.46, lng: 19.06 });
    await pickUp(t.app, carrier.cookie, parcel.id);
    t.app.tripOffers.now = () => tomorrowAt(7, 10);
    try {
      const trip = (
        who: SignedIn,
        from: { lat: number; lng: number },
        to: { lat: number; lng: number },
        time: string,
      ) =>
        t.app.inject({
          method: 'POST',
          url: '/api/me/trips',
          headers: { cookie: who.cookie },
          payload: { label: 'Út', from, to, mode: 'transit', weekdays: [1, 2, 3, 4, 5, 6, 7], time },
        });
      // The carrier rides the 7:42 from Újpest to Nyugati (Lehel 7:49, Nyugati 7:51); the taker
      // boards that same train at Lehel (7:49) for Deák.
      expect((await trip(carrier, FROM, north(m3Stops.nyugati, -60), '07:40')).statusCode).toBe(201);
      expect((await trip(taker, north(m3Stops.lehel, 60), TO, '07:47')).statusCode).toBe(201);
      const ask = (who: SignedIn) =>
        t.app.inject({
          method: 'GET',
          url: `/api/parcels/${parcel.id}/relay-meeting-points?from=${encodeURIComponent(iso(tomorrowAt(7, 30)))}&until=${encodeURIComponent(iso(tomorrowAt(8, 30)))}`,
          headers: { cookie: who.cookie },
        });
      const response = await ask(carrier);
      expect(response.statusCode, response.body).toBe(200);
      const { points, reason } = response.json() as RelayMeetingPoints;
      expect(reason).toBeNull();
      // The morning trip saved above rides the same 7:42 from Újpest on to Deák: it meets the carrier
      // at every stop; the taker boards at Lehel.
      expect(points.map((p) => [p.name, p.at, p.runners])).toEqual([
        ['Újpest-központ', iso(tomorrowAt(7, 42)), 1],
        ['Gyöngyösi utca', iso(tomorrowAt(7, 45)), 1],
        ['Lehel tér', iso(tomorrowAt(7, 49)), 2],
        ['Nyugati pályaudvar', iso(tomorrowAt(7, 51)), 2],
      ]);
      // Only the parcel's holder asks where to hand it on.
      expect((await ask(taker)).statusCode).toBe(403);
      const noWindow = await t.app.inject({
        method: 'GET',
        url: `/api/parcels/${parcel.id}/relay-meeting-points?from=nope&until=later`,
        headers: { cookie: carrier.cookie },
      });
      expect(noWindow.statusCode).toBe(400);
    } finally {
      t.app.tripOffers.now = Date.now;
    }
  });
});

describe('the timetables in use', () => {
  it('are listed for the back office only, with the dates they cover', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/admin/timetables',
      headers: { cookie: admin.cookie },
    });
    expect(response.statusCode, response.body).toBe(200);
    const status = response.json() as TimetableStatus;
    expect(status.external).toBe(false);
    expect(status.feeds).toEqual([
      expect.objectContaining({
        file: 'bkk.zip',
        agencies: ['BKK'],
        validFrom: dayOffset(-1),
        validUntil: dayOffset(7),
        expired: false,
      }),
    ]);
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/admin/timetables', headers: { cookie: runner.cookie } }))
        .statusCode,
    ).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/api/admin/timetables' })).statusCode).toBe(401);
  });

  it('refuses a feed that is not GTFS, naming the file, and keeps the one in use', async () => {
    const path = join(folder, 'broken.zip');
    writeFileSync(path, 'this is not a zip file');
    await expect(importTimetable(t.store.db, [path])).rejects.toThrow(GtfsFormatError);
    await expect(importTimetable(t.store.db, [path])).rejects.toThrow(/broken\.zip/);
    expect((await activeFeeds(t.store.db))?.feeds.map((feed) => feed.file)).toEqual(['bkk.zip']);
    const { trip } = await matches({ departure: iso(tomorrowAt(7, 40)) });
    expect(trip.source).toBe('timetable');
  });

  it('says when the timetable has expired, and estimates meanwhile', async () => {
    await importFeed('old.zip', m3Feed({ start: dayOffset(-30), end: dayOffset(-1) }));
    const { trip } = await matches({ departure: iso(tomorrowAt(7, 40)) });
    expect(trip).toMatchObject({
      source: 'straight-line',
      fallback: 'timetable_expired',
      timetableValidUntil: dayOffset(-1),
    });
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/admin/timetables',
      headers: { cookie: admin.cookie },
    });
    expect((response.json() as TimetableStatus).feeds).toEqual([
      expect.objectContaining({ file: 'old.zip', expired: true }),
    ]);
  });
});
