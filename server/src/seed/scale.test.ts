import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/harness.ts';
import { seedScale } from './scale.ts';
import { seededRandom } from './seeded-random.ts';

/*
 * The scale seed the benchmarks start from (bench/): more parcels than one INSERT takes, so a
 * parcel row that grows past the store's bound on parameters fails here, not in a benchmark.
 */
let t: TestApp;
let other: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  other = await createTestApp();
});
afterAll(async () => {
  await t.close();
  await other.close();
});

it('seeds more parcels than one INSERT holds, each with its holder, on both stores', async () => {
  await seedScale(t.store, { parcels: 1_234, users: 30, runners: 6, events: true });
  const rows = await t.store.db
    .selectFrom('parcels')
    .select(['status', 'holder_kind', 'attempts', 'returning'])
    .execute();
  expect(rows).toHaveLength(1_234);
  for (const row of rows) {
    const holder = { waiting: 'sender', in_transit: 'runner', delivered: 'receiver' }[row.status as string];
    expect(row.holder_kind).toBe(holder);
    expect({ attempts: row.attempts, returning: row.returning }).toEqual({ attempts: 0, returning: 0 });
  }
});

it('seeds the same parcels twice from the same seed, and others from another', async () => {
  // What a benchmark compares from day to day: ids, points, ages' order and states.
  const parcels = (app: TestApp) =>
    app.store.db
      .selectFrom('parcels')
      .select(['id', 'status', 'sender_lat', 'sender_lng', 'receiver_lat', 'receiver_lng', 'weight_grams'])
      .orderBy('created_at')
      .execute();
  const sizes = { parcels: 600, users: 20, runners: 4, events: false };
  const seeded = async (seed: number) => {
    await other.store.db.deleteFrom('parcels').execute();
    await seedScale(other.store, { ...sizes, random: seededRandom(seed) });
    return parcels(other);
  };
  const first = await seeded(7);
  expect(first).toHaveLength(600);
  expect(await seeded(7)).toEqual(first);
  const ids = new Set(first.map(({ id }) => id));
  expect((await seeded(8)).filter(({ id }) => ids.has(id))).toEqual([]);
});
