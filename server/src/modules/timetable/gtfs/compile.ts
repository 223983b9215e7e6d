import { EARTH_RADIUS_M } from '@csomag/domain/geo';
import { DETOUR_FACTOR, WALK_KMH } from '@csomag/domain/trips';
import { serviceDayBase } from '../service-days.ts';
import { type FeedSummary, type Timetable, TRANSFER_WALK_MAX_M } from '../timetable.ts';
import { GtfsFormatError } from './gtfs-format-error.ts';

/**
 * GTFS rows, as read-gtfs.ts read and checked them, compiled into one Timetable (issue 26): each
 * trip's stop times into connections sorted by departure (and byArrival), services into days, each
 * day's base in the feeds' time zone, walks between stops. Ids arrive as indexes (the reader resolves
 * each feed's own); the checks that need a whole trip in stop_sequence order are made here, at the
 * lines the reader noted.
 */

/** The feeds together cover at most this many service days (a year's timetable and its overlap). */
export const MAX_SERVICE_DAYS = 800;

/** Called as reading goes: the stage ('bkk.zip stop_times.txt', 'connections', …) and how many things in it so far. */
export type ProgressListener = (stage: string, count: number) => void;

export const PROGRESS_EVERY = 100_000;

/** A time not given (a stop between timepoints); no time is this many seconds. */
export const EMPTY = 0xffff_ffff;

const pad = (n: number) => String(n).padStart(2, '0');
const formatTime = (seconds: number) =>
  `${pad(Math.floor(seconds / 3600))}:${pad(Math.floor(seconds / 60) % 60)}:${pad(seconds % 60)}`;

export const DAY_MS = 86_400_000;

export const formatDay = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);

/** Monday 0 … Sunday 6 (1970-01-01 was a Thursday). */
const weekday = (day: number) => (((day + 3) % 7) + 7) % 7;

// ---------------------------------------------------------------------------------------------
// Typed arrays that grow

/**
 * Unsigned 32-bit integers in a typed array that grows by half when full. One element type only, so
 * that `push` stays monomorphic in V8: every id, count, day and time here fits (coordinates are plain arrays).
 */
class Column {
  data: Uint32Array;
  length = 0;

  constructor(capacity = 1024) {
    this.data = new Uint32Array(Math.max(16, capacity));
  }

  push(value: number): void {
    if (this.length === this.data.length) {
      const grown = new Uint32Array(Math.ceil(this.data.length * 1.5));
      grown.set(this.data);
      this.data = grown;
    }
    this.data[this.length++] = value;
  }

  /** Room for `more` values without growing (a known count grows once, to its size). */
  reserve(more: number): void {
    if (this.length + more <= this.data.length) return;
    const grown = new Uint32Array(this.length + more);
    grown.set(this.data.subarray(0, this.length));
    this.data = grown;
  }

  at(index: number): number {
    return this.data[index] as number;
  }

  /** The values in an array of their own length. */
  values(): Uint32Array {
    return this.data.slice(0, this.length);
  }
}

/** A row's line, kept only where rows and lines drift apart (blank lines, quoted line breaks). */
class LineMap {
  private readonly rows = new Column(16);
  private readonly offsets = new Column(16);
  private last = -1;

  note(row: number, line: number): void {
    const offset = line - row;
    if (offset === this.last) return;
    this.rows.push(row);
    this.offsets.push(offset);
    this.last = offset;
  }

  line(row: number): number {
    let from = 0;
    let to = this.rows.length;
    while (to - from > 1) {
      const mid = (from + to) >>> 1;
      if (this.rows.at(mid) <= row) from = mid;
      else to = mid;
    }
    return row + this.offsets.at(from);
  }
}

/** A feed's stop_times as read: the rows in file order, a trip's index local to its feed. */
export class StopTimeRows {
  readonly trip: Column;
  readonly stop: Column;
  readonly sequence: Column;
  /** Seconds, or EMPTY. */
  readonly arrival: Column;
  readonly departure: Column;
  readonly lines = new LineMap();

  constructor(capacity: number) {
    this.trip = new Column(capacity);
    this.stop = new Column(capacity);
    this.sequence = new Column(capacity);
    this.arrival = new Column(capacity);
    this.departure = new Column(capacity);
  }
}

// ---------------------------------------------------------------------------------------------
// Compiling

/** Stops are numbered below this, so a pair of them is one safe integer (a * STOP_LIMIT + b). */
export const STOP_LIMIT = 2 ** 21;
/** A transfer given without a time: walking time by distance. */
export const BY_DISTANCE = -1;

/** What compiling one feed's trips needs of its scope: a trip's index is local to its feed. */
export interface FeedTrips {
  name: string;
  /** trip_id → the trip's index among this feed's trips (messages name a trip by its id). */
  trips: Map<string, number>;
  serviceBase: number;
  tripBase: number;
  /** Per service of this feed: 1 when it runs on some day. */
  serviceRuns: Uint8Array;
}

/** The feeds' rows, merged as the reader adds them; finish() makes the Timetable. */
export class TimetableCompiler {
  private readonly feeds: FeedSummary[] = [];
  /** agency_timezone, canonical; the reader sets it from the first agency and refuses feeds that differ. */
  timeZone: string | null = null;

  readonly stopLat: number[] = [];
  readonly stopLng: number[] = [];
  private readonly stopNames: string[] = [];

  private readonly routeNames: string[] = [];
  private readonly routeTypes: number[] = [];

  private readonly tripRoute = new Column();
  private readonly tripService = new Column();
  private readonly tripHeadsigns: string[] = [];
  private readonly headsigns = new Map<string, string>();

  /** Per service: calendar.txt's weekdays (bit 0 Monday; 0 when it has no row there) and days (since 1970). */
  private readonly serviceWeekdays = new Column();
  private readonly serviceStart = new Column();
  private readonly serviceEnd = new Column();
  /** calendar_dates.txt: service, day, 1 added or 2 removed. */
  private readonly exceptionService = new Column();
  private readonly exceptionDay = new Column();
  private readonly exceptionType = new Column();

  private readonly connectionFrom = new Column();
  private readonly connectionTo = new Column();
  private readonly connectionDeparture = new Column();
  private readonly connectionArrival = new Column();
  private readonly connectionTrip = new Column();

  /** transfers.txt, both directions as one pair (smaller stop first): seconds, or BY_DISTANCE. */
  private readonly transfers = new Map<number, number>();
  /** The greatest speed between two stops of a trip so far (TripCompiler raises it). */
  fastestKmh = 0;

  get stopCount(): number {
    return this.stopLat.length;
  }

  get serviceCount(): number {
    return this.serviceWeekdays.length;
  }

  get exceptionCount(): number {
    return this.exceptionService.length;
  }

  get tripCount(): number {
    return this.tripRoute.length;
  }

  addFeed(summary: FeedSummary): void {
    this.feeds.push(summary);
  }

  /** Returns the stop's index. */
  addStop(lat: number, lng: number, name: string): number {
    const stop = this.stopLat.length;
    this.stopLat.push(lat);
    this.stopLng.push(lng);
    this.stopNames.push(name);
    return stop;
  }

  /** Returns the route's index. */
  addRoute(name: string, type: number): number {
    const route = this.routeNames.length;
    this.routeNames.push(name);
    this.routeTypes.push(type);
    return route;
  }

  /** Returns the service's index; `weekdays` 0 for a service calendar_dates.txt alone names. */
  addService(weekdays: number, start: number, end: number): number {
    const service = this.serviceWeekdays.length;
    this.serviceWeekdays.push(weekdays);
    this.serviceStart.push(start);
    this.serviceEnd.push(end);
    return service;
  }

  /** `type` 1: the service runs on `day` too; 2: it does not. */
  addException(service: number, day: number, type: number): void {
    this.exceptionService.push(service);
    this.exceptionDay.push(day);
    this.exceptionType.push(type);
  }

  /** Returns the trip's index among all feeds' trips. */
  addTrip(route: number, service: number, headsign: string): number {
    const trip = this.tripRoute.length;
    this.tripRoute.push(route);
    this.tripService.push(service);
    // Thousands of trips share a headsign: one string each.
    let shared = this.headsigns.get(headsign);
    if (shared === undefined) {
      shared = headsign;
      this.headsigns.set(headsign, headsign);
    }
    this.tripHeadsigns.push(shared);
    return trip;
  }

  /** A walk transfers.txt gives between two stops: `seconds`, or BY_DISTANCE. */
  addTransfer(from: number, to: number, seconds: number): void {
    const key = Math.min(from, to) * STOP_LIMIT + Math.max(from, to);
    // Walks are symmetric: of two times given for a pair, the longer holds both ways.
    this.transfers.set(key, Math.max(this.transfers.get(key) ?? BY_DISTANCE, seconds));
  }

  /**
   * Per service from `serviceFrom` on: 1 when it runs on some day of the `dayCount` from `firstDay`
   * (a feed's trips whose service never runs make no connections).
   */
  servicesRunning(serviceFrom: number, exceptionFrom: number, firstDay: number, dayCount: number): Uint8Array {
    const days = this.serviceDays(serviceFrom, exceptionFrom, firstDay, dayCount);
    const runs = new Uint8Array(this.serviceWeekdays.length - serviceFrom);
    for (let s = 0; s < runs.length; s++) {
      runs[s] = days.subarray(s * dayCount, (s + 1) * dayCount).includes(1) ? 1 : 0;
    }
    return runs;
  }

  /**
   * Services from `serviceFrom` on, by day from `firstDay`: calendar.txt's weekdays within its dates,
   * then calendar_dates.txt's exceptions (from `exceptionFrom` on) added and removed.
   */
  private serviceDays(serviceFrom: number, exceptionFrom: number, firstDay: number, dayCount: number): Uint8Array {
    const services = this.serviceWeekdays.length - serviceFrom;
    const days = new Uint8Array(services * dayCount);
    for (let s = 0; s < services; s++) {
      const weekdays = this.serviceWeekdays.at(serviceFrom + s);
      if (weekdays === 0) continue;
      const from = Math.max(this.serviceStart.at(serviceFrom + s), firstDay);
      const to = Math.min(this.serviceEnd.at(serviceFrom + s), firstDay + dayCount - 1);
      for (let day = from; day <= to; day++) {
        if (weekdays & (1 << weekday(day))) days[s * dayCount + day - firstDay] = 1;
      }
    }
    for (let e = exceptionFrom; e < this.exceptionService.length; e++) {
      const s = this.exceptionService.at(e) - serviceFrom;
      const d = this.exceptionDay.at(e) - firstDay;
      if (s < 0 || s >= services || d < 0 || d >= dayCount) continue;
      days[s * dayCount + d] = this.exceptionType.at(e) === 1 ? 1 : 0;
    }
    return days;
  }

  /** Each trip's stop_times in stop_sequence order: checked, missing times filled in, its connections kept. */
  compileTrips(scope: FeedTrips, rows: StopTimeRows, progress: ProgressListener): void {
    const trips = this.tripRoute.length - scope.tripBase;
    const count = rows.trip.length;
    const tripOf = rows.trip.data;
    // Rows may come in any order: a counting sort groups them by trip, then each trip is sorted by stop_sequence.
    const start = new Uint32Array(trips + 1);
    for (let r = 0; r < count; r++) {
      const t = (tripOf[r] as number) + 1;
      start[t] = (start[t] as number) + 1;
    }
    for (let t = 0; t < trips; t++) start[t + 1] = (start[t + 1] as number) + (start[t] as number);
    const next = start.slice(0, trips);
    const order = new Uint32Array(count);
    for (let r = 0; r < count; r++) {
      const t = tripOf[r] as number;
      order[(next[t] as number)++] = r;
    }
    // A trip of k stops makes k - 1 connections: fewer than the rows.
    const connections = [
      this.connectionFrom,
      this.connectionTo,
      this.connectionDeparture,
      this.connectionArrival,
      this.connectionTrip,
    ];
    for (const column of connections) column.reserve(count);
    const trip = new TripCompiler(this, scope, rows);
    for (let t = 0; t < trips; t++) {
      trip.compile(scope.tripBase + t, order.subarray(start[t], start[t + 1]));
      if ((t + 1) % PROGRESS_EVERY === 0) progress(`${scope.name} trips`, t + 1);
    }
    progress(`${scope.name} trips`, trips);
  }

  addConnection(from: number, to: number, departure: number, arrival: number, trip: number): void {
    this.connectionFrom.push(from);
    this.connectionTo.push(to);
    this.connectionDeparture.push(departure);
    this.connectionArrival.push(arrival);
    this.connectionTrip.push(trip);
  }

  serviceRuns(scope: FeedTrips, trip: number): boolean {
    return scope.serviceRuns[this.tripService.at(trip) - scope.serviceBase] === 1;
  }

  finish(progress: ProgressListener): Timetable {
    const firstDay = Math.min(...this.feeds.map((feed) => parseIsoDay(feed.validFrom)));
    const lastDay = Math.max(...this.feeds.map((feed) => parseIsoDay(feed.validUntil)));
    const dayCount = lastDay - firstDay + 1;
    if (dayCount > MAX_SERVICE_DAYS) {
      const latest = this.feeds.find((feed) => parseIsoDay(feed.validUntil) === lastDay) ?? this.feeds[0];
      const name = latest?.file ?? '';
      throw new GtfsFormatError(
        name,
        name,
        null,
        `the feeds together cover ${formatDay(firstDay)} to ${formatDay(lastDay)}: more than the ${MAX_SERVICE_DAYS} days a timetable holds`,
      );
    }
    const timeZone = this.timeZone ?? 'UTC';
    const dayBase = new Float64Array(dayCount);
    for (let d = 0; d < dayCount; d++) dayBase[d] = serviceDayBase(formatDay(firstDay + d), timeZone);

    const connections = this.sortedConnections(progress);
    const trips = tripsByFirstDeparture(connections.connectionTrip, {
      tripRoute: this.tripRoute.values(),
      tripService: this.tripService.values(),
      tripHeadsigns: this.tripHeadsigns,
    });
    const stopLat = Float64Array.from(this.stopLat);
    const stopLng = Float64Array.from(this.stopLng);
    const foot = footpaths(stopLat, stopLng, this.transfers);
    progress('footpaths', foot.footTo.length);

    return {
      feeds: this.feeds,
      timeZone,
      stopCount: stopLat.length,
      stopLat,
      stopLng,
      stopNames: this.stopNames,
      routeNames: this.routeNames,
      routeTypes: Uint16Array.from(this.routeTypes),
      tripCount: this.tripRoute.length,
      ...trips,
      firstDay: formatDay(firstDay),
      dayCount,
      dayBase,
      serviceCount: this.serviceWeekdays.length,
      serviceDays: this.serviceDays(0, 0, firstDay, dayCount),
      ...connections,
      ...foot,
      fastestKmh: this.fastestKmh,
    };
  }

  /** The connections by departure, then arrival (two stable counting sorts: times are under 48 h). */
  private sortedConnections(progress: ProgressListener) {
    const count = this.connectionFrom.length;
    const byArrival = countingSort(this.connectionArrival.data, null, count);
    const order = countingSort(this.connectionDeparture.data, byArrival, count);
    const permuted = <T extends Uint32Array | Int32Array>(column: Column, out: T): T => {
      const data = column.data;
      for (let i = 0; i < count; i++) out[i] = data[order[i] as number] as number;
      return out;
    };
    const connectionArrival = permuted(this.connectionArrival, new Int32Array(count));
    const result = {
      connectionCount: count,
      connectionFrom: permuted(this.connectionFrom, new Uint32Array(count)),
      connectionTo: permuted(this.connectionTo, new Uint32Array(count)),
      connectionDeparture: permuted(this.connectionDeparture, new Int32Array(count)),
      connectionArrival,
      connectionTrip: permuted(this.connectionTrip, new Uint32Array(count)),
      byArrival: countingSort(connectionArrival, null, count),
    };
    progress('connections', count);
    return result;
  }
}

/**
 * The trips renumbered in the order their first connections depart (those with none last, as they
 * were), `connectionTrip` rewritten in place. A scan's per-trip state is then read where the trips
 * running at its time lie together, not spread over the whole array (trips.txt lists a route's
 * trips of the day together): ~10 % less time a scan at Hungary's scale (docs/performance.md).
 * Numbers are the timetable's own; nothing outside it keeps them.
 */
function tripsByFirstDeparture(
  connectionTrip: Uint32Array,
  trips: { tripRoute: Uint32Array; tripService: Uint32Array; tripHeadsigns: string[] },
) {
  const count = trips.tripRoute.length;
  const renamed = new Uint32Array(count).fill(EMPTY);
  let next = 0;
  for (const trip of connectionTrip) if (renamed[trip] === EMPTY) renamed[trip] = next++;
  for (let trip = 0; trip < count; trip++) if (renamed[trip] === EMPTY) renamed[trip] = next++;
  for (let c = 0; c < connectionTrip.length; c++) connectionTrip[c] = renamed[connectionTrip[c] as number] as number;
  const tripRoute = new Uint32Array(count);
  const tripService = new Uint32Array(count);
  const tripHeadsigns = new Array<string>(count);
  for (let trip = 0; trip < count; trip++) {
    const to = renamed[trip] as number;
    tripRoute[to] = trips.tripRoute[trip] as number;
    tripService[to] = trips.tripService[trip] as number;
    tripHeadsigns[to] = trips.tripHeadsigns[trip] as string;
  }
  return { tripRoute, tripService, tripHeadsigns };
}

/** One trip at a time; its scratch arrays are reused from trip to trip. */
class TripCompiler {
  private stops = new Uint32Array(64);
  /** Seconds, EMPTY until filled in. */
  private arrivals = new Uint32Array(64);
  private departures = new Uint32Array(64);
  /** Great-circle metres along the trip from its first stop. */
  private along = new Float64Array(64);
  private readonly lat: number[];
  private readonly lng: number[];

  constructor(
    private readonly compiler: TimetableCompiler,
    private readonly scope: FeedTrips,
    private readonly rows: StopTimeRows,
  ) {
    this.lat = compiler.stopLat;
    this.lng = compiler.stopLng;
  }

  compile(trip: number, order: Uint32Array): void {
    const k = order.length;
    if (k === 0) return;
    const { rows, scope } = this;
    const sequence = rows.sequence.data;
    sortBySequence(order, sequence);
    if (this.stops.length < k) this.grow(k);
    const { stops, arrivals, departures, along } = this;

    for (let i = 0; i < k; i++) {
      const r = order[i] as number;
      if (i > 0 && sequence[r] === sequence[order[i - 1] as number]) {
        throw this.fault(order, i, `stop_sequence ${sequence[r]} is in trip '${this.tripId(trip)}' twice`);
      }
      stops[i] = rows.stop.at(r);
      let arrival = rows.arrival.at(r);
      let departure = rows.departure.at(r);
      // A timepoint may give one time only: the vehicle arrives and leaves at once.
      if (arrival === EMPTY) arrival = departure;
      if (departure === EMPTY) departure = arrival;
      if (departure < arrival) {
        throw this.fault(
          order,
          i,
          `departure_time ${formatTime(departure)} is before arrival_time ${formatTime(arrival)}`,
        );
      }
      arrivals[i] = arrival;
      departures[i] = departure;
      along[i] = i === 0 ? 0 : (along[i - 1] as number) + this.metres(stops[i - 1] as number, stops[i] as number);
    }
    if (arrivals[0] === EMPTY) throw this.fault(order, 0, `the first stop of trip '${this.tripId(trip)}' has no time`);
    if (arrivals[k - 1] === EMPTY) {
      throw this.fault(order, k - 1, `the last stop of trip '${this.tripId(trip)}' has no time`);
    }

    // Stops without times between two timepoints: spread evenly by distance (by count when all are in one place).
    let last = 0;
    for (let i = 1; i < k; i++) {
      const arrival = arrivals[i] as number;
      if (arrival === EMPTY) continue;
      const leaves = departures[last] as number;
      if (arrival < leaves) {
        const before = sequence[order[last] as number];
        throw this.fault(
          order,
          i,
          `arrival_time ${formatTime(arrival)} is before the departure ${formatTime(leaves)} from stop_sequence ${before}: times must not decrease along a trip`,
        );
      }
      const span = (along[i] as number) - (along[last] as number);
      for (let j = last + 1; j < i; j++) {
        const share = span > 0 ? ((along[j] as number) - (along[last] as number)) / span : (j - last) / (i - last);
        const at = leaves + Math.round((arrival - leaves) * share);
        arrivals[j] = at;
        departures[j] = at;
      }
      last = i;
    }

    if (k < 2 || !this.compiler.serviceRuns(scope, trip)) return;
    for (let i = 0; i + 1 < k; i++) {
      this.compiler.addConnection(
        stops[i] as number,
        stops[i + 1] as number,
        departures[i] as number,
        arrivals[i + 1] as number,
        trip,
      );
    }
    this.compiler.fastestKmh = this.fastestAlong(k, this.compiler.fastestKmh);
  }

  /**
   * The trip's greatest speed between any two of its stops, if above `best`. The distance along the
   * trip bounds the great circle, so most pairs are passed over without computing it.
   */
  private fastestAlong(k: number, best: number): number {
    const { stops, arrivals, departures, along } = this;
    for (let i = 0; i + 1 < k && best < Number.POSITIVE_INFINITY; i++) {
      for (let j = i + 1; j < k; j++) {
        // A hair over the path, so that rounding never passes over a pair that sets the record.
        const path = ((along[j] as number) - (along[i] as number)) * (1 + 1e-9);
        if (path === 0) continue;
        const seconds = (arrivals[j] as number) - (departures[i] as number);
        if (seconds > 0 && (path * 3.6) / seconds <= best) continue;
        const metres = this.metres(stops[i] as number, stops[j] as number);
        if (metres === 0) continue;
        if (seconds === 0) return Number.POSITIVE_INFINITY;
        best = Math.max(best, (metres * 3.6) / seconds);
      }
    }
    return best;
  }

  /** A refusal at the row of the trip's `index`-th stop. */
  private fault(order: Uint32Array, index: number, detail: string): GtfsFormatError {
    const line = this.rows.lines.line(order[index] as number);
    return new GtfsFormatError(this.scope.name, 'stop_times.txt', line, detail);
  }

  private metres(a: number, b: number): number {
    return haversineMetres(this.lat[a] as number, this.lng[a] as number, this.lat[b] as number, this.lng[b] as number);
  }

  private tripId(trip: number): string {
    const local = trip - this.scope.tripBase;
    for (const [id, index] of this.scope.trips) if (index === local) return id;
    return String(trip);
  }

  private grow(k: number): void {
    this.stops = new Uint32Array(k);
    this.arrivals = new Uint32Array(k);
    this.departures = new Uint32Array(k);
    this.along = new Float64Array(k);
  }
}

/** Insertion sort for a trip's few rows (already in order in most feeds: one pass); a long trip sorts natively. */
function sortBySequence(order: Uint32Array, sequence: Uint32Array): void {
  if (order.length > 256) {
    order.sort((a, b) => (sequence[a] as number) - (sequence[b] as number) || a - b);
    return;
  }
  for (let i = 1; i < order.length; i++) {
    const row = order[i] as number;
    const key = sequence[row] as number;
    let j = i - 1;
    while (j >= 0 && (sequence[order[j] as number] as number) > key) {
      order[j + 1] = order[j] as number;
      j--;
    }
    order[j + 1] = row;
  }
}

/**
 * Indexes stably sorted by `keys` (non-negative integers of a small range: O(n + range)); `order`
 * is the indexes' order before, null for 0 … count - 1.
 */
function countingSort(keys: Uint32Array | Int32Array, order: Uint32Array | null, count: number): Uint32Array {
  const index = (i: number) => (order === null ? i : (order[i] as number));
  let max = 0;
  for (let i = 0; i < count; i++) max = Math.max(max, keys[i] as number);
  const starts = new Uint32Array(max + 2);
  for (let i = 0; i < count; i++) {
    const next = (keys[i] as number) + 1;
    starts[next] = (starts[next] as number) + 1;
  }
  for (let v = 0; v <= max; v++) starts[v + 1] = (starts[v + 1] as number) + (starts[v] as number);
  const out = new Uint32Array(count);
  for (let i = 0; i < count; i++) {
    const at = index(i);
    const key = keys[at] as number;
    out[starts[key] as number] = at;
    starts[key] = (starts[key] as number) + 1;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Walks between stops

const toRadians = (degrees: number) => (degrees * Math.PI) / 180;

/** domain's distanceMetres on plain numbers: the hot loops would otherwise make an object per call. */
export function haversineMetres(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const dLat = toRadians(lat2 - lat1);
  const dLng = toRadians(lng2 - lng1);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(toRadians(lat1)) * Math.cos(toRadians(lat2)) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** Seconds on foot for a great-circle distance, as the walking model says (rounded up). */
export const walkSeconds = (metres: number) => Math.ceil((metres * DETOUR_FACTOR * 3.6) / WALK_KMH);

const METRES_PER_DEGREE = (Math.PI * EARTH_RADIUS_M) / 180;
/** Grid cells' keys: a row's cells fit under this (a cell's column is offset to be positive). */
const CELL_ROW = 2 ** 26;

/**
 * The walks, as compressed rows, both ways: every two stops within TRANSFER_WALK_MAX_M (found in a
 * grid of cells that size, so each stop looks at its nine cells only), and the pairs transfers.txt
 * links, whose time wins.
 */
function footpaths(lat: Float64Array, lng: Float64Array, transfers: Map<number, number>) {
  const n = lat.length;
  const pairFrom = new Column();
  const pairTo = new Column();
  const pairSeconds = new Column();
  const given = new Map(transfers);
  const add = (a: number, b: number, seconds: number) => {
    pairFrom.push(a);
    pairTo.push(b);
    pairSeconds.push(seconds);
  };

  let maxLat = 0;
  for (let i = 0; i < n; i++) maxLat = Math.max(maxLat, Math.abs(lat[i] as number));
  const latCell = TRANSFER_WALK_MAX_M / METRES_PER_DEGREE;
  // A degree of longitude is shortest at the stops' highest latitude (with a margin): cells are at least 400 m wide everywhere.
  const lngCell = latCell / Math.cos(toRadians(Math.min(89, maxLat + 0.5)));
  const row = (i: number) => Math.floor((lat[i] as number) / latCell);
  const column = (i: number) => Math.floor((lng[i] as number) / lngCell) + CELL_ROW / 2;
  const cells = new Map<number, number[]>();
  for (let i = 0; i < n; i++) {
    const key = row(i) * CELL_ROW + column(i);
    const cell = cells.get(key);
    if (cell) cell.push(i);
    else cells.set(key, [i]);
  }
  for (let a = 0; a < n; a++) {
    const r = row(a);
    const c = column(a);
    for (let dr = -1; dr <= 1; dr++) {
      for (let dc = -1; dc <= 1; dc++) {
        for (const b of cells.get((r + dr) * CELL_ROW + c + dc) ?? []) {
          if (b <= a) continue;
          const metres = haversineMetres(lat[a] as number, lng[a] as number, lat[b] as number, lng[b] as number);
          if (metres > TRANSFER_WALK_MAX_M) continue;
          const key = a * STOP_LIMIT + b;
          const seconds = given.get(key) ?? BY_DISTANCE;
          given.delete(key);
          add(a, b, seconds === BY_DISTANCE ? walkSeconds(metres) : seconds);
        }
      }
    }
  }
  // transfers.txt's pairs further apart than a walk by distance reaches.
  for (const [key, seconds] of given) {
    const a = Math.floor(key / STOP_LIMIT);
    const b = key % STOP_LIMIT;
    const metres = haversineMetres(lat[a] as number, lng[a] as number, lat[b] as number, lng[b] as number);
    add(a, b, seconds === BY_DISTANCE ? walkSeconds(metres) : seconds);
  }

  const pairs = pairFrom.length;
  const footStart = new Uint32Array(n + 1);
  for (let p = 0; p < pairs; p++) {
    const a = pairFrom.at(p) + 1;
    const b = pairTo.at(p) + 1;
    footStart[a] = (footStart[a] as number) + 1;
    footStart[b] = (footStart[b] as number) + 1;
  }
  for (let s = 0; s < n; s++) footStart[s + 1] = (footStart[s + 1] as number) + (footStart[s] as number);
  const next = footStart.slice(0, n);
  const footTo = new Uint32Array(pairs * 2);
  const footSeconds = new Int32Array(pairs * 2);
  for (let p = 0; p < pairs; p++) {
    const a = pairFrom.at(p);
    const b = pairTo.at(p);
    const seconds = pairSeconds.at(p);
    let at = (next[a] as number)++;
    footTo[at] = b;
    footSeconds[at] = seconds;
    at = (next[b] as number)++;
    footTo[at] = a;
    footSeconds[at] = seconds;
  }
  return { footStart, footTo, footSeconds };
}

// ---------------------------------------------------------------------------------------------
// Time zones

const parseIsoDay = (day: string) => Date.parse(`${day}T00:00:00Z`) / DAY_MS;
