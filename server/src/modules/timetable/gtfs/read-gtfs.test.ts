import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { distanceMetres } from '@csomag/domain/geo';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Timetable } from '../timetable.ts';
import { GtfsFormatError, haversineMetres, type ReadGtfsOptions, readGtfs, walkSeconds } from './read-gtfs.ts';
import { csv, gtfsZip, writeGtfsZip } from './write-gtfs.ts';

const dir = mkdtempSync(join(tmpdir(), 'gtfs-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function write(name: string, files: Record<string, string>): string {
  const path = join(dir, name);
  writeGtfsZip(path, files);
  return path;
}

const read = (name: string, files: Record<string, string>, options?: ReadGtfsOptions) =>
  readGtfs([write(name, files)], options);

/** The refusal reading `files` meets. */
async function refusal(files: Record<string, string>, options?: ReadGtfsOptions): Promise<GtfsFormatError> {
  const error = await read('bad.zip', files, options).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(GtfsFormatError);
  return error as GtfsFormatError;
}

// Stops north of a point in Budapest: 0.01° of latitude is 1112 m; B is 150 m east of A.
const A = { lat: 47.5, lng: 19.0 };
const B = { lat: 47.5, lng: 19.002 };
const C = { lat: 47.51, lng: 19.0 };
const D = { lat: 47.53, lng: 19.0 };
const E = { lat: 47.5102, lng: 19.0 };

const agency = (zone = 'Europe/Budapest', name = 'BKK') =>
  csv([
    ['agency_id', 'agency_name', 'agency_url', 'agency_timezone'],
    ['BKK', name, 'https://bkk.hu', zone],
  ]);

/** A small feed, every file there for a rule; a test replaces the files it is about. */
function tinyFeed(overrides: Record<string, string> = {}): Record<string, string> {
  return {
    'agency.txt': agency(),
    'stops.txt': csv([
      ['stop_id', 'stop_name', 'stop_lat', 'stop_lon', 'location_type', 'parent_station'],
      ['A', 'Alfa', A.lat, A.lng, '', 'ST'],
      ['B', 'Bravo, the "corner"', B.lat, B.lng, '0', ''],
      ['ST', 'Station', 47.5001, 19.0001, '1', ''],
      ['C', 'Charlie', C.lat, C.lng, '', ''],
      ['D', 'Delta', D.lat, D.lng, '', ''],
      ['E', 'Echo', E.lat, E.lng, '', ''],
    ]),
    'routes.txt': csv([
      ['route_id', 'route_short_name', 'route_long_name', 'route_type', 'route_color'],
      ['R1', 'M3', 'Metro 3', 1, 'FF0000'],
      ['R2', '', 'Long Name', 3, ''],
    ]),
    'calendar.txt': csv([
      [
        'service_id',
        'monday',
        'tuesday',
        'wednesday',
        'thursday',
        'friday',
        'saturday',
        'sunday',
        'start_date',
        'end_date',
      ],
      ['WK', 1, 1, 1, 1, 1, 0, 0, '20260302', '20260331'],
      ['WE', 0, 0, 0, 0, 0, 1, 1, '20260302', '20260331'],
      ['NEVER', 0, 0, 0, 0, 0, 0, 0, '20260302', '20260331'],
    ]),
    // Monday 16 March runs the weekend service instead.
    'calendar_dates.txt': csv([
      ['service_id', 'date', 'exception_type'],
      ['WK', '20260316', 2],
      ['WE', '20260316', 1],
    ]),
    'trips.txt': csv([
      ['route_id', 'service_id', 'trip_id', 'trip_headsign'],
      ['R1', 'WK', 'T1', 'Delta'],
      ['R2', 'WE', 'T2', 'Alfa'],
      ['R2', 'WK', 'NIGHT', ''],
      ['R2', 'NEVER', 'GHOST', 'Nowhere'],
    ]),
    // T1's rows out of order, as a feed may write them.
    'stop_times.txt': csv([
      ['trip_id', 'arrival_time', 'departure_time', 'stop_id', 'stop_sequence', 'shape_dist_traveled'],
      ['T1', '08:05:00', '08:05:00', 'D', 30, ''],
      ['T1', '8:00:00', '8:00:00', 'A', 10, ''],
      ['T1', '08:02:00', '08:02:30', 'C', 20, ''],
      ['T2', '09:00:00', '09:00:00', 'B', 1, ''],
      ['T2', '09:01:00', '09:01:00', 'A', 2, ''],
      ['NIGHT', '24:50:00', '24:50:00', 'D', 1, ''],
      ['NIGHT', '25:10:00', '25:10:00', 'C', 2, ''],
      ['GHOST', '10:00:00', '10:00:00', 'A', 1, ''],
      ['GHOST', '10:00:00', '10:00:00', 'D', 2, ''],
    ]),
    'transfers.txt': csv([
      ['from_stop_id', 'to_stop_id', 'transfer_type', 'min_transfer_time'],
      ['C', 'E', 2, 90],
      ['A', 'D', 2, 600],
      ['B', 'C', 3, ''],
      ['A', 'A', 2, 120],
    ]),
    ...overrides,
  };
}

/** Stop index by name, and the walks from a stop as name → seconds. */
const stopIndex = (t: Timetable, name: string) => t.stopNames.indexOf(name);
function walksFrom(t: Timetable, name: string): Record<string, number> {
  const s = stopIndex(t, name);
  const walks: Record<string, number> = {};
  for (let i = t.footStart[s] ?? 0; i < (t.footStart[s + 1] ?? 0); i++) {
    walks[t.stopNames[t.footTo[i] ?? 0] ?? ''] = t.footSeconds[i] ?? 0;
  }
  return walks;
}
const connections = (t: Timetable) =>
  Array.from({ length: t.connectionCount }, (_, i) => ({
    from: t.stopNames[t.connectionFrom[i] ?? 0],
    to: t.stopNames[t.connectionTo[i] ?? 0],
    departure: t.connectionDeparture[i],
    arrival: t.connectionArrival[i],
  }));
const dayOf = (t: Timetable, day: string) => (Date.parse(day) - Date.parse(t.firstDay)) / 86_400_000;
const runs = (t: Timetable, service: number, day: string) => t.serviceDays[service * t.dayCount + dayOf(t, day)];

describe('readGtfs: a small feed', () => {
  const stages: string[] = [];
  let t: Timetable;
  beforeAll(async () => {
    t = await read('bkk.zip', tinyFeed(), { onProgress: (stage) => stages.push(stage) });
  });

  it('keeps the stops vehicles call at, with their names, and counts each file', () => {
    expect(t.stopNames).toEqual(['Alfa', 'Bravo, the "corner"', 'Charlie', 'Delta', 'Echo']);
    expect(t.stopCount).toBe(5);
    expect([t.stopLat[2], t.stopLng[2]]).toEqual([C.lat, C.lng]);
    expect(t.routeNames).toEqual(['M3', 'Long Name']);
    expect([...t.routeTypes]).toEqual([1, 3]);
    expect(t.tripCount).toBe(4);
    expect(t.tripHeadsigns).toEqual(['Delta', 'Alfa', '', 'Nowhere']);
    expect(t.timeZone).toBe('Europe/Budapest');
    expect(t.feeds).toEqual([
      {
        file: 'bkk.zip',
        agencies: ['BKK'],
        validFrom: '2026-03-02',
        validUntil: '2026-03-31',
        counts: { stops: 5, routes: 2, trips: 4, stopTimes: 9, transfers: 2 },
      },
    ]);
    expect(stages).toContain('bkk.zip stop_times.txt');
    expect(stages).toContain('connections');
  });

  it('makes a connection of each two stops in a row, sorted by departure, a night trip past 24:00', () => {
    expect(connections(t)).toEqual([
      { from: 'Alfa', to: 'Charlie', departure: 8 * 3600, arrival: 8 * 3600 + 120 },
      { from: 'Charlie', to: 'Delta', departure: 8 * 3600 + 150, arrival: 8 * 3600 + 300 },
      { from: 'Bravo, the "corner"', to: 'Alfa', departure: 9 * 3600, arrival: 9 * 3600 + 60 },
      { from: 'Delta', to: 'Charlie', departure: 24 * 3600 + 50 * 60, arrival: 25 * 3600 + 10 * 60 },
    ]);
    // The trip whose service never runs has none.
    expect([...t.connectionTrip]).toEqual([0, 0, 1, 2]);
    expect([...t.byArrival]).toEqual([0, 1, 2, 3]);
  });

  it('numbers the trips in the order they first depart, each with its own route, service and headsign', async () => {
    // trips.txt in reverse: the trip that never runs first, the first to leave last.
    const reversed = await read(
      'reversed.zip',
      tinyFeed({
        'trips.txt': csv([
          ['route_id', 'service_id', 'trip_id', 'trip_headsign'],
          ['R2', 'NEVER', 'GHOST', 'Nowhere'],
          ['R2', 'WK', 'NIGHT', ''],
          ['R2', 'WE', 'T2', 'Alfa'],
          ['R1', 'WK', 'T1', 'Delta'],
        ]),
      }),
    );
    expect(connections(reversed)).toEqual(connections(t));
    expect([...reversed.connectionTrip]).toEqual([0, 0, 1, 2]);
    expect(reversed.tripHeadsigns).toEqual(['Delta', 'Alfa', '', 'Nowhere']);
    expect([...reversed.tripRoute]).toEqual([0, 1, 1, 1]);
    expect([...reversed.tripService]).toEqual([...t.tripService]);
    expect([...reversed.serviceDays]).toEqual([...t.serviceDays]);
  });

  it('sorts by arrival when departures tie, and lists connections by arrival', async () => {
    const tied = await read(
      'tied.zip',
      tinyFeed({
        'stop_times.txt': csv([
          ['trip_id', 'arrival_time', 'departure_time', 'stop_id', 'stop_sequence'],
          ['T1', '08:00:00', '08:00:00', 'A', 1],
          ['T1', '08:30:00', '08:30:00', 'D', 2],
          ['T2', '08:00:00', '08:00:00', 'B', 1],
          ['T2', '08:10:00', '08:10:00', 'A', 2],
          ['NIGHT', '07:00:00', '07:00:00', 'C', 1],
          ['NIGHT', '08:20:00', '08:20:00', 'E', 2],
        ]),
      }),
    );
    expect(connections(tied).map((c) => [c.departure, c.arrival])).toEqual([
      [25200, 30000],
      [28800, 29400],
      [28800, 30600],
    ]);
    expect([...tied.byArrival]).toEqual([1, 0, 2]);
  });

  it('runs services on their weekdays, with calendar_dates removing and adding a day', () => {
    const [weekdays, weekend] = [0, 1];
    expect(t.firstDay).toBe('2026-03-02');
    expect(t.dayCount).toBe(30);
    expect(t.serviceCount).toBe(3);
    expect(runs(t, weekdays, '2026-03-13')).toBe(1); // Friday
    expect(runs(t, weekdays, '2026-03-14')).toBe(0); // Saturday
    expect(runs(t, weekend, '2026-03-14')).toBe(1);
    expect(runs(t, weekdays, '2026-03-16')).toBe(0); // Monday, removed
    expect(runs(t, weekend, '2026-03-16')).toBe(1); // and added
    expect(runs(t, weekdays, '2026-03-17')).toBe(1);
    expect(t.serviceDays.subarray(2 * 30, 3 * 30).every((day) => day === 0)).toBe(true);
  });

  it('links stops by transfers.txt (its time wins) and by distance within 400 m, both ways', () => {
    const ab = walkSeconds(distanceMetres(A, B));
    // 150 m × 1.3 at 4.8 km/h: 146.5 s, rounded up.
    expect(ab).toBe(147);
    expect(walksFrom(t, 'Alfa')).toEqual({ 'Bravo, the "corner"': ab, Delta: 600 });
    expect(walksFrom(t, 'Bravo, the "corner"')).toEqual({ Alfa: ab });
    expect(walksFrom(t, 'Charlie')).toEqual({ Echo: 90 });
    expect(walksFrom(t, 'Echo')).toEqual({ Charlie: 90 });
    expect(walksFrom(t, 'Delta')).toEqual({ Alfa: 600 });
    expect(t.footStart.length).toBe(6);
  });

  it('finds the fastest ride between two stops of a trip: Charlie to Delta, 2224 m in 150 s', () => {
    const kmh = (distanceMetres(C, D) / 1000 / 150) * 3600;
    expect(kmh).toBeCloseTo(53.37, 2);
    expect(t.fastestKmh).toBeCloseTo(kmh, 9);
  });

  it('measures like domain/geo', () => {
    expect(haversineMetres(A.lat, A.lng, D.lat, D.lng)).toBe(distanceMetres(A, D));
  });
});

describe('readGtfs: times', () => {
  it('spreads stops without times evenly by distance between the timepoints around them', async () => {
    // 111 m, 222 m, 333 m apart: 60, 120 and 180 of the 360 seconds.
    const t = await read(
      'line.zip',
      tinyFeed({
        'stops.txt': csv([
          ['stop_id', 'stop_name', 'stop_lat', 'stop_lon'],
          ['P0', 'P0', 47.0, 19.0],
          ['P1', 'P1', 47.001, 19.0],
          ['P2', 'P2', 47.003, 19.0],
          ['P3', 'P3', 47.006, 19.0],
        ]),
        'trips.txt': csv([
          ['route_id', 'service_id', 'trip_id'],
          ['R1', 'WK', 'T1'],
        ]),
        'stop_times.txt': csv([
          ['trip_id', 'arrival_time', 'departure_time', 'stop_id', 'stop_sequence'],
          ['T1', '', '10:00:00', 'P0', 0],
          ['T1', '', '', 'P1', 1],
          ['T1', '', '', 'P2', 2],
          ['T1', '10:06:00', '', 'P3', 3],
        ]),
        'transfers.txt': csv([['from_stop_id', 'to_stop_id', 'transfer_type']]),
      }),
    );
    expect(connections(t).map((c) => [c.from, c.departure, c.arrival])).toEqual([
      ['P0', 36000, 36060],
      ['P1', 36060, 36180],
      ['P2', 36180, 36360],
    ]);
    expect(t.fastestKmh).toBeCloseTo((haversineMetres(47.0, 19.0, 47.006, 19.0) * 3.6) / 360, 6);
  });

  it('knows no speed limit when a trip reaches a stop elsewhere in no time', async () => {
    const t = await read(
      'instant.zip',
      tinyFeed({
        'stop_times.txt': csv([
          ['trip_id', 'arrival_time', 'departure_time', 'stop_id', 'stop_sequence'],
          ['T1', '08:00:00', '08:00:00', 'A', 1],
          ['T1', '08:00:00', '08:00:00', 'B', 2],
        ]),
      }),
    );
    expect(t.fastestKmh).toBe(Number.POSITIVE_INFINITY);
  });

  it('takes the days clocks change in Budapest: a day starts at noon minus 12 hours', async () => {
    const t = await read(
      'dst.zip',
      tinyFeed({
        'calendar.txt': csv([
          [
            'service_id',
            'monday',
            'tuesday',
            'wednesday',
            'thursday',
            'friday',
            'saturday',
            'sunday',
            'start_date',
            'end_date',
          ],
          ['WK', 1, 1, 1, 1, 1, 1, 1, '20260328', '20261026'],
          ['WE', 0, 0, 0, 0, 0, 1, 1, '20260328', '20261026'],
          ['NEVER', 0, 0, 0, 0, 0, 0, 0, '20260328', '20261026'],
        ]),
        'calendar_dates.txt': csv([['service_id', 'date', 'exception_type']]),
      }),
    );
    const base = (day: string) => new Date(t.dayBase[dayOf(t, day)] ?? 0).toISOString();
    expect(base('2026-03-28')).toBe('2026-03-27T23:00:00.000Z');
    // Sunday 29 March: 02:00 becomes 03:00; noon is 10:00Z, its base 22:00Z the day before.
    expect(base('2026-03-29')).toBe('2026-03-28T22:00:00.000Z');
    expect(base('2026-03-30')).toBe('2026-03-29T22:00:00.000Z');
    expect(base('2026-10-24')).toBe('2026-10-23T22:00:00.000Z');
    // Sunday 25 October: 03:00 becomes 02:00; noon is 11:00Z, its base 23:00Z the day before.
    expect(base('2026-10-25')).toBe('2026-10-24T23:00:00.000Z');
    expect(base('2026-10-26')).toBe('2026-10-25T23:00:00.000Z');
    // 08:00:00 that Sunday is 08:00 on the clock, summer time.
    expect(new Date((t.dayBase[dayOf(t, '2026-03-29')] ?? 0) + 8 * 3_600_000).toISOString()).toBe(
      '2026-03-29T06:00:00.000Z',
    );
  });
});

describe('readGtfs: several feeds', () => {
  it('keeps two feeds apart when their ids collide, and sums them up each', async () => {
    const volan = tinyFeed({
      'agency.txt': agency('Europe/Budapest', 'Volan'),
      'stops.txt': csv([
        ['stop_id', 'stop_name', 'stop_lat', 'stop_lon'],
        ['A', 'Szeged A', 46.25, 20.15],
        ['B', 'Szeged B', 46.25, 20.16],
        ['C', 'Szeged C', 46.26, 20.15],
        ['D', 'Szeged D', 46.27, 20.15],
        ['E', 'Szeged E', 46.28, 20.15],
      ]),
      'calendar.txt': csv([
        [
          'service_id',
          'monday',
          'tuesday',
          'wednesday',
          'thursday',
          'friday',
          'saturday',
          'sunday',
          'start_date',
          'end_date',
        ],
        ['WK', 1, 1, 1, 1, 1, 1, 1, '20260401', '20260410'],
        ['WE', 0, 0, 0, 0, 0, 0, 0, '20260401', '20260410'],
        ['NEVER', 0, 0, 0, 0, 0, 0, 0, '20260401', '20260410'],
      ]),
      'calendar_dates.txt': csv([['service_id', 'date', 'exception_type']]),
      'transfers.txt': csv([['from_stop_id', 'to_stop_id', 'transfer_type']]),
    });
    const t = await readGtfs([write('bkk.zip', tinyFeed()), write('volan.zip', volan)]);
    expect(t.stopCount).toBe(10);
    expect(t.tripCount).toBe(8);
    expect(t.serviceCount).toBe(6);
    expect(t.feeds.map((f) => [f.file, f.agencies, f.validFrom, f.validUntil])).toEqual([
      ['bkk.zip', ['BKK'], '2026-03-02', '2026-03-31'],
      ['volan.zip', ['Volan'], '2026-04-01', '2026-04-10'],
    ]);
    expect([t.firstDay, t.dayCount]).toEqual(['2026-03-02', 40]);
    // Volan's T1 runs its own stops, on its own service.
    const volanFirst = connections(t).find((c) => c.from === 'Szeged A');
    expect(volanFirst).toEqual({ from: 'Szeged A', to: 'Szeged C', departure: 28800, arrival: 28920 });
    expect(runs(t, 3, '2026-03-10')).toBe(0);
    expect(runs(t, 3, '2026-04-04')).toBe(1);
    expect(runs(t, 0, '2026-04-06')).toBe(0);
    expect(walksFrom(t, 'Szeged A')).toEqual({});
  });

  it('refuses feeds whose time zones disagree, naming the second one and its line', async () => {
    const error = await readGtfs([
      write('bkk.zip', tinyFeed()),
      write('wien.zip', tinyFeed({ 'agency.txt': agency('Europe/Vienna') })),
    ]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GtfsFormatError);
    expect((error as Error).message).toBe(
      "wien.zip: agency.txt line 2: agency_timezone 'Europe/Vienna' differs from Europe/Budapest (bkk.zip): feeds imported together must share one time zone",
    );
  });

  it('refuses a time zone that is none', async () => {
    expect((await refusal(tinyFeed({ 'agency.txt': agency('Mars/Olympus') }))).message).toBe(
      "bad.zip: agency.txt line 2: agency_timezone 'Mars/Olympus' is not an IANA time zone",
    );
  });
});

describe('readGtfs: refusals', () => {
  it('refuses a file that is not a zip', async () => {
    const path = join(dir, 'junk.zip');
    writeFileSync(path, Buffer.from(Array.from({ length: 2000 }, (_, i) => (i * 7919) % 251)));
    const error = await readGtfs([path]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GtfsFormatError);
    expect((error as Error).message).toMatch(/^junk\.zip: not a zip file \(.+\): not a GTFS feed$/);
  });

  it('refuses a zip without stops.txt, and one without any calendar', async () => {
    const { 'stops.txt': _, ...noStops } = tinyFeed();
    const error = await refusal(noStops);
    expect(error.message).toBe('bad.zip: stops.txt is missing: not a GTFS feed');
    expect([error.feed, error.file, error.line]).toEqual(['bad.zip', 'stops.txt', null]);
    const { 'calendar.txt': _c, 'calendar_dates.txt': _d, ...noCalendar } = tinyFeed();
    expect((await refusal(noCalendar)).message).toBe(
      'bad.zip: calendar.txt or calendar_dates.txt is missing: not a GTFS feed',
    );
  });

  it('refuses a missing column, on the header line', async () => {
    const error = await refusal(tinyFeed({ 'stops.txt': csv([['stop_id', 'stop_name', 'stop_lat']]) }));
    expect(error.message).toBe(
      'bad.zip: stops.txt line 1: the column stop_lon is missing (the header names stop_id, stop_name, stop_lat)',
    );
  });

  const stopTimes = (...rows: (string | number)[][]) => ({
    'stop_times.txt': csv([['trip_id', 'arrival_time', 'departure_time', 'stop_id', 'stop_sequence'], ...rows]),
  });

  it('refuses a stop time of a trip trips.txt does not have', async () => {
    const error = await refusal(
      tinyFeed(stopTimes(['T1', '08:00:00', '08:00:00', 'A', 1], ['T9', '08:00:00', '08:00:00', 'A', 1])),
    );
    expect(error.message).toBe("bad.zip: stop_times.txt line 3: trip_id 'T9' is not in trips.txt");
    expect([error.file, error.line]).toEqual(['stop_times.txt', 3]);
  });

  it('refuses a stop it does not know, and a station as a stop', async () => {
    expect((await refusal(tinyFeed(stopTimes(['T1', '08:00:00', '08:00:00', 'Z', 1])))).message).toBe(
      "bad.zip: stop_times.txt line 2: stop_id 'Z' is not in stops.txt",
    );
    expect((await refusal(tinyFeed(stopTimes(['T1', '08:00:00', '08:00:00', 'ST', 1])))).message).toMatch(
      /^bad\.zip: stop_times\.txt line 2: stop_id 'ST' is a station/,
    );
  });

  it('refuses a time that is none, with its line', async () => {
    const error = await refusal(
      tinyFeed(stopTimes(['T1', '08:00:00', '08:00:00', 'A', 1], ['T1', '25:99:00', '25:99:00', 'C', 2])),
    );
    expect(error.message).toBe("bad.zip: stop_times.txt line 3: arrival_time '25:99:00' is not a time (H:MM:SS)");
    for (const time of ['8:00', '08:00:60', '123:00:00', 'ab:cd:ef']) {
      const e = await refusal(tinyFeed(stopTimes(['T1', time, time, 'A', 1])));
      expect(e.message).toBe(`bad.zip: stop_times.txt line 2: arrival_time '${time}' is not a time (H:MM:SS)`);
    }
    expect((await refusal(tinyFeed(stopTimes(['T1', '48:00:00', '48:00:00', 'A', 1])))).line).toBe(2);
  });

  it('refuses times that go back along a trip, and a departure before its arrival', async () => {
    const back = await refusal(
      tinyFeed(
        stopTimes(
          ['T1', '08:10:00', '08:10:00', 'C', 2],
          ['T1', '08:05:00', '08:05:00', 'D', 3],
          ['T1', '08:00:00', '08:00:00', 'A', 1],
        ),
      ),
    );
    expect(back.message).toBe(
      'bad.zip: stop_times.txt line 3: arrival_time 08:05:00 is before the departure 08:10:00 from stop_sequence 2: times must not decrease along a trip',
    );
    const waits = await refusal(tinyFeed(stopTimes(['T1', '08:10:00', '08:09:00', 'C', 1])));
    expect(waits.message).toBe(
      'bad.zip: stop_times.txt line 2: departure_time 08:09:00 is before arrival_time 08:10:00',
    );
  });

  it('reads a BOM, CRLF, blank lines and quoted line breaks, and still names the line at fault', async () => {
    // CRLF between rows, a lone LF inside the quoted field (csv-parse counts a quoted CRLF as two lines).
    const text = [
      '\uFEFFtrip_id,arrival_time,departure_time,stop_id,stop_sequence,stop_headsign',
      'T1,08:00:00,08:00:00,A,1,"two\nlines"',
      '',
      'T1,08:10:00,08:10:00,C,2,',
      'T1,08:05:00,08:05:00,D,3,',
    ].join('\r\n');
    const error = await refusal(tinyFeed({ 'stop_times.txt': text }));
    expect(error.message).toMatch(/^bad\.zip: stop_times\.txt line 6: arrival_time 08:05:00 is before/);
    const unclosed = await refusal(
      tinyFeed({
        'stop_times.txt': 'trip_id,arrival_time,departure_time,stop_id,stop_sequence\nT1,"08:00:00,08:00:00,A,1\n',
      }),
    );
    expect(unclosed.message).toMatch(/^bad\.zip: stop_times\.txt line 2: not valid CSV: Quote Not Closed/);
  });

  it('refuses an empty file, and feeds that together cover more than 800 days', async () => {
    expect((await refusal(tinyFeed({ 'routes.txt': '' }))).message).toBe(
      'bad.zip: routes.txt line 1: the file is empty: a header must name its columns',
    );
    const later = tinyFeed({
      'calendar.txt': csv([
        [
          'service_id',
          'monday',
          'tuesday',
          'wednesday',
          'thursday',
          'friday',
          'saturday',
          'sunday',
          'start_date',
          'end_date',
        ],
        ['WK', 1, 1, 1, 1, 1, 0, 0, '20280601', '20280630'],
        ['WE', 0, 0, 0, 0, 0, 1, 1, '20280601', '20280630'],
        ['NEVER', 0, 0, 0, 0, 0, 0, 0, '20280601', '20280630'],
      ]),
      'calendar_dates.txt': csv([['service_id', 'date', 'exception_type']]),
    });
    const error = await readGtfs([write('bkk.zip', tinyFeed()), write('later.zip', later)]).catch((e: unknown) => e);
    expect((error as Error).message).toBe(
      'later.zip: the feeds together cover 2026-03-02 to 2028-06-30: more than the 800 days a timetable holds',
    );
  });

  it('refuses a trip whose first or last stop has no time', async () => {
    const error = await refusal(tinyFeed(stopTimes(['T1', '08:00:00', '08:00:00', 'A', 1], ['T1', '', '', 'C', 2])));
    expect(error.message).toBe("bad.zip: stop_times.txt line 3: the last stop of trip 'T1' has no time");
  });

  it('refuses a stop without a latitude, and an unknown route', async () => {
    const stops = csv([
      ['stop_id', 'stop_name', 'stop_lat', 'stop_lon'],
      ['A', 'Alfa', '', 19],
    ]);
    expect((await refusal(tinyFeed({ 'stops.txt': stops }))).message).toBe(
      "bad.zip: stops.txt line 2: stop_lat '' is not a latitude (-90 to 90)",
    );
    const trips = csv([
      ['route_id', 'service_id', 'trip_id'],
      ['R9', 'WK', 'T1'],
    ]);
    expect((await refusal(tinyFeed({ 'trips.txt': trips }))).message).toBe(
      "bad.zip: trips.txt line 2: route_id 'R9' is not in routes.txt",
    );
  });

  it('refuses a feed over the size limit before inflating it', async () => {
    const error = await refusal(tinyFeed(), { maxUncompressedBytes: 1000 });
    expect(error.message).toMatch(
      /^bad\.zip: \w+\.txt \(.+ uncompressed\) takes the import past its limit of 1000 bytes$/,
    );
  });

  it('refuses a zip whose directory lies about the sizes (a zip bomb)', async () => {
    const zip = gtfsZip(tinyFeed());
    // Every entry of the central directory says 1 byte.
    const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
    for (let at = 0; at + 46 <= zip.length; at++) {
      if (view.getUint32(at, true) === 0x02014b50) view.setUint32(at + 24, 1, true);
    }
    const path = join(dir, 'bomb.zip');
    writeFileSync(path, zip);
    const error = await readGtfs([path], { maxUncompressedBytes: 1000 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GtfsFormatError);
    expect((error as Error).message).toBe('bomb.zip: agency.txt inflates past the 1 bytes the zip declares for it');
  });

  it('refuses a feed covering more than 800 days', async () => {
    const calendar = csv([
      [
        'service_id',
        'monday',
        'tuesday',
        'wednesday',
        'thursday',
        'friday',
        'saturday',
        'sunday',
        'start_date',
        'end_date',
      ],
      ['WK', 1, 1, 1, 1, 1, 0, 0, '20260101', '20261231'],
      ['WE', 0, 0, 0, 0, 0, 1, 1, '20260101', '20281231'],
    ]);
    expect((await refusal(tinyFeed({ 'calendar.txt': calendar }))).message).toBe(
      'bad.zip: calendar.txt line 3: the feed now covers 2026-01-01 to 2028-12-31: more than the 800 days a timetable holds',
    );
  });
});
