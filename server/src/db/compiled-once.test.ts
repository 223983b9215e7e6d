import { describe, expect, it } from 'vitest';
import { createTestApp } from '../test/harness.ts';
import { compiledOnce, compiledPerStore } from './compiled-once.ts';

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

  it('per store: builds once, and runs on the connection or transaction it is given', async () => {
    const t = await createTestApp();
    try {
      const { db } = t.store;
      let built = 0;
      const add = compiledPerStore(2, (db: typeof t.store.db, key: string, count: number) => {
        built += 1;
        return db.insertInto('rate_limits').values({ key, reset_at: 1, count }).returning(['key', 'count']);
      });
      const counts = compiledPerStore(1, (db: typeof t.store.db, key: string) =>
        db.selectFrom('rate_limits').select('count').where('key', '=', key),
      );
      expect(await add(db, 'per-store:a', 3)).toEqual([{ key: 'per-store:a', count: 3 }]);
      const undone = db.transaction().execute(async (trx) => {
        await add(trx, 'per-store:b', 4);
        expect(await counts(trx, 'per-store:b')).toEqual([{ count: 4 }]);
        throw new Error('undone');
      });
      await expect(undone).rejects.toThrow('undone');
      expect(await counts(db, 'per-store:b')).toEqual([]);
      expect(await counts(db, 'per-store:a')).toEqual([{ count: 3 }]);
      expect(built).toBe(1);
      // Its SQL and values, to be run otherwise.
      expect(add.compile(db, 'per-store:c', 5).parameters).toEqual(['per-store:c', 1, 5]);
    } finally {
      await t.close();
    }
  });
});
