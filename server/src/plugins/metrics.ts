import { createHash, timingSafeEqual } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { messages } from '@csomag/domain/messages';
import { PARCEL_STATUSES } from '@csomag/domain/parcel';
import Fastify, { type FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { Counter, collectDefaultMetrics, Gauge, Histogram, type Metric, Registry } from 'prom-client';
import { refuse } from '../errors.ts';

/** What the rest of the server reports to Prometheus (docs/operations.md lists the metric names). */
export interface Metrics {
  /** This app's own metrics; process_* and nodejs_* are added by scrape(). */
  readonly registry: Registry;
  /** The Content-Type of scrape()'s text. */
  readonly contentType: string;
  /** Every metric, this app's and the process's, in the Prometheus text format. */
  scrape(): Promise<string>;
  /** One database query took durationMs. */
  observeQuery(durationMs: number, failed: boolean): void;
  /** A change of this kind reached this instance's hub lagMs after its commit (kinds are a fixed set). */
  changeReceived(kind: string, lagMs: number): void;
  /** The PostgreSQL LISTEN connection is up or down. */
  setListening(up: boolean): void;
  /** What /api/ready would answer now. */
  setReady(up: boolean): void;
  /** A request was answered 503 because the database was down. */
  databaseUnavailable(): void;
  /** The geocoder answered one lookup (provider and outcome are fixed sets, never an address). */
  geocoded(provider: string, outcome: string): void;
  /** How to count the open event streams; read at every scrape. */
  countStreams(collect: () => number): void;
  /** Counts parcels by status now (it also runs every minute); never rejects, a failure is logged. */
  refreshParcelCounts(): Promise<void>;
  /** http://host:port of the METRICS_PORT listener once the app is ready; undefined without one. */
  listenerUrl(): string | undefined;
}

declare module 'fastify' {
  interface FastifyInstance {
    metrics: Metrics;
  }
}

const PARCEL_REFRESH_MS = 60_000;
// The bare API answers in well under a millisecond; the slow end is a cold PostgreSQL or a big export.
const HTTP_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const QUERY_BUCKETS = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const LAG_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

let processRegistry: Registry | undefined;

/**
 * process_* and nodejs_* describe the process, not one app in it, so they are collected once per
 * process: every collectDefaultMetrics adds a GC observer and an event-loop monitor that nothing
 * ever stops, and the tests build hundreds of apps in one process.
 */
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

interface Sample {
  metricName: string;
  labels: Record<string, string | number>;
  value: number;
}

interface RouteSeries {
  labels: { method: string; route: string; status: number };
  count: number;
  sum: number;
  /** Observations per bucket, not cumulative: one increment per request. */
  buckets: Float64Array;
}

/**
 * http_requests_total and http_request_duration_seconds, counted by hand. The hook runs on every
 * request: prom-client's inc + observe hash and validate the labels each time (~1.8 µs a request),
 * a Map lookup and a bucket search cost ~0.2 µs. The registry renders them like its own metrics.
 */
class HttpRequestMetrics {
  private readonly series = new Map<string, RouteSeries>();

  record(method: string, route: string, status: number, seconds: number): void {
    const key = `${method} ${status} ${route}`;
    let series = this.series.get(key);
    if (!series) {
      series = { labels: { method, route, status }, count: 0, sum: 0, buckets: new Float64Array(HTTP_BUCKETS.length) };
      this.series.set(key, series);
    }
    series.count += 1;
    series.sum += seconds;
    for (let i = 0; i < HTTP_BUCKETS.length; i++) {
      if (seconds <= (HTTP_BUCKETS[i] ?? Number.POSITIVE_INFINITY)) {
        series.buckets[i] = (series.buckets[i] ?? 0) + 1;
        return;
      }
    }
  }

  register(registry: Registry): void {
    const reset = () => this.series.clear();
    registry.registerMetric(
      collected(
        'http_requests_total',
        'HTTP requests answered, by method, route pattern and status.',
        'counter',
        reset,
        () =>
          [...this.series.values()].map((s) => ({
            metricName: 'http_requests_total',
            labels: s.labels,
            value: s.count,
          })),
      ),
    );
    const name = 'http_request_duration_seconds';
    registry.registerMetric(
      collected(name, 'Time to answer an HTTP request, by method, route pattern and status.', 'histogram', reset, () =>
        [...this.series.values()].flatMap((s) => {
          let cumulative = 0;
          const buckets: Sample[] = HTTP_BUCKETS.map((le, i) => {
            cumulative += s.buckets[i] ?? 0;
            return { metricName: `${name}_bucket`, labels: { ...s.labels, le }, value: cumulative };
          });
          return [
            ...buckets,
            { metricName: `${name}_bucket`, labels: { ...s.labels, le: '+Inf' }, value: s.count },
            { metricName: `${name}_sum`, labels: s.labels, value: s.sum },
            { metricName: `${name}_count`, labels: s.labels, value: s.count },
          ];
        }),
      ),
    );
  }
}

/**
 * A metric whose samples are computed at scrape time. The registry reads a metric through
 * name/help/type, get() and reset(), which is all this has; prom-client's types only know its own
 * classes, hence the cast.
 */
function collected(
  name: string,
  help: string,
  type: 'counter' | 'histogram',
  reset: () => void,
  samples: () => Sample[],
): Metric {
  const metric = {
    name,
    help,
    type,
    aggregator: 'sum' as const,
    get: async () => ({ name, help, type, aggregator: 'sum' as const, values: samples() }),
    reset,
  };
  return metric as unknown as Metric;
}

const digest = (value: string) => createHash('sha256').update(value).digest();

/** Both sides are hashed first: equal lengths for timingSafeEqual, whatever size a client sends. */
function bearerMatches(header: string | undefined, expected: Buffer): boolean {
  const token = header === undefined ? undefined : /^Bearer +(\S+)$/i.exec(header)?.[1];
  return token !== undefined && timingSafeEqual(digest(token), expected);
}

/** app.metrics: one registry per app (tests build many apps in one process), the HTTP hook, the listener. */
export const metricsPlugin = fp(async (app) => {
  const registry = new Registry();
  const { store, config } = app;

  const http = new HttpRequestMetrics();
  http.register(registry);
  app.addHook('onResponse', (request, reply, done) => {
    // The route's pattern, never the URL: one series per route, however many URLs are probed.
    const route = request.is404 ? 'unmatched' : (request.routeOptions.url ?? 'unmatched');
    http.record(request.method, route, reply.statusCode, reply.elapsedTime / 1000);
    done();
  });

  let countStreams = () => 0;
  new Gauge({
    name: 'csomagkuldo_live_streams',
    help: 'Event streams (GET /api/events) open on this instance.',
    registers: [registry],
    collect() {
      this.set(countStreams());
    },
  });
  const changeMessages = new Counter({
    name: 'csomagkuldo_change_feed_messages_total',
    help: 'Changes that reached this instance from the change feed, by kind.',
    labelNames: ['kind'],
    registers: [registry],
  });
  const changeLag = new Histogram({
    name: 'csomagkuldo_change_feed_lag_seconds',
    help: "Time from a change's commit to its arrival at this instance's event hub.",
    buckets: LAG_BUCKETS,
    registers: [registry],
  });
  const listening = new Gauge({
    name: 'csomagkuldo_change_feed_listening',
    help: 'Whether the PostgreSQL LISTEN connection of the change feed is up (1) or not (0).',
    // SQLite's feed lives in the process: there is no connection to watch.
    registers: store.dialect === 'postgres' ? [registry] : [],
  });
  const ready = new Gauge({
    name: 'csomagkuldo_ready',
    help: 'Whether this instance answers /api/ready with 200 (1) or 503 (0).',
    registers: [registry],
  });
  const queryDuration = new Histogram({
    name: 'csomagkuldo_db_query_duration_seconds',
    help: 'Database query time, by outcome.',
    labelNames: ['outcome'],
    buckets: QUERY_BUCKETS,
    registers: [registry],
  });
  // Both series from the start: a rate over a series that appears only with the first error misses it.
  queryDuration.zero({ outcome: 'ok' });
  queryDuration.zero({ outcome: 'error' });
  const unavailable = new Counter({
    name: 'csomagkuldo_db_unavailable_total',
    help: 'Requests answered 503 because the database was unavailable.',
    registers: [registry],
  });
  const geocoder = new Counter({
    name: 'csomagkuldo_geocoder_requests_total',
    help: 'Address lookups, by provider and outcome.',
    labelNames: ['provider', 'outcome'],
    registers: [registry],
  });
  const pool = store.pgPool;
  if (pool) {
    new Gauge({
      name: 'csomagkuldo_db_pool_connections',
      help: 'PostgreSQL pool connections: total, idle, and requests waiting for one.',
      labelNames: ['state'],
      registers: [registry],
      collect() {
        this.set({ state: 'total' }, pool.totalCount);
        this.set({ state: 'idle' }, pool.idleCount);
        this.set({ state: 'waiting' }, pool.waitingCount);
      },
    });
  }

  const parcels = new Gauge({
    name: 'csomagkuldo_parcels',
    help: 'Parcels by status, counted every minute.',
    labelNames: ['status'],
    registers: [registry],
  });
  let closed = false;
  let counting = false;
  const refreshParcelCounts = async () => {
    try {
      const rows = await store.db
        .selectFrom('parcels')
        .select((eb) => ['status', eb.fn.countAll<number | string>().as('count')])
        .groupBy('status')
        .execute();
      if (closed) return;
      const counts = new Map(rows.map((row) => [row.status, Number(row.count)]));
      for (const status of PARCEL_STATUSES) parcels.set({ status }, counts.get(status) ?? 0);
    } catch (err) {
      if (!closed) app.log.warn({ err }, 'counting parcels for the metrics failed');
    }
  };
  const countInBackground = () => {
    // A count still running (a slow database) is not joined by another one.
    if (counting) return;
    counting = true;
    void refreshParcelCounts().finally(() => {
      counting = false;
    });
  };
  let timer: NodeJS.Timeout | undefined;
  app.addHook('onReady', async () => {
    countInBackground();
    timer = setInterval(countInBackground, PARCEL_REFRESH_MS).unref();
  });

  const scrape = () => Registry.merge([processMetrics(), registry]).metrics();

  // Prometheus inside the private network, without a token: its own port, never the public one.
  let listener: FastifyInstance | undefined;
  const { metricsHost: host, metricsPort: port } = config;
  if (port !== undefined) {
    const server = Fastify({ logger: false });
    server.get('/metrics', async (_request, reply) => reply.type(registry.contentType).send(await scrape()));
    listener = server;
    app.addHook('onReady', async () => {
      await server.listen({ host, port });
    });
  }

  app.addHook('onClose', async () => {
    closed = true;
    clearInterval(timer);
    await listener?.close();
  });

  app.decorate('metrics', {
    registry,
    contentType: registry.contentType,
    scrape,
    observeQuery(durationMs: number, failed: boolean) {
      queryDuration.observe({ outcome: failed ? 'error' : 'ok' }, durationMs / 1000);
    },
    changeReceived(kind: string, lagMs: number) {
      changeMessages.inc({ kind });
      // Another instance's clock may run ahead: a change never arrives before its commit.
      changeLag.observe(Math.max(0, lagMs) / 1000);
    },
    setListening: (up: boolean) => listening.set(up ? 1 : 0),
    setReady: (up: boolean) => ready.set(up ? 1 : 0),
    databaseUnavailable: () => unavailable.inc(),
    geocoded: (provider: string, outcome: string) => geocoder.inc({ provider, outcome }),
    countStreams(collect: () => number) {
      countStreams = collect;
    },
    refreshParcelCounts,
    listenerUrl() {
      const address = listener?.server.listening ? (listener.server.address() as AddressInfo | null) : null;
      if (!address) return undefined;
      const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
      return `http://${host}:${address.port}`;
    },
  } satisfies Metrics);
});

/**
 * GET /api/metrics with `Authorization: Bearer <METRICS_TOKEN>`, rate limited like the rest of
 * the API. Without a token configured it is an unknown path like any other.
 */
export const metricsRoutes: FastifyPluginAsyncZod = async (app) => {
  const token = app.config.metricsToken;
  const expected = token === undefined ? undefined : digest(token);
  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    if (!expected) throw refuse('not_found', messages.notFound);
    if (!bearerMatches(request.headers.authorization, expected)) {
      reply.header('www-authenticate', 'Bearer');
      throw refuse('metrics_unauthorized', messages.metricsUnauthorized);
    }
    return reply
      .type(app.metrics.contentType)
      .header('cache-control', 'no-store')
      .send(await app.metrics.scrape());
  });
};
