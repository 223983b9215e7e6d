import { messages } from '@csomag/domain/messages';
import type { FastifyRateLimitStore } from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryWindowCounter, type WindowCount, type WindowCounter } from '../db/rate-limits.ts';
import { buildRegistration, createTestApp, signUp, type TestApp, testStore } from '../test/harness.ts';
import { buildParcelBody } from '../test/parcels.ts';
import { counterRateLimitStore } from './rate-limit-store.ts';

/**
 * The @fastify/rate-limit limits (DESIGN §4) hold across every instance of a deployment
 * (docs/decisions/0003): on PostgreSQL two instances on one database count into the shared
 * table; on SQLite the single instance keeps the plugin's own in-memory count.
 */
let t: TestApp;
let instances: FastifyInstance[];
beforeAll(async () => {
  // Only batchesPass's batches: a timer's batch between its rounds would read a window back before
  // the other instance has added to it, and not again (a limit may be one batch late; rate-limits.ts).
  t = await createTestApp({ ABUSE_LIMIT_BATCH_MS: '3600000' });
  instances = testStore === 'postgres' ? [t.app, await t.addInstance()] : [t.app];
});
afterAll(() => t.close());

/**
 * Each instance's batch of abuse-limit hits added to the shared windows, twice over (the second
 * round reads back what the others added): what ABUSE_LIMIT_BATCH_MS's timer does within two
 * batches (here it waits an hour). Nothing to do on SQLite (one instance, in memory).
 */
async function batchesPass() {
  for (let round = 0; round < 2; round++) {
    for (const app of instances) await app.httpLimits?.flush();
  }
}

/** The i-th request's instance, round robin, as a load balancer would spread them. */
const instance = (i: number): FastifyInstance => instances[i % instances.length] ?? t.app;

const tooMany = { code: 'rate_limited', message: messages.tooManyRequests };

const register = (app: FastifyInstance, remoteAddress: string, payload = buildRegistration({ userName: 'ab' })) =>
  app.inject({ method: 'POST', url: '/api/auth/register', payload, remoteAddress });
const me = (app: FastifyInstance, remoteAddress: string) =>
  app.inject({ method: 'GET', url: '/api/auth/me', remoteAddress });

describe(`request limits on ${testStore} (${testStore === 'postgres' ? 'two instances' : 'one instance'})`, () => {
  it('allows 30 registrations per IP per hour spread over the instances, then answers 429 on each', async () => {
    const ip = '10.41.0.1';
    for (let i = 0; i < 30; i++) expect((await register(instance(i), ip)).statusCode).toBe(400);
    await batchesPass();
    for (const app of instances) {
      const limited = await register(app, ip, buildRegistration());
      expect(limited.statusCode).toBe(429);
      expect(limited.json().error).toEqual(tooMany);
    }
    expect((await register(instance(1), '10.41.0.2', buildRegistration())).statusCode).toBe(201);
  });

  it("counts a route's own limit in its own window, apart from the global one", async () => {
    const ip = '10.41.1.1';
    const registration = await register(instance(0), ip);
    expect(registration.headers['x-ratelimit-limit']).toBe('30');
    expect(registration.headers['x-ratelimit-remaining']).toBe('29');
    expect(Number(registration.headers['x-ratelimit-reset'])).toBeGreaterThan(3500);
    expect(Number(registration.headers['x-ratelimit-reset'])).toBeLessThanOrEqual(3600);

    const first = await me(instance(1), ip);
    expect(first.headers['x-ratelimit-limit']).toBe('600');
    expect(first.headers['x-ratelimit-remaining']).toBe('599');
    expect(Number(first.headers['x-ratelimit-reset'])).toBeLessThanOrEqual(60);
    const second = await me(instance(0), ip);
    expect(second.headers['x-ratelimit-remaining']).toBe(testStore === 'postgres' ? '599' : '598');
    // Another instance's hit is counted here once a batch has passed.
    await batchesPass();
    expect((await me(instance(0), ip)).headers['x-ratelimit-remaining']).toBe('597');
  });

  it('allows 120 parcels per account per minute spread over the instances, then answers 429 on each', async () => {
    const busy = await signUp(t.app);
    const pins = { senderCoordinates: { lat: 47.5, lng: 19.05 }, receiverCoordinates: { lat: 47.4, lng: 19.1 } };
    const send = (app: FastifyInstance, cookie: string) =>
      app.inject({ method: 'POST', url: '/api/parcels', headers: { cookie }, payload: buildParcelBody(pins) });
    for (let i = 0; i < 120; i++) expect((await send(instance(i), busy.cookie)).statusCode).toBe(201);
    await batchesPass();
    for (const app of instances) {
      const limited = await send(app, busy.cookie);
      expect(limited.statusCode).toBe(429);
      expect(limited.json().error).toEqual(tooMany);
    }
    const other = await signUp(t.app);
    expect((await send(instance(1), other.cookie)).statusCode).toBe(201);
  });

  it('allows 600 requests per client per minute spread over the instances, then answers 429 on each', async () => {
    const ip = '10.41.2.1';
    for (let i = 0; i < 600; i++) expect((await me(instance(i), ip)).statusCode).toBe(200);
    await batchesPass();
    for (const app of instances) {
      const limited = await me(app, ip);
      expect(limited.statusCode).toBe(429);
      expect(limited.json().error).toEqual(tooMany);
    }
    expect((await me(instance(1), '10.41.2.2')).statusCode).toBe(200);
  });

  it.runIf(testStore === 'postgres')('keeps the counts in the rate_limits table, one key per limit', async () => {
    await batchesPass();
    const rows = await t.store.db.selectFrom('rate_limits').select(['key', 'count']).execute();
    const count = (key: string) => rows.find((row) => row.key === key)?.count;
    expect(count('http:POST /api/auth/register:10.41.0.1')).toBe(32);
    expect(count('http:10.41.2.1')).toBe(602);
    expect(rows.some((row) => /^http:POST \/api\/parcels:parcel-create:\d+$/.test(row.key))).toBe(true);
  });

  it.runIf(testStore === 'sqlite')('counts in process memory, leaving the rate_limits table empty', async () => {
    await me(t.app, '10.41.3.1');
    expect(await t.store.db.selectFrom('rate_limits').select('key').execute()).toEqual([]);
  });
});

describe('the counter-backed store', () => {
  /** Records what the store asks of its counter. */
  const recording = () => {
    const memory = new MemoryWindowCounter();
    const hits: { key: string; windowMs: number }[] = [];
    const counter: WindowCounter = {
      hit: (key, windowMs) => {
        hits.push({ key, windowMs });
        return memory.hit(key, windowMs);
      },
      reset: (key) => memory.reset(key),
    };
    return { counter, hits };
  };
  const incr = (store: FastifyRateLimitStore, key: string, timeWindow?: number) =>
    new Promise<{ current: number; ttl: number }>((resolve, reject) => {
      const callback = (error: Error | null, result?: { current: number; ttl: number }) =>
        error || !result ? reject(error) : resolve(result);
      (store.incr as (key: string, cb: typeof callback, timeWindow?: number) => void)(key, callback, timeWindow);
    });
  type ChildOptions = Parameters<FastifyRateLimitStore['child']>[0];
  const childOptions = (options: Record<string, unknown>) => options as unknown as ChildOptions;

  it('gives each route its own keys and window, and falls back to the window it was built with', async () => {
    const { counter, hits } = recording();
    const Store = counterRateLimitStore(counter);
    const global = new Store({ timeWindow: 60_000 } as never);
    const register = global.child(
      childOptions({ timeWindow: 3_600_000, routeInfo: { method: 'POST', url: '/api/auth/register' } }),
    );
    const grouped = global.child(childOptions({ timeWindow: 1000, groupId: 'bulk', routeInfo: { method: 'GET' } }));
    const unnamed = global.child(childOptions({ timeWindow: 1000, routeInfo: {} }));

    expect(await incr(global, '10.0.0.1', 60_000)).toMatchObject({ current: 1 });
    expect(await incr(register, '10.0.0.1', 3_600_000)).toMatchObject({ current: 1 });
    expect(await incr(register, '10.0.0.1')).toMatchObject({ current: 2 });
    await incr(grouped, 'x');
    await incr(unnamed, 'x');
    expect(hits).toEqual([
      { key: 'http:10.0.0.1', windowMs: 60_000 },
      { key: 'http:POST /api/auth/register:10.0.0.1', windowMs: 3_600_000 },
      { key: 'http:POST /api/auth/register:10.0.0.1', windowMs: 3_600_000 },
      { key: 'http:group bulk:x', windowMs: 1000 },
      { key: 'http:limiter 1:x', windowMs: 1000 },
    ]);
  });

  it('reports the time left in the window, and passes a failing counter on as an error', async () => {
    const { counter } = recording();
    const Store = counterRateLimitStore(counter);
    const store = new Store({ timeWindow: 60_000 } as never);
    const { ttl } = await incr(store, 'k', 60_000);
    expect(ttl).toBeGreaterThan(59_000);
    expect(ttl).toBeLessThanOrEqual(60_000);

    const broken: WindowCounter = {
      hit: (): Promise<WindowCount> => Promise.reject(new Error('database down')),
      reset: async () => {},
    };
    const BrokenStore = counterRateLimitStore(broken);
    await expect(incr(new BrokenStore({} as never), 'k', 1000)).rejects.toThrow('database down');
  });
});
