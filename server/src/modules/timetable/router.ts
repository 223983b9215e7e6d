import { distanceMetres } from '@csomag/domain/geo';
import type { Coordinates } from '@csomag/domain/parcel';
import { DETOUR_FACTOR, type LatLngBox, WALK_KMH } from '@csomag/domain/trips';
import { LEGS_AT_ONCE, LegsSearch } from './legs-search.ts';
import { addDays, serviceDayBase } from './service-days.ts';
import { degreesAround, NearStops, PointMemo, StopGrid, slopeAtLeast } from './stop-grid.ts';
import { earliestStream, newStreams, openForward, type Streams } from './streams.ts';
import { ACCESS_WALK_MAX_M, type Journey, type Leg, type StopAt, type Timetable } from './timetable.ts';
import type { BoundedLeg, ReachBounds } from './travel-times.ts';
import { grown } from './typed-arrays.ts';

/**
 * The in-process public-transport router (issue 26, docs/decisions/0029): the Connection Scan
 * Algorithm over a compiled Timetable. A search scans the connections of every service day that
 * can matter, merged in absolute time: each day is the one sorted array shifted by that day's base,
 * and bases are 23 or 25 hours apart around clock changes, so the days are merged rather than
 * concatenated. A trip is boarded per (trip, day) where a traveller is at its stop by its departure
 * (no extra change time); footpaths are taken one hop after reaching a stop. Walking (to and from
 * stops, and the whole way when that is quicker) is domain's walking model.
 *
 * Footpaths are one hop, so each stop keeps two labels: when it is reached by a ride or on foot from
 * the search's point ("main", from which a footpath leads on), and when one is there at all, a
 * footpath included ("at", which boards and walks on to the point). One label would let an early
 * arrival on foot hide a later ride from which a footpath still leads somewhere sooner. The
 * backward search mirrors this, so the two agree exactly (router.test.ts).
 *
 * The inner loops touch typed arrays only; per-stop and per-trip scratch is reused between
 * searches and told apart by a generation stamp, so a single-target search allocates nothing
 * proportional to the timetable.
 */

const SECOND = 1_000;
const MINUTE = 60_000;
const HOUR = 3_600_000;

/**
 * Walking time (ms) for `metres` of great circle: domain's walking model (straightLineModel's
 * 'walk', the same operations, so the same number: router.test.ts holds them equal), taken from
 * the distance the stop grid has already measured. Rounded up to a whole ms: instants and walks
 * then add and subtract exactly, so the forward and backward searches agree to the ms.
 */
export function walkMsFor(metres: number): number {
  return Math.ceil((((metres / 1000) * DETOUR_FACTOR) / WALK_KMH) * 60 * MINUTE);
}

/** Walking time (ms) from `from` to `to` (walkMsFor). */
export function walkMs(from: Coordinates, to: Coordinates): number {
  return walkMsFor(distanceMetres(from, to));
}

/** The walking model's ms a metre, a hair under: walkMsFor(m) ≥ m · this (a bound's walk, StopGrid.summaryTime). */
const WALK_MS_PER_METRE_AT_LEAST = slopeAtLeast(walkMsFor);

/** The great-circle metres walkable in `ms` (the walking model inverted), a metre generous. */
function walkableMetres(ms: number): number {
  return (ms / HOUR) * WALK_KMH * (1000 / DETOUR_FACTOR) + 1;
}

/** Earliest arrivals from one point at one instant, to every stop. */
export interface ForwardSearch {
  from: Coordinates;
  at: number;
  by: number;
  /** Per stop, ms; Infinity when not reached by `by`. The search's own copy. */
  stopArrival: Float64Array;
  /** Earliest arrival (ms) at `point`: walked all the way or from a reached stop; Infinity when not by `by`. */
  arrivalAt(point: Coordinates): number;
  /** Never later than `arrivalAt(point)`, from the point's 1 km cell (worked out once a cell): cheaper for many points. */
  arrivalAtLeast(point: Coordinates): number;
}

/** Latest departures towards one point by one instant, from every stop. */
export interface BackwardSearch {
  to: Coordinates;
  by: number;
  after: number;
  /** Per stop, ms; -Infinity when `to` is not reached by `by` leaving at or after `after`. The search's own copy. */
  stopDeparture: Float64Array;
  /** Latest departure (ms) from `point` still reaching `to` by `by`; -Infinity when earlier than `after`. */
  departureAt(point: Coordinates): number;
  /** Never earlier than `departureAt(point)`, from the point's 1 km cell (worked out once a cell). */
  departureAtMost(point: Coordinates): number;
}

const INFINITY = Number.POSITIVE_INFINITY;
/** Points whose nearest stop is remembered (nearestStopMetres): a trip query's candidates' points, a few MiB. */
const NEAREST_REMEMBERED = 65_536;

/** Where and when a search starts: one point, or each of many (forwardFrom). */
interface Source {
  point: Coordinates;
  at: number;
}

export class TimetableRouter {
  readonly timetable: Timetable;
  private readonly grid: StopGrid;
  private readonly near = new NearStops();
  /** The stops a search's sources walk to (their footpaths are walked next). */
  private readonly accessed = new NearStops();
  private readonly lastDay: number;
  /** Many legs at once (made at the first ask). */
  private legs: LegsSearch | undefined;

  private generation = 0;
  /** A stop's labels are this search's where stamped (both set to "none" when first stamped). */
  private readonly stopStamp: Uint32Array;
  /** Forward: arrivals (ms); backward: departures. */
  private readonly stopMain: Float64Array;
  private readonly stopAt: Float64Array;
  /** Forward only, for the journey: rides so far per label and how each was reached. */
  private readonly mainRides: Uint16Array;
  private readonly atRides: Uint16Array;
  /** The main label's trip boarding and alighting connections and day; boarding -1: walked from the point. */
  private readonly mainBoarding: Int32Array;
  private readonly mainAlighting: Int32Array;
  private readonly mainDay: Int32Array;
  /** The at label's footpath and the stop it starts from; -1: the main label. */
  private readonly atFoot: Int32Array;
  private readonly atFrom: Int32Array;
  private readonly egressStamp: Uint32Array;
  private readonly egressWalk: Float64Array;

  /** A backward search's labels for its earlier deadline (searchBackward), made at the first. */
  private early: { main: Float64Array; at: Float64Array; trips: Uint32Array } | null = null;
  /** One stream per service day scanned, and how many the last search opened. */
  private readonly streams: Streams;
  private openStreams = 0;
  /** The generation whose search opened the streams (a search may end before it scans). */
  private scanned = 0;
  /**
   * The last journey's search, if it scanned (an answer on foot scans nothing), while no other has
   * been made since: a forward search from the same start (the trip's reach, asked next) goes on
   * with it instead of scanning its start again.
   */
  private journeySearch: { generation: number; from: Coordinates; at: number; by: number; target: Coordinates } | null =
    null;
  /** Per (stream, trip): reached in this search, boarding connection, rides so far. */
  private tripStamp = new Uint32Array(0);
  private tripBoarding = new Int32Array(0);
  private tripRides = new Uint16Array(0);

  /** Each trip's connections in order (built at the first journey). */
  private tripConnections: { start: Uint32Array; connections: Uint32Array } | null = null;
  /** The greatest great-circle speed (m/ms) of any ride, footpath or walk (leastMs; made at its first use). */
  private fastestMetresPerMs: number | null = null;
  /** Every stop at time 0: the nearest stop's distance is a best "time" (leastMs); its cells' best. */
  private readonly noTimes: Float64Array;
  private stopCells: Float64Array | null = null;
  private readonly nearestKnown = new PointMemo<number>(NEAREST_REMEMBERED);

  constructor(timetable: Timetable) {
    this.timetable = timetable;
    this.grid = new StopGrid(timetable.stopLat, timetable.stopLng);
    const stops = timetable.stopCount;
    this.stopStamp = new Uint32Array(stops);
    this.stopMain = new Float64Array(stops);
    this.stopAt = new Float64Array(stops);
    this.mainRides = new Uint16Array(stops);
    this.atRides = new Uint16Array(stops);
    this.mainBoarding = new Int32Array(stops);
    this.mainAlighting = new Int32Array(stops);
    this.mainDay = new Int32Array(stops);
    this.atFoot = new Int32Array(stops);
    this.atFrom = new Int32Array(stops);
    this.egressStamp = new Uint32Array(stops);
    this.egressWalk = new Float64Array(stops);
    this.streams = newStreams(timetable);
    this.lastDay = serviceDayBase(addDays(timetable.firstDay, timetable.dayCount), timetable.timeZone);
    this.noTimes = new Float64Array(stops);
  }

  /**
   * A lower bound (ms) of the time from `from` to `to` leaving at any instant: walking all the way,
   * or walking to the nearest stop, covering the rest of the distance at the fastest speed anything
   * in the timetable moves (rides, footpaths, walking: great circle over time), and walking from
   * the stop nearest `to`. Lets a trip query pass over parcels that cannot fit without a search.
   */
  leastMs(from: Coordinates, to: Coordinates): number {
    const direct = walkMs(from, to);
    const first = this.nearestStopMetres(from);
    const last = this.nearestStopMetres(to);
    // No stop within a walk of an end: nothing to ride from or to.
    if (first === INFINITY || last === INFINITY) return direct;
    const between = Math.max(0, distanceMetres(from, to) - first - last);
    // Two ms less: walks are rounded up to whole ms, the speed's share of them is not.
    const riding = walkMsFor(first) + between / this.fastest() + walkMsFor(last) - 2;
    return Math.max(0, Math.floor(Math.min(direct, riding)));
  }

  /**
   * The metres to the stop nearest `point` within a walk (Infinity: none). The points asked last are
   * remembered: a trip query asks for every candidate's pickup and delivery point and the trip's end
   * (that for every candidate), and the next query for most of the same.
   */
  private nearestStopMetres(point: Coordinates): number {
    const known = this.nearestKnown.get(point);
    if (known !== undefined) return known;
    this.stopCells ??= this.grid.cellBest(this.noTimes, 1);
    const metres = this.grid.bestTime(point, ACCESS_WALK_MAX_M, this.noTimes, (m) => m, 1, INFINITY, this.stopCells);
    this.nearestKnown.set(point, metres);
    return metres;
  }

  /** The greatest great-circle speed (m/ms) of rides (the timetable's), footpaths and walking, a hair over. */
  private fastest(): number {
    if (this.fastestMetresPerMs !== null) return this.fastestMetresPerMs;
    const { footStart, footTo, footSeconds, stopCount, fastestKmh } = this.timetable;
    const walking = WALK_KMH / DETOUR_FACTOR / 3600;
    let fastest = Math.max(fastestKmh / 3600, walking);
    for (let stop = 0; stop < stopCount; stop++) {
      const here = this.grid.positions[stop] as Coordinates;
      for (let f = footStart[stop] as number, end = footStart[stop + 1] as number; f < end; f++) {
        const metres = distanceMetres(here, this.grid.positions[footTo[f] as number] as Coordinates);
        const ms = (footSeconds[f] as number) * SECOND;
        if (metres > 0) fastest = Math.max(fastest, ms > 0 ? metres / ms : INFINITY);
      }
    }
    this.fastestMetresPerMs = fastest * (1 + 1e-6);
    return this.fastestMetresPerMs;
  }

  /** Whether a stop lies within a walk of `point`. */
  covers(point: Coordinates): boolean {
    return this.grid.within(point, ACCESS_WALK_MAX_M, this.near) > 0;
  }

  /** The service day `at` falls in (base ≤ at < the next day's base); null outside the timetable. */
  dayIndex(at: number): number | null {
    const bases = this.timetable.dayBase;
    if (bases.length === 0 || at < (bases[0] ?? 0) || at >= this.lastDay) return null;
    let low = 0;
    let high = bases.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if ((bases[middle] ?? 0) <= at) low = middle;
      else high = middle - 1;
    }
    return low;
  }

  /** The end (ms) of the timetable's last day: later trips fall back to the straight line. */
  validUntil(): number {
    return this.lastDay;
  }

  /**
   * Each leg's `arrival(from, to, at, by, enough)`, from a scan per 32 legs (LegsSearch), taken in
   * the order of their `by`: legs searched together end about together. A scan costs a few single
   * searches' worth.
   */
  arrivalsEach(legs: readonly BoundedLeg[]): Float64Array {
    this.legs ??= new LegsSearch({ timetable: this.timetable, grid: this.grid, near: this.near, walkMs, walkMsFor });
    const order = Array.from(legs.keys()).sort((a, b) => (legs[a] as BoundedLeg).by - (legs[b] as BoundedLeg).by);
    const arrivals = new Float64Array(legs.length);
    for (let start = 0; start < order.length; start += LEGS_AT_ONCE) {
      const part = order.slice(start, start + LEGS_AT_ONCE);
      const found = this.legs.arrivals(part.map((i) => legs[i] as BoundedLeg));
      for (const [k, i] of part.entries()) arrivals[i] = found[k] as number;
    }
    return arrivals;
  }

  /** Earliest arrival at every stop leaving `from` at `at`; nothing arriving after `by` counts. */
  forward(from: Coordinates, at: number, by: number): ForwardSearch {
    if (!this.goOnFromJourney(from, at, by)) this.searchForward([{ point: from, at }], null, by);
    // Past `by` only where the journey's search went on from (it searched further).
    const stopArrival = this.searchedTimes(INFINITY, by);
    const { grid } = this;
    // Each cell's earliest arrival, made at the first point asked about.
    let cells: Float64Array | undefined;
    const cellBound = cellBounds(grid, 1);
    return {
      from,
      at,
      by,
      stopArrival,
      arrivalAtLeast(point) {
        cells ??= grid.cellBest(stopArrival, 1);
        return Math.min(at + walkMs(from, point), cellBound(grid.cellAt(point), cells));
      },
      arrivalAt(point) {
        cells ??= grid.cellBest(stopArrival, 1);
        const best = grid.bestTime(
          point,
          ACCESS_WALK_MAX_M,
          stopArrival,
          walkMsFor,
          1,
          at + walkMs(from, point),
          cells,
        );
        return best <= by ? best : Number.POSITIVE_INFINITY;
      },
    };
  }

  /**
   * Goes on with the last journey's search as a search from `from` at `at` to every stop by `by`, when
   * it was the last search made, from there then, and searched at least as far: its scan stopped
   * before departures reached its arrival, every connection before that already scanned as this
   * search scans it (only labels decide; those later than `by` are dropped by the caller), so the
   * scan goes on from where it stopped, without the journey's target (router.test.ts). Answers
   * whether it did.
   */
  private goOnFromJourney(from: Coordinates, at: number, by: number): boolean {
    const last = this.journeySearch;
    this.journeySearch = null;
    if (!last || last.generation !== this.generation) return false;
    if (last.at !== at || last.from.lat !== from.lat || last.from.lng !== from.lng || by > last.by) return false;
    const count = this.grid.within(last.target, ACCESS_WALK_MAX_M, this.near);
    for (let i = 0; i < count; i++) this.egressStamp[this.near.stops[i] as number] = 0;
    this.scanForward(by, INFINITY, Number.NEGATIVE_INFINITY, 0);
    return true;
  }

  /**
   * Earliest arrival at each point from whichever of `sources` gets there first (each leaving its
   * point at its own time), by rides only — no source's walk straight to the point: a lower bound,
   * for every source at once, of each source's own arrival (its walk added by the caller).
   * Infinity where no ride arrives by `by`.
   */
  forwardFrom(sources: readonly Source[], by: number): (points: readonly Coordinates[]) => Float64Array {
    this.searchForward(sources, null, by);
    const stopArrival = this.searchedTimes(INFINITY);
    const { grid } = this;
    const cells = grid.cellBest(stopArrival, 1);
    return (points) =>
      Float64Array.from(points, (point) => {
        const best = grid.bestTime(point, ACCESS_WALK_MAX_M, stopArrival, walkMsFor, 1, INFINITY, cells);
        return best <= by ? best : INFINITY;
      });
  }

  /**
   * The last search's time at every stop (its "at" label, or `labels`), as its own copy; `unset`
   * where it reached none, or only after `latest`.
   */
  private searchedTimes(unset: number, latest = INFINITY, labels = this.stopAt): Float64Array {
    const times = new Float64Array(this.timetable.stopCount).fill(unset);
    const { stopStamp, generation } = this;
    for (let stop = 0; stop < times.length; stop++) {
      if (stopStamp[stop] === generation && (labels[stop] as number) <= latest) times[stop] = labels[stop] as number;
    }
    return times;
  }

  /** Latest departure from every stop still reaching `to` by `by`, never before `after`. */
  backward(to: Coordinates, by: number, after: number): BackwardSearch {
    this.searchBackward(to, by, after);
    return this.backwardSearch(to, by, after, this.searchedTimes(-INFINITY));
  }

  /**
   * `backward(to, by, after)` and `backward(to, earlier, after)` (`earlier` no later than `by`) from
   * one scan of the connections: a trip query's deadline and its own arrival.
   */
  backwardTwice(to: Coordinates, by: number, earlier: number, after: number): [BackwardSearch, BackwardSearch] {
    if (!(earlier <= by)) throw new Error('backwardTwice: the earlier deadline after the other');
    this.searchBackward(to, by, after, earlier);
    const early = this.searchedTimes(-INFINITY, INFINITY, this.earlyLabels().at);
    return [
      this.backwardSearch(to, by, after, this.searchedTimes(-INFINITY)),
      this.backwardSearch(to, earlier, after, early),
    ];
  }

  /** A backward search's answers from its latest departure at every stop. */
  private backwardSearch(to: Coordinates, by: number, after: number, stopDeparture: Float64Array): BackwardSearch {
    const { grid } = this;
    // Each cell's latest departure, made at the first point asked about.
    let cells: Float64Array | undefined;
    const cellBound = cellBounds(grid, -1);
    return {
      to,
      by,
      after,
      stopDeparture,
      departureAtMost(point) {
        cells ??= grid.cellBest(stopDeparture, -1);
        return Math.max(by - walkMs(point, to), cellBound(grid.cellAt(point), cells));
      },
      departureAt(point) {
        cells ??= grid.cellBest(stopDeparture, -1);
        const best = grid.bestTime(
          point,
          ACCESS_WALK_MAX_M,
          stopDeparture,
          walkMsFor,
          -1,
          by - walkMs(point, to),
          cells,
        );
        return best >= after ? best : Number.NEGATIVE_INFINITY;
      },
    };
  }

  /**
   * The boxes of a forward and a backward search (their meeting is travel-times.ts boxesMeet). A
   * point with a finite arrival is walkable from the start within by − at or lies within
   * ACCESS_WALK_MAX_M of a reached stop; each of these discs lies in the box (degreesAround).
   * Likewise backwards.
   *
   * Told the trip's other end, a box leaves out the stops a detour through them cannot fit: reached
   * too late to get on to `toward` by its `by` even at the fastest speed anything moves (leastMs's),
   * or, backwards, left too early to have got there from `from` since its `at`. A point a fitting
   * detour visits is reached from a stop that fits too (no walk is faster), so it stays in the box:
   * half the waiting parcels of an intercity trip's boxes are left out (docs/performance.md).
   */
  /** A box holding every point the forward search reaches by its `by` (finite arrivalAt), on a fitting detour if `toward`. */
  forwardBox(forward: ForwardSearch, toward?: { point: Coordinates; by: number }): LatLngBox | null {
    const fits = toward ? this.fitting(toward.point, 1, toward.by) : undefined;
    return this.reach(forward.stopArrival, forward.from, forward.by - forward.at, fits);
  }

  /** A box holding every point from which the backward search's `to` is reached (finite departureAt), on a fitting detour if `from`. */
  backwardBox(backward: BackwardSearch, from?: { point: Coordinates; at: number }): LatLngBox | null {
    const fits = from ? this.fitting(from.point, -1, from.at) : undefined;
    return this.reach(backward.stopDeparture, backward.to, backward.by - backward.after, fits);
  }

  /**
   * Whether a stop's time still fits a detour through it: `sign` 1, reached at `time` it reaches `end`
   * by `limit` at the fastest; -1, left at `time` it was reached from `end` after `limit` (a ms's slack).
   */
  private fitting(end: Coordinates, sign: 1 | -1, limit: number): (stop: number, time: number) => boolean {
    const fastest = this.fastest();
    const { positions } = this.grid;
    return (stop, time) => sign * (time - limit) + distanceMetres(positions[stop] as Coordinates, end) / fastest <= 1;
  }

  /** The box of the stops with a finite time (that `fits`), each widened by a walk, and of the disc walkable from `origin` in `walk` ms. */
  private reach(
    times: Float64Array,
    origin: Coordinates,
    walk: number,
    fits?: (stop: number, time: number) => boolean,
  ): LatLngBox | null {
    let minLat = Number.POSITIVE_INFINITY;
    let maxLat = Number.NEGATIVE_INFINITY;
    let minLng = Number.POSITIVE_INFINITY;
    let maxLng = Number.NEGATIVE_INFINITY;
    const { stopLat, stopLng } = this.timetable;
    for (let stop = 0; stop < times.length; stop++) {
      const time = times[stop] as number;
      if (!Number.isFinite(time) || (fits && !fits(stop, time))) continue;
      const lat = stopLat[stop] as number;
      const lng = stopLng[stop] as number;
      if (lat < minLat) minLat = lat;
      if (lat > maxLat) maxLat = lat;
      if (lng < minLng) minLng = lng;
      if (lng > maxLng) maxLng = lng;
    }
    if (minLat <= maxLat) {
      // The edge nearest a pole widens every stop's disc the most.
      const { dLat, dLng } = degreesAround(Math.max(Math.abs(minLat), Math.abs(maxLat)), ACCESS_WALK_MAX_M);
      minLat -= dLat;
      maxLat += dLat;
      minLng -= dLng;
      maxLng += dLng;
    }
    if (walk >= 0) {
      const { dLat, dLng } = degreesAround(origin.lat, walkableMetres(walk));
      minLat = Math.min(minLat, origin.lat - dLat);
      maxLat = Math.max(maxLat, origin.lat + dLat);
      minLng = Math.min(minLng, origin.lng - dLng);
      maxLng = Math.max(maxLng, origin.lng + dLng);
    }
    if (!(minLat <= maxLat)) return null;
    // A box reaching past ±180° would miss the points on the other side: every longitude, then.
    if (minLng < -180 || maxLng > 180) return { minLat, maxLat, minLng: -180, maxLng: 180 };
    return { minLat, maxLat, minLng, maxLng };
  }

  /**
   * What a forward and a backward search leave in a few KB (StopGrid.summarize): bounds of their
   * answers at any point — never later than `forward.arrivalAt`, never earlier than
   * `backward.departureAt` — for a saved trip to check each new parcel against without a search.
   */
  reachBounds(forward: ForwardSearch, backward: BackwardSearch): ReachBounds {
    const { grid } = this;
    const arrivals = grid.summarize(forward.stopArrival, 1, forward.at);
    const departures = grid.summarize(backward.stopDeparture, -1, backward.after);
    const { from, at } = forward;
    const { to, by } = backward;
    const slope = WALK_MS_PER_METRE_AT_LEAST;
    return {
      arrivalAtLeast: (point) =>
        Math.min(
          at + walkMs(from, point),
          arrivals ? grid.summaryTime(point, ACCESS_WALK_MAX_M, arrivals, slope) : INFINITY,
        ),
      departureAtMost: (point) =>
        Math.max(
          by - walkMs(point, to),
          departures ? grid.summaryTime(point, ACCESS_WALK_MAX_M, departures, slope) : -INFINITY,
        ),
    };
  }

  /**
   * Earliest arrival (ms) at `to` leaving `from` at `at`; Infinity when not by `by`. With `enough`,
   * the first arrival found no later than it ends the search (a parcel is shown adding 0 minutes
   * once the delivery point is reached in time, however much sooner the earliest would be).
   */
  arrival(from: Coordinates, to: Coordinates, at: number, by: number, enough = Number.NEGATIVE_INFINITY): number {
    const best = this.searchForward([{ point: from, at }], to, by, enough);
    return best <= by ? best : Number.POSITIVE_INFINITY;
  }

  /** The earliest-arriving journey (fewer rides among equal arrivals); null when nothing arrives by `by`. */
  journey(from: Coordinates, to: Coordinates, at: number, by: number): Journey | null {
    const best = this.searchForward([{ point: from, at }], to, by);
    this.journeySearch =
      this.scanned === this.generation ? { generation: this.generation, from, at, by, target: to } : null;
    if (!(best <= by)) return null;
    const direct = at + walkMs(from, to);
    if (direct <= best) {
      return { departAt: at, arriveAt: direct, legs: [{ kind: 'walk', from, to, departAt: at, arriveAt: direct }] };
    }
    // The egress stop giving `best` with the fewest rides.
    const { stopStamp, stopAt, atRides, egressStamp, egressWalk, generation, near } = this;
    let last = -1;
    const count = this.grid.within(to, ACCESS_WALK_MAX_M, near);
    for (let i = 0; i < count; i++) {
      const stop = near.stops[i] as number;
      if (stopStamp[stop] !== generation || egressStamp[stop] !== generation) continue;
      if ((stopAt[stop] as number) + (egressWalk[stop] as number) !== best) continue;
      if (last < 0 || (atRides[stop] as number) < (atRides[last] as number)) last = stop;
    }
    if (last < 0) throw new Error('journey: no egress stop gives the best arrival');
    const legs = this.legsTo(from, at, last);
    legs.push({ kind: 'walk', from: this.position(last), to, departAt: stopAt[last] as number, arriveAt: best });
    return { departAt: at, arriveAt: best, legs: mergeWalks(legs) };
  }

  /** The legs from `from` to `stop` read back from the last forward search's labels, in order. */
  private legsTo(from: Coordinates, at: number, stop: number): Leg[] {
    const tt = this.timetable;
    const legs: Leg[] = [];
    let current = stop;
    // Every ride read back has one ride fewer before it, so this ends; the bound guards a broken label.
    for (let steps = 0; steps <= tt.stopCount * 2 + 2; steps++) {
      const walkedFrom = this.atFrom[current] as number;
      if (walkedFrom >= 0) {
        // Leaving as late as still arrives when recorded (the stop walked from may have been reached earlier since).
        const arrival = this.stopAt[current] as number;
        const walk = (tt.footSeconds[this.atFoot[current] as number] as number) * SECOND;
        legs.push({
          kind: 'walk',
          from: this.position(walkedFrom),
          to: this.position(current),
          departAt: arrival - walk,
          arriveAt: arrival,
        });
        current = walkedFrom;
      }
      const boarding = this.mainBoarding[current] as number;
      if (boarding < 0) {
        legs.push({
          kind: 'walk',
          from,
          to: this.position(current),
          departAt: at,
          arriveAt: this.stopMain[current] as number,
        });
        return legs.reverse();
      }
      legs.push(this.ride(boarding, this.mainAlighting[current] as number, this.mainDay[current] as number));
      current = tt.connectionFrom[boarding] as number;
    }
    throw new Error('journey: the labels loop');
  }

  /** A ride from connection `boarding` to `alighting` of one trip on `day`. */
  private ride(boarding: number, alighting: number, day: number): Leg {
    const tt = this.timetable;
    const base = tt.dayBase[day] as number;
    const trip = tt.connectionTrip[boarding] as number;
    const route = tt.tripRoute[trip] as number;
    const { start, connections } = this.connectionsByTrip();
    let at = start[trip] as number;
    while ((connections[at] as number) !== boarding) at++;
    const stops: StopAt[] = [
      this.shownStop(tt.connectionFrom[boarding] as number, base, tt.connectionDeparture[boarding]),
    ];
    for (;;) {
      const connection = connections[at] as number;
      stops.push(this.shownStop(tt.connectionTo[connection] as number, base, tt.connectionArrival[connection]));
      if (connection === alighting) break;
      at++;
    }
    return {
      kind: 'ride',
      route: tt.routeNames[route] ?? '',
      routeType: tt.routeTypes[route] ?? 0,
      headsign: tt.tripHeadsigns[trip] ?? '',
      from: stops[0] as StopAt,
      to: stops[stops.length - 1] as StopAt,
      stops,
    };
  }

  private shownStop(stop: number, base: number, seconds: number | undefined): StopAt {
    return {
      name: this.timetable.stopNames[stop] ?? '',
      position: this.position(stop),
      at: base + (seconds ?? 0) * SECOND,
    };
  }

  private position(stop: number): Coordinates {
    return { lat: this.timetable.stopLat[stop] ?? 0, lng: this.timetable.stopLng[stop] ?? 0 };
  }

  /** Each trip's connections in departure order, as compressed rows (a counting sort of the connections). */
  private connectionsByTrip() {
    if (this.tripConnections) return this.tripConnections;
    const { tripCount, connectionCount, connectionTrip } = this.timetable;
    const start = new Uint32Array(tripCount + 1);
    for (let c = 0; c < connectionCount; c++) {
      const row = (connectionTrip[c] as number) + 1;
      start[row] = (start[row] as number) + 1;
    }
    for (let trip = 0; trip < tripCount; trip++)
      start[trip + 1] = (start[trip + 1] as number) + (start[trip] as number);
    const next = start.slice(0, tripCount);
    const connections = new Uint32Array(connectionCount);
    for (let c = 0; c < connectionCount; c++) {
      const trip = connectionTrip[c] as number;
      const at = next[trip] as number;
      connections[at] = c;
      next[trip] = at + 1;
    }
    this.tripConnections = { start, connections };
    return this.tripConnections;
  }

  /** A fresh stamp: everything stamped earlier reads as unset. */
  private nextGeneration(): number {
    if (this.generation === 0xffffffff) {
      this.stopStamp.fill(0);
      this.egressStamp.fill(0);
      this.tripStamp.fill(0);
      this.early?.trips.fill(0);
      this.generation = 0;
    }
    return ++this.generation;
  }

  /** Room for per-(stream, trip) state of `streams` streams. */
  private tripSlots(streams: number) {
    const size = streams * this.timetable.tripCount;
    if (this.tripStamp.length >= size) return;
    this.tripStamp = grown(this.tripStamp, size);
    this.tripBoarding = new Int32Array(size);
    this.tripRides = new Uint16Array(size);
  }

  /**
   * The forward scan from `from` at `at`, nothing arriving after `by`; with a `target`, answers the
   * earliest arrival there (Infinity when none) and stops once departures reach it — or, at once,
   * any arrival there no later than `enough`.
   */
  private searchForward(
    sources: readonly Source[],
    target: Coordinates | null,
    by: number,
    enoughAsked = Number.NEGATIVE_INFINITY,
  ): number {
    // An arrival after `by` is none: never enough.
    const enough = Math.min(enoughAsked, by);
    const tt = this.timetable;
    const generation = this.nextGeneration();
    const { stopStamp, stopMain, stopAt, mainRides, atRides, mainBoarding } = this;
    const { atFoot, atFrom, egressStamp, egressWalk, grid, near } = this;
    const { footStart, footTo, footSeconds } = tt;
    let best = INFINITY;
    let at = INFINITY;
    for (const source of sources) at = Math.min(at, source.at);

    // The least walk from a stop to the target: a ride must leave that much before the best arrival
    // (and before `by`) to improve on it; with no stop near the target, only walking gets there.
    let egressLeast = 0;
    if (target) {
      for (const source of sources) best = Math.min(best, source.at + walkMs(source.point, target));
      egressLeast = INFINITY;
      const count = grid.within(target, ACCESS_WALK_MAX_M, near);
      for (let i = 0; i < count; i++) {
        const stop = near.stops[i] as number;
        egressStamp[stop] = generation;
        const walk = walkMsFor(near.metres[i] as number);
        egressWalk[stop] = walk;
        if (walk < egressLeast) egressLeast = walk;
      }
      if (egressLeast === INFINITY || best <= enough) return best;
    }

    // Walks to the stops near each source, then one footpath on from each stop walked to.
    const accessed = this.accessed;
    accessed.count = 0;
    for (const source of sources) {
      const accessCount = grid.within(source.point, ACCESS_WALK_MAX_M, near);
      for (let i = 0; i < accessCount; i++) {
        const stop = near.stops[i] as number;
        const arrival = source.at + walkMsFor(near.metres[i] as number);
        if (arrival > by) continue;
        if (stopStamp[stop] !== generation) {
          stopStamp[stop] = generation;
          stopMain[stop] = INFINITY;
          stopAt[stop] = INFINITY;
          accessed.push(stop, 0);
        }
        if (arrival >= (stopMain[stop] as number)) continue;
        stopMain[stop] = arrival;
        mainRides[stop] = 0;
        mainBoarding[stop] = -1;
        if (arrival >= (stopAt[stop] as number)) continue;
        stopAt[stop] = arrival;
        atRides[stop] = 0;
        atFrom[stop] = -1;
        if (egressStamp[stop] === generation) best = Math.min(best, arrival + (egressWalk[stop] as number));
      }
    }
    for (let i = 0; i < accessed.count; i++) {
      const stop = accessed.stops[i] as number;
      const walked = stopMain[stop] as number;
      if (walked === INFINITY) continue;
      for (let f = footStart[stop] as number, end = footStart[stop + 1] as number; f < end; f++) {
        const next = footTo[f] as number;
        const arrival = walked + (footSeconds[f] as number) * SECOND;
        if (arrival > by) continue;
        if (stopStamp[next] !== generation) {
          stopStamp[next] = generation;
          stopMain[next] = INFINITY;
          stopAt[next] = INFINITY;
        }
        if (arrival >= (stopAt[next] as number)) continue;
        stopAt[next] = arrival;
        atRides[next] = 0;
        atFrom[next] = stop;
        atFoot[next] = f;
        if (egressStamp[next] === generation) best = Math.min(best, arrival + (egressWalk[next] as number));
      }
    }
    if (best <= enough) return best;

    this.openStreams = openForward(tt, this.streams, at, by);
    this.tripSlots(this.openStreams);
    this.scanned = generation;
    return this.scanForward(by, best, enough, egressLeast);
  }

  /**
   * searchForward's scan of the connections (the streams open, the labels started): nothing arriving
   * after `by`, stopping before departures reach `best` less `egressLeast` (the target's least walk)
   * and at any arrival there no later than `enough`. Answers the best arrival at the target.
   */
  private scanForward(by: number, bestSoFar: number, enough: number, egressLeast: number): number {
    const tt = this.timetable;
    const generation = this.generation;
    const streams = this.openStreams;
    const { stopStamp, stopAt, stopMain, atRides } = this;
    let best = bestSoFar;
    const { tripStamp, tripBoarding, tripRides } = this;
    const { day: streamDay, base: streamBase, next: streamAt } = this.streams;
    const {
      connectionCount: n,
      connectionDeparture,
      connectionArrival,
      connectionFrom,
      connectionTo,
      connectionTrip,
      tripService,
      serviceDays,
      dayCount,
      tripCount,
    } = tt;

    for (;;) {
      const stream = earliestStream(tt, this.streams, streams);
      const { first, second } = this.streams;
      if (stream < 0 || first > by - egressLeast || first >= best || first + egressLeast > best) break;
      const day = streamDay[stream] as number;
      const base = streamBase[stream] as number;
      const slots = stream * tripCount;
      // This day's run, in its own seconds: up to the runner-up's next departure and `by`, before
      // `best`, each less the least walk to the target.
      const until = Math.floor((Math.min(second, by - egressLeast) - base) / SECOND);
      const lastFor = (arrival: number) =>
        Math.min(until, Math.ceil((arrival - base) / SECOND) - 1, Math.floor((arrival - egressLeast - base) / SECOND));
      let last = lastFor(best);
      let c = streamAt[stream] as number;
      for (; c < n; c++) {
        const seconds = connectionDeparture[c] as number;
        if (seconds > last) break;
        const trip = connectionTrip[c] as number;
        const slot = slots + trip;
        const boardingStop = connectionFrom[c] as number;
        const departure = base + seconds * SECOND;
        const here = stopStamp[boardingStop] === generation && (stopAt[boardingStop] as number) <= departure;
        if (tripStamp[slot] !== generation) {
          // Whether the trip runs that day is asked once, when it is first boarded.
          if (!here || serviceDays[(tripService[trip] as number) * dayCount + day] === 0) continue;
          tripStamp[slot] = generation;
          tripBoarding[slot] = c;
          tripRides[slot] = (atRides[boardingStop] as number) + 1;
        } else if (here && (atRides[boardingStop] as number) + 1 < (tripRides[slot] as number)) {
          // Boarding later on the same trip arrives as early with fewer rides.
          tripBoarding[slot] = c;
          tripRides[slot] = (atRides[boardingStop] as number) + 1;
        }
        const arrival = base + (connectionArrival[c] as number) * SECOND;
        // The trip's later stops arrive later still.
        if (arrival > by) continue;
        const stop = connectionTo[c] as number;
        if (stopStamp[stop] === generation && arrival > (stopMain[stop] as number)) continue;
        const reached = this.rideArrives(stop, arrival, slot, c, day, by, best);
        if (reached < best) {
          best = reached;
          if (best <= enough) return best;
          last = lastFor(best);
        }
      }
      streamAt[stream] = c;
    }
    return best;
  }

  /**
   * A ride of trip slot `slot` reaching `stop` at `arrival` by connection `alighting` (the scan's rare
   * path, kept out of its loop): improves the stop's labels and walks one footpath on from it.
   * Answers the best arrival at the search's target so far.
   */
  private rideArrives(
    stop: number,
    arrival: number,
    slot: number,
    alighting: number,
    day: number,
    by: number,
    best: number,
  ): number {
    const generation = this.generation;
    const { stopStamp, stopMain, stopAt, mainRides, atRides, atFrom, atFoot, egressStamp, egressWalk } = this;
    const rides = this.tripRides[slot] as number;
    if (stopStamp[stop] !== generation) {
      stopStamp[stop] = generation;
      stopMain[stop] = INFINITY;
      stopAt[stop] = INFINITY;
    } else {
      const known = stopMain[stop] as number;
      if (arrival > known || (arrival === known && rides >= (mainRides[stop] as number))) return best;
    }
    stopMain[stop] = arrival;
    mainRides[stop] = rides;
    this.mainBoarding[stop] = this.tripBoarding[slot] as number;
    this.mainAlighting[stop] = alighting;
    this.mainDay[stop] = day;
    const there = stopAt[stop] as number;
    if (arrival < there || (arrival === there && rides < (atRides[stop] as number))) {
      stopAt[stop] = arrival;
      atRides[stop] = rides;
      atFrom[stop] = -1;
      if (egressStamp[stop] === generation) best = Math.min(best, arrival + (egressWalk[stop] as number));
    }
    const { footStart, footTo, footSeconds } = this.timetable;
    for (let f = footStart[stop] as number, end = footStart[stop + 1] as number; f < end; f++) {
      const next = footTo[f] as number;
      const walked = arrival + (footSeconds[f] as number) * SECOND;
      if (walked > by) continue;
      if (stopStamp[next] !== generation) {
        stopStamp[next] = generation;
        stopMain[next] = INFINITY;
        stopAt[next] = INFINITY;
      } else {
        const known = stopAt[next] as number;
        if (walked > known || (walked === known && rides >= (atRides[next] as number))) continue;
      }
      stopAt[next] = walked;
      atRides[next] = rides;
      atFrom[next] = stop;
      atFoot[next] = f;
      if (egressStamp[next] === generation) best = Math.min(best, walked + (egressWalk[next] as number));
    }
    return best;
  }

  /**
   * The backward scan: latest departures reaching `to` by `by`, none before `after` (the mirror of
   * searchForward). With `earlier` (no later than `by`), those reaching it by then too, in the early
   * labels: both from one scan of the connections (a trip query asks for its deadline and for its
   * own arrival). A label reaching `to` by `earlier` reaches it by `by`: the early labels are never
   * later than the main ones, so a trip the early labels board the main ones board too.
   */
  private searchBackward(to: Coordinates, by: number, after: number, earlier = Number.NaN) {
    const tt = this.timetable;
    const generation = this.nextGeneration();
    const { stopStamp, stopMain, stopAt, grid, near } = this;
    // NaN: none.
    const early = earlier <= by ? this.earlyLabels() : null;
    const earlyMain = early?.main ?? stopMain;
    const earlyAt = early?.at ?? stopAt;
    const stamp = (stop: number) => {
      stopStamp[stop] = generation;
      stopMain[stop] = -INFINITY;
      stopAt[stop] = -INFINITY;
      earlyMain[stop] = -INFINITY;
      earlyAt[stop] = -INFINITY;
    };

    // Walks from the stops near `to`, then one footpath back from each.
    const egressCount = grid.within(to, ACCESS_WALK_MAX_M, near);
    for (let i = 0; i < egressCount; i++) {
      const stop = near.stops[i] as number;
      const walk = walkMsFor(near.metres[i] as number);
      const departure = by - walk;
      if (departure < after) continue;
      if (stopStamp[stop] !== generation) stamp(stop);
      if (departure > (stopMain[stop] as number)) stopMain[stop] = departure;
      if (departure > (stopAt[stop] as number)) stopAt[stop] = departure;
      const soon = earlier - walk;
      if (early && soon >= after) {
        if (soon > (earlyMain[stop] as number)) earlyMain[stop] = soon;
        if (soon > (earlyAt[stop] as number)) earlyAt[stop] = soon;
      }
    }
    for (let i = 0; i < egressCount; i++) {
      const stop = near.stops[i] as number;
      if (stopStamp[stop] !== generation) continue;
      this.footpathsBack(stop, stopMain[stop] as number, after, stopAt, stamp);
      if (early) this.footpathsBack(stop, earlyMain[stop] as number, after, earlyAt, stamp);
    }

    const streams = this.openBackward(by, after);
    this.tripSlots(streams);
    const { tripStamp } = this;
    const earlyTrips = early ? this.earlyTripStamps() : tripStamp;
    const { day: streamDay, base: streamBase, next: streamAt } = this.streams;
    const {
      byArrival,
      connectionDeparture,
      connectionArrival,
      connectionFrom,
      connectionTo,
      connectionTrip,
      tripService,
      serviceDays,
      dayCount,
      tripCount,
    } = tt;

    for (;;) {
      // The day whose next connection (from the end) arrives last, and when the runner-up's does.
      let stream = -1;
      let first = -INFINITY;
      let second = -INFINITY;
      for (let s = 0; s < streams; s++) {
        const next = streamAt[s] as number;
        if (next < 0) continue;
        const arrival = (streamBase[s] as number) + (connectionArrival[byArrival[next] as number] as number) * SECOND;
        if (arrival > first) {
          second = first;
          first = arrival;
          stream = s;
        } else if (arrival > second) second = arrival;
      }
      if (stream < 0 || first < after) break;
      const day = streamDay[stream] as number;
      const base = streamBase[stream] as number;
      const slots = stream * tripCount;
      const until = Math.max(second, after);
      let i = streamAt[stream] as number;
      for (; i >= 0; i--) {
        const c = byArrival[i] as number;
        const arrival = base + (connectionArrival[c] as number) * SECOND;
        if (arrival < until) break;
        const departure = base + (connectionDeparture[c] as number) * SECOND;
        // The trip's earlier stops depart earlier still.
        if (departure < after) continue;
        const trip = connectionTrip[c] as number;
        const slot = slots + trip;
        if (tripStamp[slot] !== generation) {
          const alighting = connectionTo[c] as number;
          if (stopStamp[alighting] !== generation || (stopAt[alighting] as number) < arrival) continue;
          // Whether the trip runs that day is asked once, when it is first reached.
          if (serviceDays[(tripService[trip] as number) * dayCount + day] === 0) continue;
          tripStamp[slot] = generation;
        }
        // Reached in time for `earlier` too (it runs: the main labels asked).
        let soon = false;
        if (early) {
          if (earlyTrips[slot] === generation) soon = true;
          else {
            const alighting = connectionTo[c] as number;
            if (stopStamp[alighting] === generation && (earlyAt[alighting] as number) >= arrival) {
              earlyTrips[slot] = generation;
              soon = true;
            }
          }
        }
        const stop = connectionFrom[c] as number;
        if (stopStamp[stop] !== generation) stamp(stop);
        if (soon && (earlyMain[stop] as number) < departure) {
          earlyMain[stop] = departure;
          if (departure > (earlyAt[stop] as number)) earlyAt[stop] = departure;
          this.footpathsBack(stop, departure, after, earlyAt, stamp);
        }
        if ((stopMain[stop] as number) >= departure) continue;
        stopMain[stop] = departure;
        if (departure > (stopAt[stop] as number)) stopAt[stop] = departure;
        this.footpathsBack(stop, departure, after, stopAt, stamp);
      }
      streamAt[stream] = i;
    }
  }

  /** One footpath back from `stop` left at `departure`: the "at" labels of the stops it starts from. */
  private footpathsBack(
    stop: number,
    departure: number,
    after: number,
    at: Float64Array,
    stamp: (stop: number) => void,
  ) {
    const { footStart, footTo, footSeconds } = this.timetable;
    const { stopStamp, generation } = this;
    for (let f = footStart[stop] as number, end = footStart[stop + 1] as number; f < end; f++) {
      const previous = footTo[f] as number;
      const walked = departure - (footSeconds[f] as number) * SECOND;
      if (walked < after) continue;
      if (stopStamp[previous] !== generation) stamp(previous);
      if (walked > (at[previous] as number)) at[previous] = walked;
    }
  }

  /** The early labels of a backward search for two deadlines (made at the first). */
  private earlyLabels() {
    this.early ??= {
      main: new Float64Array(this.timetable.stopCount),
      at: new Float64Array(this.timetable.stopCount),
      trips: new Uint32Array(0),
    };
    return this.early;
  }

  /** Per (stream, trip), reached in time for the early deadline in this search: as many as tripSlots made. */
  private earlyTripStamps(): Uint32Array {
    const early = this.earlyLabels();
    if (early.trips.length < this.tripStamp.length) early.trips = grown(early.trips, this.tripStamp.length);
    return early.trips;
  }

  /** Opens a stream per day with a connection arriving within [after, by], at its last such (in byArrival); answers how many. */
  private openBackward(by: number, after: number): number {
    const { connectionCount: n, connectionArrival, byArrival, dayBase, dayCount } = this.timetable;
    if (n === 0) return 0;
    const earliest = (connectionArrival[byArrival[0] as number] as number) * SECOND;
    const latest = (connectionArrival[byArrival[n - 1] as number] as number) * SECOND;
    let streams = 0;
    for (let day = 0; day < dayCount; day++) {
      const base = dayBase[day] as number;
      if (base + latest < after || base + earliest > by) continue;
      // The last connection arriving at or before `by`.
      const until = Math.floor((by - base) / SECOND);
      let low = 0;
      let high = n;
      while (low < high) {
        const middle = (low + high) >>> 1;
        if ((connectionArrival[byArrival[middle] as number] as number) <= until) low = middle + 1;
        else high = middle;
      }
      this.streams.day[streams] = day;
      this.streams.base[streams] = base;
      this.streams.next[streams] = low - 1;
      streams++;
    }
    return streams;
  }
}

/**
 * StopGrid.cellBound of one search's times for the cells asked about, each worked out once (a query
 * asks about thousands of points in a few hundred cells). Beyond the grid (stops may still be a walk
 * away) it bounds nothing.
 */
function cellBounds(grid: StopGrid, sign: 1 | -1): (cell: number, cells: Float64Array) => number {
  const known = new Map<number, number>();
  return (cell, cells) => {
    if (cell < 0) return -sign * INFINITY;
    let bound = known.get(cell);
    if (bound === undefined) {
      bound = grid.cellBound(cell, ACCESS_WALK_MAX_M, cells, WALK_MS_PER_METRE_AT_LEAST, sign);
      known.set(cell, bound);
    }
    return bound;
  };
}

/** Consecutive walks as one (a footpath's walk on to the destination, say); no walk of no time (from a stop's own spot). */
function mergeWalks(legs: Leg[]): Leg[] {
  const merged: Leg[] = [];
  for (const leg of legs) {
    if (leg.kind === 'walk' && leg.arriveAt === leg.departAt && samePlace(leg.from, leg.to)) continue;
    const previous = merged[merged.length - 1];
    if (previous?.kind === 'walk' && leg.kind === 'walk' && previous.arriveAt === leg.departAt) {
      merged[merged.length - 1] = { ...previous, to: leg.to, arriveAt: leg.arriveAt };
    } else merged.push(leg);
  }
  return merged;
}

const samePlace = (a: Coordinates, b: Coordinates) => a.lat === b.lat && a.lng === b.lng;
