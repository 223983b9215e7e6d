import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { distanceMetres, EARTH_RADIUS_M } from './geo.ts';
import type { Coordinates } from './parcel.ts';
import {
  addedMinutes,
  BIKE_KMH,
  DETOUR_FACTOR,
  ellipseBox,
  ellipseSumMetres,
  INTERCITY_KMH,
  INTERCITY_OVERHEAD_MINUTES,
  type LatLngBox,
  RELAY_CLOSER_MIN_KM,
  RELAY_CLOSER_MIN_SHARE,
  relayCloserKm,
  relayGetsCloser,
  straightLineModel,
  TRANSIT_KMH,
  TRANSIT_OVERHEAD_MINUTES,
  TRAVEL_MODES,
  type TravelMode,
  type TripLegs,
  WALK_KMH,
  withinEllipse,
} from './trips.ts';

const toRadians = (degrees: number) => (degrees * Math.PI) / 180;
const toDegrees = (radians: number) => (radians * 180) / Math.PI;

/** The point `metres` from `start` along the great circle leaving it at `bearing` degrees (0 = north). */
function destination(start: Coordinates, metres: number, bearing: number): Coordinates {
  const angle = metres / EARTH_RADIUS_M;
  const [lat1, lng1, theta] = [toRadians(start.lat), toRadians(start.lng), toRadians(bearing)];
  const lat2 = Math.asin(Math.sin(lat1) * Math.cos(angle) + Math.cos(lat1) * Math.sin(angle) * Math.cos(theta));
  const lng2 =
    lng1 +
    Math.atan2(Math.sin(theta) * Math.sin(angle) * Math.cos(lat1), Math.cos(angle) - Math.sin(lat1) * Math.sin(lat2));
  return { lat: toDegrees(lat2), lng: ((((toDegrees(lng2) + 180) % 360) + 360) % 360) - 180 };
}

/** The point a `fraction` of the way from `a` to `b` on the great circle. */
function along(a: Coordinates, b: Coordinates, fraction: number): Coordinates {
  const [lat1, lng1, lat2, lng2] = [toRadians(a.lat), toRadians(a.lng), toRadians(b.lat), toRadians(b.lng)];
  const y = Math.sin(lng2 - lng1) * Math.cos(lat2);
  const x = Math.cos(lat1) * Math.sin(lat2) - Math.sin(lat1) * Math.cos(lat2) * Math.cos(lng2 - lng1);
  return destination(a, distanceMetres(a, b) * fraction, toDegrees(Math.atan2(y, x)));
}

const inBox = (box: LatLngBox, { lat, lng }: Coordinates) =>
  lat >= box.minLat && lat <= box.maxLat && lng >= box.minLng && lng <= box.maxLng;

const minutes = (km: number, mode: TravelMode) => {
  const start = { lat: 47.4979, lng: 19.0402 };
  return straightLineModel.minutes(start, destination(start, km * 1000, 90), mode);
};

/** A number spread evenly over [min, max] (fast-check's doubles favour the ends and small values). */
const uniform = (min: number, max: number) =>
  fc.noBias(fc.integer({ min: 0, max: 2 ** 30 })).map((n) => min + ((max - min) * n) / 2 ** 30);
/** A point in a latitude/longitude range: evenly spread, or at fast-check's favourite edges. */
const pointIn = (lat: [number, number], lng: [number, number]) =>
  fc.oneof(
    fc.record({ lat: uniform(...lat), lng: uniform(...lng) }),
    fc.record({
      lat: fc.double({ min: lat[0], max: lat[1], noNaN: true }),
      lng: fc.double({ min: lng[0], max: lng[1], noNaN: true }),
    }),
  );
/** Anywhere in Hungary (its bounding box). */
const hungaryPoint = pointIn([45.7, 48.6], [16.1, 22.9]);
/** Anywhere between 65° south and 65° north, across the antimeridian too. */
const midLatitudePoint = pointIn([-65, 65], [-180, 180]);

// Deák Ferenc tér → Örs vezér tere, ~5.5 km east across Budapest.
const deak = { lat: 47.4979, lng: 19.0545 };
const ors = { lat: 47.5036, lng: 19.1367 };

describe('the travel-time model', () => {
  it('walks at 4.8 km/h along streets 1.3 times the straight line', () => {
    expect(WALK_KMH).toBe(4.8);
    expect(minutes(1, 'walk')).toBeCloseTo((1.3 / 4.8) * 60, 6);
    expect(minutes(4.8 / DETOUR_FACTOR, 'walk')).toBeCloseTo(60, 6);
  });

  it('cycles at 15 km/h', () => {
    expect(BIKE_KMH).toBe(15);
    expect(minutes(1, 'bike')).toBeCloseTo((1.3 / 15) * 60, 6);
    expect(minutes(15 / DETOUR_FACTOR, 'bike')).toBeCloseTo(60, 6);
  });

  it('takes public transport as walking for short hops and riding plus the overhead for long ones', () => {
    // 300 m: walking (4.9 min) beats the wait and the ride (5.3 min).
    expect(minutes(0.3, 'transit')).toBeCloseTo(minutes(0.3, 'walk'), 6);
    expect(minutes(0.3, 'transit')).toBeLessThan((0.3 * 1.3 * 60) / TRANSIT_KMH + TRANSIT_OVERHEAD_MINUTES);
    // 5 km: 6.5 km of street at 18 km/h plus the wait, far quicker than walking.
    expect(minutes(5, 'transit')).toBeCloseTo((6.5 / TRANSIT_KMH) * 60 + TRANSIT_OVERHEAD_MINUTES, 6);
    expect(minutes(5, 'transit')).toBeLessThan(minutes(5, 'walk') / 2);
    // Where the two meet the model is continuous.
    const crossover = TRANSIT_OVERHEAD_MINUTES / (DETOUR_FACTOR * (60 / WALK_KMH - 60 / TRANSIT_KMH));
    expect(minutes(crossover, 'transit')).toBeCloseTo(minutes(crossover, 'walk'), 3);
  });

  it('rides between towns like a train: Budapest → Győr in about 2 h 15 min, not 8 h', () => {
    const gyor = { lat: 47.6875, lng: 17.6504 };
    const km = (distanceMetres(deak, gyor) / 1000) * DETOUR_FACTOR;
    const byTransit = straightLineModel.minutes(deak, gyor, 'transit');
    expect(byTransit).toBeCloseTo((km / INTERCITY_KMH) * 60 + INTERCITY_OVERHEAD_MINUTES, 6);
    expect(byTransit).toBeGreaterThan(120);
    expect(byTransit).toBeLessThan(150);
    // In town the city speed still answers: 5 km is not a train ride.
    expect(minutes(5, 'transit')).toBeLessThan((6.5 / INTERCITY_KMH) * 60 + INTERCITY_OVERHEAD_MINUTES);
  });

  it('reaches, within t minutes, exactly the distance whose minutes are t (the filter’s inverse)', () => {
    fc.assert(
      fc.property(fc.constantFrom(...TRAVEL_MODES), fc.double({ min: 0.01, max: 600, noNaN: true }), (mode, km) => {
        const t = minutes(km, mode);
        const reach = straightLineModel.reachMetres(t, mode) / 1000;
        expect(reach).toBeGreaterThanOrEqual(km * (1 - 1e-9));
        // A little further takes longer than t.
        expect(minutes(reach * (1 + 1e-6) + 1e-6, mode)).toBeGreaterThan(t);
      }),
      { numRuns: 3000 },
    );
  });

  it('is zero for no distance and orders the modes: bike beats walking; transit beats walking beyond a hop', () => {
    for (const mode of TRAVEL_MODES) expect(straightLineModel.minutes(deak, deak, mode)).toBe(0);
    expect(minutes(5, 'bike')).toBeLessThan(minutes(5, 'walk'));
    expect(minutes(5, 'transit')).toBeLessThan(minutes(5, 'walk'));
    expect(minutes(0.3, 'transit')).toBe(minutes(0.3, 'walk'));
  });

  it('is monotone in distance for every mode', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...TRAVEL_MODES),
        fc.double({ min: 0, max: 600, noNaN: true }),
        fc.double({ min: 0, max: 600, noNaN: true }),
        (mode, x, y) => {
          const [near, far] = x <= y ? [x, y] : [y, x];
          expect(minutes(near, mode)).toBeLessThanOrEqual(minutes(far, mode) + 1e-9);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('never beats its fastest speed (the candidate filter’s lower bound)', () => {
    fc.assert(
      fc.property(fc.constantFrom(...TRAVEL_MODES), midLatitudePoint, midLatitudePoint, (mode, a, b) => {
        const km = distanceMetres(a, b) / 1000;
        const bound = (km / straightLineModel.fastestKmh(mode)) * 60;
        expect(straightLineModel.minutes(a, b, mode)).toBeGreaterThanOrEqual(bound * (1 - 1e-12));
      }),
      { numRuns: 3000 },
    );
  });

  it('obeys the triangle inequality (a stop on the way never saves time)', () => {
    // Points within `metres` of a centre: a city (30 km) or a region of the globe (2,000 km; nearly
    // antipodal points are left out, where haversine's rounding is larger than any trip cares about).
    const around = (centre: Coordinates, metres: number) =>
      fc
        .tuple(fc.double({ min: 0, max: metres, noNaN: true }), fc.double({ min: 0, max: 360, noNaN: true }))
        .map(([distance, bearing]) => destination(centre, distance, bearing));
    const triple = (centres: fc.Arbitrary<Coordinates>, metres: number) =>
      centres.chain((c) => fc.tuple(around(c, metres), around(c, metres), around(c, metres)));
    fc.assert(
      fc.property(
        fc.constantFrom(...TRAVEL_MODES),
        fc.oneof(triple(hungaryPoint, 30_000), triple(midLatitudePoint, 2_000_000)),
        (mode, [a, b, c]) => {
          const m = (p: Coordinates, q: Coordinates) => straightLineModel.minutes(p, q, mode);
          expect(m(a, c)).toBeLessThanOrEqual(m(a, b) + m(b, c) + 1e-9);
        },
      ),
      { numRuns: 5000 },
    );
  });
});

describe('the minutes a parcel adds', () => {
  const walk: TripLegs = { from: deak, to: ors, mode: 'walk' };

  it('is ~0 for a parcel exactly on the way', () => {
    for (const mode of ['walk', 'bike'] as const) {
      const trip = { ...walk, mode };
      expect(addedMinutes(trip, along(deak, ors, 0.2), along(deak, ors, 0.7))).toBeLessThan(0.01);
      expect(addedMinutes(trip, deak, ors)).toBeLessThan(0.01);
    }
    // By public transport, picked up where the runner boards and delivered where they alight.
    expect(addedMinutes({ ...walk, mode: 'transit' }, deak, ors)).toBeLessThan(0.01);
  });

  it('costs a stop in the middle of a public-transport trip its overhead, no more', () => {
    const trip: TripLegs = { ...walk, mode: 'transit' };
    const middle = along(deak, ors, 0.5);
    const added = addedMinutes(trip, middle, middle);
    expect(added).toBeGreaterThan(TRANSIT_OVERHEAD_MINUTES - 0.01);
    expect(added).toBeLessThan(TRANSIT_OVERHEAD_MINUTES + 0.01);
  });

  it('is large for a parcel behind the start: there and back again', () => {
    const behind = destination(deak, 2000, 270); // 2 km west of the start, the trip goes east
    const added = addedMinutes(walk, behind, ors);
    // Walking: ~2 km out and ~2 km back, street-factored.
    expect(added).toBeGreaterThan(2 * minutes(2, 'walk') * 0.95);
    expect(added).toBeLessThan(2 * minutes(2, 'walk') * 1.05);
    expect(addedMinutes({ ...walk, mode: 'bike' }, behind, ors)).toBeGreaterThan(2 * minutes(2, 'bike') * 0.95);
  });

  it('adds the way back when the delivery lies before the pickup along the trip', () => {
    const early = along(deak, ors, 0.2);
    const late = along(deak, ors, 0.6);
    const between = minutes(distanceMetres(early, late) / 1000, 'walk');
    expect(addedMinutes(walk, early, late)).toBeLessThan(0.01);
    expect(addedMinutes(walk, late, early)).toBeCloseTo(2 * between, 3);
    expect(addedMinutes({ ...walk, mode: 'transit' }, late, early)).toBeGreaterThan(10);
  });

  it('ranks a parcel nearer the line above one further off', () => {
    const onLine = along(deak, ors, 0.5);
    const near = destination(onLine, 200, 0);
    const far = destination(onLine, 800, 0);
    for (const mode of TRAVEL_MODES) {
      const trip = { ...walk, mode };
      expect(addedMinutes(trip, near, ors)).toBeLessThan(addedMinutes(trip, far, ors));
    }
  });
});

/** A trip: a start, and an end within `maxKm` of it in any direction. */
const trip = (start: fc.Arbitrary<Coordinates>, maxKm: number) =>
  fc
    .tuple(
      start,
      fc.oneof(uniform(50, maxKm * 1000), fc.double({ min: 50, max: maxKm * 1000, noNaN: true })),
      uniform(0, 360),
      fc.constantFrom(...TRAVEL_MODES),
      fc.oneof(fc.noBias(fc.integer({ min: 1, max: 120 })), fc.integer({ min: 1, max: 120 })),
    )
    .map(([from, metres, bearing, mode, maxMinutes]) => ({
      trip: { from, to: destination(from, metres, bearing), mode } as TripLegs,
      maxMinutes,
    }));

/**
 * A parcel's point around a trip: anywhere up to 1.5 times the ellipse's reach from the start, or
 * near the straight line between the ends, so both fitting and unfitting parcels come up often.
 */
const pointAround = (t: TripLegs, maxMinutes: number) => {
  const sum = ellipseSumMetres(t, maxMinutes);
  const reach = (sum + distanceMetres(t.from, t.to)) / 2;
  return fc.oneof(
    fc.tuple(uniform(0, 1.5), uniform(0, 360)).map(([share, bearing]) => destination(t.from, share * reach, bearing)),
    fc.tuple(uniform(-0.2, 1.2), uniform(0, 0.3), uniform(0, 360)).map(([fraction, off, bearing]) => {
      const base = fraction < 0 || fraction > 1 ? (fraction < 0 ? t.from : t.to) : along(t.from, t.to, fraction);
      return destination(base, off * reach, bearing);
    }),
  );
};

describe('the candidate filter', () => {
  const checkNeverDrops = (trips: fc.Arbitrary<{ trip: TripLegs; maxMinutes: number }>) => {
    let fitting = 0;
    let tried = 0;
    fc.assert(
      fc.property(
        trips.chain(({ trip: t, maxMinutes }) =>
          fc.tuple(fc.constant(t), fc.constant(maxMinutes), pointAround(t, maxMinutes), pointAround(t, maxMinutes)),
        ),
        ([t, maxMinutes, pickup, delivery]) => {
          tried += 1;
          if (addedMinutes(t, pickup, delivery) > maxMinutes) return;
          fitting += 1;
          const sum = ellipseSumMetres(t, maxMinutes);
          const box = ellipseBox(t, sum);
          expect(withinEllipse(t, pickup, sum)).toBe(true);
          expect(withinEllipse(t, delivery, sum)).toBe(true);
          expect(inBox(box, pickup)).toBe(true);
          expect(inBox(box, delivery)).toBe(true);
        },
      ),
      { numRuns: 5000 },
    );
    // The property is only worth something if many generated parcels fit.
    expect(fitting).toBeGreaterThan(tried / 20);
  };

  it('never drops a fitting parcel on trips in Hungary', () => {
    checkNeverDrops(trip(hungaryPoint, 600));
  });

  it('never drops a fitting parcel on short city trips', () => {
    checkNeverDrops(trip(hungaryPoint, 15));
  });

  it('never drops a fitting parcel on trips anywhere at mid latitudes, across ±180° too', () => {
    checkNeverDrops(trip(midLatitudePoint, 600));
  });

  it('keeps a trip across the antimeridian in one box holding both ends', () => {
    const t: TripLegs = { from: { lat: 52, lng: 179.95 }, to: { lat: 52, lng: -179.95 }, mode: 'walk' };
    const box = ellipseBox(t, ellipseSumMetres(t, 10));
    expect(inBox(box, t.from)).toBe(true);
    expect(inBox(box, t.to)).toBe(true);
    expect(inBox(box, { lat: 52, lng: 180 })).toBe(true);
  });

  it('narrows the box to the ellipse: a parcel in Debrecen is outside a Budapest trip’s box', () => {
    const t: TripLegs = { from: deak, to: ors, mode: 'transit' };
    const sum = ellipseSumMetres(t, 10);
    const box = ellipseBox(t, sum);
    const debrecen = { lat: 47.5316, lng: 21.6273 };
    expect(inBox(box, debrecen)).toBe(false);
    expect(withinEllipse(t, debrecen, sum)).toBe(false);
    expect(inBox(box, along(deak, ors, 0.5))).toBe(true);
    // A box a few kilometres across, not the country.
    expect(box.maxLat - box.minLat).toBeLessThan(0.3);
    expect(box.maxLng - box.minLng).toBeLessThan(0.4);
  });
});

describe('relay offers on a trip', () => {
  // Deák → Örs; the parcel goes on east to Gödöllő, ~25 km from Deák. (Whether an offer fits a
  // trip's minutes is the matching's, on every model: server/src/modules/trips/trip-relay.test.ts.)
  const godollo = { lat: 47.5962, lng: 19.3551 };
  const halfway = along(deak, ors, 0.5);

  it('counts how many kilometres nearer the destination the trip’s end leaves the parcel', () => {
    const closer = relayCloserKm(halfway, ors, godollo);
    expect(closer).toBeCloseTo((distanceMetres(halfway, godollo) - distanceMetres(ors, godollo)) / 1000, 9);
    expect(closer).toBeGreaterThan(2);
    // Carried back west, it ends further away: negative.
    expect(relayCloserKm(halfway, deak, godollo)).toBeLessThan(0);
  });

  it(`asks for at least ${RELAY_CLOSER_MIN_KM} km and ${RELAY_CLOSER_MIN_SHARE * 100} % of the way left`, () => {
    expect(relayGetsCloser(halfway, ors, godollo)).toBe(true);
    expect(relayGetsCloser(halfway, deak, godollo)).toBe(false);
    // 800 m nearer a destination 3 km away: under a kilometre is not worth a hand-over.
    const near = { lat: 47.5, lng: 19.2 };
    const start = destination(near, 3000, 270);
    expect(relayGetsCloser(start, destination(near, 2200, 270), near)).toBe(false);
    expect(relayGetsCloser(start, destination(near, 1900, 270), near)).toBe(true);
    // 5 km of the 100 left (5 %): under a tenth.
    const far = destination(near, 100_000, 90);
    expect(relayGetsCloser(near, destination(near, 5000, 90), far)).toBe(false);
    expect(relayGetsCloser(near, destination(near, 11_000, 90), far)).toBe(true);
  });
});
