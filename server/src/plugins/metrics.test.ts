import { PassThrough } from 'node:stream';
import { messages } from '@csomag/domain/messages';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signUp, type TestApp, testStore } from '../test/harness.ts';
import { putInTransit, sendParcel } from '../test/parcels.ts';
import { type Exposition, parsePrometheus } from '../test/prometheus.ts';
import { listenLocally, openEventStream } from '../test/sse.ts';

const TOKEN = 'metrika-kulcs-0123456789abcdef';
const bearer = { authorization: `Bearer ${TOKEN}` };

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ METRICS_TOKEN: TOKEN });
});
afterAll(() => t.close());

let scraper = 0;
/** Each scrape from its own address, so the tests' own scrapes never meet the API's rate limit. */
async function scrape(app: FastifyInstance = t.app): Promise<Exposition> {
  scraper += 1;
  const response = await app.inject({
    method: 'GET',
    url: '/api/metrics',
    headers: bearer,
    remoteAddress: `10.77.${Math.floor(scraper / 250)}.${(scraper % 250) + 1}`,
  });
  expect(response.statusCode, response.body).toBe(200);
  return parsePrometheus(response.body);
}

const sampleCount = (exposition: Exposition, name: string, labels: Record<string, string> = {}) =>
  exposition.value(name, labels) ?? 0;

describe('GET /api/metrics', () => {
  it('is an unknown API path when no METRICS_TOKEN is configured', async () => {
    const other = await createTestApp();
    try {
      const metrics = await other.app.inject({ method: 'GET', url: '/api/metrics', headers: bearer });
      const unknown = await other.app.inject({ method: 'GET', url: '/api/no-such-path' });
      expect(metrics.statusCode).toBe(404);
      expect(metrics.json()).toEqual({ error: { code: 'not_found', message: messages.notFound } });
      expect(metrics.json()).toEqual(unknown.json());
    } finally {
      await other.close();
    }
  });

  it.each([
    ['no Authorization header', undefined],
    ['a wrong token', `Bearer ${TOKEN}x`],
    ['an empty token', 'Bearer '],
    ['an 8 KB token', `Bearer ${'k'.repeat(8 * 1024)}`],
    ['the right token under another scheme', `Basic ${TOKEN}`],
    ['the right token without a scheme', TOKEN],
  ])('refuses %s with 401', async (_case, authorization) => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/metrics',
      headers: authorization === undefined ? {} : { authorization },
    });
    expect(response.statusCode).toBe(401);
    expect(response.headers['www-authenticate']).toBe('Bearer');
    expect(response.json()).toEqual({ error: { code: 'metrics_unauthorized', message: messages.metricsUnauthorized } });
  });

  it('answers the right token with the text format, every family declared', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/metrics', headers: bearer });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(response.headers['cache-control']).toBe('no-store');
    const { families } = parsePrometheus(response.body);
    const expected: Record<string, string> = {
      http_requests_total: 'counter',
      http_request_duration_seconds: 'histogram',
      csomagkuldo_live_streams: 'gauge',
      csomagkuldo_change_feed_messages_total: 'counter',
      csomagkuldo_change_feed_lag_seconds: 'histogram',
      csomagkuldo_ready: 'gauge',
      csomagkuldo_db_query_duration_seconds: 'histogram',
      csomagkuldo_db_unavailable_total: 'counter',
      csomagkuldo_parcels: 'gauge',
      csomagkuldo_geocoder_requests_total: 'counter',
      process_cpu_user_seconds_total: 'counter',
      process_resident_memory_bytes: 'gauge',
      nodejs_heap_size_used_bytes: 'gauge',
      nodejs_eventloop_lag_seconds: 'gauge',
      nodejs_gc_duration_seconds: 'histogram',
    };
    for (const [name, type] of Object.entries(expected)) expect(families.get(name)?.type, name).toBe(type);
  });

  it('is compressed like the rest of the API', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/metrics',
      headers: { ...bearer, 'accept-encoding': 'gzip' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBe('gzip');
  });

  it('is not in the OpenAPI document', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(response.statusCode).toBe(200);
    expect(Object.keys(response.json().paths)).not.toContain('/api/metrics');
  });

  it('turns a client hammering it with wrong tokens away with 429, never a 5xx', async () => {
    const statuses = new Set<number>();
    for (let i = 0; i < 700 && !statuses.has(429); i++) {
      const response = await t.app.inject({
        method: 'GET',
        url: '/api/metrics',
        headers: { authorization: `Bearer wrong-token-${i}-${'x'.repeat(i)}` },
        remoteAddress: '10.66.0.1',
      });
      statuses.add(response.statusCode);
    }
    expect([...statuses].sort()).toEqual([401, 429]);
  });
});

describe('HTTP metrics', () => {
  it('count requests by route pattern and status', async () => {
    const before = await scrape();
    for (let i = 0; i < 5; i++)
      expect((await t.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
    for (let i = 0; i < 3; i++) {
      expect((await t.app.inject({ method: 'GET', url: `/api/nope-${i}?probe=${i}` })).statusCode).toBe(404);
    }
    expect((await t.app.inject({ method: 'GET', url: '/api/tracking/NOSUCHPARCEL' })).statusCode).toBe(404);
    const after = await scrape();

    const health = { method: 'GET', route: '/api/health', status: '200' };
    const unmatched = { method: 'GET', route: 'unmatched', status: '404' };
    const tracking = { method: 'GET', route: '/api/tracking/:id', status: '404' };
    const delta = (name: string, labels: Record<string, string>) =>
      sampleCount(after, name, labels) - sampleCount(before, name, labels);
    expect(delta('http_requests_total', health)).toBe(5);
    expect(delta('http_requests_total', unmatched)).toBe(3);
    expect(delta('http_requests_total', tracking)).toBe(1);
    expect(delta('http_request_duration_seconds_count', health)).toBe(5);
    expect(delta('http_request_duration_seconds_bucket', { ...health, le: '+Inf' })).toBe(5);
    expect(delta('http_request_duration_seconds_sum', health)).toBeGreaterThan(0);

    const routes = new Set(after.samples('http_requests_total').map((sample) => sample.labels.route));
    for (const route of routes) expect(route).not.toMatch(/nope|NOSUCHPARCEL|probe/);
  });
});

describe('what the server reports through app.metrics', () => {
  it('moves query, change feed, readiness, outage, geocoder and stream metrics', async () => {
    const before = await scrape();
    const { metrics } = t.app;
    // Far slower than any real query of a test, so the 5–10 s bucket holds only this one.
    metrics.observeQuery(7_000, false);
    metrics.observeQuery(20, true);
    metrics.changeReceived('parcel', 250);
    metrics.changeReceived('parcel', -40); // another instance's clock ahead of ours
    metrics.changeReceived('location', 3);
    metrics.databaseUnavailable();
    metrics.databaseUnavailable();
    metrics.geocoded('offline', 'found');
    metrics.setReady(true);
    metrics.setListening(true);
    let streams = 7;
    metrics.countStreams(() => streams);
    const after = await scrape();

    const delta = (name: string, labels: Record<string, string> = {}) =>
      sampleCount(after, name, labels) - sampleCount(before, name, labels);
    const query = 'csomagkuldo_db_query_duration_seconds';
    expect(
      delta(`${query}_bucket`, { outcome: 'ok', le: '10' }) - delta(`${query}_bucket`, { outcome: 'ok', le: '5' }),
    ).toBe(1);
    expect(delta(`${query}_count`, { outcome: 'error' })).toBe(1);
    expect(delta('csomagkuldo_change_feed_messages_total', { kind: 'parcel' })).toBe(2);
    expect(delta('csomagkuldo_change_feed_messages_total', { kind: 'location' })).toBe(1);
    const lag = 'csomagkuldo_change_feed_lag_seconds';
    expect(delta(`${lag}_count`)).toBe(3);
    expect(delta(`${lag}_bucket`, { le: '0.005' })).toBe(2);
    expect(delta(`${lag}_sum`)).toBeCloseTo(0.253, 6);
    expect(delta('csomagkuldo_db_unavailable_total')).toBe(2);
    expect(delta('csomagkuldo_geocoder_requests_total', { provider: 'offline', outcome: 'found' })).toBe(1);
    expect(after.value('csomagkuldo_ready')).toBe(1);
    expect(after.value('csomagkuldo_live_streams')).toBe(7);
    // The LISTEN connection exists only on PostgreSQL.
    expect(after.value('csomagkuldo_change_feed_listening')).toBe(testStore === 'postgres' ? 1 : undefined);

    metrics.setReady(false);
    metrics.setListening(false);
    streams = 2;
    const later = await scrape();
    expect(later.value('csomagkuldo_ready')).toBe(0);
    expect(later.value('csomagkuldo_live_streams')).toBe(2);
    expect(later.value('csomagkuldo_change_feed_listening')).toBe(testStore === 'postgres' ? 0 : undefined);
  });

  it.runIf(testStore === 'postgres')('shows the PostgreSQL pool', async () => {
    const exposition = await scrape();
    for (const state of ['total', 'idle', 'waiting']) {
      expect(exposition.value('csomagkuldo_db_pool_connections', { state }), state).toBeGreaterThanOrEqual(0);
    }
    expect(exposition.value('csomagkuldo_db_pool_connections', { state: 'total' })).toBeGreaterThan(0);
  });

  it.runIf(testStore === 'sqlite')('has no pool on SQLite', async () => {
    expect((await scrape()).families.has('csomagkuldo_db_pool_connections')).toBe(false);
  });
});

describe('what the running app reports, without anyone calling app.metrics by hand', () => {
  it('counts its queries, the changes it hears, its open streams, its geocoding and its readiness', async () => {
    const own = await createTestApp({ METRICS_TOKEN: TOKEN });
    try {
      const url = await listenLocally(own.app);
      const before = await scrape(own.app);
      const sender = await signUp(own.app);
      const stream = await openEventStream(url, 'parcels', {
        cookie: (await signUp(own.app, { role: 'runner' })).cookie,
      });
      // Signing up places the address too (receivers are matched by their door): counted from here.
      const beforeParcel = await scrape(own.app);
      const parcel = await sendParcel(own.app, sender.cookie);
      expect((await stream.next())?.data).toMatchObject({ parcelId: parcel.id, kind: 'created' });
      expect((await own.app.inject({ method: 'GET', url: '/api/ready' })).statusCode).toBe(200);
      const after = await scrape(own.app);
      stream.close();

      const delta = (name: string, labels: Record<string, string> = {}) =>
        sampleCount(after, name, labels) - sampleCount(before, name, labels);
      expect(delta('csomagkuldo_db_query_duration_seconds_count', { outcome: 'ok' })).toBeGreaterThan(0);
      expect(delta('csomagkuldo_change_feed_messages_total', { kind: 'created' })).toBe(1);
      expect(delta('csomagkuldo_change_feed_lag_seconds_count')).toBe(1);
      expect(after.value('csomagkuldo_live_streams')).toBe(1);
      // Both ends of the parcel were placed by the default geocoder.
      const placed = ['door', 'street', 'settlement'].map(
        (outcome) =>
          sampleCount(after, 'csomagkuldo_geocoder_requests_total', { provider: 'offline', outcome }) -
          sampleCount(beforeParcel, 'csomagkuldo_geocoder_requests_total', { provider: 'offline', outcome }),
      );
      expect(placed.reduce((sum, count) => sum + count, 0)).toBe(2);
      expect(after.value('csomagkuldo_ready')).toBe(1);
    } finally {
      await own.close();
    }
  });
});

describe('parcels by status', () => {
  it('are counted by the periodic refresh, never per scrape', async () => {
    const sender = await signUp(t.app);
    const runner = await signUp(t.app, { role: 'runner' });
    const first = await sendParcel(t.app, sender.cookie);
    await sendParcel(t.app, sender.cookie);
    await sendParcel(t.app, sender.cookie);
    await putInTransit(t.app, first.id, runner.account.userName);

    await t.app.metrics.refreshParcelCounts();
    const counted = await scrape();
    expect(counted.value('csomagkuldo_parcels', { status: 'waiting' })).toBe(2);
    expect(counted.value('csomagkuldo_parcels', { status: 'in_transit' })).toBe(1);
    expect(counted.value('csomagkuldo_parcels', { status: 'delivered' })).toBe(0);

    await sendParcel(t.app, sender.cookie);
    expect((await scrape()).value('csomagkuldo_parcels', { status: 'waiting' })).toBe(2);
    await t.app.metrics.refreshParcelCounts();
    expect((await scrape()).value('csomagkuldo_parcels', { status: 'waiting' })).toBe(3);
  });
});

describe('logs', () => {
  it('never hold the token; a failed parcel count is a warning, not an error', async () => {
    let logged = '';
    const stream = new PassThrough();
    stream.on('data', (chunk) => {
      logged += chunk.toString();
    });
    const other = await createTestApp({ METRICS_TOKEN: TOKEN, LOG_LEVEL: 'debug' }, { logStream: stream });
    try {
      await other.app.inject({ method: 'GET', url: '/api/metrics', headers: bearer });
      await other.app.inject({
        method: 'GET',
        url: '/api/metrics',
        headers: { authorization: 'Bearer rossz-kulcs-1234567890' },
      });
      await other.app.metrics.refreshParcelCounts();
      await other.store.db.schema.alterTable('parcels').renameTo('parcels_elsewhere').execute();
      await expect(other.app.metrics.refreshParcelCounts()).resolves.toBeUndefined();
      await other.store.db.schema.alterTable('parcels_elsewhere').renameTo('parcels').execute();
    } finally {
      await other.close();
    }
    expect(logged).toContain('/api/metrics');
    expect(logged).not.toContain(TOKEN);
    expect(logged).not.toContain('rossz-kulcs-1234567890');
    const warnings = logged
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line))
      .filter((line) => line.msg === 'counting parcels for the metrics failed');
    expect(warnings.map((line) => line.level)).toEqual([40]);
  });
});

describe('METRICS_PORT', () => {
  it('serves the metrics on their own listener without a token; /api/metrics stays unknown', async () => {
    const other = await createTestApp({ METRICS_PORT: '0' });
    let url: string | undefined;
    try {
      url = other.app.metrics.listenerUrl();
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const response = await fetch(`${url}/metrics`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
      const exposition = parsePrometheus(await response.text());
      expect(exposition.families.get('csomagkuldo_ready')?.type).toBe('gauge');
      expect(exposition.families.get('process_cpu_user_seconds_total')?.type).toBe('counter');
      expect((await other.app.inject({ method: 'GET', url: '/api/metrics', headers: bearer })).statusCode).toBe(404);
    } finally {
      await other.close();
    }
    await expect(fetch(`${url}/metrics`)).rejects.toThrow();
  });

  it('leaves /api/metrics open to the token when both are set', async () => {
    const other = await createTestApp({ METRICS_PORT: '0', METRICS_TOKEN: TOKEN });
    try {
      expect(other.app.metrics.listenerUrl()).toBeDefined();
      const exposition = await scrape(other.app);
      expect(exposition.families.has('http_requests_total')).toBe(true);
    } finally {
      await other.close();
    }
  });

  it('is absent without METRICS_PORT', () => {
    expect(t.app.metrics.listenerUrl()).toBeUndefined();
  });
});

describe('parsePrometheus', () => {
  it.each([
    ['a sample without TYPE', 'foo 1\n'],
    ['a value that is not a number', '# TYPE foo gauge\nfoo one\n'],
    ['bad label syntax', '# TYPE foo gauge\nfoo{a=1} 1\n'],
    ['an unterminated label value', '# TYPE foo gauge\nfoo{a="1} 1\n'],
    ['a missing newline at the end', '# TYPE foo gauge\nfoo 1'],
    ['a histogram without +Inf', '# TYPE h histogram\nh_bucket{le="1"} 1\nh_sum 1\nh_count 1\n'],
    ['a histogram without _count', '# TYPE h histogram\nh_bucket{le="+Inf"} 1\nh_sum 1\n'],
    ['non-cumulative buckets', '# TYPE h histogram\nh_bucket{le="1"} 2\nh_bucket{le="+Inf"} 1\nh_sum 1\nh_count 1\n'],
    ['a negative counter', '# TYPE c counter\nc -1\n'],
    ['the same series twice', '# TYPE foo gauge\nfoo{a="1"} 1\nfoo{a="1"} 2\n'],
    ['samples of a metric apart', '# TYPE a gauge\na 1\n# TYPE b gauge\nb 1\na{x="y"} 2\n'],
  ])('refuses %s', (_case, text) => {
    expect(() => parsePrometheus(text)).toThrow();
  });

  it('reads escapes, special values and timestamps', () => {
    const exposition = parsePrometheus(
      [
        '# HELP foo Back\\\\slash\\nand more',
        '# TYPE foo gauge',
        'foo{path="C:\\\\x",q="\\"a\\"",} +Inf 1700000000000',
        'foo{path="b"} NaN',
        '',
      ].join('\n'),
    );
    expect(exposition.families.get('foo')?.help).toBe('Back\\slash\nand more');
    expect(exposition.value('foo', { path: 'C:\\x' })).toBe(Infinity);
    expect(exposition.samples('foo', { q: '"a"' })).toHaveLength(1);
    expect(exposition.value('foo', { path: 'b' })).toBeNaN();
  });
});
