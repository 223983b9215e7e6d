import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/harness.ts';
import { seedScale } from './scale.ts';

/*
 * The scale seed the benchmarks start from (bench/): more parcels than one INSERT takes, so a
 * parcel row that grows past the store's bound on parameters fails here, not in a benchmark.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

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
