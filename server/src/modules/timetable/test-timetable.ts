import { distanceMetres } from '@csomag/domain/geo';
import { straightLineModel } from '@csomag/domain/trips';
import { addDays, serviceDayBase } from './service-days.ts';
import { NearStops, StopGrid } from './stop-grid.ts';
import { type Timetable, TRANSFER_WALK_MAX_M } from './timetable.ts';

/**
 * For tests only: a valid Timetable from a small readable description, as the GTFS compiler
 * would make it (connections sorted, byArrival, symmetric footpaths, service days, day bases
 * across clock changes). Times are 'HH:MM:SS' from the service day's base; hours may pass 24.
 */

export interface TripSpec {
  /** A key of `routes`. */
  route: string;
  headsign?: string;
  /** The days (0 = firstDay) the trip runs; every day when absent. */
  days?: readonly number[];
  /** In order: [stop key, arrival] or [stop key, arrival, departure]. */
  stopTimes: readonly (readonly [string, string] | readonly [string, string, string])[];
}

export interface TimetableSpec {
  timeZone?: string;
  /** 'YYYY-MM-DD' */
  firstDay: string;
  dayCount: number;
  /** By key; the name defaults to the key. */
  stops: Readonly<Record<string, { name?: string; lat: number; lng: number }>>;
  routes: Readonly<Record<string, { name?: string; type?: number }>>;
  trips: readonly TripSpec[];
  /** Made symmetric. */
  footpaths?: readonly { from: string; to: string; seconds: number }[];
  /** Also link every two stops within TRANSFER_WALK_MAX_M by a walk, as the compiler does. */
  nearbyFootpaths?: boolean;
}

/** 'HH:MM:SS' (hours may pass 24) in seconds. */
export function seconds(time: string): number {
  const match = /^(\d+):([0-5]\d):([0-5]\d)$/.exec(time);
  if (!match) throw new Error(`not a time: ${time}`);
  return Number(match[1]) * 3600 + Number(match[2]) * 60 + Number(match[3]);
}

export function buildTimetable(spec: TimetableSpec): Timetable {
  const timeZone = spec.timeZone ?? 'Europe/Budapest';
  const { firstDay, dayCount } = spec;
  const stopKeys = Object.keys(spec.stops);
  const stopIndex = new Map(stopKeys.map((key, index) => [key, index]));
  const stopOf = (key: string) => {
    const index = stopIndex.get(key);
    if (index === undefined) throw new Error(`unknown stop ${key}`);
    return index;
  };
  const stopLat = Float64Array.from(stopKeys, (key) => spec.stops[key]?.lat ?? 0);
  const stopLng = Float64Array.from(stopKeys, (key) => spec.stops[key]?.lng ?? 0);
  const routeKeys = Object.keys(spec.routes);
  const routeIndex = new Map(routeKeys.map((key, index) => [key, index]));

  const services = new Map<string, number>();
  const serviceRows: (readonly number[])[] = [];
  const tripService = new Uint32Array(spec.trips.length);
  const tripRoute = new Uint32Array(spec.trips.length);
  spec.trips.forEach((trip, index) => {
    const days = trip.days ?? Array.from({ length: dayCount }, (_, day) => day);
    const key = days.join(',');
    if (!services.has(key)) {
      services.set(key, serviceRows.length);
      serviceRows.push(days);
    }
    tripService[index] = services.get(key) ?? 0;
    const route = routeIndex.get(trip.route);
    if (route === undefined) throw new Error(`unknown route ${trip.route}`);
    tripRoute[index] = route;
  });
  const serviceDays = new Uint8Array(serviceRows.length * dayCount);
  serviceRows.forEach((days, service) => {
    for (const day of days) serviceDays[service * dayCount + day] = 1;
  });

  const from: number[] = [];
  const to: number[] = [];
  const departure: number[] = [];
  const arrival: number[] = [];
  const tripOf: number[] = [];
  const position = (key: string | undefined) => {
    const stop = spec.stops[key ?? ''];
    return { lat: stop?.lat ?? 0, lng: stop?.lng ?? 0 };
  };
  // Consecutive stops suffice: between any two of a trip's stops it is no faster than its fastest hop.
  let fastestKmh = 0;
  spec.trips.forEach((trip, index) => {
    for (let i = 0; i + 1 < trip.stopTimes.length; i++) {
      const [a, , leaves = trip.stopTimes[i]?.[1] ?? ''] = trip.stopTimes[i] ?? [];
      const [b, arrives = ''] = trip.stopTimes[i + 1] ?? [];
      from.push(stopOf(a ?? ''));
      to.push(stopOf(b ?? ''));
      departure.push(seconds(leaves));
      arrival.push(seconds(arrives));
      tripOf.push(index);
      const km = distanceMetres(position(a), position(b)) / 1000;
      const hours = (seconds(arrives) - seconds(leaves)) / 3600;
      fastestKmh = Math.max(fastestKmh, hours > 0 ? km / hours : km > 0 ? Number.POSITIVE_INFINITY : 0);
    }
  });
  const order = Array.from(from, (_, index) => index).sort(
    (a, b) =>
      (departure[a] ?? 0) - (departure[b] ?? 0) ||
      (arrival[a] ?? 0) - (arrival[b] ?? 0) ||
      (tripOf[a] ?? 0) - (tripOf[b] ?? 0) ||
      a - b,
  );
  const pick = (values: number[]) => order.map((index) => values[index] ?? 0);
  const connectionDeparture = Int32Array.from(pick(departure));
  const connectionArrival = Int32Array.from(pick(arrival));
  const byArrival = Uint32Array.from(
    Array.from(order, (_, index) => index).sort(
      (a, b) =>
        (connectionArrival[a] ?? 0) - (connectionArrival[b] ?? 0) ||
        (connectionDeparture[a] ?? 0) - (connectionDeparture[b] ?? 0) ||
        a - b,
    ),
  );

  const foot = new Map<number, Map<number, number>>();
  const link = (a: number, b: number, walk: number) => {
    if (a === b) return;
    for (const [x, y] of [
      [a, b],
      [b, a],
    ] as const) {
      const row = foot.get(x) ?? new Map<number, number>();
      foot.set(x, row);
      row.set(y, Math.min(row.get(y) ?? walk, walk));
    }
  };
  for (const path of spec.footpaths ?? []) link(stopOf(path.from), stopOf(path.to), path.seconds);
  if (spec.nearbyFootpaths) {
    const grid = new StopGrid(stopLat, stopLng);
    const near = new NearStops();
    grid.positions.forEach((point, stop) => {
      const count = grid.within(point, TRANSFER_WALK_MAX_M, near);
      for (let i = 0; i < count; i++) {
        const other = near.stops[i] ?? 0;
        const target = grid.positions[other];
        if (other > stop && target) link(stop, other, Math.ceil(straightLineModel.minutes(point, target, 'walk') * 60));
      }
    });
  }
  const footStart = new Uint32Array(stopKeys.length + 1);
  const footTo: number[] = [];
  const footSeconds: number[] = [];
  for (let stop = 0; stop < stopKeys.length; stop++) {
    for (const [next, walk] of [...(foot.get(stop) ?? [])].sort((a, b) => a[0] - b[0])) {
      footTo.push(next);
      footSeconds.push(walk);
    }
    footStart[stop + 1] = footTo.length;
  }

  const lastDay = addDays(firstDay, dayCount - 1);
  return {
    feeds: [
      {
        file: 'test.zip',
        agencies: ['Test'],
        validFrom: firstDay,
        validUntil: lastDay,
        counts: {
          stops: stopKeys.length,
          routes: routeKeys.length,
          trips: spec.trips.length,
          stopTimes: spec.trips.reduce((sum, trip) => sum + trip.stopTimes.length, 0),
          transfers: spec.footpaths?.length ?? 0,
        },
      },
    ],
    timeZone,
    stopCount: stopKeys.length,
    stopLat,
    stopLng,
    stopNames: stopKeys.map((key) => spec.stops[key]?.name ?? key),
    routeNames: routeKeys.map((key) => spec.routes[key]?.name ?? key),
    routeTypes: Uint16Array.from(routeKeys, (key) => spec.routes[key]?.type ?? 3),
    tripCount: spec.trips.length,
    tripRoute,
    tripService,
    tripHeadsigns: spec.trips.map((trip) => trip.headsign ?? ''),
    firstDay,
    dayCount,
    dayBase: Float64Array.from({ length: dayCount }, (_, day) => serviceDayBase(addDays(firstDay, day), timeZone)),
    serviceCount: serviceRows.length,
    serviceDays,
    connectionCount: order.length,
    connectionFrom: Uint32Array.from(pick(from)),
    connectionTo: Uint32Array.from(pick(to)),
    connectionDeparture,
    connectionArrival,
    connectionTrip: Uint32Array.from(pick(tripOf)),
    byArrival,
    footStart,
    footTo: Uint32Array.from(footTo),
    footSeconds: Int32Array.from(footSeconds),
    fastestKmh,
  };
}
