import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { distanceMetres } from '@csomag/domain/geo';
import type { Coordinates } from '@csomag/domain/parcel';
import { straightLineModel } from '@csomag/domain/trips';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MOTIS_RETRY_MS, type MotisOptions, motisTravelTimes } from './motis.ts';
import type { Leg } from './timetable.ts';
import { straightLineTimes, straightLineTravelTimes, type TravelTimes } from './travel-times.ts';

/** What the fake MOTIS does with one request: answer JSON, answer raw text, or never answer. */
type Answer = { status?: number; json?: unknown; text?: string } | 'hang';

interface SeenRequest {
  path: string;
  params: URLSearchParams;
  headers: IncomingHttpHeaders;
}

/** A stand-in for a MOTIS 2 server on 127.0.0.1: the tests never reach the internet. */
interface FakeMotis {
  url: string;
  requests: SeenRequest[];
  answer: (request: SeenRequest) => Answer;
  close(): Promise<void>;
}

async function startFakeMotis(): Promise<FakeMotis> {
  const fake: FakeMotis = { url: '', requests: [], answer: () => ({ status: 404 }), close: async () => {} };
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const seen = { path: url.pathname, params: url.searchParams, headers: request.headers };
    fake.requests.push(seen);
    const answer = fake.answer(seen);
    if (answer === 'hang') return; // the adapter must give up by its timeout
    response.writeHead(answer.status ?? 200, { 'content-type': 'application/json' });
    response.end(answer.text ?? (answer.json === undefined ? '' : JSON.stringify(answer.json)));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fake.close = async () => {
    server.closeAllConnections();
    server.close();
    await once(server, 'close');
  };
  return fake;
}

let fake: FakeMotis;
beforeAll(async () => {
  fake = await startFakeMotis();
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.requests.length = 0;
  fake.answer = () => ({ status: 404 });
});

const warnings: { obj: object; msg: string }[] = [];
const log = { warn: (obj: object, msg: string) => warnings.push({ obj, msg }) };
beforeEach(() => {
  warnings.length = 0;
});

const motis = (options: Partial<MotisOptions> = {}) =>
  motisTravelTimes({ url: fake.url, fallback: straightLineTravelTimes, log, ...options });

const time = (hhmmss: string) => Date.parse(`2026-03-02T${hhmmss}Z`);
const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');
const walkMs = (a: Coordinates, b: Coordinates) => straightLineModel.minutes(a, b, 'walk') * 60_000;
const requestsTo = (path: string) => fake.requests.filter((request) => request.path === path);

// Bodies shaped like MOTIS 2's v1 answers (openapi.yaml at v2.11.2), with the fields the adapter ignores too.

function motisPlace(name: string, lat: number, lon: number, times: { arrival?: number; departure?: number } = {}) {
  return {
    name,
    stopId: `bkk_${name.replaceAll(' ', '-')}`,
    lat,
    lon,
    level: 0,
    vertexType: name === 'START' || name === 'END' ? 'NORMAL' : 'TRANSIT',
    ...(times.arrival === undefined ? {} : { arrival: iso(times.arrival), scheduledArrival: iso(times.arrival) }),
    ...(times.departure === undefined
      ? {}
      : { departure: iso(times.departure), scheduledDeparture: iso(times.departure) }),
  };
}
type MotisPlace = ReturnType<typeof motisPlace>;

function walkLeg(from: MotisPlace, to: MotisPlace, start: number, end: number) {
  return {
    mode: 'WALK',
    from,
    to,
    duration: (end - start) / 1000,
    startTime: iso(start),
    endTime: iso(end),
    scheduledStartTime: iso(start),
    scheduledEndTime: iso(end),
    realTime: false,
    scheduled: true,
    distance: 210.4,
    legGeometry: { points: '', precision: 7, length: 0 },
  };
}

function rideLeg(ride: {
  mode: string;
  route: string;
  routeType?: number;
  headsign: string;
  from: MotisPlace;
  to: MotisPlace;
  between: MotisPlace[];
  start: number;
  end: number;
}) {
  return {
    mode: ride.mode,
    from: ride.from,
    to: ride.to,
    duration: (ride.end - ride.start) / 1000,
    startTime: iso(ride.start),
    endTime: iso(ride.end),
    scheduledStartTime: iso(ride.start),
    scheduledEndTime: iso(ride.end),
    realTime: false,
    scheduled: true,
    interlineWithPreviousLeg: false,
    headsign: ride.headsign,
    routeColor: '009EE3',
    routeTextColor: 'FFFFFF',
    ...(ride.routeType === undefined ? {} : { routeType: ride.routeType }),
    agencyName: 'BKK',
    agencyUrl: 'https://bkk.hu',
    agencyId: 'BKK',
    tripId: `20260302_${ride.route}_1`,
    routeShortName: ride.route,
    routeLongName: '',
    tripShortName: '',
    source: 'bkk.zip/stop_times.txt:1234',
    intermediateStops: ride.between,
    legGeometry: { points: '', precision: 7, length: 0 },
  };
}

function itinerary(legs: { startTime: string; endTime: string }[], transfers = 0) {
  const start = legs[0]?.startTime ?? '';
  const end = legs.at(-1)?.endTime ?? '';
  return {
    duration: (Date.parse(end) - Date.parse(start)) / 1000,
    startTime: start,
    endTime: end,
    transfers,
    legs,
  };
}

function planBody(from: Coordinates, to: Coordinates, itineraries: unknown[], direct: unknown[] = []) {
  return {
    requestParameters: {},
    debugOutput: { execute_time: 12 },
    from: motisPlace('START', from.lat, from.lng),
    to: motisPlace('END', to.lat, to.lng),
    direct,
    itineraries,
    previousPageCursor: 'EARLIER|1772434800',
    nextPageCursor: 'LATER|1772436600',
  };
}

/** A trip across central Budapest: bus 16 to Deak ter, then the M1 to Oktogon. */
const clarkAdam = { lat: 47.498, lng: 19.0399 };
const oktogon = { lat: 47.5053, lng: 19.0634 };

function budapestPlan() {
  const start = motisPlace('START', clarkAdam.lat, clarkAdam.lng);
  const end = motisPlace('END', oktogon.lat, oktogon.lng);
  const busStop = motisPlace('Clark Adam ter', 47.4982, 19.0404, { departure: time('07:04:00') });
  const deakBus = motisPlace('Deak Ferenc ter M', 47.4977, 19.0545, { arrival: time('07:10:00') });
  const deakMetro = motisPlace('Deak Ferenc ter M', 47.4979, 19.0549, { departure: time('07:14:00') });
  const oktogonMetro = motisPlace('Oktogon M', 47.5054, 19.063, { arrival: time('07:19:00') });
  const fastest = itinerary(
    [
      walkLeg(start, busStop, time('07:01:00'), time('07:04:00')),
      rideLeg({
        mode: 'BUS',
        route: '16',
        routeType: 3,
        headsign: 'Deak Ferenc ter M',
        from: busStop,
        to: deakBus,
        between: [
          motisPlace('Szechenyi Istvan ter', 47.4989, 19.0463, {
            arrival: time('07:06:00'),
            departure: time('07:06:00'),
          }),
        ],
        start: time('07:04:00'),
        end: time('07:10:00'),
      }),
      walkLeg(deakBus, deakMetro, time('07:10:00'), time('07:12:00')),
      rideLeg({
        mode: 'SUBWAY',
        route: 'M1',
        headsign: 'Mexikoi ut',
        from: deakMetro,
        to: oktogonMetro,
        between: [
          motisPlace('Bajcsy-Zsilinszky ut', 47.5003, 19.0547, {
            arrival: time('07:15:00'),
            departure: time('07:15:30'),
          }),
          motisPlace('Opera', 47.5027, 19.0587, { arrival: time('07:17:00'), departure: time('07:17:00') }),
        ],
        start: time('07:14:00'),
        end: time('07:19:00'),
      }),
      walkLeg(oktogonMetro, end, time('07:19:00'), time('07:21:00')),
    ],
    1,
  );
  // Listed first but arriving later, as MOTIS lists by departure: the adapter picks by arrival.
  const later = itinerary([walkLeg(start, end, time('07:00:00'), time('07:30:00'))]);
  const walking = itinerary([walkLeg(start, end, time('07:00:00'), time('07:29:00'))]);
  return planBody(clarkAdam, oktogon, [later, fastest], [walking]);
}

describe('the journey', () => {
  it('maps the earliest itinerary into walk and ride legs with their stops and times', async () => {
    fake.answer = (request) => (request.path === '/api/v1/plan' ? { json: budapestPlan() } : { status: 404 });
    const times = await motis().forTrip(clarkAdam, oktogon, 'transit', time('07:00:00'));

    expect(times.source).toBe('external');
    expect(times.fallback).toBeUndefined();
    expect(times.fastestKmh).toBe(Number.POSITIVE_INFINITY);
    const [request] = fake.requests;
    expect(fake.requests).toHaveLength(1);
    expect(request?.path).toBe('/api/v1/plan');
    expect(request?.params.get('fromPlace')).toBe('47.498,19.0399');
    expect(request?.params.get('toPlace')).toBe('47.5053,19.0634');
    expect(request?.params.get('time')).toBe('2026-03-02T07:00:00Z');
    expect(request?.params.get('arriveBy')).toBe('false');

    const journey = times.journey;
    expect(journey?.departAt).toBe(time('07:01:00'));
    expect(journey?.arriveAt).toBe(time('07:21:00'));
    expect(journey?.legs.map((leg) => leg.kind)).toEqual(['walk', 'ride', 'walk', 'ride', 'walk']);
    expect(journey?.legs[0]).toEqual({
      kind: 'walk',
      from: clarkAdam,
      to: { lat: 47.4982, lng: 19.0404 },
      departAt: time('07:01:00'),
      arriveAt: time('07:04:00'),
    });
    expect(journey?.legs[1]).toEqual({
      kind: 'ride',
      route: '16',
      routeType: 3,
      headsign: 'Deak Ferenc ter M',
      from: { name: 'Clark Adam ter', position: { lat: 47.4982, lng: 19.0404 }, at: time('07:04:00') },
      to: { name: 'Deak Ferenc ter M', position: { lat: 47.4977, lng: 19.0545 }, at: time('07:10:00') },
      stops: [
        { name: 'Clark Adam ter', position: { lat: 47.4982, lng: 19.0404 }, at: time('07:04:00') },
        { name: 'Szechenyi Istvan ter', position: { lat: 47.4989, lng: 19.0463 }, at: time('07:06:00') },
        { name: 'Deak Ferenc ter M', position: { lat: 47.4977, lng: 19.0545 }, at: time('07:10:00') },
      ],
    });
    const metro = journey?.legs[3] as Extract<Leg, { kind: 'ride' }>;
    // No route_type passed on: SUBWAY is GTFS's 1; a stop passed is shown at its arrival.
    expect(metro.route).toBe('M1');
    expect(metro.routeType).toBe(1);
    expect(metro.headsign).toBe('Mexikoi ut');
    expect(metro.stops.map((stop) => [stop.name, iso(stop.at)])).toEqual([
      ['Deak Ferenc ter M', '2026-03-02T07:14:00Z'],
      ['Bajcsy-Zsilinszky ut', '2026-03-02T07:15:00Z'],
      ['Opera', '2026-03-02T07:17:00Z'],
      ['Oktogon M', '2026-03-02T07:19:00Z'],
    ]);
  });

  it("gives GTFS route types by v1's modes when the feed's own is not passed on", async () => {
    const from = motisPlace('START', clarkAdam.lat, clarkAdam.lng);
    const to = motisPlace('END', oktogon.lat, oktogon.lng);
    const ride = (mode: string, route: string, start: string, end: string) =>
      rideLeg({ mode, route, headsign: 'x', from, to, between: [], start: time(start), end: time(end) });
    const legs = [
      ride('TRAM', '4', '07:02:00', '07:05:00'),
      ride('METRO', 'H5', '07:06:00', '07:09:00'), // v1's name for suburban rail (HEV)
      ride('FERRY', 'D11', '07:10:00', '07:15:00'),
      ride('COACH', '1015', '07:16:00', '07:20:00'),
      ride('FUNICULAR', 'Siklo', '07:21:00', '07:23:00'),
    ];
    fake.answer = () => ({ json: planBody(clarkAdam, oktogon, [itinerary(legs, 4)]) });
    const times = await motis().forTrip(clarkAdam, oktogon, 'transit', time('07:00:00'));
    const types = times.journey?.legs.map((leg) => (leg.kind === 'ride' ? [leg.route, leg.routeType] : null));
    expect(types).toEqual([
      ['4', 0],
      ['H5', 2],
      ['D11', 4],
      ['1015', 3],
      ['Siklo', 7],
    ]);
  });

  it('has no journey when MOTIS finds none', async () => {
    fake.answer = () => ({ json: planBody(clarkAdam, oktogon, []) });
    const times = await motis().forTrip(clarkAdam, oktogon, 'transit', time('07:00:00'));
    expect(times.source).toBe('external');
    expect(times.journey).toBeNull();
  });
});

/**
 * Reach along a meridian (19.00° E) north of Budapest's centre, so distances are plain: 0.001° of
 * latitude is 111.2 m, and the walking model takes 1000 m in 16.25 minutes (× 1.3 at 4.8 km/h).
 */
describe('reach', () => {
  const start = { lat: 47.5, lng: 19 };
  const end = { lat: 47.6, lng: 19 };
  const A = { lat: 47.55, lng: 19 };
  const B = { lat: 47.6, lng: 19.01 };
  const C = { lat: 48, lng: 19 };
  const D = { lat: 47.59, lng: 19 };
  const at = time('07:00:00');
  const deadline = time('08:00:00');

  const reached = (stop: Coordinates, name: string, minutes: number, arriveBy: boolean) => ({
    place: motisPlace(
      name,
      stop.lat,
      stop.lng,
      arriveBy ? { departure: deadline - minutes * 60_000 } : { arrival: at + minutes * 60_000 },
    ),
    duration: minutes,
    k: 1,
  });
  const forward = {
    one: motisPlace('START', start.lat, start.lng, { departure: at }),
    all: [reached(A, 'A', 20, false), reached(B, 'B', 40, false), reached(C, 'C', 59, false)],
  };
  const backward = {
    one: motisPlace('END', end.lat, end.lng, { arrival: deadline }),
    // Forward's A left at 07:35 still reaches the end by 08:00; D at 07:50.
    all: [reached(A, 'A', 25, true), reached(D, 'D', 10, true)],
  };
  const answerReach = (request: SeenRequest): Answer => {
    if (request.path === '/api/v1/plan') return { json: planBody(start, end, []) };
    if (request.path === '/api/v1/one-to-all') {
      return { json: request.params.get('arriveBy') === 'true' ? backward : forward };
    }
    return { status: 404 };
  };

  const p1 = { lat: 47.5045, lng: 19 }; // 500 m north of the start, 5.5 km from any stop
  const p2 = { lat: 47.555, lng: 19 }; // 556 m north of A
  const p3 = { lat: 47.595, lng: 19 }; // 556 m from the end and from D, 934 m from B
  const p4 = { lat: 46, lng: 19 }; // far south
  const p5 = { lat: 47.551, lng: 19 }; // 111 m north of A: reached and left in time

  it('asks one-to-all forward from the start and backward to the end, and answers arrivals and departures', async () => {
    fake.answer = answerReach;
    const times = await motis().forTrip(start, end, 'transit', at);
    const reach = await times.reach(deadline);

    const oneToAll = requestsTo('/api/v1/one-to-all').map((request) => Object.fromEntries(request.params));
    expect(oneToAll).toEqual(
      expect.arrayContaining([
        { one: '47.5,19', time: '2026-03-02T07:00:00Z', maxTravelTime: '60', arriveBy: 'false' },
        { one: '47.6,19', time: '2026-03-02T08:00:00Z', maxTravelTime: '60', arriveBy: 'true' },
      ]),
    );
    expect(oneToAll).toHaveLength(2);

    // By hand: 556 m on foot is 556 × 1.3 / 4.8 km/h = 9.03 minutes.
    expect(walkMs(A, p2) / 60_000).toBeCloseTo(9.03, 1);
    expect(distanceMetres(B, p3)).toBeCloseTo(934, -1);

    const arrivals = reach.arrivals([p1, p2, p3, p4, p5, C]);
    // p1: walked from the start (8.1 minutes).
    expect(arrivals[0]).toBeCloseTo(at + walkMs(start, p1), 0);
    expect(((arrivals[0] ?? 0) - at) / 60_000).toBeCloseTo(8.13, 1);
    // p2: A reached at 07:20, then 9.03 minutes on foot.
    expect(arrivals[1]).toBeCloseTo(time('07:20:00') + walkMs(A, p2), 0);
    expect(iso(Math.round((arrivals[1] ?? 0) / 60_000) * 60_000)).toBe('2026-03-02T07:29:00Z');
    // p3: B reached at 07:40, then 934 m (15.2 minutes).
    expect(arrivals[2]).toBeCloseTo(time('07:40:00') + walkMs(B, p3), 0);
    expect(arrivals[3]).toBe(Number.POSITIVE_INFINITY);
    expect(arrivals[4]).toBeCloseTo(time('07:20:00') + walkMs(A, p5), 0);
    // C is reached at 07:59, before the deadline.
    expect(arrivals[5]).toBe(time('07:59:00'));

    const departures = reach.departures([p1, p2, p3, p4, p5, C]);
    // p1: no stop left within a walk, and walking to the end takes too long.
    expect(departures[0]).toBe(Number.NEGATIVE_INFINITY);
    // p2: A left at 07:35, 9.03 minutes' walk before.
    expect(departures[1]).toBeCloseTo(time('07:35:00') - walkMs(p2, A), 0);
    // p3: walking to the end (leaving 07:50:58) beats D's 07:50 less the walk there.
    expect(departures[2]).toBeCloseTo(deadline - walkMs(p3, end), 0);
    expect(departures[2]).toBeGreaterThan(time('07:50:00') - walkMs(p3, D));
    expect(departures[3]).toBe(Number.NEGATIVE_INFINITY);
    expect(departures[4]).toBeCloseTo(time('07:35:00') - walkMs(p5, A), 0);
    expect(departures[5]).toBe(Number.NEGATIVE_INFINITY);

    // p5 fits (reached 07:21:48, left by 07:33:12); the box holds it but not C, the far north.
    expect(arrivals[4]).toBeLessThanOrEqual(departures[4] ?? Number.NEGATIVE_INFINITY);
    const box = reach.box;
    expect(box).not.toBeNull();
    if (!box) return;
    expect(box.minLat).toBeLessThanOrEqual(p5.lat);
    expect(box.maxLat).toBeGreaterThanOrEqual(p5.lat);
    expect(box.maxLat).toBeLessThan(47.7);
    expect(box.minLat).toBeGreaterThan(start.lat);

    // Every point that fits lies in the box (a grid over the area).
    const grid: Coordinates[] = [];
    for (let lat = 47.4; lat <= 48.1; lat += 0.002) {
      for (let lng = 18.9; lng <= 19.1; lng += 0.004) grid.push({ lat, lng });
    }
    const gridArrivals = reach.arrivals(grid);
    const gridDepartures = reach.departures(grid);
    const fitting = grid.filter((_, i) => (gridArrivals[i] ?? 0) <= (gridDepartures[i] ?? 0));
    expect(fitting.length).toBeGreaterThan(0);
    const outside = fitting.filter(
      (point) => point.lat < box.minLat || point.lat > box.maxLat || point.lng < box.minLng || point.lng > box.maxLng,
    );
    expect(outside).toEqual([]);

    // The same deadline again is not asked again.
    await times.reach(deadline);
    expect(requestsTo('/api/v1/one-to-all')).toHaveLength(2);
  });

  it('asks departures at the next whole minute and deadlines at the previous one (MOTIS counts minutes)', async () => {
    fake.answer = answerReach;
    const times = await motis().forTrip(start, end, 'transit', at + 20_000);
    await times.reach(deadline + 40_000);
    const oneToAll = requestsTo('/api/v1/one-to-all').map((request) => Object.fromEntries(request.params));
    expect(oneToAll.map((params) => [params.time, params.maxTravelTime])).toEqual(
      expect.arrayContaining([
        ['2026-03-02T07:01:00Z', '59'],
        ['2026-03-02T08:00:00Z', '59'],
      ]),
    );
  });

  it("leaves a reach longer than MOTIS's one-to-all limit to the fallback", async () => {
    fake.answer = answerReach;
    const times = await motis().forTrip(start, end, 'transit', at);
    const late = at + 120 * 60_000;
    const reach = await times.reach(late);
    expect(requestsTo('/api/v1/one-to-all')).toHaveLength(0);
    const straight = await straightLineTimes(start, end, 'transit', at, 'external_failed').reach(late);
    expect(reach.box).toEqual(straight.box);
    expect(reach.arrivals([p2])).toEqual(straight.arrivals([p2]));
  });

  it('answers a reach from the fallback when one-to-all fails, the journey still from MOTIS', async () => {
    fake.answer = (request) =>
      request.path === '/api/v1/one-to-all' ? { status: 500, json: { error: 'internal error' } } : answerReach(request);
    const times = await motis().forTrip(start, end, 'transit', at);
    expect(times.source).toBe('external');
    const reach = await times.reach(deadline);
    const straight = await straightLineTimes(start, end, 'transit', at, 'external_failed').reach(deadline);
    expect(reach.box).toEqual(straight.box);
    expect(reach.departures([p2, p3])).toEqual(straight.departures([p2, p3]));
    expect(warnings.length).toBeGreaterThan(0);
  });
});

describe('arrival', () => {
  const a = { lat: 47.4977, lng: 19.0545 };
  const b = { lat: 47.52, lng: 19.1 };
  const near = { lat: 47.4986, lng: 19.0545 }; // 100 m north of a
  const arrivingAt = (end: string) => (request: SeenRequest) => {
    const from = motisPlace('START', a.lat, a.lng);
    const to = motisPlace('END', b.lat, b.lng);
    const start = Date.parse(request.params.get('time') ?? '');
    return { json: planBody(a, b, [itinerary([walkLeg(from, to, start, time(end))])]) };
  };

  it('asks plan once per question, and says Infinity when not by the deadline', async () => {
    fake.answer = arrivingAt('07:00:00');
    const times = await motis().forTrip(clarkAdam, oktogon, 'transit', time('06:30:00'));
    fake.answer = arrivingAt('07:40:00');
    const start = time('07:10:20');

    expect(await times.arrival(a, b, start, time('08:00:00'))).toBe(time('07:40:00'));
    const [, asked] = fake.requests;
    expect(asked?.params.get('fromPlace')).toBe('47.4977,19.0545');
    expect(asked?.params.get('toPlace')).toBe('47.52,19.1');
    expect(asked?.params.get('time')).toBe('2026-03-02T07:11:00Z');
    // The same question, a tighter deadline: no request, and too late.
    expect(await times.arrival(a, b, start + 10_000, time('07:39:00'))).toBe(Number.POSITIVE_INFINITY);
    expect(fake.requests).toHaveLength(2);

    // The trip's own question was answered by its journey.
    expect(await times.arrival(clarkAdam, oktogon, time('06:30:00'), time('08:00:00'))).toBe(time('07:00:00'));
    expect(fake.requests).toHaveLength(2);
  });

  it('walks when walking is quicker than what MOTIS found', async () => {
    fake.answer = arrivingAt('07:40:00');
    const times = await motis().forTrip(a, b, 'transit', time('07:00:00'));
    const start = time('07:10:00');
    expect(await times.arrival(a, near, start, time('08:00:00'))).toBeCloseTo(start + walkMs(a, near), 0);
  });

  it('answers from the fallback when a later plan fails', async () => {
    fake.answer = arrivingAt('07:40:00');
    const times = await motis().forTrip(a, b, 'transit', time('07:00:00'));
    fake.answer = () => ({ status: 503, text: 'Service Unavailable' });
    const start = time('07:10:00');
    const straight = straightLineTimes(a, b, 'transit', time('07:00:00'), 'external_failed');
    expect(await times.arrival(b, a, start, time('09:00:00'))).toBe(
      await straight.arrival(b, a, start, time('09:00:00')),
    );
    expect(warnings).toHaveLength(1);
  });
});

describe('when MOTIS fails', () => {
  const at = time('07:00:00');

  it('falls back for the whole trip when it does not answer in time, and logs no secret', async () => {
    fake.answer = () => 'hang';
    const travelTimes = motis({
      url: `http://motis:secret-pw@${fake.url.slice('http://'.length)}/?key=secret-key`,
      timeoutMs: 50,
    });
    const times = await travelTimes.forTrip(clarkAdam, oktogon, 'transit', at);

    expect(times.source).toBe('straight-line');
    expect(times.fallback).toBe('external_failed');
    expect(times.journey).toEqual(straightLineTimes(clarkAdam, oktogon, 'transit', at).journey);
    // The credentials went as a header, the key as given.
    const [request] = fake.requests;
    expect(request?.headers.authorization).toBe(`Basic ${Buffer.from('motis:secret-pw').toString('base64')}`);
    expect(request?.params.get('key')).toBe('secret-key');
    expect(warnings).toHaveLength(1);
    expect(JSON.stringify(warnings)).not.toMatch(/secret/);
    expect(JSON.stringify(warnings)).toMatch(/\/api\/v1\/plan/);
  });

  it('asks nothing while down but one request a minute, and answers anew once MOTIS is back', async () => {
    let now = at;
    fake.answer = () => 'hang';
    const travelTimes = motis({ timeoutMs: 50, now: () => now });
    const before = travelTimes.version();
    await travelTimes.forTrip(clarkAdam, oktogon, 'transit', at);
    expect(fake.requests).toHaveLength(1);

    // Down: the next trips fall back without waiting.
    const next = await travelTimes.forTrip(oktogon, clarkAdam, 'transit', at);
    expect(next.fallback).toBe('external_failed');
    expect(fake.requests).toHaveLength(1);

    now += MOTIS_RETRY_MS;
    fake.answer = () => ({ json: budapestPlan() });
    const back = await travelTimes.forTrip(clarkAdam, oktogon, 'transit', at);
    expect(back.source).toBe('external');
    expect(fake.requests).toHaveLength(2);
    // What was answered while it was down is not what a cache keeps now.
    expect(travelTimes.version()).not.toBe(before);
  });

  it('falls back on an HTTP error without taking MOTIS for down', async () => {
    fake.answer = () => ({ status: 500, json: { error: 'internal error' } });
    const travelTimes = motis();
    const times = await travelTimes.forTrip(clarkAdam, oktogon, 'transit', at);
    expect(times.source).toBe('straight-line');
    expect(times.fallback).toBe('external_failed');
    expect(warnings[0]?.obj).toEqual({ reason: expect.stringMatching(/HTTP 500/) });

    fake.answer = () => ({ json: budapestPlan() });
    expect((await travelTimes.forTrip(clarkAdam, oktogon, 'transit', at)).source).toBe('external');
  });

  it.each([
    ['not JSON', { text: '<html>Bad Gateway</html>' }],
    ['no itineraries', { json: { from: {}, to: {}, direct: [] } }],
    [
      'a time that is not one',
      { json: planBody(clarkAdam, oktogon, [{ ...itinerary([]), startTime: 'soon', legs: [] }]) },
    ],
  ])('falls back on a malformed body (%s)', async (_, answer) => {
    fake.answer = () => answer;
    const times = await motis().forTrip(clarkAdam, oktogon, 'transit', at);
    expect(times.source).toBe('straight-line');
    expect(times.fallback).toBe('external_failed');
    expect(warnings[0]?.obj).toEqual({ reason: expect.stringMatching(/malformed body/) });
  });
});

describe('walking and cycling', () => {
  it('are answered by the fallback, MOTIS not asked', async () => {
    const asked: unknown[][] = [];
    const fallback: TravelTimes = {
      version: () => 'spy',
      forTrip(...args) {
        asked.push(args);
        return straightLineTravelTimes.forTrip(...args);
      },
    };
    const travelTimes = motis({ fallback });
    const walk = await travelTimes.forTrip(clarkAdam, oktogon, 'walk', time('07:00:00'));
    const bike = await travelTimes.forTrip(clarkAdam, oktogon, 'bike', time('07:00:00'));

    expect(fake.requests).toHaveLength(0);
    expect(asked).toEqual([
      [clarkAdam, oktogon, 'walk', time('07:00:00'), undefined],
      [clarkAdam, oktogon, 'bike', time('07:00:00'), undefined],
    ]);
    expect(walk.source).toBe('straight-line');
    expect(walk.fallback).toBeUndefined();
    expect(walk.journey).toEqual(straightLineTimes(clarkAdam, oktogon, 'walk', time('07:00:00')).journey);
    expect(bike.source).toBe('straight-line');
    expect(travelTimes.version()).toContain('spy');
  });
});
