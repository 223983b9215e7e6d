import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { distanceMetres } from '@csomag/domain/geo';
import type { Coordinates } from '@csomag/domain/parcel';
import { wholeMinutes, withinEllipse } from '@csomag/domain/trips';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FeedStop, feedFiles, type LineSpec } from '../../test/gtfs-feeds.ts';
import { readGtfs } from '../timetable/gtfs/read-gtfs.ts';
import { writeGtfsZip } from '../timetable/gtfs/write-gtfs.ts';
import { TimetableRouter } from '../timetable/router.ts';
import { timetableTimes } from '../timetable/service.ts';
import { serviceDayBase } from '../timetable/service-days.ts';
import { type BoundedLeg, inBox } from '../timetable/travel-times.ts';
import { ageKey } from './age-key.ts';
import {
  addedByParcel,
  addedByParcels,
  bestFitting,
  bestOfCandidates,
  closerBounds,
  ExactMinutes,
  leastAdded,
  mayAddNone,
  OldestFirst,
  type Passing,
  type Ranked,
  ranking,
  type TripParcel,
} from './service.ts';
import type { WaitingPoint } from './waiting-pool.ts';

/**
 * The trip filter stays lossless on a timetable (issue 26 item 5, ADR 0029): on a feed generated
 * here and compiled by the real importer, for random trips, departures, detours and parcels, every
 * parcel whose exact added minutes fit has its pickup in the reach's `reached` box and its delivery
 * point in `leaving`, passes the searches' bound (pickup reached before the delivery point must be
 * left) and —
 * where the feed has a finite fastest speed — the ellipse of that speed; and the bounds the
 * matching passes on never change the answer.
 */

const DAY = '2026-05-04';
/** Budapest-sized: ~24 × 18 km. */
const AREA = { minLat: 47.4, maxLat: 47.6, minLng: 18.95, maxLng: 19.25 };

const AREA_CORNER = { lat: AREA.minLat, lng: AREA.minLng };

/** A seeded generator, so the feed is the same every run. */
function lcg(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
}

/** Eight lines across the area, each both ways, every 6–15 minutes from 5:00 to 24:30. */
function generatedFeed() {
  const random = lcg(26);
  const stops: FeedStop[] = [];
  const lines: LineSpec[] = [];
  for (let line = 0; line < 8; line++) {
    const start = { lat: AREA.minLat + random() * 0.2, lng: AREA.minLng + random() * 0.3 };
    const heading = random() * 2 * Math.PI;
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) {
      const step = 0.004 + random() * 0.004;
      const point = {
        lat: start.lat + Math.sin(heading) * step * i,
        lng: start.lng + Math.cos(heading) * step * 1.5 * i,
      };
      const id = `l${line}s${i}`;
      stops.push({ id, name: `Line ${line} stop ${i}`, ...point });
      ids.push(id);
    }
    const headway = 6 + Math.floor(random() * 10);
    for (const [direction, order] of [ids, [...ids].reverse()].entries()) {
      let minute = 0;
      lines.push({
        routeId: `L${line}-${direction}`,
        routeName: `${line}`,
        routeType: 3,
        headsign: `to ${order.at(-1)}`,
        serviceId: 'ALL',
        stops: order.map((stop, i) => {
          if (i > 0) minute += 1 + Math.floor(random() * 3);
          return { stop, minute };
        }),
        firstMinute: 5 * 60 + Math.floor(random() * headway),
        lastMinute: 24 * 60 + 30,
        headwayMinutes: headway,
      });
    }
  }
  return feedFiles({
    agency: 'Generated',
    stops,
    lines,
    services: { ALL: { days: [1, 1, 1, 1, 1, 1, 1], start: '2026-05-01', end: '2026-05-10' } },
  });
}

let folder: string;
let router: TimetableRouter;
beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'csomag-filter-'));
  const file = join(folder, 'generated.zip');
  writeGtfsZip(file, generatedFeed());
  router = new TimetableRouter(await readGtfs([file]));
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const point = fc.record({
  lat: fc.double({ min: AREA.minLat, max: AREA.maxLat, noNaN: true }),
  lng: fc.double({ min: AREA.minLng, max: AREA.maxLng, noNaN: true }),
});
/** Most parcels near the stops (where they can fit), some anywhere. */
const parcelPoint = fc.oneof(
  point,
  fc
    .tuple(
      fc.nat(95),
      fc.double({ min: -0.004, max: 0.004, noNaN: true }),
      fc.double({ min: -0.006, max: 0.006, noNaN: true }),
    )
    .map(([stop, dLat, dLng]) => ({
      lat: (router.timetable.stopLat[stop % router.timetable.stopCount] ?? 47.5) + dLat,
      lng: (router.timetable.stopLng[stop % router.timetable.stopCount] ?? 19.1) + dLng,
    })),
);

/** A trip on the feed's day at `minuteOfDay` with its detour: its times, deadline and reach; null without a journey. */
async function tripAt(from: Coordinates, to: Coordinates, minuteOfDay: number, maxDetour: number) {
  fc.pre(distanceMetres(from, to) >= 50);
  const at = serviceDayBase(DAY, 'Europe/Budapest') + minuteOfDay * 60_000;
  const times = timetableTimes(router, from, to, at);
  const journey = times.journey;
  if (!journey) return null;
  const deadline = journey.arriveAt + maxDetour * 60_000;
  const reach = await times.reach(deadline + 1);
  const trip = { from, to, departAt: at, arriveAt: journey.arriveAt };
  return { at, times, journey, deadline, reach, trip };
}

describe('the trip filter on a timetable', () => {
  it('never drops a parcel that fits', async () => {
    let fitting = 0;
    await fc.assert(
      fc.asyncProperty(
        parcelPoint,
        parcelPoint,
        fc.integer({ min: 4 * 60, max: 24 * 60 }),
        fc.integer({ min: 1, max: 60 }),
        fc.array(fc.tuple(parcelPoint, parcelPoint), { minLength: 1, maxLength: 12 }),
        async (from, to, minuteOfDay, maxDetour, parcels) => {
          const planned = await tripAt(from, to, minuteOfDay, maxDetour);
          if (!planned) return;
          const { at, times, journey, deadline, reach, trip } = planned;
          const sum = ((deadline - at) / 3_600_000) * times.fastestKmh * 1000;
          for (const [p, q] of parcels) {
            const added = await addedByParcel(times, trip, deadline, p, q);
            if (added === null) continue;
            fitting++;
            // The deadline's millisecond of slack (a parcel exactly on the edge is not lost to rounding).
            expect(added).toBeLessThanOrEqual(maxDetour + 1 / 60_000 + 1e-9);
            // The pickup is where the trip reaches, the delivery point where it still leaves for its end.
            expect(inBox(reach.reached, p)).toBe(true);
            expect(inBox(reach.leaving, q)).toBe(true);
            const [pArrival = Number.NaN] = reach.arrivals([p]);
            const [qLeave = Number.NaN] = reach.departures([q]);
            expect(pArrival).toBeLessThanOrEqual(qLeave);
            if (Number.isFinite(sum)) {
              expect(withinEllipse({ from, to, mode: 'transit' }, p, sum * (1 + 1e-9))).toBe(true);
              expect(withinEllipse({ from, to, mode: 'transit' }, q, sum * (1 + 1e-9))).toBe(true);
            }
            // The matching passes the searches' bounds on: the same answer, found with less scanning.
            const bounded = await addedByParcel(times, trip, deadline, p, q, {
              pickupArrival: pArrival,
              deliveryLeaveBy: qLeave,
            });
            expect(bounded).toBe(added);
            // Its least minutes keep it, and are no more than it adds.
            const least = leastAdded(times, trip, p, q, pArrival, qLeave);
            expect(least).not.toBeNull();
            // So do the least times alone, as the saved-trip offers check before any search.
            const reachedBy = at + times.leastMs(from, p);
            const leftBy = deadline - times.leastMs(q, to);
            expect(leastAdded(times, trip, p, q, reachedBy, leftBy)).not.toBeNull();
            expect(least).toBeLessThanOrEqual(wholeMinutes(added));
            // Left in time for the trip's own arrival: 0 whole minutes, as the search to the end says.
            const onTime = await times.departuresBy?.(journey.arriveAt + 600);
            const shortcut = await addedByParcel(times, trip, deadline, p, q, {
              pickupArrival: pArrival,
              deliveryLeaveBy: qLeave,
              leaveOnTime: async () => onTime?.([q])[0] ?? Number.NEGATIVE_INFINITY,
            });
            expect(shortcut === null ? null : wholeMinutes(shortcut)).toBe(wholeMinutes(added));
          }
        },
      ),
      { numRuns: 400 },
    );
    // The property was tested on parcels that fit, not only on ones that do not.
    expect(fitting).toBeGreaterThan(40);
  });

  it('picks the best few of many parcels as evaluating every one would, stopping early', async () => {
    let stoppedEarly = 0;
    let movedOn = 0;
    let narrowed = 0;
    let chunkedEarly = 0;
    await fc.assert(
      fc.asyncProperty(
        parcelPoint,
        parcelPoint,
        fc.integer({ min: 6 * 60, max: 22 * 60 }),
        fc.integer({ min: 10, max: 60 }),
        fc.array(fc.tuple(parcelPoint, parcelPoint, fc.integer({ min: 0, max: 5 })), { minLength: 5, maxLength: 60 }),
        fc.integer({ min: 1, max: 4 }),
        async (from, to, minuteOfDay, maxDetour, parcels, limit) => {
          const planned = await tripAt(from, to, minuteOfDay, maxDetour);
          if (!planned) return;
          const { times, deadline, reach, trip } = planned;
          // Ages that tie often, and ids to tell them apart.
          const all: Ranked[] = [];
          const candidates: Passing[] = [];
          for (const [index, [p, q, age]] of parcels.entries()) {
            const id = `p${String(index).padStart(2, '0')}`;
            const createdAt = `2026-05-0${age}`;
            const added = await addedByParcel(times, trip, deadline, p, q);
            if (added !== null) all.push({ id, createdAt, added: wholeMinutes(added) });
            const [pickupArrival = Number.NaN] = reach.arrivals([p]);
            const [deliveryLeaveBy = Number.NaN] = reach.departures([q]);
            const least = leastAdded(times, trip, p, q, pickupArrival, deliveryLeaveBy);
            if (least !== null) {
              candidates.push({ id, createdAt, pickup: p, delivery: q, pickupArrival, deliveryLeaveBy, least });
            }
          }
          // One search from all the pickups first, as the matching does: it drops none that fits.
          const closer = await closerBounds(times, trip, deadline, candidates);
          if (closer.length < candidates.length) narrowed++;
          // The candidates evaluated exactly are those whose minutes it knows.
          const exact = new ExactMinutes();
          const { best, evaluated: count } = await bestFitting(times, trip, deadline, closer, limit, exact);
          expect(count).toBe(exact.known.size);
          expect(best).toEqual(all.sort(ranking).slice(0, limit));
          for (const candidate of closer) {
            const known = exact.known.get(candidate.id);
            if (known !== undefined) expect(known).toBe(all.find((match) => match.id === candidate.id)?.added ?? null);
          }
          if (closer.some((candidate) => !exact.known.has(candidate.id))) stoppedEarly++;
          // Some found not to add 0 minutes as their least said, and moved on.
          if (exact.atLeast.size > 0) movedOn++;
          // Taken oldest first in chunks of three, as the matching takes many: the same best.
          const rows = parcels.map(([p, q, age], index) => ({
            id: `p${String(index).padStart(2, '0')}`,
            created_at: `2026-05-0${age}`,
            sender_lat: p.lat,
            sender_lng: p.lng,
            receiver_lat: q.lat,
            receiver_lng: q.lng,
          }));
          const chunked = await bestOfCandidates(times, reach, trip, deadline, rows, limit, 3);
          expect(chunked.best).toEqual(best);
          if (chunked.counts.bounds[0] < candidates.length) chunkedEarly++;
          // Chunks of six, twelve, …: enough at 0 least minutes in one for mayAddNone's search.
          expect((await bestOfCandidates(times, reach, trip, deadline, rows, limit, 6)).best).toEqual(best);
        },
      ),
      { numRuns: 800 },
    );
    // Stopping early and narrowing were tested, not only evaluating everything (each in ~5 % of runs;
    // moving on in ~1 %).
    expect(stoppedEarly).toBeGreaterThan(10);
    expect(movedOn).toBeGreaterThan(0);
    expect(narrowed).toBeGreaterThan(10);
    expect(chunkedEarly).toBeGreaterThan(2);
  });

  it('works out many trips’ parcels together as one by one (saved-trip offers), more than one scan’s worth', async () => {
    let fitting = 0;
    let asked = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.tuple(
            parcelPoint,
            parcelPoint,
            fc.integer({ min: 5 * 60, max: 23 * 60 }),
            fc.integer({ min: 10, max: 60 }),
          ),
          { minLength: 1, maxLength: 6 },
        ),
        fc.array(fc.tuple(parcelPoint, parcelPoint), { minLength: 1, maxLength: 12 }),
        async (trips, parcels) => {
          // Each parcel on each trip, as a new parcel is checked against every saved trip.
          const pairs: TripParcel[] = [];
          const oneByOne: (number | null)[] = [];
          for (const [from, to, minuteOfDay, maxDetour] of trips) {
            if (distanceMetres(from, to) < 50) continue;
            const planned = await tripAt(from, to, minuteOfDay, maxDetour);
            if (!planned) continue;
            const { times, deadline, trip } = planned;
            for (const [pickup, delivery] of parcels) {
              pairs.push({ trip, deadline, pickup, delivery });
              oneByOne.push(await addedByParcel(times, trip, deadline, pickup, delivery));
            }
          }
          // Every trip on this router answers its legs by the same function: they may go together.
          const arrivalsEach = timetableTimes(router, AREA_CORNER, AREA_CORNER, 0).arrivalsEach;
          expect(arrivalsEach).toBe(timetableTimes(router, AREA_CORNER, AREA_CORNER, 1).arrivalsEach);
          if (!arrivalsEach) throw new Error('the timetable answers many legs at once');
          let legs = 0;
          const counted = async (asked: readonly BoundedLeg[]) => {
            legs += asked.length;
            return arrivalsEach(asked);
          };
          expect(await addedByParcels(counted, pairs)).toEqual(oneByOne);
          fitting += oneByOne.filter((added) => added !== null).length;
          asked = Math.max(asked, legs);
        },
      ),
      { numRuns: 150 },
    );
    // Parcels that fit were among them, and some rounds asked more legs than one scan takes (32).
    expect(fitting).toBeGreaterThan(40);
    expect(asked).toBeGreaterThan(32);
  });

  it("tells which parcels may add no minute by the latest departures for the trip's own arrival, never missing one", async () => {
    let raised = 0;
    let kept = 0;
    await fc.assert(
      fc.asyncProperty(
        parcelPoint,
        parcelPoint,
        fc.integer({ min: 6 * 60, max: 22 * 60 }),
        fc.integer({ min: 20, max: 90 }),
        fc.array(fc.tuple(parcelPoint, parcelPoint, fc.integer({ min: 0, max: 9 })), { minLength: 20, maxLength: 60 }),
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 4, max: 12 }),
        async (from, to, minuteOfDay, maxDetour, parcels, limit, chunkFrom) => {
          const planned = await tripAt(from, to, minuteOfDay, maxDetour);
          if (!planned) return;
          const { times, deadline, reach, trip } = planned;
          const candidates: Passing[] = [];
          const exactly = new Map<string, number | null>();
          const all: Ranked[] = [];
          for (const [index, [p, q, age]] of parcels.entries()) {
            const id = `p${String(index).padStart(2, '0')}`;
            const createdAt = `2026-05-0${age}`;
            const added = await addedByParcel(times, trip, deadline, p, q);
            exactly.set(id, added === null ? null : wholeMinutes(added));
            if (added !== null) all.push({ id, createdAt, added: wholeMinutes(added) });
            const [pickupArrival = Number.NaN] = reach.arrivals([p]);
            const [deliveryLeaveBy = Number.NaN] = reach.departures([q]);
            const least = leastAdded(times, trip, p, q, pickupArrival, deliveryLeaveBy);
            if (least !== 0) continue;
            candidates.push({ id, createdAt, pickup: p, delivery: q, pickupArrival, deliveryLeaveBy, least });
          }
          // Oldest first in chunks, only those at 0 least minutes before the last: the same best as every parcel's minutes.
          const rows = parcels.map(([p, q, age], index) => ({
            id: `p${String(index).padStart(2, '0')}`,
            created_at: `2026-05-0${age}`,
            sender_lat: p.lat,
            sender_lng: p.lng,
            receiver_lat: q.lat,
            receiver_lng: q.lng,
          }));
          const chunked = await bestOfCandidates(times, reach, trip, deadline, rows, limit, chunkFrom);
          expect(chunked.best).toEqual(all.sort(ranking).slice(0, limit));
          const { none, some } = await mayAddNone(times, trip, deadline, candidates, new ExactMinutes());
          const told = new Map([...none, ...some].map((candidate) => [candidate.id, candidate]));
          for (const candidate of candidates) {
            const added = exactly.get(candidate.id) ?? null;
            const answer = told.get(candidate.id);
            // Dropped only when it does not fit; no more least minutes than it adds; every one adding none kept as such.
            if (added === null) continue;
            expect(answer).toBeDefined();
            expect(answer?.least ?? Number.POSITIVE_INFINITY).toBeLessThanOrEqual(added);
            if (added === 0) expect(none.some((c) => c.id === candidate.id)).toBe(true);
          }
          kept += none.length;
          // Those raised by the search stopped at the on-time departures (a minute, no more).
          raised += some.filter((candidate) => candidate.least === 1).length;
        },
      ),
      { numRuns: 600 },
    );
    // Both answers were tested.
    expect(raised).toBeGreaterThan(10);
    expect(kept).toBeGreaterThan(50);
  });

  it('takes the oldest first in chunks ordered as the ranking orders ages and ids', () => {
    const within = (min: string, max: string) =>
      fc.date({ min: new Date(min), max: new Date(max), noInvalidDate: true }).map((date) => date.toISOString());
    // Mostly within a year or a day, where every field decides.
    const instant = fc.oneof(
      within('1970-01-01T00:00:00Z', '9999-12-31T23:59:59Z'),
      within('2026-01-01T00:00:00Z', '2026-12-31T23:59:59Z'),
      within('2026-11-28T00:00:00Z', '2026-11-28T23:59:59Z'),
    );
    // Instants as stored, a few ties, and now and then a text written otherwise.
    const createdAt = fc.oneof(
      { arbitrary: instant, weight: 8 },
      { arbitrary: fc.constantFrom('2026-11-28T08:00:00.000Z', '2026-11-28T08:00:00.001Z'), weight: 2 },
      {
        arbitrary: fc.constantFrom('2026-11-28 08:00:00', '2026-11-28T08:00:00Z', '2026-13-01T00:00:00.000Z'),
        weight: 1,
      },
    );
    fc.assert(
      fc.property(
        fc.array(createdAt, { minLength: 1, maxLength: 60 }),
        fc.array(fc.integer({ min: 1, max: 12 }), { minLength: 1, maxLength: 4 }),
        (ages, sizes) => {
          for (const a of ages) {
            for (const b of ages) {
              const [ka, kb] = [ageKey(a), ageKey(b)];
              if (Number.isNaN(ka) || Number.isNaN(kb)) continue;
              expect(Math.sign(ka - kb)).toBe(a < b ? -1 : a > b ? 1 : 0);
            }
          }
          const rows: WaitingPoint[] = ages.map((age, i) => ({
            id: `p${String((i * 37) % 100).padStart(2, '0')}${i}`,
            created_at: age,
            // Some with their age worked out already, as the waiting pool's are.
            ...(i % 2 === 0 ? { age: ageKey(age) } : {}),
            sender_lat: 0,
            sender_lng: 0,
            receiver_lat: 0,
            receiver_lng: 0,
          }));
          // Taken in chunks of the sizes asked (and those as old as a chunk's newest with it).
          const oldest = new OldestFirst(rows);
          const chunks: WaitingPoint[][] = [];
          for (let k = 0; oldest.left > 0; k++) {
            const [left, size] = [oldest.left, sizes[k % sizes.length] ?? 1];
            const chunk = oldest.next(size);
            expect(chunk.length).toBe(left - oldest.left);
            expect(chunk.length).toBeGreaterThanOrEqual(Math.min(size, left));
            chunks.push(chunk);
          }
          expect(
            chunks
              .flat()
              .map((row) => row.id)
              .sort(),
          ).toEqual(rows.map((row) => row.id).sort());
          const rank = (row: WaitingPoint) => ({ id: row.id, added: 0, createdAt: row.created_at });
          for (const [k, chunk] of chunks.entries()) {
            for (const later of chunks.slice(k + 1)) {
              for (const a of chunk) for (const b of later) expect(ranking(rank(a), rank(b))).toBeLessThan(0);
            }
          }
        },
      ),
      { numRuns: 500 },
    );
    expect(ageKey('2026-11-28T08:19:00.000Z')).toBeLessThan(ageKey('2026-11-28T08:19:00.001Z'));
    expect(ageKey('2026-11-28T08:19:00Z')).toBeNaN();
  });
});
