import { distanceMetres, EARTH_RADIUS_M } from './geo.ts';
import type { Coordinates } from './parcel.ts';

/**
 * Trips (issue 13): how long a runner's trip takes, how many minutes a parcel adds to it, and the
 * candidate filter that finds the parcels that may fit without ever dropping one that does.
 * The travel-time model is a port (TravelTimeModel): a timetable-based router can replace the
 * straight-line model without touching the matching (docs/decisions/0020).
 */

export const TRAVEL_MODES = ['walk', 'bike', 'transit'] as const;
export type TravelMode = (typeof TRAVEL_MODES)[number];

/**
 * Assumptions, in one place (docs/decisions/0020): streets are not straight — a path is the
 * great-circle distance times DETOUR_FACTOR; walking ~4.8 km/h, cycling ~15 km/h; public
 * transport is walking for short hops and, for longer ones, a door-to-door average speed plus the
 * wait, whichever is quicker.
 */
export const DETOUR_FACTOR = 1.3;
export const WALK_KMH = 4.8;
export const BIKE_KMH = 15;
/** Door to door, Budapest's trams, buses and metro averaged with their stops. */
export const TRANSIT_KMH = 18;
/**
 * Waiting for the next vehicle, once per public-transport leg: half of a 5–10-minute daytime
 * headway (the walk to and from stops is in DETOUR_FACTOR). A parcel picked up and delivered
 * mid-trip adds two legs: ~8 minutes, inside the default detour.
 */
export const TRANSIT_OVERHEAD_MINUTES = 4;
/**
 * Between towns without a timetable: trains and coaches average ~90 km/h along the way, and getting
 * to the station and waiting for an hourly service costs ~45 minutes (docs/decisions/0029). It beats
 * the city speed only beyond ~12 km (trips across Budapest keep their estimate), so Budapest → Győr
 * is ~2 h 15 min door to door, not 8 h.
 */
export const INTERCITY_KMH = 90;
export const INTERCITY_OVERHEAD_MINUTES = 45;

/** The minutes a trip's runner allows a parcel to add ('Legfeljebb ennyi kitérő'). */
export const TRIP_DETOUR_DEFAULT_MINUTES = 10;
export const TRIP_DETOUR_MIN_MINUTES = 1;
export const TRIP_DETOUR_MAX_MINUTES = 120;
/** A trip longer than this (great-circle) is refused: the country is ~530 km across. */
export const TRIP_MAX_KM = 600;

/** How long a leg takes; the matching asks nothing else of a model. */
export interface TravelTimeModel {
  /** Minutes from `from` to `to` by `mode`. Must be monotone in distance and obey the triangle inequality. */
  minutes(from: Coordinates, to: Coordinates, mode: TravelMode): number;
  /** A speed no leg by `mode` beats, km/h of great-circle distance. */
  fastestKmh(mode: TravelMode): number;
  /**
   * The greatest great-circle distance (metres) covered within `minutes` by `mode`: the inverse of
   * `minutes` (sup{d : minutes(d) ≤ t}), the candidate filter's bound.
   */
  reachMetres(minutes: number, mode: TravelMode): number;
}

const minutesAt = (km: number, kmh: number) => (km / kmh) * 60;

/** Each mode's minutes as the least of linear pieces `km · 60 / kmh + overhead` (km along the way). */
const PIECES: Record<TravelMode, readonly { kmh: number; overhead: number }[]> = {
  walk: [{ kmh: WALK_KMH, overhead: 0 }],
  bike: [{ kmh: BIKE_KMH, overhead: 0 }],
  transit: [
    { kmh: WALK_KMH, overhead: 0 },
    { kmh: TRANSIT_KMH, overhead: TRANSIT_OVERHEAD_MINUTES },
    { kmh: INTERCITY_KMH, overhead: INTERCITY_OVERHEAD_MINUTES },
  ],
};

/** Minutes this little over a whole minute count as it (wholeMinutes). */
export const WHOLE_MINUTE_SLACK = 0.01;
/**
 * Whole minutes, rounded up, as a runner is shown them; less than a second over is not a minute
 * more (a parcel on the way adds 0, not 1: the great circle between two points of a parallel bows
 * off it by a few metres).
 */
export const wholeMinutes = (minutes: number) => Math.max(0, Math.ceil(minutes - WHOLE_MINUTE_SLACK));

/** The straight-line model above. */
export const straightLineModel: TravelTimeModel = {
  minutes(from, to, mode) {
    const km = (distanceMetres(from, to) / 1000) * DETOUR_FACTOR;
    // The quickest piece (walking, riding in town, riding between towns): a least of linear times with
    // non-negative constants is concave from 0, so monotone and subadditive — the triangle inequality
    // holds, a parcel on the way adds ~0 and the filter below stays sound.
    let best = Number.POSITIVE_INFINITY;
    for (const piece of PIECES[mode]) best = Math.min(best, minutesAt(km, piece.kmh) + piece.overhead);
    return best;
  },
  fastestKmh(mode) {
    return Math.max(...PIECES[mode].map((piece) => piece.kmh)) / DETOUR_FACTOR;
  },
  reachMetres(minutes, mode) {
    // minutes(d) ≤ t iff some piece is: the farthest any piece gets within t.
    let km = 0;
    for (const piece of PIECES[mode]) km = Math.max(km, ((minutes - piece.overhead) / 60) * piece.kmh);
    return (km / DETOUR_FACTOR) * 1000;
  },
};

export interface TripLegs {
  from: Coordinates;
  to: Coordinates;
  mode: TravelMode;
}

/**
 * Minutes a parcel adds to the trip: start → pickup → delivery → end, against start → end.
 * A parcel whose delivery point lies before its pickup along the trip adds the way back.
 */
export function addedMinutes(
  trip: TripLegs,
  pickup: Coordinates,
  delivery: Coordinates,
  model: TravelTimeModel = straightLineModel,
): number {
  const { from, to, mode } = trip;
  const via =
    model.minutes(from, pickup, mode) + model.minutes(pickup, delivery, mode) + model.minutes(delivery, to, mode);
  return Math.max(0, via - model.minutes(from, to, mode));
}

/**
 * The ellipse no fitting parcel's pickup or delivery point lies outside: with foci at the trip's
 * ends, the greatest sum of great-circle distances (metres) to them. A point further than that
 * from the two ends together cannot be reached and left within the allowed minutes: the model is
 * monotone and subadditive, so start → point → end takes at least minutes(d(s,p) + d(p,e)), and the
 * sum is the model's reach within the trip's minutes plus the allowed ones (docs/decisions/0029).
 */
export function ellipseSumMetres(
  trip: TripLegs,
  maxAddedMinutes: number,
  model: TravelTimeModel = straightLineModel,
): number {
  const budgetMinutes = model.minutes(trip.from, trip.to, trip.mode) + maxAddedMinutes;
  return model.reachMetres(budgetMinutes, trip.mode);
}

/** Whether `point` lies inside the trip's ellipse (the candidate filter, exact on the sphere). */
export function withinEllipse(trip: TripLegs, point: Coordinates, sumMetres: number): boolean {
  return distanceMetres(trip.from, point) + distanceMetres(point, trip.to) <= sumMetres;
}

export interface LatLngBox {
  minLat: number;
  maxLat: number;
  minLng: number;
  maxLng: number;
}

const METRES_PER_DEGREE = (EARTH_RADIUS_M * Math.PI) / 180;

/**
 * A latitude/longitude box holding the whole ellipse, for an index range scan. A point of the
 * ellipse is within (sum + |from, to|) / 2 of each end (triangle inequality), so it lies in both
 * ends' boxes of that reach; 2 % more covers the sphere in the longitude bound.
 */
export function ellipseBox(trip: TripLegs, sumMetres: number): LatLngBox {
  const reach = (sumMetres + distanceMetres(trip.from, trip.to)) / 2;
  const dLat = (reach / METRES_PER_DEGREE) * 1.02;
  const around = ({ lat, lng }: Coordinates): LatLngBox => {
    const nearestPole = Math.min(90, Math.abs(lat) + dLat);
    const dLng = nearestPole >= 89 ? 180 : dLat / Math.cos((nearestPole * Math.PI) / 180);
    return { minLat: lat - dLat, maxLat: lat + dLat, minLng: lng - dLng, maxLng: lng + dLng };
  };
  const a = around(trip.from);
  // The end's longitude as seen from the start (within 180°), so a trip across ±180° has one box.
  const b = around({
    lat: trip.to.lat,
    lng: trip.from.lng + ((((trip.to.lng - trip.from.lng) % 360) + 540) % 360) - 180,
  });
  const minLng = Math.max(a.minLng, b.minLng);
  const maxLng = Math.min(a.maxLng, b.maxLng);
  // A box reaching past ±180° would miss the points on the other side: every longitude, then.
  const wraps = minLng < -180 || maxLng > 180;
  return {
    minLat: Math.max(a.minLat, b.minLat),
    maxLat: Math.min(a.maxLat, b.maxLat),
    minLng: wraps ? -180 : minLng,
    maxLng: wraps ? 180 : maxLng,
  };
}

/**
 * Relay offers among a trip's matches (issue 14 item 3): a runner whose trip passes an offer's
 * meeting point takes the parcel from there to the trip's end. Worth a hand-over only if that
 * brings the parcel meaningfully nearer its destination: at least RELAY_CLOSER_MIN_KM (a hand-over
 * costs two people a meeting and a QR confirmation; under a kilometre is a walk the carrier could
 * do) and at least RELAY_CLOSER_MIN_SHARE of the way still left (so a parcel going 300 km is not
 * offered a trip that moves it 2 km: at a tenth per leg it needs at most ten hand-overs).
 */
export const RELAY_CLOSER_MIN_KM = 1;
export const RELAY_CLOSER_MIN_SHARE = 0.1;

/** Kilometres (great-circle) the parcel ends nearer its destination at the trip's end than at the meeting point. */
export function relayCloserKm(place: Coordinates, end: Coordinates, destination: Coordinates): number {
  return (distanceMetres(place, destination) - distanceMetres(end, destination)) / 1000;
}

/** Whether carrying it from `place` to `end` is worth a hand-over (the rule above). */
export function relayGetsCloser(place: Coordinates, end: Coordinates, destination: Coordinates): boolean {
  const remainingKm = distanceMetres(place, destination) / 1000;
  const needed = Math.max(RELAY_CLOSER_MIN_KM, RELAY_CLOSER_MIN_SHARE * remainingKm);
  return relayCloserKm(place, end, destination) >= needed - 1e-9;
}
