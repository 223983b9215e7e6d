import { describe, expect, it } from 'vitest';
import { createTestApp } from '../test/harness.ts';
import { compiledOnce } from './compiled-once.ts';

describe('a query compiled once', () => {
  it('runs with the values of each call, in whatever order the SQL uses them', async () => {
    const t = await createTestApp();
    try {
      const { db } = t.store;
      await db
        .insertInto('rate_limits')
        .values([
          { key: 'once:a', reset_at: 1, count: 5 },
          { key: 'once:b', reset_at: 2, count: 7 },
        ])
        .execute();
      // The values in the opposite order to the SQL's, and a constant between them.
      const find = compiledOnce(db, 2, (db, to: string, from: string) =>
        db
          .selectFrom('rate_limits')
          .select(['key', 'count'])
          .where('key', '>=', from)
          .where('count', '>', 0)
          .where('key', '<=', to)
          .orderBy('key'),
      );
      expect(await find('once:b', 'once:a')).toEqual([
        { key: 'once:a', count: 5 },
        { key: 'once:b', count: 7 },
      ]);
      expect(await find('once:a', 'once:a')).toEqual([{ key: 'once:a', count: 5 }]);
      expect(await find('once:a', 'once:b')).toEqual([]);
    } finally {
      await t.close();
    }
  });

  it('refuses a query that does not use every value', async () => {
    const t = await createTestApp();
    try {
      expect(() =>
        compiledOnce(t.store.db, 1, (db, _unused: string) => db.selectFrom('rate_limits').selectAll()),
      ).toThrow(/not used/);
    } finally {
      await t.close();
    }
  });
});
