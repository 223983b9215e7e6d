import type { Coordinates } from '@csomag/domain/parcel';
import {
  ellipseBox,
  ellipseSumMetres,
  type LatLngBox,
  straightLineModel,
  type TravelMode,
  type TravelTimeModel,
} from '@csomag/domain/trips';
import type { Journey } from './timetable.ts';

/**
 * The travel-time port as trips use it (issue 26, docs/decisions/0029): time-dependent, one trip at
 * a time. Matching, saved-trip offers, relay offers and the trip's own duration ask a TripTimes for
 * a trip leaving `from` at `at` towards `to`; which model answers (a loaded timetable, an
 * operator's MOTIS, the straight line) is decided once per trip and said in the answer.
 */

/** Who answered a trip's times. */
export type TravelSource = 'timetable' | 'external' | 'straight-line';

/**
 * Why the straight line answered public transport: no feed loaded, a trip end further than a walk
 * from every stop, a day the feeds do not cover (expired, or not yet valid), the external engine
 * failing or too slow.
 */
export type FallbackReason = 'no_timetable' | 'outside_timetable' | 'timetable_expired' | 'external_failed';

/**
 * Earliest arrivals from the trip's start and latest departures towards its end, for many points
 * at once, and where such points can lie. A parcel's pickup is reached from the start (an ordinary
 * journey: it lies in `reached`), its delivery point is left for the end (it lies in `leaving`);
 * neither need lie in the other's box — a runner may walk from a stop to the pickup and on to the
 * delivery point, a change of stops no search without the parcel makes (ADR 0029). A single point
 * visited on the way, like a relay meeting point, lies in both: `box`.
 */
export interface TripReach {
  /** Every point reached from the start by the deadline, soon enough to get on to the end by it, lies in it (null: none). */
  reached: LatLngBox | null;
  /** Every point from which the end is still reached by the deadline, late enough to have got there from the start, lies in it (null: none). */
  leaving: LatLngBox | null;
  /** Both at once. */
  box: LatLngBox | null;
  /** Earliest arrival (ms) at each point leaving the start at the trip's departure; Infinity when not by the deadline. */
  arrivals(points: readonly Coordinates[]): Float64Array;
  /** Latest departure (ms) from each point that still reaches the end by the deadline; -Infinity when none. */
  departures(points: readonly Coordinates[]): Float64Array;
  /** Bounds of `arrivals` and `departures` kept in a few KB, for a saved trip's many checks; absent where none are cheaper. */
  bounds?(): ReachBounds;
  /**
   * Bounds of `arrivals` and `departures` a point at a time, cheaper than them for the thousands of
   * points one query asks about (the timetable's: worked out once per 1 km cell); absent where none are.
   */
  nearBounds?: ReachBounds;
}

/** Bounds of a reach's answers at any point, kept compact (a saved trip keeps them between new parcels). */
export interface ReachBounds {
  /** Never later than the reach's earliest arrival at `point`. */
  arrivalAtLeast(point: Coordinates): number;
  /** Never earlier than the reach's latest departure from `point`. */
  departureAtMost(point: Coordinates): number;
}

/** Where both boxes overlap, or null. */
export function boxesMeet(a: LatLngBox | null, b: LatLngBox | null): LatLngBox | null {
  if (!a || !b) return null;
  const box = {
    minLat: Math.max(a.minLat, b.minLat),
    maxLat: Math.min(a.maxLat, b.maxLat),
    minLng: Math.max(a.minLng, b.minLng),
    maxLng: Math.min(a.maxLng, b.maxLng),
  };
  return box.minLat <= box.maxLat && box.minLng <= box.maxLng ? box : null;
}

/** Whether `point` lies in `box`. */
export const inBox = (box: LatLngBox | null, point: Coordinates) =>
  box !== null &&
  point.lat >= box.minLat &&
  point.lat <= box.maxLat &&
  point.lng >= box.minLng &&
  point.lng <= box.maxLng;

export interface TripTimes {
  source: TravelSource;
  /** Set when the straight line answered public transport. */
  fallback?: FallbackReason;
  /** The trip itself leaving at its departure; null when no connection reaches the end within the search horizon. */
  journey: Journey | null;
  /** A speed (km/h of great-circle distance) no leg of this model beats; Infinity when none is known. */
  fastestKmh: number;
  /**
   * Reach for a deadline (ms): the arrival a fitting parcel's detour may still reach. With
   * `departuresBy`, the deadline `departuresBy` will be asked for next: a model may answer both
   * from one search.
   */
  reach(deadline: number, departuresBy?: number): Promise<TripReach>;
  /**
   * Earliest arrival (ms) at `to` leaving `from` at `at`, by the same model; Infinity when not by `by`.
   * With `enough`, any arrival no later than it may answer instead (a search may end at the first).
   */
  arrival(from: Coordinates, to: Coordinates, at: number, by: number, enough?: number): Promise<number>;
  /** A lower bound (ms) of `arrival(from, to, at, …) - at` whenever one leaves (0 when nothing is known): spares a search. */
  leastMs(from: Coordinates, to: Coordinates): number;
  /**
   * Latest departures (ms) towards the trip's end still arriving by `deadline`, as
   * `reach(deadline).departures` answers them, without the forward search; absent where each
   * deadline costs a remote search.
   */
  departuresBy?(deadline: number): Promise<(points: readonly Coordinates[]) => Float64Array>;
  /**
   * For many legs at once, a lower bound of each one's `arrival(from, to, at, by)`: what one search
   * from all their starts together answers (Infinity: not by `by`); absent where that is no cheaper
   * than a search per leg.
   */
  leastArrivals?(legs: readonly LegQuery[], by: number): Promise<Float64Array>;
  /**
   * Each leg's own `arrival(from, to, at, by, enough)`, from a few searches for them all; absent
   * where that is no cheaper than a search per leg. Trips whose `arrivalsEach` is the same function
   * answer by the same engine: their legs may be asked together (saved-trip offers).
   */
  arrivalsEach?(legs: readonly BoundedLeg[]): Promise<Float64Array>;
  /** How many legs `arrivalsEach` answers by one search: asking for a multiple of it leaves none part-used. */
  legsAtOnce?: number;
}

/** A leg asked about: leaving `from` at `at` for `to`. */
export interface LegQuery {
  from: Coordinates;
  to: Coordinates;
  at: number;
}

/** A leg arriving by `by`, where any arrival by `enough` will do. */
export interface BoundedLeg extends LegQuery {
  by: number;
  enough?: number;
}

export interface TravelTimes {
  /** Changes whenever the answers may (another timetable loaded): what a cache of TripTimes is keyed by. */
  version(): string;
  /** The times of a trip from `from` to `to` by `mode` leaving at `at` (ms). */
  forTrip(
    from: Coordinates,
    to: Coordinates,
    mode: TravelMode,
    at: number,
    fallback?: FallbackReason,
  ): Promise<TripTimes>;
}

const MINUTE = 60_000;

/**
 * The straight-line model (domain's trips.ts) behind the port: time-independent, so arrivals are
 * the departure plus minutes, departures the deadline minus them, and the box is the ellipse's.
 */
export function straightLineTimes(
  from: Coordinates,
  to: Coordinates,
  mode: TravelMode,
  at: number,
  fallback?: FallbackReason,
  model: TravelTimeModel = straightLineModel,
): TripTimes {
  const minutes = model.minutes(from, to, mode);
  const journey: Journey = {
    departAt: at,
    arriveAt: at + minutes * MINUTE,
    legs: [],
  };
  return {
    source: 'straight-line',
    ...(fallback ? { fallback } : {}),
    journey,
    fastestKmh: model.fastestKmh(mode),
    async reach(deadline) {
      const legs = { from, to, mode };
      const sum = ellipseSumMetres(legs, (deadline - journey.arriveAt) / MINUTE, model);
      // The model is subadditive: every point of a fitting detour, pickup and delivery alike, is in the ellipse.
      const box = ellipseBox(legs, sum);
      return {
        reached: box,
        leaving: box,
        box,
        arrivals: (points) => Float64Array.from(points, (point) => at + model.minutes(from, point, mode) * MINUTE),
        departures: (points) =>
          Float64Array.from(points, (point) => deadline - model.minutes(point, to, mode) * MINUTE),
      };
    },
    async arrival(a, b, start, by) {
      const arrives = start + model.minutes(a, b, mode) * MINUTE;
      return arrives <= by ? arrives : Number.POSITIVE_INFINITY;
    },
    leastMs: (a, b) => model.minutes(a, b, mode) * MINUTE,
    async departuresBy(deadline) {
      return (points) => Float64Array.from(points, (point) => deadline - model.minutes(point, to, mode) * MINUTE);
    },
  };
}

/** Travel times without any timetable: the straight line for every mode. */
export const straightLineTravelTimes: TravelTimes = {
  version: () => 'straight-line',
  async forTrip(from, to, mode, at, fallback) {
    return straightLineTimes(from, to, mode, at, mode === 'transit' ? (fallback ?? 'no_timetable') : fallback);
  },
};
