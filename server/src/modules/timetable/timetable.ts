import type { Coordinates } from '@csomag/domain/parcel';

/**
 * A compiled timetable (issue 26, docs/decisions/0029): one or more GTFS feeds merged onto typed
 * arrays at import, so that the in-process router (router.ts, the Connection Scan Algorithm) scans
 * them without allocating. Built by gtfs/compile.ts, stored by codec.ts, never changed after.
 *
 * Times: a connection's departure and arrival are seconds from its trip's service day's base —
 * GTFS's "noon minus 12 h" in the feeds' time zone, so 25:10:00 is the next morning and a trip on
 * the day clocks change keeps its wall-clock times. `dayBase[d]` is that instant (ms) for the d-th
 * day from `firstDay`, so an absolute time is `dayBase[d] + seconds * 1000`.
 */
export interface Timetable {
  /** The feeds merged into this timetable, as imported. */
  feeds: FeedSummary[];
  /** Every feed's agency_timezone (an import refuses feeds that disagree). */
  timeZone: string;

  stopCount: number;
  stopLat: Float64Array;
  stopLng: Float64Array;
  /** stop_name as written. */
  stopNames: string[];

  /** route_short_name, else route_long_name ('M3', '4-6', 'S70'). */
  routeNames: string[];
  /** GTFS route_type (0 tram, 1 metro, 2 rail, 3 bus, …; extended types as given). */
  routeTypes: Uint16Array;

  tripCount: number;
  tripRoute: Uint32Array;
  tripService: Uint32Array;
  /** trip_headsign, '' when absent. */
  tripHeadsigns: string[];

  /** The first service day covered, 'YYYY-MM-DD', and how many days follow it (inclusive). */
  firstDay: string;
  dayCount: number;
  /** Per day: the instant (ms, UTC) of noon minus 12 hours in `timeZone`. */
  dayBase: Float64Array;
  serviceCount: number;
  /** serviceCount × dayCount: 1 where service s runs on day d (`serviceDays[s * dayCount + d]`), calendar and calendar_dates applied. */
  serviceDays: Uint8Array;

  /**
   * One connection per consecutive pair of a trip's stop_times, sorted by departure, then arrival;
   * ties keep a trip's own order (its zero-minute hops stay in sequence).
   */
  connectionCount: number;
  connectionFrom: Uint32Array;
  connectionTo: Uint32Array;
  /** Seconds from the service day's base (may exceed 86,400). */
  connectionDeparture: Int32Array;
  connectionArrival: Int32Array;
  connectionTrip: Uint32Array;
  /**
   * Connection indexes sorted by arrival, latest last (the backward search scans it from the end);
   * ties by departure, then by position in the trip.
   */
  byArrival: Uint32Array;

  /**
   * Walks between stops (compressed rows): for stop s, `footTo[footStart[s] … footStart[s + 1])`
   * with `footSeconds` — from transfers.txt (type 2, its min_transfer_time) and between stops within
   * TRANSFER_WALK_MAX_M of each other (walking time as the walking model says). Symmetric.
   */
  footStart: Uint32Array;
  footTo: Uint32Array;
  footSeconds: Int32Array;

  /**
   * The greatest great-circle speed (km/h) between any two stops of one trip: no ride is faster, so
   * the trip filter's ellipse stays lossless with it. Infinity when a feed has a trip reach a stop
   * elsewhere in no time (then the filter relies on the searches' own reach).
   */
  fastestKmh: number;
}

/** One imported feed, as the back office lists it. */
export interface FeedSummary {
  /** The file's name without its folder ('bkk.zip'). */
  file: string;
  /** Agency names. */
  agencies: string[];
  /** Dates covered, 'YYYY-MM-DD'. */
  validFrom: string;
  validUntil: string;
  counts: { stops: number; routes: number; trips: number; stopTimes: number; transfers: number };
}

/** A walk to or from a stop counts only within this (great-circle): ~20 minutes on foot. */
export const ACCESS_WALK_MAX_M = 1_500;
/** Stops this close are linked by a walk when transfers.txt says nothing about them. */
export const TRANSFER_WALK_MAX_M = 400;
/** A search looks this far past its departure for a journey (the next day's first service too). */
export const SEARCH_HORIZON_MS = 24 * 3_600_000;

/** A stop as a journey shows it. */
export interface StopAt {
  name: string;
  position: Coordinates;
  /** ms: the departure at the boarding stop, the arrival at every other. */
  at: number;
}

export type Leg =
  | { kind: 'walk'; from: Coordinates; to: Coordinates; departAt: number; arriveAt: number }
  | {
      kind: 'ride';
      /** Route name ('M3'), its GTFS type and the trip's headsign. */
      route: string;
      routeType: number;
      headsign: string;
      /** Boarding and alighting stops with their times, then every stop between them, in order (both ends included). */
      from: StopAt;
      to: StopAt;
      stops: StopAt[];
    };

/** A journey: its departure and arrival instants (ms) and its legs in order. */
export interface Journey {
  departAt: number;
  arriveAt: number;
  legs: Leg[];
}
