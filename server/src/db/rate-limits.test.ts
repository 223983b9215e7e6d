import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, testStore } from '../test/harness.ts';
import {
  BatchedWindowCounter,
  DatabaseWindowCounter,
  MemoryWindowCounter,
  openWindowCounter,
  type WindowCounter,
} from './rate-limits.ts';

let t: TestApp;
/** The same database through a second pool, as a second instance would reach it. */
let other: TestApp['store'];
beforeAll(async () => {
  t = await createTestApp();
  other = (await t.addInstance()).store;
});
afterAll(() => t.close());

/** A clock the test moves by hand; starts near the real time so rows of other tests stay unexpired. */
const manualClock = (start = Date.now()) => {
  const clock = { at: start, now: () => clock.at };
  return clock;
};

let keyCounter = 0;
const uniqueKey = (name: string) => `test:${name}:${Date.now().toString(36)}:${++keyCounter}`;

const storedRow = (key: string) =>
  t.store.db.selectFrom('rate_limits').selectAll().where('key', '=', key).executeTakeFirst();

describe.each([
  ['in process memory', (now: () => number): WindowCounter => new MemoryWindowCounter({ now })],
  ['in the rate_limits table', (now: () => number): WindowCounter => new DatabaseWindowCounter(t.store.db, { now })],
])('a window counter %s', (_name, counterWith) => {
  it('counts hits on a key within its window, and opens a new window once it has ended', async () => {
    const clock = manualClock();
    const counter = counterWith(clock.now);
    const key = uniqueKey('window');
    const start = clock.at;
    expect(await counter.hit(key, 60_000)).toEqual({ count: 1, resetAt: start + 60_000 });
    clock.at += 59_999;
    expect(await counter.hit(key, 60_000)).toEqual({ count: 2, resetAt: start + 60_000 });
    clock.at += 1;
    expect(await counter.hit(key, 60_000)).toEqual({ count: 1, resetAt: clock.at + 60_000 });
  });

  it('keeps keys apart, and forgets a key that is reset', async () => {
    const counter = counterWith(Date.now);
    const [a, b] = [uniqueKey('a'), uniqueKey('b')];
    await counter.hit(a, 60_000);
    await counter.hit(a, 60_000);
    expect((await counter.hit(b, 60_000)).count).toBe(1);
    await counter.reset(a);
    expect((await counter.hit(a, 60_000)).count).toBe(1);
    expect((await counter.hit(b, 60_000)).count).toBe(2);
  });

  it('loses no hit among 20 simultaneous ones on a key', async () => {
    const counter = counterWith(Date.now);
    const key = uniqueKey('burst');
    const counts = await Promise.all(Array.from({ length: 20 }, () => counter.hit(key, 60_000)));
    expect(counts.map((c) => c.count).sort((x, y) => x - y)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect((await counter.hit(key, 60_000)).count).toBe(21);
  });
});

describe('the counter of this store', () => {
  it(`is ${testStore === 'postgres' ? 'the shared table' : 'process memory'} on ${testStore}`, async () => {
    const counter = openWindowCounter(t.store);
    expect(counter).toBeInstanceOf(testStore === 'postgres' ? DatabaseWindowCounter : MemoryWindowCounter);
    const key = uniqueKey('which');
    await counter.hit(key, 60_000);
    expect(await storedRow(key)).toEqual(
      testStore === 'postgres' ? { key, count: 1, reset_at: expect.any(Number) } : undefined,
    );
  });
});

describe('the rate_limits table', () => {
  it('counts 20 simultaneous hits from two instances (two pools) on one key to exactly 20', async () => {
    const key = uniqueKey('two-pools');
    const [first, second] = [new DatabaseWindowCounter(t.store.db), new DatabaseWindowCounter(other.db)];
    const hits = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? second : first).hit(key, 60_000)));
    expect(hits.map((h) => h.count).sort((x, y) => x - y)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    // Every hit ends in the one window the first opened.
    expect(new Set(hits.map((h) => h.resetAt)).size).toBe(1);
    expect(await storedRow(key)).toMatchObject({ count: 20 });
  });

  it('sweeps ended windows in bounded batches and keeps open ones', async () => {
    // Times long past: the other tests' rows, whose windows end now-ish, are never ended here.
    const now = 1_000_000;
    const ended = Array.from({ length: 5 }, (_, i) => uniqueKey(`ended${i}`));
    const open = [uniqueKey('open1'), uniqueKey('open2')];
    await t.store.db
      .insertInto('rate_limits')
      .values([
        ...ended.map((key, i) => ({ key, count: 3, reset_at: now - 1000 + i })),
        ...open.map((key) => ({ key, count: 3, reset_at: now + 1 })),
      ])
      .execute();
    const counter = new DatabaseWindowCounter(t.store.db, { now: () => now, sweepBatch: 3 });
    expect(await counter.sweep()).toBe(3);
    expect(await counter.sweep()).toBe(2);
    expect(await counter.sweep()).toBe(0);
    for (const key of ended) expect(await storedRow(key)).toBeUndefined();
    for (const key of open) expect(await storedRow(key)).toMatchObject({ count: 3 });
  });

  it('is swept by the first hit and then at most once per interval, with no timer', async () => {
    const clock = manualClock(2_000_000);
    const counter = new DatabaseWindowCounter(t.store.db, { now: clock.now, sweepEveryMs: 60_000 });
    const plantEnded = async () => {
      const key = uniqueKey('stale');
      await t.store.db
        .insertInto('rate_limits')
        .values({ key, count: 1, reset_at: clock.at - 1 })
        .execute();
      return key;
    };
    const first = await plantEnded();
    await counter.hit(uniqueKey('hit'), 1000);
    expect(await storedRow(first)).toBeUndefined();

    clock.at += 30_000;
    const second = await plantEnded();
    await counter.hit(uniqueKey('hit'), 1000);
    expect(await storedRow(second)).toBeDefined();

    clock.at += 30_000;
    await counter.hit(uniqueKey('hit'), 1000);
    expect(await storedRow(second)).toBeUndefined();
  });

  it('is swept by a batch of hits too, when one is due (the HTTP limits write only in batches)', async () => {
    const clock = manualClock(3_000_000);
    const counter = new DatabaseWindowCounter(t.store.db, { now: clock.now, sweepEveryMs: 60_000 });
    const stale = uniqueKey('stale-batch');
    await t.store.db
      .insertInto('rate_limits')
      .values({ key: stale, count: 1, reset_at: clock.at - 1 })
      .execute();
    await counter.addMany([{ key: uniqueKey('batch'), hits: 2, windowMs: 1000 }]);
    expect(await storedRow(stale)).toBeUndefined();
  });

  it('tells, and does not fail the hit, when a sweep fails', async () => {
    const failures: unknown[] = [];
    const counter = new DatabaseWindowCounter(t.store.db, { onSweepError: (error) => failures.push(error) });
    counter.sweep = () => Promise.reject(new Error('sweep failed'));
    expect((await counter.hit(uniqueKey('resilient'), 1000)).count).toBe(1);
    expect(failures).toHaveLength(1);
  });
});

describe('the batched counter (the HTTP abuse limits on PostgreSQL, issue 31)', () => {
  /** Batches only when the test says (an hour apart otherwise); closed after each test. */
  const opened: BatchedWindowCounter[] = [];
  const batched = (store: TestApp['store'], options: { onError?: (error: unknown) => void } = {}) => {
    const counter = new BatchedWindowCounter(new DatabaseWindowCounter(store.db), { batchMs: 3_600_000, ...options });
    opened.push(counter);
    return counter;
  };
  afterEach(async () => {
    for (const counter of opened.splice(0)) await counter.close();
  });

  it("counts its own hits at once and adds them to the shared window in one batch, the others' read back", async () => {
    const key = uniqueKey('batched');
    const [a, b] = [batched(t.store), batched(other)];
    for (let i = 1; i <= 3; i++) expect((await a.hit(key, 60_000)).count).toBe(i);
    expect((await b.hit(key, 60_000)).count).toBe(1);
    expect(await storedRow(key)).toBeUndefined();
    await a.flush();
    expect(await storedRow(key)).toMatchObject({ count: 3 });
    await b.flush();
    expect(await storedRow(key)).toMatchObject({ count: 4 });
    // B's batch answered it every hit so far; A reads them back at its next batch though it had none since.
    expect((await b.hit(key, 60_000)).count).toBe(5);
    await a.flush();
    expect((await a.hit(key, 60_000)).count).toBe(5);
    // Each batch adds its own instance's hits: none is lost.
    await a.flush();
    await b.flush();
    expect(await storedRow(key)).toMatchObject({ count: 6 });
  });

  it('adds a batch of many keys in a few statements, each key its own window', async () => {
    const keys = Array.from({ length: 1500 }, (_, i) => uniqueKey(`many${i}`));
    const counter = batched(t.store);
    for (const key of keys) await counter.hit(key, 60_000);
    await counter.hit(keys[0] ?? '', 60_000);
    await counter.flush();
    const rows = await t.store.db.selectFrom('rate_limits').select(['key', 'count']).where('key', 'in', keys).execute();
    expect(rows).toHaveLength(1500);
    expect(rows.find((row) => row.key === keys[0])?.count).toBe(2);
    expect(rows.filter((row) => Number(row.count) === 1)).toHaveLength(1499);
  });

  it('keeps hits whose batch failed for the next one, and adds what is pending when closed', async () => {
    const key = uniqueKey('batched-failing');
    const errors: unknown[] = [];
    const shared = new DatabaseWindowCounter(t.store.db);
    let failing = true;
    const flaky: Pick<DatabaseWindowCounter, 'addMany' | 'reset'> = {
      addMany: (entries) => (failing ? Promise.reject(new Error('database down')) : shared.addMany(entries)),
      reset: (k) => shared.reset(k),
    };
    const counter = new BatchedWindowCounter(flaky, { batchMs: 3_600_000, onError: (error) => errors.push(error) });
    await counter.hit(key, 60_000);
    await counter.hit(key, 60_000);
    await counter.flush();
    expect(errors).toHaveLength(1);
    expect(await storedRow(key)).toBeUndefined();
    failing = false;
    await counter.hit(key, 60_000);
    await counter.close();
    expect(await storedRow(key)).toMatchObject({ count: 3 });
  });
});

describe('the in-memory counter', () => {
  it('drops ended windows once it holds many keys', async () => {
    const clock = manualClock();
    const counter = new MemoryWindowCounter({ now: clock.now, sweepAbove: 3 });
    await counter.hit('a', 1000);
    await counter.hit('b', 1000);
    await counter.hit('c', 5000);
    clock.at += 2000;
    await counter.hit('d', 1000);
    expect(counter.size).toBe(2);
  });
});
