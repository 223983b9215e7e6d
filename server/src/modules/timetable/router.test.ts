import { distanceMetres } from '@csomag/domain/geo';
import type { Coordinates } from '@csomag/domain/parcel';
import { type LatLngBox, straightLineModel } from '@csomag/domain/trips';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TimetableRouter, walkMs, walkMsFor } from './router.ts';
import { METRES_PER_DEGREE, NearStops, StopGrid, slopeAtLeast } from './stop-grid.ts';
import { buildTimetable, type TimetableSpec, type TripSpec } from './test-timetable.ts';
import { ACCESS_WALK_MAX_M, type Journey, type Timetable } from './timetable.ts';
import { type BoundedLeg, boxesMeet } from './travel-times.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const Z = (iso: string) => Date.parse(iso);

/** `metres` north of `point` (positive) or south. */
const north = (point: Coordinates, metres: number) => ({ lat: point.lat + metres / METRES_PER_DEGREE, lng: point.lng });

// A line 111 km per degree long: walking between its stops takes more than a day.
const A = { lat: 47, lng: 19 };
const X = { lat: 47.5, lng: 19 };
const B = { lat: 48, lng: 19 };
// ~298 m east of B.
const C = { lat: 48, lng: 19.004 };
const Y = { lat: 48.5, lng: 19 };
const D = { lat: 49, lng: 19 };
const stops = { A, X, B, C, Y, D };

/** Three May days (summer time, UTC+2 throughout): day 0 is 2026-05-04, its base 2026-05-03T22:00Z. */
function may(trips: TripSpec[], extra: Partial<TimetableSpec> = {}) {
  return new TimetableRouter(
    buildTimetable({
      firstDay: '2026-05-04',
      dayCount: 3,
      stops,
      routes: { IC: { type: 2 }, M3: { type: 1 }, S70: { type: 2 }, N: { type: 3 }, Link: { type: 3 } },
      trips,
      ...extra,
    }),
  );
}

const intercity: TripSpec = {
  route: 'IC',
  stopTimes: [
    ['A', '08:00:00'],
    ['B', '09:00:00'],
  ],
};

describe('the timetable router', () => {
  it('rides a direct trip, walking to its stop first', () => {
    const router = may([intercity]);
    const at = Z('2026-05-04T05:30:00Z');
    expect(router.arrival(A, B, at, at + 24 * HOUR)).toBe(Z('2026-05-04T07:00:00Z'));
    // 500 m is ~8 minutes on foot: still in time for 08:00.
    expect(router.arrival(north(A, -500), B, at, at + 24 * HOUR)).toBe(Z('2026-05-04T07:00:00Z'));
    // A second late: tomorrow's, when the deadline allows.
    const late = Z('2026-05-04T06:00:01Z');
    expect(router.arrival(A, B, late, late + 25 * HOUR)).toBe(Z('2026-05-05T07:00:00Z'));
    expect(router.arrival(A, B, late, late + 24 * HOUR)).toBe(Number.POSITIVE_INFINITY);
  });

  it('changes trips over a footpath, and misses a connection the walk cannot make', () => {
    const trips: TripSpec[] = [
      { ...intercity, days: [0] },
      // Leaves when the 3-minute walk from B is not over yet.
      {
        route: 'S70',
        days: [0],
        stopTimes: [
          ['C', '09:02:00'],
          ['D', '10:00:00'],
        ],
      },
      {
        route: 'S70',
        days: [0],
        stopTimes: [
          ['C', '09:03:00'],
          ['D', '10:30:00'],
        ],
      },
    ];
    const router = may(trips, { footpaths: [{ from: 'B', to: 'C', seconds: 180 }] });
    const at = Z('2026-05-04T05:30:00Z');
    expect(router.arrival(A, D, at, at + 24 * HOUR)).toBe(Z('2026-05-04T08:30:00Z'));
    // The latest departure from A still arriving by 10:30 is the 08:00 one.
    expect(router.backward(D, Z('2026-05-04T08:30:00Z'), at).departureAt(A)).toBe(Z('2026-05-04T06:00:00Z'));
    // Without the footpath, C is out of reach: stops are walked between only by footpaths.
    expect(may(trips).arrival(A, D, at, at + 24 * HOUR)).toBe(Number.POSITIVE_INFINITY);
  });

  it("takes the previous service day's night trip after midnight (25:10)", () => {
    const router = may([
      {
        route: 'N',
        days: [0],
        stopTimes: [
          ['A', '25:10:00'],
          ['B', '26:00:00'],
        ],
      },
    ]);
    // 01:00 on 5 May is day 1; the trip is day 0's, 25:10 after its base (3 May, 22:00Z).
    const at = Z('2026-05-04T23:00:00Z');
    expect(router.dayIndex(at)).toBe(1);
    expect(router.arrival(A, B, at, at + 24 * HOUR)).toBe(Z('2026-05-05T00:00:00Z'));
    const ride = router.journey(A, B, at, at + 24 * HOUR)?.legs[0];
    expect(ride?.kind === 'ride' && ride.from.at).toBe(Z('2026-05-04T23:10:00Z'));
  });

  it('skips a day the service does not run and finds the next one it does, or none', () => {
    const early = (days: number[]): TripSpec => ({
      route: 'IC',
      days,
      stopTimes: [
        ['A', '06:00:00'],
        ['B', '07:00:00'],
      ],
    });
    const at = Z('2026-05-05T05:00:00Z'); // day 1, 07:00
    // Not on day 1: day 2's 06:00 arrives at 07:00, exactly 24 hours on (the deadline counts).
    expect(may([early([0, 2])]).arrival(A, B, at, at + 24 * HOUR)).toBe(Z('2026-05-06T05:00:00Z'));
    expect(may([early([0, 2])]).arrival(A, B, at, at + 23 * HOUR)).toBe(Number.POSITIVE_INFINITY);
    expect(may([early([0])]).arrival(A, B, at, at + 24 * HOUR)).toBe(Number.POSITIVE_INFINITY);
    expect(may([early([0])]).journey(A, B, at, at + 24 * HOUR)).toBeNull();
  });

  it('keeps wall-clock times on the day clocks go forward (2026-03-29, Budapest)', () => {
    const trip = (days: number[]): TripSpec => ({ ...intercity, days });
    const router = new TimetableRouter(
      buildTimetable({
        firstDay: '2026-03-28',
        dayCount: 3,
        stops,
        routes: { IC: {} },
        trips: [trip([0]), trip([1])],
      }),
    );
    // Noon minus 12 h: 23:00Z the day before in winter time, 22:00Z in summer time.
    expect([...router.timetable.dayBase]).toEqual([
      Z('2026-03-27T23:00:00Z'),
      Z('2026-03-28T22:00:00Z'),
      Z('2026-03-29T22:00:00Z'),
    ]);
    expect(router.validUntil()).toBe(Z('2026-03-30T22:00:00Z'));
    expect(router.dayIndex(Z('2026-03-27T22:59:59Z'))).toBeNull();
    expect(router.dayIndex(Z('2026-03-28T21:59:59Z'))).toBe(0);
    expect(router.dayIndex(Z('2026-03-28T22:00:00Z'))).toBe(1);
    expect(router.dayIndex(Z('2026-03-30T21:59:59Z'))).toBe(2);
    expect(router.dayIndex(Z('2026-03-30T22:00:00Z'))).toBeNull();

    const sunday = router.journey(A, B, Z('2026-03-29T05:00:00Z'), Z('2026-03-30T05:00:00Z'));
    expect(sunday?.legs).toMatchObject([
      { kind: 'ride', from: { at: Z('2026-03-29T06:00:00Z') }, to: { at: Z('2026-03-29T07:00:00Z') } },
    ]);
    // Saturday's 08:00 is still winter time; leaving Saturday night, Sunday's is the next.
    expect(router.arrival(A, B, Z('2026-03-28T06:00:00Z'), Z('2026-03-29T06:00:00Z'))).toBe(Z('2026-03-28T08:00:00Z'));
    expect(router.arrival(A, B, Z('2026-03-28T20:00:00Z'), Z('2026-03-29T20:00:00Z'))).toBe(Z('2026-03-29T07:00:00Z'));
  });

  it('computes the base of the day clocks go back (2026-10-25) from its noon', () => {
    const timetable = buildTimetable({ firstDay: '2026-10-24', dayCount: 3, stops, routes: {}, trips: [] });
    expect([...timetable.dayBase]).toEqual([
      Z('2026-10-23T22:00:00Z'),
      Z('2026-10-24T23:00:00Z'),
      Z('2026-10-25T23:00:00Z'),
    ]);
  });

  it("finds the next day's first trip after the last one, within the deadline, else nothing", () => {
    const router = may([intercity]);
    const evening = Z('2026-05-04T18:00:00Z');
    expect(router.arrival(A, B, evening, evening + 24 * HOUR)).toBe(Z('2026-05-05T07:00:00Z'));
    expect(router.arrival(A, B, evening, evening + 6 * HOUR)).toBe(Number.POSITIVE_INFINITY);
    expect(router.journey(A, B, evening, evening + 6 * HOUR)).toBeNull();
    // The timetable's last evening: no day follows.
    const last = Z('2026-05-06T18:00:00Z');
    expect(router.arrival(A, B, last, last + 24 * HOUR)).toBe(Number.POSITIVE_INFINITY);
    expect(router.forward(A, evening, evening + 6 * HOUR).stopArrival[1]).toBe(Number.POSITIVE_INFINITY);
  });

  it('reaches a point far from every stop only on foot', () => {
    const router = may([intercity]);
    // ~15.2 km east of A.
    const farm = { lat: 47, lng: 19.2 };
    expect(router.covers(farm)).toBe(false);
    expect(router.covers(A)).toBe(true);
    expect(router.covers(north(A, 1_490))).toBe(true);
    expect(router.covers(north(A, 1_510))).toBe(false);
    const at = Z('2026-05-04T05:30:00Z');
    const walk = walkMs(farm, A);
    // 15.167 km × 1.3 at 4.8 km/h: 4 h 6.5 min.
    expect(walk / HOUR).toBeCloseTo((15.167 * 1.3) / 4.8, 2);
    expect(router.arrival(farm, A, at, at + 24 * HOUR)).toBe(at + walk);
    // The train is 15 km away, B some 30 hours' walk.
    expect(router.arrival(farm, B, at, at + 24 * HOUR)).toBe(Number.POSITIVE_INFINITY);
    expect(router.journey(farm, A, at, at + 24 * HOUR)?.legs).toEqual([
      { kind: 'walk', from: farm, to: A, departAt: at, arriveAt: at + walk },
    ]);
  });

  it("bounds a trip by each point's own nearest stop: asked again, or a hair apart", () => {
    const router = may([intercity]);
    // The last two ~0.5 m apart, either side of a walk's reach of A.
    const points = [north(A, 1_000), north(A, 1_000), north(A, 1_499.9), north(A, 1_500.4)];
    const answers = points.map((point) => router.leastMs(point, B));
    expect(answers).toEqual(points.map((point) => may([intercity]).leastMs(point, B)));
    expect(answers[3]).toBe(walkMs(points[3] as Coordinates, B));
    expect(answers[2]).toBeLessThan(answers[3] as number);
  });

  it('walks a short hop rather than wait for a vehicle', () => {
    const E = { lat: 47.5, lng: 19.5 };
    const F = north(E, 400);
    const router = new TimetableRouter(
      buildTimetable({
        firstDay: '2026-05-04',
        dayCount: 1,
        stops: { E, F },
        routes: { bus: {} },
        trips: [
          {
            route: 'bus',
            stopTimes: [
              ['E', '08:00:00'],
              ['F', '08:01:00'],
            ],
          },
        ],
      }),
    );
    // 400 m on foot: 6.5 minutes.
    expect(walkMs(E, F) / MINUTE).toBeCloseTo(6.5, 2);
    const at = Z('2026-05-04T05:50:00Z');
    expect(router.arrival(E, F, at, at + HOUR)).toBe(at + walkMs(E, F));
    expect(router.journey(E, F, at, at + HOUR)?.legs).toEqual([
      { kind: 'walk', from: E, to: F, departAt: at, arriveAt: at + walkMs(E, F) },
    ]);
    // Leaving at 07:56 the bus is quicker.
    expect(router.arrival(E, F, Z('2026-05-04T05:56:00Z'), at + HOUR)).toBe(Z('2026-05-04T06:01:00Z'));
  });

  it('tells a journey leg by leg: walks, rides with their stops, the change on foot', () => {
    const router = may(
      [
        {
          route: 'M3',
          headsign: 'Northbound',
          stopTimes: [
            ['A', '08:00:00'],
            ['X', '08:30:00', '08:31:00'],
            ['B', '09:00:00'],
          ],
        },
        {
          route: 'S70',
          headsign: 'D',
          stopTimes: [
            ['C', '09:03:00'],
            ['D', '10:30:00'],
          ],
        },
      ],
      { footpaths: [{ from: 'C', to: 'B', seconds: 180 }] },
    );
    const home = north(A, -500);
    const door = north(D, 600);
    const at = Z('2026-05-04T05:30:00Z');
    const journey = router.journey(home, door, at, at + 24 * HOUR);
    // 500 m and 600 m on foot: 8.125 and 9.75 minutes.
    expect(walkMs(home, A) / MINUTE).toBeCloseTo(8.125, 2);
    expect(walkMs(D, door) / MINUTE).toBeCloseTo(9.75, 2);
    const stop = (name: string, position: Coordinates, iso: string) => ({ name, position, at: Z(iso) });
    expect(journey).toEqual({
      departAt: at,
      arriveAt: Z('2026-05-04T08:30:00Z') + walkMs(D, door),
      legs: [
        { kind: 'walk', from: home, to: A, departAt: at, arriveAt: at + walkMs(home, A) },
        {
          kind: 'ride',
          route: 'M3',
          routeType: 1,
          headsign: 'Northbound',
          from: stop('A', A, '2026-05-04T06:00:00Z'),
          to: stop('B', B, '2026-05-04T07:00:00Z'),
          stops: [
            stop('A', A, '2026-05-04T06:00:00Z'),
            stop('X', X, '2026-05-04T06:30:00Z'),
            stop('B', B, '2026-05-04T07:00:00Z'),
          ],
        },
        { kind: 'walk', from: B, to: C, departAt: Z('2026-05-04T07:00:00Z'), arriveAt: Z('2026-05-04T07:03:00Z') },
        {
          kind: 'ride',
          route: 'S70',
          routeType: 2,
          headsign: 'D',
          from: stop('C', C, '2026-05-04T07:03:00Z'),
          to: stop('D', D, '2026-05-04T08:30:00Z'),
          stops: [stop('C', C, '2026-05-04T07:03:00Z'), stop('D', D, '2026-05-04T08:30:00Z')],
        },
        {
          kind: 'walk',
          from: D,
          to: door,
          departAt: Z('2026-05-04T08:30:00Z'),
          arriveAt: Z('2026-05-04T08:30:00Z') + walkMs(D, door),
        },
      ],
    } satisfies Journey);
  });

  it('prefers one ride to two arriving at the same time', () => {
    const twoRides: TripSpec[] = [
      intercity,
      {
        route: 'Link',
        stopTimes: [
          ['B', '09:05:00'],
          ['D', '10:30:00'],
        ],
      },
    ];
    // Its last stop is scanned after the change's, at the same arrival.
    const direct: TripSpec = {
      route: 'IC',
      stopTimes: [
        ['A', '08:30:00'],
        ['Y', '09:50:00'],
        ['D', '10:30:00'],
      ],
    };
    const at = Z('2026-05-04T05:30:00Z');
    const rides = (journey: Journey | null) => journey?.legs.filter((leg) => leg.kind === 'ride').length;
    expect(rides(may(twoRides).journey(A, D, at, at + 24 * HOUR))).toBe(2);
    const journey = may([...twoRides, direct]).journey(A, D, at, at + 24 * HOUR);
    expect(journey?.arriveAt).toBe(Z('2026-05-04T08:30:00Z'));
    expect(rides(journey)).toBe(1);
  });

  it("gives each forward search its own arrivals, valid after the router's next searches", () => {
    const router = may([intercity]);
    const at = Z('2026-05-04T05:30:00Z');
    const first = router.forward(A, at, at + 24 * HOUR);
    const copy = Float64Array.from(first.stopArrival);
    router.forward(B, at, at + 24 * HOUR);
    router.arrival(B, A, at, at + 24 * HOUR);
    expect(first.stopArrival).toEqual(copy);
    expect(first.arrivalAt(B)).toBe(Z('2026-05-04T07:00:00Z'));
  });

  it('bounds the reach of a trip by a box, and none when the deadline leaves no time', () => {
    const router = may([intercity]);
    const at = Z('2026-05-04T05:30:00Z');
    const by = Z('2026-05-04T07:30:00Z');
    const box = boxesMeet(router.forwardBox(router.forward(A, at, by)), router.backwardBox(router.backward(B, by, at)));
    expect(box).not.toBeNull();
    for (const point of [A, B, north(A, -1_400), north(B, 1_400)]) {
      expect(point.lat >= (box?.minLat ?? 0) && point.lat <= (box?.maxLat ?? 0)).toBe(true);
    }
    expect(
      boxesMeet(router.forwardBox(router.forward(A, at, at)), router.backwardBox(router.backward(B, at, at))),
    ).toBeNull();
  });
});

describe('walking', () => {
  it("takes domain's walking model's time, rounded up to a whole ms", () => {
    fc.assert(
      fc.property(spot, spot, (a, b) => {
        expect(walkMs(a, b)).toBe(Math.ceil(straightLineModel.minutes(a, b, 'walk') * MINUTE));
      }),
    );
  });
});

describe('the stop grid', () => {
  it('finds exactly the stops within a distance', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            lat: fc.double({ min: 46, max: 48.5, noNaN: true }),
            lng: fc.double({ min: 16, max: 22.9, noNaN: true }),
          }),
          {
            maxLength: 60,
          },
        ),
        fc.record({
          lat: fc.double({ min: 45.9, max: 48.6, noNaN: true }),
          lng: fc.double({ min: 15.9, max: 23, noNaN: true }),
        }),
        fc.integer({ min: 0, max: 200_000 }),
        (points, point, metres) => {
          const grid = new StopGrid(
            Float64Array.from(points, (p) => p.lat),
            Float64Array.from(points, (p) => p.lng),
          );
          const near = new NearStops();
          const count = grid.within(point, metres, near);
          const found = [...near.stops.subarray(0, count)].sort((a, b) => a - b);
          const expected = points.flatMap((p, index) => (distanceMetres(point, p) <= metres ? [index] : []));
          expect(found).toEqual(expected);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('answers a point asked again as the first time: remembered per point and distance, not per key', () => {
    const stop = fc.record({
      lat: fc.double({ min: 47, max: 47.1, noNaN: true }),
      lng: fc.double({ min: 19, max: 19.1, noNaN: true }),
    });
    fc.assert(
      fc.property(
        fc.array(stop, { minLength: 1, maxLength: 60 }),
        fc.array(stop, { minLength: 1, maxLength: 4 }),
        // Each asked point: one of a few, or that moved by a hair (the same key, another point).
        fc.array(fc.tuple(fc.nat(3), fc.constantFrom(0, 1e-7, -3e-6), fc.constantFrom(800, 1_500, 3_000)), {
          maxLength: 40,
        }),
        (stops, points, asked) => {
          const grid = new StopGrid(
            Float64Array.from(stops, (p) => p.lat),
            Float64Array.from(stops, (p) => p.lng),
          );
          const near = new NearStops();
          for (const [which, moved, metres] of asked) {
            const base = points[which % points.length] as Coordinates;
            const point = { lat: base.lat + moved, lng: base.lng };
            const count = grid.within(point, metres, near);
            const found = [...near.stops.subarray(0, count)].sort((a, b) => a - b);
            const expected = stops.flatMap((p, index) => (distanceMetres(point, p) <= metres ? [index] : []));
            expect(found).toEqual(expected);
            for (let k = 0; k < count; k++) {
              expect(near.metres[k]).toBe(distanceMetres(point, stops[near.stops[k] as number] as Coordinates));
            }
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it('answers right after more points than it remembers', () => {
    const grid = new StopGrid(Float64Array.of(47.5, 47.51), Float64Array.of(19.05, 19.06));
    const near = new NearStops();
    const first = { lat: 47.5, lng: 19.05 };
    expect(grid.within(first, 1_000, near)).toBe(1);
    for (let i = 0; i < 10_000; i++) grid.within({ lat: 46 + i * 1e-4, lng: 18 }, 1_000, near);
    expect(grid.within(first, 2_000, near)).toBe(2);
    expect(grid.within(first, 1_000, near)).toBe(1);
    expect(near.stops[0]).toBe(0);
  });

  it('answers the best time over the stops within a distance as measuring each would, both ways', () => {
    let bounded = 0;
    // Stops crowded around the point, times with infinities among them: the pruning is what is tested.
    const offset = fc.double({ min: -0.03, max: 0.03, noNaN: true });
    // null: not reached (Infinity forward, -Infinity backward).
    const time = fc.option(fc.integer({ min: 0, max: 3_600_000 }));
    fc.assert(
      fc.property(
        fc.record({
          lat: fc.double({ min: 45.9, max: 48.6, noNaN: true }),
          lng: fc.double({ min: 15.9, max: 23, noNaN: true }),
        }),
        fc.array(fc.record({ dLat: offset, dLng: offset, time }), { maxLength: 80 }),
        fc.oneof(fc.integer({ min: 0, max: 3_000 }), fc.integer({ min: 0, max: 200_000 })),
        fc.constantFrom(1 as const, -1 as const),
        fc.integer({ min: 0, max: 3_600_000 }),
        fc.boolean(),
        fc.record({ dLat: offset, dLng: offset }),
        (point, stops, metres, sign, start, tied, nearby) => {
          const grid = new StopGrid(
            Float64Array.from(stops, (s) => point.lat + s.dLat),
            Float64Array.from(stops, (s) => point.lng + s.dLng),
          );
          // Tied: every stop within a few ms of the best, so a distance overestimated by a hair shows.
          const tie = (s: (typeof stops)[number]) => {
            const metresAway = distanceMetres(point, { lat: point.lat + s.dLat, lng: point.lng + s.dLng });
            return 2_000_000 - sign * walkMsFor(metresAway) + sign * ((s.time ?? 0) % 5);
          };
          if (tied) for (const s of stops) if (s.time !== null) s.time = tie(s);
          const times = Float64Array.from(stops, (s) => s.time ?? sign * Number.POSITIVE_INFINITY);
          let expected = start;
          for (const s of stops) {
            const metresAway = distanceMetres(point, { lat: point.lat + s.dLat, lng: point.lng + s.dLng });
            if (s.time === null || metresAway > metres) continue;
            const value = s.time + sign * walkMsFor(metresAway);
            expected = sign === 1 ? Math.min(expected, value) : Math.max(expected, value);
          }
          const cells = grid.cellBest(times, sign);
          const answer = grid.bestTime(point, metres, times, walkMsFor, sign, start, cells);
          expect(answer).toBe(expected);
          // A bound for a point's whole cell: never better than the stops give any point of it — the
          // point, one nearby, and the cell's points nearest each stop (where the bound is tightest).
          for (const at of [point, { lat: point.lat + nearby.dLat, lng: point.lng + nearby.dLng }]) {
            const cell = grid.cellAt(at);
            if (cell < 0) continue;
            bounded++;
            const bound = grid.cellBound(cell, metres, cells, slopeAtLeast(walkMsFor), sign);
            const box = grid.cellBox(cell);
            const inside = (value: number, low: number, high: number) =>
              Math.min(high - (high - low) * 1e-9, Math.max(low, value));
            const points = stops.map((s) => ({
              lat: inside(point.lat + s.dLat, box.minLat, box.maxLat),
              lng: inside(point.lng + s.dLng, box.minLng, box.maxLng),
            }));
            for (const x of [at, ...points]) {
              if (grid.cellAt(x) !== cell) continue;
              const fromStops = grid.bestTime(
                x,
                metres,
                times,
                walkMsFor,
                sign,
                sign * Number.POSITIVE_INFINITY,
                cells,
              );
              expect(sign * bound).toBeLessThanOrEqual(sign * fromStops);
            }
          }
        },
      ),
      { numRuns: 500 },
    );
    expect(bounded).toBeGreaterThan(500);
  });
});

// A small random timetable: four pairs of stops a walk apart, the pairs up to ~40 km from each other,
// so rides beat walking between pairs and walks compete within them. Trips and searches crowd
// around midnight, where service days overlap.
const STOP_COUNT = 8;
const spot = fc.record({
  lat: fc.double({ min: 47.3, max: 47.65, noNaN: true }),
  lng: fc.double({ min: 18.8, max: 19.3, noNaN: true }),
});
const pairOfStops = fc
  .tuple(spot, fc.double({ min: -0.012, max: 0.012, noNaN: true }), fc.double({ min: -0.018, max: 0.018, noNaN: true }))
  .map(([stop, dLat, dLng]) => [stop, { lat: stop.lat + dLat, lng: stop.lng + dLng }]);
// A line: its stops and times, run from a few starts on some days.
const randomLine = fc.record({
  route: fc.constantFrom('R0', 'R1', 'R2'),
  days: fc.subarray([0, 1, 2], { minLength: 1 }),
  // Whole minutes (times tie more often): 00:30 to 03:30, or 22:30 to 27:30, so one day's night
  // trips run among the next day's early ones.
  starts: fc.array(
    fc.oneof(fc.integer({ min: 0.5 * 60, max: 3.5 * 60 }), fc.integer({ min: 22.5 * 60, max: 27.5 * 60 })),
    { minLength: 1, maxLength: 4 },
  ),
  first: fc.nat(STOP_COUNT - 1),
  legs: fc.array(
    fc.record({
      stop: fc.nat(STOP_COUNT - 1),
      ride: fc.integer({ min: 1, max: 30 }),
      dwell: fc.integer({ min: 0, max: 2 }),
    }),
    { minLength: 1, maxLength: 5 },
  ),
});
const randomTimetable = fc.record({
  firstDay: fc.constantFrom('2026-03-28', '2026-05-04', '2026-10-24'),
  stops: fc.array(pairOfStops, { minLength: STOP_COUNT / 2, maxLength: STOP_COUNT / 2 }).map((pairs) => pairs.flat()),
  lines: fc.array(randomLine, { minLength: 2, maxLength: 10 }),
  footpaths: fc.array(
    fc.record({ from: fc.nat(STOP_COUNT - 1), to: fc.nat(STOP_COUNT - 1), seconds: fc.integer({ min: 0, max: 900 }) }),
    { maxLength: 6 },
  ),
});

const clock = (minutes: number) =>
  `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}:00`;

function build(random: typeof randomTimetable extends fc.Arbitrary<infer T> ? T : never): Timetable {
  const trips = random.lines.flatMap((line) =>
    line.starts.map((start): TripSpec => {
      let minute = start;
      let previous = line.first;
      const stopTimes: [string, string, string][] = [[`s${line.first}`, clock(minute), clock(minute)]];
      for (const leg of line.legs) {
        if (leg.stop === previous) continue;
        minute += leg.ride;
        const arrives = clock(minute);
        minute += leg.dwell;
        stopTimes.push([`s${leg.stop}`, arrives, clock(minute)]);
        previous = leg.stop;
      }
      return { route: line.route, days: line.days, stopTimes };
    }),
  );
  return buildTimetable({
    firstDay: random.firstDay,
    dayCount: 3,
    stops: Object.fromEntries(random.stops.map((position, index) => [`s${index}`, position])),
    routes: { R0: {}, R1: {}, R2: {} },
    trips: trips.filter((trip) => trip.stopTimes.length > 1),
    footpaths: random.footpaths
      .filter((path) => path.from !== path.to)
      .map((path) => ({ from: `s${path.from}`, to: `s${path.to}`, seconds: path.seconds })),
  });
}

/**
 * The earliest arrival as a fixed point, with no scan order to get wrong: a stop is reached on foot
 * from `from` or by a ride; a footpath leads on one hop from such a stop; a trip on a day is boarded
 * where one is at its stop by its departure and ridden on.
 */
function earliestArrival(tt: Timetable, from: Coordinates, to: Coordinates, at: number, by: number): number {
  const position = (stop: number) => ({ lat: tt.stopLat[stop] ?? 0, lng: tt.stopLng[stop] ?? 0 });
  // The point first, as the stop grid measures.
  const near = (point: Coordinates, stop: number) => distanceMetres(point, position(stop)) <= ACCESS_WALK_MAX_M;
  const reached = new Float64Array(tt.stopCount).fill(Number.POSITIVE_INFINITY);
  for (let stop = 0; stop < tt.stopCount; stop++) {
    const walked = at + walkMs(from, position(stop));
    if (near(from, stop) && walked <= by) reached[stop] = walked;
  }
  const byTrip = Array.from({ length: tt.tripCount }, () => [] as number[]);
  for (let c = 0; c < tt.connectionCount; c++) byTrip[tt.connectionTrip[c] ?? 0]?.push(c);
  const onFoot = () => {
    const there = Float64Array.from(reached);
    for (let stop = 0; stop < tt.stopCount; stop++) {
      for (let f = tt.footStart[stop] ?? 0; f < (tt.footStart[stop + 1] ?? 0); f++) {
        const walked = (reached[stop] ?? 0) + (tt.footSeconds[f] ?? 0) * 1000;
        const next = tt.footTo[f] ?? 0;
        if (walked <= by && walked < (there[next] ?? 0)) there[next] = walked;
      }
    }
    return there;
  };
  for (let changed = true; changed; ) {
    changed = false;
    const there = onFoot();
    for (let day = 0; day < tt.dayCount; day++) {
      const base = tt.dayBase[day] ?? 0;
      byTrip.forEach((connections, trip) => {
        if (tt.serviceDays[(tt.tripService[trip] ?? 0) * tt.dayCount + day] === 0) return;
        let aboard = false;
        for (const c of connections) {
          aboard ||= (there[tt.connectionFrom[c] ?? 0] ?? 0) <= base + (tt.connectionDeparture[c] ?? 0) * 1000;
          const arrival = base + (tt.connectionArrival[c] ?? 0) * 1000;
          const stop = tt.connectionTo[c] ?? 0;
          if (aboard && arrival <= by && arrival < (reached[stop] ?? 0)) {
            reached[stop] = arrival;
            changed = true;
          }
        }
      });
    }
  }
  const there = onFoot();
  let best = at + walkMs(from, to);
  for (let stop = 0; stop < tt.stopCount; stop++) {
    if (near(to, stop)) best = Math.min(best, (there[stop] ?? 0) + walkMs(to, position(stop)));
  }
  return best <= by ? best : Number.POSITIVE_INFINITY;
}

/** A journey's legs join up in place and time, from `from` at `at` to `to` at its arrival. */
function expectConnected(journey: Journey, from: Coordinates, to: Coordinates, at: number) {
  const ends = journey.legs.map((leg) =>
    leg.kind === 'walk'
      ? { start: leg.from, end: leg.to, leaves: leg.departAt, arrives: leg.arriveAt }
      : { start: leg.from.position, end: leg.to.position, leaves: leg.from.at, arrives: leg.to.at },
  );
  expect(journey.departAt).toBe(at);
  expect(ends[0]?.start).toEqual(from);
  expect(ends.at(-1)?.end).toEqual(to);
  expect(ends.at(-1)?.arrives).toBe(journey.arriveAt);
  let now = at;
  let here = from;
  for (const leg of ends) {
    expect(leg.start).toEqual(here);
    expect(leg.leaves).toBeGreaterThanOrEqual(now);
    expect(leg.arrives).toBeGreaterThanOrEqual(leg.leaves);
    now = leg.arrives;
    here = leg.end;
  }
  for (const leg of journey.legs) {
    if (leg.kind !== 'ride') continue;
    expect(leg.stops[0]).toEqual(leg.from);
    expect(leg.stops.at(-1)).toEqual(leg.to);
    leg.stops.forEach((stop, index) => {
      if (index > 0) expect(stop.at).toBeGreaterThanOrEqual(leg.stops[index - 1]?.at ?? 0);
    });
  }
}

describe('the timetable router on random timetables', () => {
  // A point anywhere, a stop's own, or within a kilometre or so of a stop.
  const point = fc.oneof(
    { arbitrary: spot, weight: 1 },
    { arbitrary: fc.nat(STOP_COUNT - 1), weight: 2 },
    {
      weight: 4,
      arbitrary: fc.tuple(
        fc.nat(STOP_COUNT - 1),
        fc.double({ min: -0.01, max: 0.01, noNaN: true }),
        fc.double({ min: -0.014, max: 0.014, noNaN: true }),
      ),
    },
  );
  const query = fc.record({
    from: point,
    to: point,
    // The evening before the first day to the last one's night.
    day: fc.integer({ min: -1, max: 2 }),
    offset: fc.integer({ min: 22 * HOUR, max: 26 * HOUR }),
    window: fc.integer({ min: 0, max: 6 * HOUR }),
    earlier: fc.integer({ min: 0, max: 2 * HOUR }),
    points: fc.array(point, { maxLength: 12 }),
    enough: fc.integer({ min: -HOUR, max: HOUR }),
  });

  /** A query's departure: its day's base (the evening before the first day for -1) and its offset. */
  const departureOf = (tt: Timetable, q: { day: number; offset: number }) =>
    (tt.dayBase[Math.max(0, q.day)] ?? 0) - (q.day < 0 ? 24 * HOUR : 0) + q.offset;

  /** A generated point on a random timetable's stops: anywhere, a stop's own, or near a stop. */
  const placeOn =
    (stops: readonly Coordinates[]) =>
    (p: Coordinates | number | [number, number, number]): Coordinates => {
      if (typeof p === 'number') return stops[p] ?? A;
      if (!Array.isArray(p)) return p;
      const [stop, dLat, dLng] = p;
      const { lat, lng } = stops[stop] ?? A;
      return { lat: lat + dLat, lng: lng + dLng };
    };

  it('agrees with a fixed-point reference, forward with backward, and boxes what both reach', () => {
    fc.assert(
      fc.property(randomTimetable, query, (random, q) => {
        const tt = build(random);
        const router = new TimetableRouter(tt);
        const place = placeOn(random.stops);
        const from = place(q.from);
        const to = place(q.to);
        const at = departureOf(tt, q);
        const by = at + q.window;
        const after = at - q.earlier;

        const arrival = router.arrival(from, to, at, by);
        expect(arrival).toBe(earliestArrival(tt, from, to, at, by));
        // A lower bound of any journey's time, whenever it leaves.
        if (arrival < Number.POSITIVE_INFINITY) expect(router.leastMs(from, to)).toBeLessThanOrEqual(arrival - at);
        const forward = router.forward(from, at, by);
        expect(forward.arrivalAt(to)).toBe(arrival);
        // Ended at the first arrival no later than `enough`: one such when the earliest is, else the earliest.
        const enough = (arrival < Number.POSITIVE_INFINITY ? arrival : at + q.window / 2) + q.enough;
        const soonEnough = router.arrival(from, to, at, by, enough);
        if (arrival <= enough) {
          expect(soonEnough).toBeGreaterThanOrEqual(arrival);
          expect(soonEnough).toBeLessThanOrEqual(enough);
        } else expect(soonEnough).toBe(arrival);

        // Reaching `to` by `by` leaving at `at` is exactly leaving no earlier than `at` in the backward search.
        const backward = router.backward(to, by, after);
        expect(backward.departureAt(from) >= at).toBe(arrival <= by);

        const journey = router.journey(from, to, at, by);
        if (arrival === Number.POSITIVE_INFINITY) expect(journey).toBeNull();
        else {
          expect(journey?.arriveAt).toBe(arrival);
          if (journey) expectConnected(journey, from, to, at);
        }

        // Many sources at once, each at its own time: no source arrives anywhere sooner on its own.
        const sources = q.points.slice(0, 4).map((p, i) => ({ point: place(p), at: at + i * 7 * 60_000 }));
        if (sources.length > 0) {
          const anyOf = router.forwardFrom(sources, by)([to, from]);
          for (const source of sources) {
            for (const [index, point] of [to, from].entries()) {
              const own = router.arrival(source.point, point, source.at, by);
              const bound = Math.min(anyOf[index] as number, source.at + walkMs(source.point, point));
              if (own < Number.POSITIVE_INFINITY) expect(bound).toBeLessThanOrEqual(own);
            }
          }
        }

        // Many legs at once, each from its own point at its own time to its own point by its own
        // deadline: each exactly as its own search.
        const places = [from, to, ...q.points.map(place)];
        const legs = places.map((start, i) => ({
          from: start,
          to: places[(i * 7 + 3) % places.length] as Coordinates,
          at: at + ((i * 11) % 5) * 9 * MINUTE,
          by: by - ((i * 5) % 3) * 20 * MINUTE,
        }));
        const each = router.arrivalsEach(legs);
        for (const [i, leg] of legs.entries()) expect(each[i]).toBe(router.arrival(leg.from, leg.to, leg.at, leg.by));

        const meeting = router.backward(to, by, at);
        const box = boxesMeet(router.forwardBox(forward), router.backwardBox(meeting));
        // Told the other end, each box only where a detour through it fits: every point on one still in both.
        const reachedFitting = router.forwardBox(forward, { point: to, by });
        const leavingFitting = router.backwardBox(meeting, { point: from, at });
        const fitting = boxesMeet(reachedFitting, leavingFitting);
        // The compact bounds a saved trip keeps: never later, never earlier than the searches.
        const bounds = router.reachBounds(forward, meeting);
        for (const point of [...q.points.map(place), ...random.stops, from, to]) {
          const arrives = forward.arrivalAt(point);
          if (arrives < Number.POSITIVE_INFINITY) expect(bounds.arrivalAtLeast(point)).toBeLessThanOrEqual(arrives);
          const leaves = meeting.departureAt(point);
          if (leaves > Number.NEGATIVE_INFINITY) expect(bounds.departureAtMost(point)).toBeGreaterThanOrEqual(leaves);
          // And the searches' own bounds by 1 km cell, for the many points of one query.
          if (arrives < Number.POSITIVE_INFINITY) expect(forward.arrivalAtLeast(point)).toBeLessThanOrEqual(arrives);
          if (leaves > Number.NEGATIVE_INFINITY) expect(meeting.departureAtMost(point)).toBeGreaterThanOrEqual(leaves);
        }
        const inBox = (point: Coordinates, holding: LatLngBox | null) =>
          holding !== null &&
          point.lat >= holding.minLat &&
          point.lat <= holding.maxLat &&
          point.lng >= holding.minLng &&
          point.lng <= holding.maxLng;
        for (const point of [...q.points.map(place), ...random.stops, from, to]) {
          // A pickup from which the end can still be reached in time, a delivery point that can be reached in time.
          if (forward.arrivalAt(point) + router.leastMs(point, to) <= by)
            expect(inBox(point, reachedFitting)).toBe(true);
          if (meeting.departureAt(point) - router.leastMs(from, point) >= at) {
            expect(inBox(point, leavingFitting)).toBe(true);
          }
          if (forward.arrivalAt(point) > meeting.departureAt(point)) continue;
          for (const holding of [box, fitting]) expect(inBox(point, holding)).toBe(true);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it("goes on with a journey's search as a reach's own search from its start would answer", () => {
    fc.assert(
      fc.property(randomTimetable, query, fc.integer({ min: 0, max: 3 * HOUR }), (random, q, further) => {
        const tt = build(random);
        const place = placeOn(random.stops);
        const from = place(q.from);
        const at = departureOf(tt, q);
        const by = at + q.window;
        const alone = new TimetableRouter(tt).forward(from, at, by);
        const router = new TimetableRouter(tt);
        // The journey searched as far as `by` or further (its target anywhere), then the reach from its start.
        router.journey(from, place(q.to), at, by + further);
        const after = router.forward(from, at, by);
        expect(Array.from(after.stopArrival)).toEqual(Array.from(alone.stopArrival));
        expect(router.forwardBox(after)).toEqual(router.forwardBox(alone));
        for (const point of q.points.map(place)) expect(after.arrivalAt(point)).toBe(alone.arrivalAt(point));
        // Not from the journey's start, or further than it searched: a search of its own, as always.
        router.journey(from, place(q.to), at, by);
        expect(Array.from(router.forward(from, at, by + further).stopArrival)).toEqual(
          Array.from(new TimetableRouter(tt).forward(from, at, by + further).stopArrival),
        );
      }),
      { numRuns: 1000 },
    );
  });

  it('answers two deadlines from one backward scan as each one alone', () => {
    fc.assert(
      fc.property(randomTimetable, query, fc.integer({ min: 0, max: 2 * HOUR }), (random, q, sooner) => {
        const tt = build(random);
        const place = placeOn(random.stops);
        const to = place(q.to);
        const at = departureOf(tt, q);
        const by = at + q.window;
        const earlier = by - sooner;
        const after = at - q.earlier;
        const router = new TimetableRouter(tt);
        const [late, early] = router.backwardTwice(to, by, earlier, after);
        const alone = new TimetableRouter(tt);
        expect(Array.from(late.stopDeparture)).toEqual(Array.from(alone.backward(to, by, after).stopDeparture));
        expect(Array.from(early.stopDeparture)).toEqual(Array.from(alone.backward(to, earlier, after).stopDeparture));
        for (const point of q.points.map(place)) {
          expect(early.departureAt(point)).toBe(alone.backward(to, earlier, after).departureAt(point));
        }
        // And a search for one deadline after it, on the same router, as before.
        expect(Array.from(router.backward(to, by, after).stopDeparture)).toEqual(Array.from(late.stopDeparture));
      }),
      { numRuns: 1000 },
    );
  });

  it('answers many legs at once, more than one scan of them, each as its own search', () => {
    const leg = fc.record({
      from: point,
      to: point,
      day: fc.integer({ min: 0, max: 2 }),
      offset: fc.integer({ min: 22 * HOUR, max: 26 * HOUR }),
      window: fc.integer({ min: 0, max: 4 * HOUR }),
      // Now and then any arrival by a time will do.
      enough: fc.option(fc.integer({ min: -HOUR, max: 4 * HOUR }), { freq: 3 }),
    });
    let soonEnough = 0;
    fc.assert(
      fc.property(randomTimetable, fc.array(leg, { minLength: 33, maxLength: 80 }), (random, asked) => {
        const tt = build(random);
        const router = new TimetableRouter(tt);
        const place = placeOn(random.stops);
        const legs = asked.map((q): BoundedLeg => {
          const at = (tt.dayBase[q.day] ?? 0) + q.offset;
          const leg = { from: place(q.from), to: place(q.to), at, by: at + q.window };
          return q.enough === null ? leg : { ...leg, enough: at + q.enough };
        });
        const each = router.arrivalsEach(legs);
        legs.forEach((leg, i) => {
          const earliest = earliestArrival(tt, leg.from, leg.to, leg.at, leg.by);
          const answer = each[i] as number;
          // With `enough`, as the router's own search: one no later than it when the earliest is, else the earliest.
          if (leg.enough !== undefined && earliest <= leg.enough) {
            expect(answer).toBeGreaterThanOrEqual(earliest);
            expect(answer).toBeLessThanOrEqual(leg.enough);
            if (answer > earliest) soonEnough++;
          } else expect(answer).toBe(earliest);
        });
      }),
      { numRuns: 300 },
    );
    // Some searches did end at an arrival soon enough rather than the earliest.
    expect(soonEnough).toBeGreaterThan(0);
  });
});
