import { basename } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { parse } from 'csv-parse';
import yauzl, { type Entry, type ZipFile } from 'yauzl';
import type { FeedSummary, Timetable } from '../timetable.ts';
import {
  BY_DISTANCE,
  DAY_MS,
  EMPTY,
  type FeedTrips,
  formatDay,
  MAX_SERVICE_DAYS,
  PROGRESS_EVERY,
  type ProgressListener,
  STOP_LIMIT,
  StopTimeRows,
  TimetableCompiler,
} from './compile.ts';
import { GtfsFormatError } from './gtfs-format-error.ts';

// haversineMetres and walkSeconds: the tests and bench/timetable import them from here.
export { haversineMetres, MAX_SERVICE_DAYS, type ProgressListener, walkSeconds } from './compile.ts';
export { GtfsFormatError } from './gtfs-format-error.ts';

/**
 * GTFS feeds (zips) read into one Timetable (issue 26). Each zip is read entry by entry (yauzl,
 * lazily), each CSV streamed (csv-parse) straight into the compiler's growable typed arrays
 * (compile.ts): Hungary's stop_times are ~10 M rows, so no row becomes an object. Every rule a row
 * breaks is refused with the feed, the file and the line, before anything is kept.
 */

/** An import inflates at most this much in all (the files' declared sizes; each file is held to its own). */
export const MAX_UNCOMPRESSED_BYTES = 2 * 1024 ** 3;

export interface ReadGtfsOptions {
  maxUncompressedBytes?: number;
  onProgress?: ProgressListener;
}

const REQUIRED_FILES = ['agency.txt', 'stops.txt', 'routes.txt', 'trips.txt', 'stop_times.txt'] as const;
const CALENDAR_FILES = ['calendar.txt', 'calendar_dates.txt'] as const;
const READ_FILES = new Set<string>([...REQUIRED_FILES, ...CALENDAR_FILES, 'transfers.txt']);

/** The timetable of `files` (GTFS zips) merged; throws GtfsFormatError naming the feed, file and line at fault. */
export async function readGtfs(files: string[], options: ReadGtfsOptions = {}): Promise<Timetable> {
  if (files.length === 0) throw new Error('readGtfs: no feed given');
  const limit = options.maxUncompressedBytes ?? MAX_UNCOMPRESSED_BYTES;
  const progress = options.onProgress ?? (() => {});
  const zips: FeedZip[] = [];
  try {
    for (const file of files) zips.push(await openFeed(file));
    checkDeclaredSizes(zips, limit);
    const compiler = new TimetableCompiler();
    const reader = new FeedReader(compiler);
    for (const zip of zips) await reader.readFeed({ zip, progress });
    return compiler.finish(progress);
  } finally {
    for (const zip of zips) zip.zip.close();
  }
}

// ---------------------------------------------------------------------------------------------
// The zip

interface FeedZip {
  /** The file's name without its folder, as messages and summaries name it. */
  name: string;
  zip: ZipFile;
  /** The GTFS files this import reads, by name. */
  entries: Map<string, Entry>;
}

async function openFeed(path: string): Promise<FeedZip> {
  const name = basename(path);
  const zip = await new Promise<ZipFile>((resolve, reject) =>
    yauzl.open(path, { lazyEntries: true, autoClose: false, validateEntrySizes: false }, (error, opened) =>
      error ? reject(error) : resolve(opened),
    ),
  ).catch((error: unknown) => {
    // A file that cannot be opened at all (ENOENT, EACCES) is the operator's, not the feed's.
    if (error instanceof Error && 'code' in error) throw error;
    throw new GtfsFormatError(name, name, null, `not a zip file (${errorText(error)}): not a GTFS feed`);
  });
  let entries: Map<string, Entry>;
  try {
    entries = await listEntries(zip);
  } catch (error) {
    zip.close();
    throw new GtfsFormatError(name, name, null, `the zip is damaged (${errorText(error)})`);
  }
  const missing =
    REQUIRED_FILES.find((file) => !entries.has(file)) ??
    (CALENDAR_FILES.some((file) => entries.has(file)) ? undefined : CALENDAR_FILES.join(' or '));
  if (missing !== undefined) {
    zip.close();
    throw new GtfsFormatError(name, missing, null, `${missing} is missing: not a GTFS feed`);
  }
  return { name, zip, entries };
}

function listEntries(zip: ZipFile): Promise<Map<string, Entry>> {
  return new Promise((resolve, reject) => {
    const entries = new Map<string, Entry>();
    zip.on('entry', (entry: Entry) => {
      if (READ_FILES.has(entry.fileName)) entries.set(entry.fileName, entry);
      zip.readEntry();
    });
    zip.once('end', () => resolve(entries));
    // Stays attached: a later error reaches the read stream's callback, and must not crash the process.
    zip.on('error', reject);
    zip.readEntry();
  });
}

/** The central directory's sizes, before anything is inflated. */
function checkDeclaredSizes(zips: FeedZip[], limit: number): void {
  let declared = 0;
  for (const { name, entries } of zips) {
    for (const [file, entry] of entries) {
      declared += entry.uncompressedSize;
      if (declared > limit) {
        throw new GtfsFormatError(
          name,
          file,
          null,
          `${file} (${formatBytes(entry.uncompressedSize)} uncompressed) takes the import past its limit of ${formatBytes(limit)}`,
        );
      }
    }
  }
}

function openEntry(zip: ZipFile, entry: Entry): Promise<Readable> {
  return new Promise((resolve, reject) =>
    zip.openReadStream(entry, (error, stream) => (error ? reject(error) : resolve(stream))),
  );
}

// ---------------------------------------------------------------------------------------------
// CSV tables

interface Reading {
  zip: FeedZip;
  progress: ProgressListener;
}

type RowHandler = (fields: string[], line: number) => void;
type ColumnIndexes<C extends string> = { readonly [K in C]: number };

/**
 * Streams `file` through `handler`, row by row, with the line each row ends on. Columns are found by
 * their header's names (extra ones ignored, an optional one missing is index -1: reads as '').
 * Returns the number of rows; 0 when the zip has no such file.
 */
async function readTable<R extends string, O extends string>(
  reading: Reading,
  file: string,
  required: readonly R[],
  optional: readonly O[],
  rowHandler: (at: ColumnIndexes<R | O>) => RowHandler,
): Promise<number> {
  const { zip, progress } = reading;
  const entry = zip.entries.get(file);
  if (!entry) return 0;
  const stage = `${zip.name} ${file}`;
  const parser = parse({ bom: true, relax_column_count: true, relax_quotes: true, skip_empty_lines: true });
  let handler: RowHandler | null = null;
  let rows = 0;
  let failed = false;
  // 'data' fires as each record is parsed, so the parser's line count is the record's (a for-await would run ahead).
  parser.on('data', (fields: string[]) => {
    if (failed) return;
    const line = parser.info.lines;
    try {
      if (handler === null) {
        handler = rowHandler(columnIndexes(zip.name, file, line, fields, required, optional));
        return;
      }
      handler(fields, line);
      if (++rows % PROGRESS_EVERY === 0) progress(stage, rows);
    } catch (error) {
      failed = true;
      parser.destroy(
        error instanceof RowFault ? new GtfsFormatError(zip.name, file, line, error.message) : (error as Error),
      );
    }
  });
  try {
    await pipeline(await openEntry(zip.zip, entry), counted(zip.name, file, entry.uncompressedSize), parser);
  } catch (error) {
    throw asFormatError(error, zip.name, file);
  }
  if (handler === null) {
    throw new GtfsFormatError(zip.name, file, 1, 'the file is empty: a header must name its columns');
  }
  progress(stage, rows);
  return rows;
}

/**
 * The entry's bytes as inflated, counted: a zip bomb's central directory lies about its sizes, so
 * an entry inflating past what it declares is stopped right there — and the declared sizes were
 * held to the import's limit before reading. (yauzl's own check is off: this one says which file.)
 */
function counted(feed: string, file: string, declared: number) {
  return async function* (source: AsyncIterable<Buffer>) {
    let bytes = 0;
    for await (const chunk of source) {
      bytes += chunk.length;
      if (bytes > declared) {
        throw new GtfsFormatError(
          feed,
          file,
          null,
          `${file} inflates past the ${formatBytes(declared)} the zip declares for it`,
        );
      }
      yield chunk;
    }
    if (bytes < declared) {
      throw new GtfsFormatError(
        feed,
        file,
        null,
        `${file} is cut short: ${formatBytes(bytes)} of the ${formatBytes(declared)} the zip declares`,
      );
    }
  };
}

function columnIndexes<R extends string, O extends string>(
  feed: string,
  file: string,
  line: number,
  header: string[],
  required: readonly R[],
  optional: readonly O[],
): ColumnIndexes<R | O> {
  const names = header.map((name) => name.trim());
  const at: Record<string, number> = {};
  for (const name of required) {
    const index = names.indexOf(name);
    at[name] = index;
    if (index < 0) {
      throw new GtfsFormatError(
        feed,
        file,
        line,
        `the column ${name} is missing (the header names ${names.join(', ')})`,
      );
    }
  }
  for (const name of optional) at[name] = names.indexOf(name);
  return at as ColumnIndexes<R | O>;
}

function asFormatError(error: unknown, feed: string, file: string): Error {
  if (error instanceof GtfsFormatError) return error;
  const code = error instanceof Error && 'code' in error ? String(error.code) : '';
  if (code.startsWith('CSV_')) {
    const lines = (error as { lines?: unknown }).lines;
    return new GtfsFormatError(
      feed,
      file,
      typeof lines === 'number' ? lines : null,
      `not valid CSV: ${errorText(error)}`,
    );
  }
  return new GtfsFormatError(feed, file, null, `${file} cannot be read from the zip (${errorText(error)})`);
}

/** A field, without the spaces some feeds pad with ('' when the row is short or the column absent). */
const cell = (fields: string[], index: number) => (fields[index] ?? '').trim();

// ---------------------------------------------------------------------------------------------
// Fields

/** A trip may run into the next day, not further: 47:59:59. */
const MAX_TIME = 48 * 3600 - 1;

/** A time's seconds, EMPTY for '', NaN when not H:MM:SS or HH:MM:SS with minutes and seconds under 60. */
function parseTime(text: string): number {
  const n = text.length;
  if (n === 0) return EMPTY;
  if ((n !== 7 && n !== 8) || text.charCodeAt(n - 3) !== 58 || text.charCodeAt(n - 6) !== 58) return Number.NaN;
  const hours = n === 8 ? digitAt(text, 0) * 10 + digitAt(text, 1) : digitAt(text, 0);
  const minutes = digitAt(text, n - 5) * 10 + digitAt(text, n - 4);
  const seconds = digitAt(text, n - 2) * 10 + digitAt(text, n - 1);
  if (!(minutes < 60 && seconds < 60)) return Number.NaN;
  return hours * 3600 + minutes * 60 + seconds;
}

function digitAt(text: string, i: number): number {
  const d = text.charCodeAt(i) - 48;
  return d >= 0 && d <= 9 ? d : Number.NaN;
}

/** A whole number ≥ 0 written in digits only, NaN otherwise. */
function parseCount(text: string): number {
  if (text.length === 0 || text.length > 10) return Number.NaN;
  let value = 0;
  for (let i = 0; i < text.length; i++) {
    const d = text.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return Number.NaN;
    value = value * 10 + d;
  }
  return value;
}

/** YYYYMMDD as days since 1970-01-01, NaN when not a real date (or one before 1970: no timetable's). */
function parseDate(text: string): number {
  if (!/^\d{8}$/.test(text)) return Number.NaN;
  const year = Number(text.slice(0, 4));
  if (year < 1970) return Number.NaN;
  const month = Number(text.slice(4, 6));
  const day = Number(text.slice(6, 8));
  const at = Date.UTC(year, month - 1, day);
  const back = new Date(at);
  if (back.getUTCFullYear() !== year || back.getUTCMonth() !== month - 1 || back.getUTCDate() !== day) {
    return Number.NaN;
  }
  return at / DAY_MS;
}

function parseCoordinate(text: string, limit: number): number {
  if (text.length === 0) return Number.NaN;
  const value = Number(text);
  return Number.isFinite(value) && Math.abs(value) <= limit ? value : Number.NaN;
}

/** A row's fault, as a table's handler finds it: readTable adds the feed, the file and the line. */
class RowFault extends Error {}

function dateField(fields: string[], index: number, column: string): number {
  const text = cell(fields, index);
  const day = parseDate(text);
  if (Number.isNaN(day)) throw new RowFault(`${column} '${text}' is not a date (YYYYMMDD)`);
  return day;
}

function timeField(fields: string[], index: number, column: string): number {
  const text = cell(fields, index);
  const seconds = parseTime(text);
  if (Number.isNaN(seconds)) throw new RowFault(`${column} '${text}' is not a time (H:MM:SS)`);
  if (seconds > MAX_TIME && seconds !== EMPTY) {
    throw new RowFault(`${column} '${text}' is past 47:59:59, the next day's last hour`);
  }
  return seconds;
}

// ---------------------------------------------------------------------------------------------
// Tables

/** What one feed's ids mean: ids are the feed's own, so two feeds' 'S1' stay two stops. */
interface FeedScope extends FeedTrips {
  reading: Reading;
  agencies: string[];
  stops: Map<string, number>;
  /** Stations, entrances, nodes, boarding areas: no vehicle calls at them. */
  otherLocations: Set<string>;
  routes: Map<string, number>;
  services: Map<string, number>;
  exceptionBase: number;
  validFrom: number;
  validUntil: number;
  counts: FeedSummary['counts'];
}

/** Feeds' tables read one after another into one compiler, each row checked before it is added. */
class FeedReader {
  /** The feed whose agency set the compiler's time zone, for the refusal of a feed that differs. */
  private timeZoneFeed = '';

  constructor(private readonly compiler: TimetableCompiler) {}

  async readFeed(reading: Reading): Promise<void> {
    const scope: FeedScope = {
      reading,
      name: reading.zip.name,
      agencies: [],
      stops: new Map(),
      otherLocations: new Set(),
      routes: new Map(),
      services: new Map(),
      trips: new Map(),
      serviceBase: this.compiler.serviceCount,
      exceptionBase: this.compiler.exceptionCount,
      tripBase: this.compiler.tripCount,
      serviceRuns: new Uint8Array(0),
      validFrom: Number.POSITIVE_INFINITY,
      validUntil: Number.NEGATIVE_INFINITY,
      counts: { stops: 0, routes: 0, trips: 0, stopTimes: 0, transfers: 0 },
    };
    await this.readAgencies(scope);
    await this.readCalendars(scope);
    await this.readStops(scope);
    await this.readRoutes(scope);
    await this.readTrips(scope);
    const rows = await this.readStopTimes(scope);
    this.compiler.compileTrips(scope, rows, reading.progress);
    await this.readTransfers(scope);
    this.compiler.addFeed({
      file: scope.name,
      agencies: scope.agencies,
      validFrom: formatDay(scope.validFrom),
      validUntil: formatDay(scope.validUntil),
      counts: scope.counts,
    });
  }

  private async readAgencies(scope: FeedScope): Promise<void> {
    const file = 'agency.txt';
    await readTable(scope.reading, file, ['agency_name', 'agency_timezone'], [], (at) => (fields) => {
      const zone = cell(fields, at.agency_timezone);
      const canonical = canonicalTimeZone(zone);
      if (canonical === null) throw new RowFault(`agency_timezone '${zone}' is not an IANA time zone`);
      if (this.compiler.timeZone === null) {
        this.compiler.timeZone = canonical;
        this.timeZoneFeed = scope.name;
      } else if (canonical !== this.compiler.timeZone) {
        throw new RowFault(
          `agency_timezone '${zone}' differs from ${this.compiler.timeZone} (${this.timeZoneFeed}): feeds imported together must share one time zone`,
        );
      }
      scope.agencies.push(cell(fields, at.agency_name));
    });
    if (scope.agencies.length === 0) throw new GtfsFormatError(scope.name, file, null, `${file} names no agency`);
  }

  private async readCalendars(scope: FeedScope): Promise<void> {
    const extend = (day: number) => {
      scope.validFrom = Math.min(scope.validFrom, day);
      scope.validUntil = Math.max(scope.validUntil, day);
      if (scope.validUntil - scope.validFrom + 1 > MAX_SERVICE_DAYS) {
        throw new RowFault(
          `the feed now covers ${formatDay(scope.validFrom)} to ${formatDay(scope.validUntil)}: more than the ${MAX_SERVICE_DAYS} days a timetable holds`,
        );
      }
    };
    const newService = (id: string, weekdays: number, start: number, end: number) => {
      const service = this.compiler.addService(weekdays, start, end);
      scope.services.set(id, service);
      return service;
    };

    const calendar = 'calendar.txt';
    const dayColumns = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;
    await readTable(
      scope.reading,
      calendar,
      ['service_id', ...dayColumns, 'start_date', 'end_date'],
      [],
      (at) => (fields) => {
        const id = cell(fields, at.service_id);
        if (scope.services.has(id)) throw new RowFault(`service_id '${id}' is in ${calendar} twice`);
        let weekdays = 0;
        dayColumns.forEach((column, index) => {
          const flag = cell(fields, at[column]);
          if (flag !== '0' && flag !== '1') throw new RowFault(`${column} '${flag}' is neither 0 nor 1`);
          if (flag === '1') weekdays |= 1 << index;
        });
        const start = dateField(fields, at.start_date, 'start_date');
        const end = dateField(fields, at.end_date, 'end_date');
        if (end < start) throw new RowFault(`end_date ${formatDay(end)} is before start_date ${formatDay(start)}`);
        newService(id, weekdays, start, end);
        extend(start);
        extend(end);
      },
    );

    const dates = 'calendar_dates.txt';
    await readTable(scope.reading, dates, ['service_id', 'date', 'exception_type'], [], (at) => (fields) => {
      const id = cell(fields, at.service_id);
      const day = dateField(fields, at.date, 'date');
      const type = cell(fields, at.exception_type);
      if (type !== '1' && type !== '2') {
        throw new RowFault(`exception_type '${type}' is neither 1 (added) nor 2 (removed)`);
      }
      const service = scope.services.get(id) ?? newService(id, 0, 0, 0);
      this.compiler.addException(service, day, Number(type));
      if (type === '1') extend(day);
    });

    if (!Number.isFinite(scope.validFrom)) {
      throw new GtfsFormatError(scope.name, dates, null, 'calendar.txt and calendar_dates.txt name no day of service');
    }
    const dayCount = scope.validUntil - scope.validFrom + 1;
    scope.serviceRuns = this.compiler.servicesRunning(
      scope.serviceBase,
      scope.exceptionBase,
      scope.validFrom,
      dayCount,
    );
  }

  private async readStops(scope: FeedScope): Promise<void> {
    const file = 'stops.txt';
    await readTable(
      scope.reading,
      file,
      ['stop_id', 'stop_lat', 'stop_lon'],
      ['stop_name', 'location_type'],
      (at) => (fields) => {
        const id = cell(fields, at.stop_id);
        if (id === '') throw new RowFault('stop_id is empty');
        if (scope.stops.has(id) || scope.otherLocations.has(id)) {
          throw new RowFault(`stop_id '${id}' is in ${file} twice`);
        }
        const type = cell(fields, at.location_type);
        if (type !== '' && type !== '0') {
          scope.otherLocations.add(id);
          return;
        }
        const lat = parseCoordinate(cell(fields, at.stop_lat), 90);
        if (Number.isNaN(lat)) {
          throw new RowFault(`stop_lat '${cell(fields, at.stop_lat)}' is not a latitude (-90 to 90)`);
        }
        const lng = parseCoordinate(cell(fields, at.stop_lon), 180);
        if (Number.isNaN(lng)) {
          throw new RowFault(`stop_lon '${cell(fields, at.stop_lon)}' is not a longitude (-180 to 180)`);
        }
        if (this.compiler.stopCount === STOP_LIMIT) throw new RowFault(`more than ${STOP_LIMIT} stops in all`);
        scope.stops.set(id, this.compiler.addStop(lat, lng, cell(fields, at.stop_name)));
      },
    );
    scope.counts.stops = scope.stops.size;
  }

  private async readRoutes(scope: FeedScope): Promise<void> {
    const file = 'routes.txt';
    await readTable(
      scope.reading,
      file,
      ['route_id', 'route_type'],
      ['route_short_name', 'route_long_name'],
      (at) => (fields) => {
        const id = cell(fields, at.route_id);
        if (scope.routes.has(id)) throw new RowFault(`route_id '${id}' is in ${file} twice`);
        const typeText = cell(fields, at.route_type);
        const type = parseCount(typeText);
        if (!(type <= 0xffff)) throw new RowFault(`route_type '${typeText}' is not a route type (a whole number)`);
        const name = cell(fields, at.route_short_name) || cell(fields, at.route_long_name);
        scope.routes.set(id, this.compiler.addRoute(name, type));
      },
    );
    scope.counts.routes = scope.routes.size;
  }

  private async readTrips(scope: FeedScope): Promise<void> {
    const file = 'trips.txt';
    await readTable(scope.reading, file, ['route_id', 'service_id', 'trip_id'], ['trip_headsign'], (at) => (fields) => {
      const id = cell(fields, at.trip_id);
      if (scope.trips.has(id)) throw new RowFault(`trip_id '${id}' is in ${file} twice`);
      const routeId = cell(fields, at.route_id);
      const route = scope.routes.get(routeId);
      if (route === undefined) throw new RowFault(`route_id '${routeId}' is not in routes.txt`);
      const serviceId = cell(fields, at.service_id);
      const service = scope.services.get(serviceId);
      if (service === undefined) {
        throw new RowFault(`service_id '${serviceId}' is in neither calendar.txt nor calendar_dates.txt`);
      }
      const trip = this.compiler.addTrip(route, service, cell(fields, at.trip_headsign));
      scope.trips.set(id, trip - scope.tripBase);
    });
    scope.counts.trips = scope.trips.size;
  }

  private async readStopTimes(scope: FeedScope): Promise<StopTimeRows> {
    const file = 'stop_times.txt';
    // A row is ~40 bytes or more: start near the file's row count rather than grow from small.
    const size = scope.reading.zip.entries.get(file)?.uncompressedSize ?? 0;
    const rows = new StopTimeRows(Math.ceil(size / 40));
    scope.counts.stopTimes = await readTable(
      scope.reading,
      file,
      ['trip_id', 'arrival_time', 'departure_time', 'stop_id', 'stop_sequence'],
      [],
      (at) => (fields, line) => {
        const tripId = cell(fields, at.trip_id);
        const trip = scope.trips.get(tripId);
        if (trip === undefined) throw new RowFault(`trip_id '${tripId}' is not in trips.txt`);
        const stopId = cell(fields, at.stop_id);
        const stop = scope.stops.get(stopId);
        if (stop === undefined) {
          throw new RowFault(
            scope.otherLocations.has(stopId)
              ? `stop_id '${stopId}' is a station or an entrance in stops.txt (location_type is not 0), not a stop`
              : `stop_id '${stopId}' is not in stops.txt`,
          );
        }
        const sequenceText = cell(fields, at.stop_sequence);
        const sequence = parseCount(sequenceText);
        if (!(sequence <= 0xffffffff)) throw new RowFault(`stop_sequence '${sequenceText}' is not a whole number`);
        rows.lines.note(rows.trip.length, line);
        rows.trip.push(trip);
        rows.stop.push(stop);
        rows.sequence.push(sequence);
        rows.arrival.push(timeField(fields, at.arrival_time, 'arrival_time'));
        rows.departure.push(timeField(fields, at.departure_time, 'departure_time'));
      },
    );
    return rows;
  }

  private async readTransfers(scope: FeedScope): Promise<void> {
    const file = 'transfers.txt';
    scope.counts.transfers = 0;
    await readTable(
      scope.reading,
      file,
      ['from_stop_id', 'to_stop_id', 'transfer_type'],
      ['min_transfer_time'],
      (at) => (fields) => {
        const type = cell(fields, at.transfer_type) || '0';
        // 3: no transfer here; 4, 5: staying on board — none is a walk.
        if (type !== '0' && type !== '1' && type !== '2') return;
        const stop = (column: 'from_stop_id' | 'to_stop_id') => {
          const id = cell(fields, at[column]);
          // A trip-to-trip transfer names no stop; one between stations is left to the walks by distance.
          if (id === '' || scope.otherLocations.has(id)) return null;
          const index = scope.stops.get(id);
          if (index === undefined) throw new RowFault(`${column} '${id}' is not in stops.txt`);
          return index;
        };
        const from = stop('from_stop_id');
        const to = stop('to_stop_id');
        if (from === null || to === null || from === to) return;
        let seconds = BY_DISTANCE;
        const timeText = cell(fields, at.min_transfer_time);
        if (type === '2' && timeText !== '') {
          seconds = parseCount(timeText);
          if (!(seconds <= 0x7fffffff)) {
            throw new RowFault(`min_transfer_time '${timeText}' is not a number of seconds`);
          }
        }
        this.compiler.addTransfer(from, to, seconds);
        scope.counts.transfers++;
      },
    );
  }
}

// ---------------------------------------------------------------------------------------------
// Time zones

/** The zone's canonical IANA name, null when it is none (a bare offset is refused too). */
function canonicalTimeZone(name: string): string | null {
  if (!/^[A-Za-z]/.test(name)) return null;
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}

// ---------------------------------------------------------------------------------------------

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function formatBytes(bytes: number): string {
  if (bytes >= 1024 ** 3) return `${(bytes / 1024 ** 3).toFixed(1)} GiB`;
  if (bytes >= 1024 ** 2) return `${(bytes / 1024 ** 2).toFixed(1)} MiB`;
  if (bytes >= 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${bytes} bytes`;
}
