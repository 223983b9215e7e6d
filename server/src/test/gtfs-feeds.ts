import { csv } from '../modules/timetable/gtfs/write-gtfs.ts';

/**
 * Small GTFS feeds the tests write (issue 26): a piece of Budapest's M3 for the API tests, a tram in
 * Szeged for the end-to-end walk (nowhere near the other walks' trips). Times are as a timetable
 * prints them; the tests work out arrivals from the same numbers by hand.
 */

export interface FeedStop {
  id: string;
  name: string;
  lat: number;
  lng: number;
}

/** 'YYYYMMDD' from 'YYYY-MM-DD'. */
const gtfsDate = (day: string) => day.replaceAll('-', '');

const clock = (seconds: number) => {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  return `${h}:${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}`;
};

/** A line's trips: one every `headwayMinutes` from `firstMinute` to `lastMinute` (minutes after the service day's start, past 24 h allowed). */
export interface LineSpec {
  routeId: string;
  routeName: string;
  /** GTFS route_type. */
  routeType: number;
  headsign: string;
  serviceId: string;
  /** The stops in order and the minutes from the first to each. */
  stops: { stop: string; minute: number }[];
  firstMinute: number;
  lastMinute: number;
  headwayMinutes: number;
}

/** The files of one feed, ready for gtfsZip / writeGtfsZip. */
export function feedFiles(options: {
  agency: string;
  stops: readonly FeedStop[];
  lines: readonly LineSpec[];
  /** service id → weekday flags Monday..Sunday and the dates it runs between ('YYYY-MM-DD'). */
  services: Record<string, { days: readonly (0 | 1)[]; start: string; end: string }>;
  /** Exceptions: a service removed (2) or added (1) on a date. */
  exceptions?: { serviceId: string; day: string; type: 1 | 2 }[];
  transfers?: { from: string; to: string; seconds: number }[];
}): Record<string, string> {
  const trips: (string | number)[][] = [['route_id', 'service_id', 'trip_id', 'trip_headsign']];
  const stopTimes: (string | number)[][] = [['trip_id', 'arrival_time', 'departure_time', 'stop_id', 'stop_sequence']];
  for (const line of options.lines) {
    for (let start = line.firstMinute; start <= line.lastMinute; start += line.headwayMinutes) {
      const tripId = `${line.routeId}-${line.serviceId}-${start}`;
      trips.push([line.routeId, line.serviceId, tripId, line.headsign]);
      line.stops.forEach(({ stop, minute }, index) => {
        const at = clock((start + minute) * 60);
        stopTimes.push([tripId, at, at, stop, index + 1]);
      });
    }
  }
  const files: Record<string, string> = {
    'agency.txt': csv([
      ['agency_id', 'agency_name', 'agency_url', 'agency_timezone'],
      ['A', options.agency, 'https://example.hu', 'Europe/Budapest'],
    ]),
    'stops.txt': csv([
      ['stop_id', 'stop_name', 'stop_lat', 'stop_lon'],
      ...options.stops.map((stop) => [stop.id, stop.name, stop.lat, stop.lng]),
    ]),
    'routes.txt': csv([
      ['route_id', 'agency_id', 'route_short_name', 'route_long_name', 'route_type'],
      ...options.lines.map((line) => [line.routeId, 'A', line.routeName, '', line.routeType]),
    ]),
    'trips.txt': csv(trips),
    'stop_times.txt': csv(stopTimes),
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
      ...Object.entries(options.services).map(([id, service]) => [
        id,
        ...service.days,
        gtfsDate(service.start),
        gtfsDate(service.end),
      ]),
    ]),
  };
  if (options.exceptions?.length) {
    files['calendar_dates.txt'] = csv([
      ['service_id', 'date', 'exception_type'],
      ...options.exceptions.map((e) => [e.serviceId, gtfsDate(e.day), e.type]),
    ]);
  }
  if (options.transfers?.length) {
    files['transfers.txt'] = csv([
      ['from_stop_id', 'to_stop_id', 'transfer_type', 'min_transfer_time'],
      ...options.transfers.map((t) => [t.from, t.to, 2, t.seconds]),
    ]);
  }
  return files;
}

/** Budapest's M3 from Újpest-központ to Deák Ferenc tér (a piece of it), southbound. */
export const m3Stops = {
  ujpest: { id: 'ujpest', name: 'Újpest-központ', lat: 47.56072, lng: 19.09049 },
  gyongyosi: { id: 'gyongyosi', name: 'Gyöngyösi utca', lat: 47.5428, lng: 19.0707 },
  lehel: { id: 'lehel', name: 'Lehel tér', lat: 47.51898, lng: 19.06286 },
  nyugati: { id: 'nyugati', name: 'Nyugati pályaudvar', lat: 47.51071, lng: 19.05663 },
  deak: { id: 'deak', name: 'Deák Ferenc tér', lat: 47.49767, lng: 19.05416 },
} satisfies Record<string, FeedStop>;

/** Minutes from Újpest-központ along the M3 southbound. */
export const m3Minutes = { ujpest: 0, gyongyosi: 3, lehel: 7, nyugati: 9, deak: 13 } as const;

/**
 * Southbound M3 every 5 minutes from 5:02 to 23:42 every day between `start` and `end`
 * ('YYYY-MM-DD'), not on `holiday` when given.
 */
export function m3Feed(options: { start: string; end: string; holiday?: string }) {
  return feedFiles({
    agency: 'BKK',
    stops: Object.values(m3Stops),
    lines: [
      {
        routeId: 'M3',
        routeName: 'M3',
        routeType: 1,
        headsign: 'Kőbánya-Kispest',
        serviceId: 'WK',
        stops: Object.entries(m3Minutes).map(([stop, minute]) => ({ stop, minute })),
        firstMinute: 5 * 60 + 2,
        lastMinute: 23 * 60 + 42,
        headwayMinutes: 5,
      },
    ],
    services: { WK: { days: [1, 1, 1, 1, 1, 1, 1], start: options.start, end: options.end } },
    exceptions: options.holiday ? [{ serviceId: 'WK', day: options.holiday, type: 2 }] : [],
  });
}

/** Szeged's tram 1 from Indóház tér to Széchenyi tér (a piece of it), round the clock, every 5 minutes. */
export const szegedStops = {
  station: { id: 'indohaz', name: 'Indóház tér', lat: 46.2389, lng: 20.1416 },
  aradi: { id: 'aradi', name: 'Aradi vértanúk tere', lat: 46.2474, lng: 20.1452 },
  szechenyi: { id: 'szechenyi', name: 'Széchenyi tér', lat: 46.2536, lng: 20.1486 },
} satisfies Record<string, FeedStop>;

/** Tram 1 northbound every 5 minutes all day and night (0:01 … 23:56 and on), every day between `start` and `end`. */
export function szegedFeed(options: { start: string; end: string }) {
  return feedFiles({
    agency: 'SZKT',
    stops: Object.values(szegedStops),
    lines: [
      {
        routeId: 'T1',
        routeName: '1',
        routeType: 0,
        headsign: 'Szeged, Széchenyi tér',
        serviceId: 'ALL',
        stops: [
          { stop: 'indohaz', minute: 0 },
          { stop: 'aradi', minute: 4 },
          { stop: 'szechenyi', minute: 8 },
        ],
        firstMinute: 1,
        lastMinute: 24 * 60 + 1,
        headwayMinutes: 5,
      },
    ],
    services: { ALL: { days: [1, 1, 1, 1, 1, 1, 1], start: options.start, end: options.end } },
  });
}
