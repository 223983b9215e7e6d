import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeTimetable, encodeTimetable, TIMETABLE_FORMAT, TimetableCodecError } from './codec.ts';
import { readGtfs } from './gtfs/read-gtfs.ts';
import { csv, writeGtfsZip } from './gtfs/write-gtfs.ts';
import type { Timetable } from './timetable.ts';

const dir = mkdtempSync(join(tmpdir(), 'codec-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const calendarHeader = ['service_id', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];

/** A feed with a bit of everything: two headsigns shared by three trips, a walk, a night trip. */
async function compiled(): Promise<Timetable> {
  const path = join(dir, 'szeged.zip');
  writeGtfsZip(path, {
    'agency.txt': csv([
      ['agency_name', 'agency_timezone'],
      ['SZKT', 'Europe/Budapest'],
    ]),
    'stops.txt': csv([
      ['stop_id', 'stop_name', 'stop_lat', 'stop_lon'],
      ['1', 'Sz\u00e9chenyi t\u00e9r', 46.2546, 20.1486],
      ['2', 'Dugonics t\u00e9r', 46.2503, 20.1484],
      ['3', 'Dugonics t\u00e9r, "B"', 46.2505, 20.1489],
    ]),
    'routes.txt': csv([
      ['route_id', 'route_short_name', 'route_type'],
      ['3', '3', 0],
    ]),
    'calendar.txt': csv([
      [...calendarHeader, 'start_date', 'end_date'],
      ['D', 1, 1, 1, 1, 1, 1, 1, '20260601', '20260630'],
    ]),
    'trips.txt': csv([
      ['route_id', 'service_id', 'trip_id', 'trip_headsign'],
      ['3', 'D', 'a', 'Tarj\u00e1n'],
      ['3', 'D', 'b', 'Tarj\u00e1n'],
      ['3', 'D', 'c', 'Vadaspark'],
    ]),
    'stop_times.txt': csv([
      ['trip_id', 'arrival_time', 'departure_time', 'stop_id', 'stop_sequence'],
      ['a', '08:00:00', '08:00:00', '1', 1],
      ['a', '08:03:00', '08:03:00', '2', 2],
      ['b', '24:30:00', '24:30:00', '1', 1],
      ['b', '24:33:00', '24:33:00', '2', 2],
      ['c', '09:00:00', '09:00:00', '2', 1],
      ['c', '09:00:00', '09:00:00', '1', 2],
    ]),
  });
  return readGtfs([path]);
}

describe('the timetable codec', () => {
  let timetable: Timetable;
  beforeAll(async () => {
    timetable = await compiled();
  });

  it('decodes what it encodes, Infinity and shared headsigns included', () => {
    expect(timetable.fastestKmh).toBe(Number.POSITIVE_INFINITY);
    expect(timetable.footTo.length).toBe(2);
    const decoded = decodeTimetable(encodeTimetable(timetable));
    expect(decoded).toEqual(timetable);
    expect(decoded.fastestKmh).toBe(Number.POSITIVE_INFINITY);
  });

  it('keeps a finite fastest speed', () => {
    const decoded = decodeTimetable(encodeTimetable({ ...timetable, fastestKmh: 61.25 }));
    expect(decoded.fastestKmh).toBe(61.25);
  });

  it('views the arrays in the bytes it is given, and copies them when they do not start at a multiple of 8', () => {
    const bytes = encodeTimetable(timetable);
    const inPlace = decodeTimetable(bytes);
    expect(inPlace.stopLat.buffer).toBe(bytes.buffer);
    expect(inPlace.connectionDeparture.buffer).toBe(bytes.buffer);

    const shifted = new Uint8Array(new ArrayBuffer(bytes.length + 1), 1);
    shifted.set(bytes);
    const copied = decodeTimetable(shifted);
    expect(copied.stopLat.buffer).not.toBe(shifted.buffer);
    expect(copied).toEqual(timetable);
  });

  it('encodes the same timetable to the same bytes', () => {
    expect(encodeTimetable(timetable).equals(encodeTimetable(decodeTimetable(encodeTimetable(timetable))))).toBe(true);
  });

  it('refuses bytes of another format, clearly', () => {
    const bytes = encodeTimetable(timetable);
    bytes.writeUInt32LE(TIMETABLE_FORMAT + 1, 8);
    expect(() => decodeTimetable(bytes)).toThrow(
      `the stored timetable is of format ${TIMETABLE_FORMAT + 1}, this server reads format ${TIMETABLE_FORMAT}: import the feeds again`,
    );
  });

  it('refuses what is no timetable, and one cut short', () => {
    expect(() => decodeTimetable(Buffer.from('PK\u0003\u0004 not a timetable at all'))).toThrow(TimetableCodecError);
    expect(() => decodeTimetable(Buffer.alloc(4))).toThrow('not a compiled timetable');
    const bytes = encodeTimetable(timetable);
    expect(() => decodeTimetable(bytes.subarray(0, bytes.length - 8))).toThrow('the stored timetable is cut short');
  });
});
