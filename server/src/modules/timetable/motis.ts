import { distanceMetres, EARTH_RADIUS_M } from '@csomag/domain/geo';
import type { Coordinates } from '@csomag/domain/parcel';
import { type LatLngBox, straightLineModel } from '@csomag/domain/trips';
import { z } from 'zod';
import { bump, trim } from '../../lru.ts';
import { ACCESS_WALK_MAX_M, type Journey, type Leg, SEARCH_HORIZON_MS, type StopAt } from './timetable.ts';
import { boxesMeet, type TravelTimes, type TripReach, type TripTimes } from './travel-times.ts';

/**
 * Public-transport times from an operator's MOTIS 2 journey planner (issue 26 item 4, ADR 0029):
 * the trip's journey and arrivals between two points from `GET /api/v1/plan`, reach from two
 * `GET /api/v1/one-to-all` searches. Walking and cycling, and every question MOTIS fails to answer
 * in time, go to the fallback.
 *
 * Written against MOTIS v2.11.2 (motis-project/motis ed0360fd09e12688683b5737462d913b3dc14c8f):
 * openapi.yaml, src/endpoints/one_to_all.cc, src/journey_to_response.cc. The v1 paths are served by
 * every MOTIS 2 since 2.0.38 and still by the newest (it keeps each older version's path); in v1 a
 * leg's routeShortName is the display name ('M3', 'S70') and METRO means suburban rail.
 */

export interface MotisOptions {
  /** The MOTIS server ('http://motis:8080'); userinfo becomes a Basic header, a query (an API key) is kept. */
  url: string;
  /** Per request, body included. */
  timeoutMs?: number;
  /** Answers walking, cycling and whatever MOTIS fails to answer. */
  fallback: TravelTimes;
  /** MOTIS's `onetoall_max_travel_minutes` (90 unless its operator raised it): a longer reach is the fallback's. */
  oneToAllMaxMinutes?: number;
  fetch?: typeof fetch;
  log?: { warn(obj: object, msg: string): void; info?(obj: object, msg: string): void };
  /** The clock of MOTIS_RETRY_MS and MOTIS_REFRESH_MS; tests set it. */
  now?: () => number;
}

const MINUTE = 60_000;
const METRES_PER_DEGREE = (EARTH_RADIUS_M * Math.PI) / 180;
/** Arrivals one trip keeps (a cached trip lives long and is asked about every parcel). */
const ARRIVALS_KEPT = 1_000;
const PLAN = '/api/v1/plan';
const ONE_TO_ALL = '/api/v1/one-to-all';

// MOTIS counts whole minutes (it truncates `time`): a departure is asked at the next whole minute and
// an arrival deadline at the previous one, so no answer relies on a vehicle the runner cannot catch.
const ceilMinute = (ms: number) => Math.ceil(ms / MINUTE) * MINUTE;
const floorMinute = (ms: number) => Math.floor(ms / MINUTE) * MINUTE;
const isoTime = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
const place = (point: Coordinates) => `${point.lat},${point.lng}`;
/** Walking as domain's straight-line model says (as the timetable's walks do): to and from stops, and all the way. */
const walkMs = (a: Coordinates, b: Coordinates) => straightLineModel.minutes(a, b, 'walk') * MINUTE;

const instant = z.iso.datetime({ offset: true }).transform((text) => Date.parse(text));
const placeSchema = z.object({
  name: z.string(),
  lat: z.number().min(-90).max(90),
  lon: z.number().min(-180).max(180),
  arrival: instant.nullish(),
  departure: instant.nullish(),
});
const legSchema = z.object({
  mode: z.string(),
  from: placeSchema,
  to: placeSchema,
  startTime: instant,
  endTime: instant,
  headsign: z.string().nullish(),
  routeShortName: z.string().nullish(),
  displayName: z.string().nullish(),
  routeLongName: z.string().nullish(),
  routeType: z.number().int().nonnegative().nullish(),
  intermediateStops: z.array(placeSchema).nullish(),
});
const itinerarySchema = z.object({ startTime: instant, endTime: instant, legs: z.array(legSchema) });
const planSchema = z.object({
  itineraries: z.array(itinerarySchema),
  /** Walking all the way (directModes defaults to WALK, up to maxDirectTime: 30 minutes). */
  direct: z.array(itinerarySchema).nullish(),
});
/** `duration` is in whole minutes, positive both ways; the place's arrival (forward) or departure (arriveBy) says the same. */
const oneToAllSchema = z.object({ all: z.array(z.object({ place: placeSchema, duration: z.number() })) });

type MotisPlace = z.infer<typeof placeSchema>;
type MotisLeg = z.infer<typeof legSchema>;
type Itinerary = z.infer<typeof itinerarySchema>;

/** A request that failed: unreachable, too slow, an HTTP error or a body not shaped like MOTIS's. */
class MotisFailure extends Error {
  constructor(
    message: string,
    /** Unreachable or too slow: the next requests would wait as long, so they are not sent for a while. */
    readonly down = false,
  ) {
    super(message);
  }
}

/** Street modes; the others are vehicles. Only WALK is asked for, the rest would be walk legs too. */
const STREET_MODES = new Set(['WALK', 'BIKE', 'RENTAL', 'CAR', 'CAR_PARKING', 'CAR_DROPOFF', 'HGV']);

/** A leg's GTFS route_type from its MOTIS mode, roughly, when MOTIS does not pass the feed's own on. */
function routeTypeOf(mode: string): number {
  switch (mode) {
    case 'TRAM':
      return 0;
    case 'SUBWAY':
      return 1;
    case 'RAIL':
    case 'HIGHSPEED_RAIL':
    case 'LONG_DISTANCE':
    case 'NIGHT_RAIL':
    case 'REGIONAL_FAST_RAIL':
    case 'REGIONAL_RAIL':
    case 'SUBURBAN':
    case 'METRO': // v1–v4's name for suburban rail
      return 2;
    case 'FERRY':
      return 4;
    case 'AERIAL_LIFT':
    case 'AREAL_LIFT':
    case 'CABLE_CAR':
      return 6;
    case 'FUNICULAR':
      return 7;
    default:
      return 3;
  }
}

const positionOf = (p: MotisPlace): Coordinates => ({ lat: p.lat, lng: p.lon });
const stopAt = (p: MotisPlace, at: number): StopAt => ({ name: p.name, position: positionOf(p), at });

function toLeg(leg: MotisLeg): Leg {
  if (STREET_MODES.has(leg.mode)) {
    return {
      kind: 'walk',
      from: positionOf(leg.from),
      to: positionOf(leg.to),
      departAt: leg.startTime,
      arriveAt: leg.endTime,
    };
  }
  const from = stopAt(leg.from, leg.startTime);
  const to = stopAt(leg.to, leg.endTime);
  // MOTIS gives both times of a stop passed; one without either says nothing a journey shows.
  const between = (leg.intermediateStops ?? []).flatMap((p) => {
    const at = p.arrival ?? p.departure;
    return at == null ? [] : [stopAt(p, at)];
  });
  return {
    kind: 'ride',
    route: leg.routeShortName || leg.displayName || leg.routeLongName || '',
    routeType: leg.routeType ?? routeTypeOf(leg.mode),
    headsign: leg.headsign ?? '',
    from,
    to,
    stops: [from, ...between, to],
  };
}

const toJourney = (itinerary: Itinerary): Journey => ({
  departAt: itinerary.startTime,
  arriveAt: itinerary.endTime,
  legs: itinerary.legs.map(toLeg),
});

/** The earliest arrival among the transit itineraries and the direct walk; on a tie the later departure. */
function earliest(plan: z.infer<typeof planSchema>): Itinerary | null {
  let best: Itinerary | null = null;
  for (const itinerary of [...plan.itineraries, ...(plan.direct ?? [])]) {
    if (
      !best ||
      itinerary.endTime < best.endTime ||
      (itinerary.endTime === best.endTime && itinerary.startTime > best.startTime)
    ) {
      best = itinerary;
    }
  }
  return best;
}

/** While MOTIS is down, one request in this long is sent to see whether it is back; the rest fall back at once. */
export const MOTIS_RETRY_MS = 60_000;
/** Answers kept this long at most: MOTIS takes in real-time updates and new feeds as it runs. */
export const MOTIS_REFRESH_MS = 15 * 60_000;

/**
 * The GETs, each within the timeout (body included). A server unreachable or too slow is left alone
 * for MOTIS_RETRY_MS but for one request: a matching asks many questions, and each would otherwise
 * wait out the timeout. The endpoint as logged has neither userinfo nor query.
 */
function motisClient(options: MotisOptions) {
  const base = new URL(options.url);
  const headers: Record<string, string> = { accept: 'application/json' };
  // fetch refuses a URL with credentials: they travel as a header instead.
  if (base.username || base.password) {
    const credentials = `${decodeURIComponent(base.username)}:${decodeURIComponent(base.password)}`;
    headers.authorization = `Basic ${Buffer.from(credentials).toString('base64')}`;
    base.username = '';
    base.password = '';
  }
  const prefix = base.pathname.replace(/\/+$/, '');
  const timeoutMs = options.timeoutMs ?? 3000;
  const now = options.now ?? Date.now;
  let down = false;
  let retryAt = 0;
  // Bumped when MOTIS answers again: what was answered without it is asked anew.
  let generation = 0;

  async function request<T extends z.ZodType>(url: URL, schema: T): Promise<z.output<T>> {
    const endpoint = `${url.origin}${url.pathname}`;
    try {
      const response = await (options.fetch ?? fetch)(url, { headers, signal: AbortSignal.timeout(timeoutMs) });
      if (!response.ok) {
        await response.body?.cancel();
        throw new MotisFailure(`answered HTTP ${response.status}`);
      }
      const parsed = schema.safeParse(await response.json());
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        throw new MotisFailure(`malformed body at ${issue?.path.join('.') || '(root)'}: ${issue?.message ?? ''}`);
      }
      return parsed.data;
    } catch (error) {
      if (error instanceof MotisFailure) throw new MotisFailure(`${endpoint} ${error.message}`);
      if (error instanceof SyntaxError) throw new MotisFailure(`${endpoint} malformed body: not JSON`);
      if (error instanceof Error && error.name === 'TimeoutError') {
        throw new MotisFailure(`${endpoint} gave no answer within ${timeoutMs} ms`, true);
      }
      const cause = error instanceof Error && error.cause instanceof Error ? ` (${error.cause.message})` : '';
      throw new MotisFailure(`${endpoint} unreachable: ${error instanceof Error ? error.message : ''}${cause}`, true);
    }
  }

  return {
    version: () =>
      down
        ? `motis:${generation}:retry:${Math.floor(now() / MOTIS_RETRY_MS)}`
        : `motis:${generation}:${Math.floor(now() / MOTIS_REFRESH_MS)}`,

    /** GETs `path` and checks the body; throws MotisFailure (logged, unless not sent while MOTIS is down). */
    async get<T extends z.ZodType>(path: string, params: Record<string, string>, schema: T): Promise<z.output<T>> {
      if (down && now() < retryAt) throw new MotisFailure('not asked: MOTIS is down', true);
      // This one sees whether it is back; the others meanwhile do not wait for it.
      if (down) retryAt = now() + MOTIS_RETRY_MS;
      const url = new URL(base);
      url.pathname = prefix + path;
      for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
      try {
        const data = await request(url, schema);
        if (down) {
          down = false;
          generation++;
          options.log?.info?.({ endpoint: `${url.origin}${url.pathname}` }, 'MOTIS answers again');
        }
        return data;
      } catch (error) {
        const failure = error instanceof MotisFailure ? error : new MotisFailure(String(error));
        if (failure.down) {
          down = true;
          retryAt = now() + MOTIS_RETRY_MS;
        }
        options.log?.warn({ reason: failure.message }, 'MOTIS failed: the fallback answers');
        throw failure;
      }
    },
  };
}

type MotisClient = ReturnType<typeof motisClient>;

/** Stops a one-to-all search reached, sorted by latitude for the scan around a point, with their times (ms). */
interface Reached {
  lat: Float64Array;
  lng: Float64Array;
  time: Float64Array;
}

function reachedFrom(entries: { lat: number; lng: number; time: number }[]): Reached {
  entries.sort((a, b) => a.lat - b.lat);
  return {
    lat: Float64Array.from(entries, (entry) => entry.lat),
    lng: Float64Array.from(entries, (entry) => entry.lng),
    time: Float64Array.from(entries, (entry) => entry.time),
  };
}

const NOTHING_REACHED = reachedFrom([]);

/** A great-circle distance is at least its latitude difference: the band to scan, a hair wider. */
const ACCESS_BAND_DEGREES = (ACCESS_WALK_MAX_M / METRES_PER_DEGREE) * 1.001;

/** Calls `visit` with each reached stop within ACCESS_WALK_MAX_M of `point`. */
function forEachNear(reached: Reached, point: Coordinates, visit: (index: number, stop: Coordinates) => void) {
  const { lat, lng } = reached;
  let low = 0;
  let high = lat.length;
  const from = point.lat - ACCESS_BAND_DEGREES;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((lat[middle] ?? 0) < from) low = middle + 1;
    else high = middle;
  }
  for (let i = low; i < lat.length && (lat[i] ?? 0) <= point.lat + ACCESS_BAND_DEGREES; i++) {
    const stop = { lat: lat[i] ?? 0, lng: lng[i] ?? 0 };
    if (distanceMetres(stop, point) <= ACCESS_WALK_MAX_M) visit(i, stop);
  }
}

/** `box` grown by `metres` all round (as domain's ellipseBox bounds a reach); a box past ±180° takes every longitude. */
function grow(box: LatLngBox, metres: number): LatLngBox {
  const dLat = (metres / METRES_PER_DEGREE) * 1.02;
  const nearestPole = Math.min(90, Math.max(Math.abs(box.minLat), Math.abs(box.maxLat)) + dLat);
  const dLng = nearestPole >= 89 ? 180 : dLat / Math.cos((nearestPole * Math.PI) / 180);
  const minLng = box.minLng - dLng;
  const maxLng = box.maxLng + dLng;
  const wraps = minLng < -180 || maxLng > 180;
  return {
    minLat: box.minLat - dLat,
    maxLat: box.maxLat + dLat,
    minLng: wraps ? -180 : minLng,
    maxLng: wraps ? 180 : maxLng,
  };
}

/** Where a stop's walk reaches: the stops' box grown by ACCESS_WALK_MAX_M. */
const grown = (box: LatLngBox | null) => (box ? grow(box, ACCESS_WALK_MAX_M) : null);

const pointBox = ({ lat, lng }: Coordinates): LatLngBox => ({ minLat: lat, maxLat: lat, minLng: lng, maxLng: lng });

function hull(a: LatLngBox, b: LatLngBox | null): LatLngBox {
  if (!b) return a;
  return {
    minLat: Math.min(a.minLat, b.minLat),
    maxLat: Math.max(a.maxLat, b.maxLat),
    minLng: Math.min(a.minLng, b.minLng),
    maxLng: Math.max(a.maxLng, b.maxLng),
  };
}

function reachedBox(reached: Reached): LatLngBox | null {
  const count = reached.lat.length;
  if (count === 0) return null;
  let minLng = Number.POSITIVE_INFINITY;
  let maxLng = Number.NEGATIVE_INFINITY;
  for (const lng of reached.lng) {
    minLng = Math.min(minLng, lng);
    maxLng = Math.max(maxLng, lng);
  }
  return { minLat: reached.lat[0] ?? 0, maxLat: reached.lat[count - 1] ?? 0, minLng, maxLng };
}

const UNREACHABLE: TripReach = {
  reached: null,
  leaving: null,
  box: null,
  arrivals: (points) => new Float64Array(points.length).fill(Number.POSITIVE_INFINITY),
  departures: (points) => new Float64Array(points.length).fill(Number.NEGATIVE_INFINITY),
};

/** MOTIS behind the travel-time port; see the top of this file. */
export function motisTravelTimes(options: MotisOptions): TravelTimes {
  const client = motisClient(options);
  return {
    // Another trip's answers once MOTIS is back, and every MOTIS_REFRESH_MS (see above); the fallback's own version
    // too, as it answers walking, cycling and failures.
    version: () => `${client.version()}|${options.fallback.version()}`,
    async forTrip(from, to, mode, at, fallback) {
      if (mode !== 'transit') return options.fallback.forTrip(from, to, mode, at, fallback);
      return motisTrip(client, options, from, to, at);
    },
  };
}

async function motisTrip(
  client: MotisClient,
  options: MotisOptions,
  from: Coordinates,
  to: Coordinates,
  at: number,
): Promise<TripTimes> {
  let fallbackTimes: Promise<TripTimes> | undefined;
  const fallbackTrip = () => (fallbackTimes ??= options.fallback.forTrip(from, to, 'transit', at, 'external_failed'));

  /** The earliest arrival (ms, Infinity when none) at `b` leaving `a` at `start`, by MOTIS. */
  const plan = async (a: Coordinates, b: Coordinates, start: number) =>
    earliest(
      await client.get(
        PLAN,
        {
          fromPlace: place(a),
          toPlace: place(b),
          time: isoTime(ceilMinute(start)),
          arriveBy: 'false',
          // Transfers without their street geometry: only times are read.
          detailedTransfers: 'false',
        },
        planSchema,
      ),
    );

  let best: Itinerary | null;
  try {
    best = await plan(from, to, at);
  } catch {
    return fallbackTrip();
  }

  // Identical questions within the trip (a matching asks the same pair for many parcels) ask once; null when failed.
  const arrivals = new Map<string, Promise<number | null>>();
  const arrivalKey = (a: Coordinates, b: Coordinates, start: number) => `${place(a)}>${place(b)}@${ceilMinute(start)}`;
  arrivals.set(arrivalKey(from, to, at), Promise.resolve(best ? best.endTime : Number.POSITIVE_INFINITY));

  const maxMinutes = options.oneToAllMaxMinutes ?? 90;
  const oneToAll = async (one: Coordinates, time: number, minutes: number, arriveBy: boolean) => {
    const body = await client.get(
      ONE_TO_ALL,
      { one: place(one), time: isoTime(time), maxTravelTime: String(minutes), arriveBy: String(arriveBy) },
      oneToAllSchema,
    );
    return reachedFrom(
      body.all.map(({ place: p, duration }) => ({
        lat: p.lat,
        lng: p.lon,
        time: (arriveBy ? p.departure : p.arrival) ?? time + (arriveBy ? -1 : 1) * Math.abs(duration) * MINUTE,
      })),
    );
  };

  async function reachBy(deadline: number): Promise<TripReach> {
    if (deadline < at) return UNREACHABLE;
    const start = ceilMinute(at);
    const end = floorMinute(deadline);
    const minutes = Math.round((end - start) / MINUTE);
    if (minutes > maxMinutes) return (await fallbackTrip()).reach(deadline);
    let forward = NOTHING_REACHED;
    let backward = NOTHING_REACHED;
    if (minutes > 0) {
      try {
        [forward, backward] = await Promise.all([
          oneToAll(from, start, minutes, false),
          oneToAll(to, end, minutes, true),
        ]);
      } catch {
        return (await fallbackTrip()).reach(deadline);
      }
    }
    // A point fits only if reached (walking from the start, or within a walk of a stop reached) and
    // left in time (walking to the end, or within a walk of a stop left): in both sides' boxes.
    const walkedMetres = straightLineModel.reachMetres((deadline - at) / MINUTE, 'walk');
    const reachedSide = hull(grow(pointBox(from), walkedMetres), grown(reachedBox(forward)));
    const leavingSide = hull(grow(pointBox(to), walkedMetres), grown(reachedBox(backward)));
    return {
      reached: reachedSide,
      leaving: leavingSide,
      box: boxesMeet(reachedSide, leavingSide),
      arrivals: (points) =>
        Float64Array.from(points, (point) => {
          let arrives = at + walkMs(from, point);
          forEachNear(forward, point, (i, stop) => {
            arrives = Math.min(arrives, (forward.time[i] ?? Number.POSITIVE_INFINITY) + walkMs(stop, point));
          });
          return arrives <= deadline ? arrives : Number.POSITIVE_INFINITY;
        }),
      departures: (points) =>
        Float64Array.from(points, (point) => {
          let leaves = deadline - walkMs(point, to);
          forEachNear(backward, point, (i, stop) => {
            leaves = Math.max(leaves, (backward.time[i] ?? Number.NEGATIVE_INFINITY) - walkMs(point, stop));
          });
          return leaves >= at ? leaves : Number.NEGATIVE_INFINITY;
        }),
    };
  }

  const reaches = new Map<number, Promise<TripReach>>();
  return {
    source: 'external',
    journey: best && best.endTime <= at + SEARCH_HORIZON_MS ? toJourney(best) : null,
    fastestKmh: Number.POSITIVE_INFINITY,
    reach(deadline) {
      let reach = reaches.get(deadline);
      if (!reach) {
        reach = reachBy(deadline);
        reaches.set(deadline, reach);
      }
      return reach;
    },
    async arrival(a, b, start, by) {
      const key = arrivalKey(a, b, start);
      const earliestArrival =
        arrivals.get(key) ??
        plan(a, b, start).then(
          (found) => (found ? found.endTime : Number.POSITIVE_INFINITY),
          () => null,
        );
      bump(arrivals, key, earliestArrival);
      trim(arrivals, ARRIVALS_KEPT);
      const motis = await earliestArrival;
      if (motis === null) return (await fallbackTrip()).arrival(a, b, start, by);
      // Walking all the way counts at any length, as in reach.
      const arrives = Math.min(motis, start + walkMs(a, b));
      return arrives <= by ? arrives : Number.POSITIVE_INFINITY;
    },
    // The engine's speeds are not known here.
    leastMs: () => 0,
  };
}
