import { endianness } from 'node:os';
import type { Timetable } from './timetable.ts';

/**
 * A compiled timetable as bytes, stored by an import and read back by every instance (ADR 0029):
 * MAGIC, the format's version, a JSON header (feeds, names, counts) and then the typed arrays'
 * bytes, each starting at a multiple of 8 so that decoding views them where they lie instead of
 * copying a country's ~250 MB. Little-endian, like every machine we run on.
 */

const MAGIC = 'CSOMAGTT';
/** Raised when the layout changes: a blob of another format is refused, and the feeds imported again. */
export const TIMETABLE_FORMAT = 1;
const PREFIX_BYTES = 16;

/** The bytes are no timetable this server reads: another format, damaged, or something else entirely. */
export class TimetableCodecError extends Error {
  override readonly name = 'TimetableCodecError';
}

const KINDS = {
  f64: Float64Array,
  i32: Int32Array,
  u32: Uint32Array,
  u16: Uint16Array,
  u8: Uint8Array,
} as const;
type Kind = keyof typeof KINDS;

/** The Timetable's typed arrays and their element types, in the order they are stored. */
const ARRAYS = {
  stopLat: 'f64',
  stopLng: 'f64',
  dayBase: 'f64',
  routeTypes: 'u16',
  tripRoute: 'u32',
  tripService: 'u32',
  connectionFrom: 'u32',
  connectionTo: 'u32',
  connectionDeparture: 'i32',
  connectionArrival: 'i32',
  connectionTrip: 'u32',
  byArrival: 'u32',
  footStart: 'u32',
  footTo: 'u32',
  footSeconds: 'i32',
  serviceDays: 'u8',
} as const satisfies { [K in keyof Timetable]?: Kind };
type ArrayName = keyof typeof ARRAYS;
type Arrays = { [K in ArrayName]: InstanceType<(typeof KINDS)[(typeof ARRAYS)[K]]> };
// Each stored array is of the Timetable's own type (a compile-time check).
const sameTypes: (arrays: Arrays) => Pick<Timetable, ArrayName> = (arrays) => arrays;

/** What the JSON header holds: the Timetable without its typed arrays, plus where they lie. */
interface Header {
  feeds: Timetable['feeds'];
  timeZone: string;
  stopCount: number;
  stopNames: string[];
  routeNames: string[];
  tripCount: number;
  /** The distinct headsigns; the trips' indexes into them are the 'tripHeadsign' array. */
  headsigns: string[];
  firstDay: string;
  dayCount: number;
  serviceCount: number;
  connectionCount: number;
  /** null for Infinity (JSON has none). */
  fastestKmh: number | null;
  /** Offsets from the end of the header, padded to 8. */
  arrays: { name: string; kind: Kind; offset: number; length: number }[];
}

const align8 = (n: number) => Math.ceil(n / 8) * 8;

function checkEndianness() {
  if (endianness() !== 'LE') throw new TimetableCodecError('a stored timetable is little-endian; this machine is not');
}

export function encodeTimetable(t: Timetable): Buffer {
  checkEndianness();
  const headsigns: string[] = [];
  const headsignIndex = new Map<string, number>();
  const tripHeadsign = new Uint32Array(t.tripCount);
  t.tripHeadsigns.forEach((headsign, trip) => {
    let index = headsignIndex.get(headsign);
    if (index === undefined) {
      index = headsigns.push(headsign) - 1;
      headsignIndex.set(headsign, index);
    }
    tripHeadsign[trip] = index;
  });

  const stored: { name: string; kind: Kind; values: ArrayBufferView }[] = [
    ...(Object.keys(ARRAYS) as ArrayName[]).map((name) => ({ name, kind: ARRAYS[name], values: t[name] })),
    { name: 'tripHeadsign', kind: 'u32', values: tripHeadsign },
  ];
  let offset = 0;
  const arrays = stored.map(({ name, kind, values }) => {
    const entry = { name, kind, offset, length: values.byteLength / KINDS[kind].BYTES_PER_ELEMENT };
    offset = align8(offset + values.byteLength);
    return entry;
  });
  const header: Header = {
    feeds: t.feeds,
    timeZone: t.timeZone,
    stopCount: t.stopCount,
    stopNames: t.stopNames,
    routeNames: t.routeNames,
    tripCount: t.tripCount,
    headsigns,
    firstDay: t.firstDay,
    dayCount: t.dayCount,
    serviceCount: t.serviceCount,
    connectionCount: t.connectionCount,
    fastestKmh: Number.isFinite(t.fastestKmh) ? t.fastestKmh : null,
    arrays,
  };
  const json = Buffer.from(JSON.stringify(header), 'utf8');
  const dataStart = align8(PREFIX_BYTES + json.byteLength);
  // Zeroed, so the padding is too: the same timetable encodes to the same bytes.
  const out = Buffer.alloc(dataStart + offset);
  out.write(MAGIC, 0, 'latin1');
  out.writeUInt32LE(TIMETABLE_FORMAT, 8);
  out.writeUInt32LE(json.byteLength, 12);
  json.copy(out, PREFIX_BYTES);
  stored.forEach(({ values }, i) => {
    out.set(new Uint8Array(values.buffer, values.byteOffset, values.byteLength), dataStart + (arrays[i]?.offset ?? 0));
  });
  return out;
}

export function decodeTimetable(bytes: Buffer | Uint8Array): Timetable {
  checkEndianness();
  const text = (from: number, to: number) => Buffer.from(bytes.buffer, bytes.byteOffset + from, to - from);
  if (bytes.byteLength < PREFIX_BYTES || text(0, 8).toString('latin1') !== MAGIC) {
    throw new TimetableCodecError('not a compiled timetable');
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const format = view.getUint32(8, true);
  if (format !== TIMETABLE_FORMAT) {
    throw new TimetableCodecError(
      `the stored timetable is of format ${format}, this server reads format ${TIMETABLE_FORMAT}: import the feeds again`,
    );
  }
  const headerEnd = PREFIX_BYTES + view.getUint32(12, true);
  if (headerEnd > bytes.byteLength) throw new TimetableCodecError('the stored timetable is cut short');
  const header = JSON.parse(text(PREFIX_BYTES, headerEnd).toString('utf8')) as Header;
  const dataStart = align8(headerEnd);

  const arrays = new Map<string, ArrayBufferView>();
  for (const { name, kind, offset, length } of header.arrays) {
    const Kind = KINDS[kind];
    const start = dataStart + offset;
    const byteLength = length * Kind.BYTES_PER_ELEMENT;
    if (start + byteLength > bytes.byteLength) throw new TimetableCodecError('the stored timetable is cut short');
    if ((bytes.byteOffset + start) % Kind.BYTES_PER_ELEMENT === 0) {
      arrays.set(name, new Kind(bytes.buffer as ArrayBuffer, bytes.byteOffset + start, length));
    } else {
      // Bytes that do not start at a multiple of 8 (a small Buffer from Node's pool): copied into place.
      const copy = new Kind(length);
      new Uint8Array(copy.buffer).set(bytes.subarray(start, start + byteLength));
      arrays.set(name, copy);
    }
  }
  const array = <K extends ArrayName | 'tripHeadsign'>(name: K, length: number) => {
    const values = arrays.get(name);
    const kind = name === 'tripHeadsign' ? 'u32' : ARRAYS[name as ArrayName];
    if (!(values instanceof KINDS[kind]) || values.length !== length) {
      throw new TimetableCodecError(`the stored timetable is damaged: ${name} is not ${length} long`);
    }
    return values as K extends ArrayName ? Arrays[K] : Uint32Array;
  };

  const footStart = array('footStart', header.stopCount + 1);
  const walks = footStart[header.stopCount] ?? 0;
  const tripHeadsign = array('tripHeadsign', header.tripCount);
  const typed = sameTypes({
    stopLat: array('stopLat', header.stopCount),
    stopLng: array('stopLng', header.stopCount),
    dayBase: array('dayBase', header.dayCount),
    routeTypes: array('routeTypes', header.routeNames.length),
    tripRoute: array('tripRoute', header.tripCount),
    tripService: array('tripService', header.tripCount),
    connectionFrom: array('connectionFrom', header.connectionCount),
    connectionTo: array('connectionTo', header.connectionCount),
    connectionDeparture: array('connectionDeparture', header.connectionCount),
    connectionArrival: array('connectionArrival', header.connectionCount),
    connectionTrip: array('connectionTrip', header.connectionCount),
    byArrival: array('byArrival', header.connectionCount),
    footStart,
    footTo: array('footTo', walks),
    footSeconds: array('footSeconds', walks),
    serviceDays: array('serviceDays', header.serviceCount * header.dayCount),
  });
  return {
    feeds: header.feeds,
    timeZone: header.timeZone,
    stopCount: header.stopCount,
    stopNames: header.stopNames,
    routeNames: header.routeNames,
    tripCount: header.tripCount,
    tripHeadsigns: Array.from(tripHeadsign, (index) => header.headsigns[index] ?? ''),
    firstDay: header.firstDay,
    dayCount: header.dayCount,
    serviceCount: header.serviceCount,
    connectionCount: header.connectionCount,
    fastestKmh: header.fastestKmh ?? Number.POSITIVE_INFINITY,
    ...typed,
  };
}
