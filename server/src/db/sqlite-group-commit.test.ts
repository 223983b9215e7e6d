import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { GroupCommitSqliteDialect } from './sqlite-group-commit.ts';

interface Tables {
  things: { id: number; name: string };
  owners: { id: number };
  owned: { id: number; owner_id: number };
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/**
 * The store as openStore builds it (WAL, synchronous=FULL, a writer and a read-only reader) on a
 * fresh file, with every COMMIT's size recorded, and a third connection that sees only what is
 * committed: what another process would find after a crash.
 */
async function openStore() {
  const dir = mkdtempSync(join(tmpdir(), 'csomag-group-commit-'));
  const file = join(dir, 'test.sqlite');
  const writer = new SQLite(file);
  writer.pragma('journal_mode = WAL');
  writer.pragma('synchronous = FULL');
  writer.pragma('foreign_keys = ON');
  const reader = new SQLite(file);
  reader.pragma('query_only = ON');
  const commits: number[] = [];
  const db = new Kysely<Tables>({
    dialect: new GroupCommitSqliteDialect({ writer, reader, onCommit: (n) => commits.push(n) }),
  });
  const observer = new SQLite(file, { readonly: true });
  const committed = (id: number) => observer.prepare('select count(*) as n from things where id = ?').get(id);
  cleanups.push(async () => {
    observer.close();
    await db.destroy();
    rmSync(dir, { recursive: true, force: true });
  });
  await sql`create table things (id integer primary key, name text not null)`.execute(db);
  commits.length = 0;
  return { db, writer, reader, commits, isCommitted: (id: number) => (committed(id) as { n: number }).n === 1 };
}

describe('the SQLite store’s group commit', () => {
  it('commits transactions started together with one COMMIT, and answers none before it', async () => {
    const { db, commits, isCommitted } = await openStore();
    const seenCommitted: boolean[] = [];
    await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        db
          .transaction()
          .execute((trx) =>
            trx
              .insertInto('things')
              .values({ id: i, name: `egy ${i}` })
              .execute(),
          )
          .then(() => seenCommitted.push(isCommitted(i))),
      ),
    );
    expect(commits).toEqual([10]);
    expect(seenCommitted).toEqual(Array(10).fill(true));
  });

  it('rolls back only the transaction that failed; the others of its batch commit', async () => {
    const { db, commits, isCommitted } = await openStore();
    const outcomes = await Promise.allSettled(
      [1, 2, 3].map((id) =>
        db.transaction().execute(async (trx) => {
          await trx.insertInto('things').values({ id, name: 'x' }).execute();
          if (id === 2) throw new Error('refused');
        }),
      ),
    );
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(commits).toEqual([3]);
    expect([1, 2, 3].map(isCommitted)).toEqual([true, false, true]);
  });

  it('answers a refusal read from a batch only once what it read is committed', async () => {
    const { db, isCommitted } = await openStore();
    const first = db
      .transaction()
      .execute((trx) => trx.insertInto('things').values({ id: 7, name: 'first' }).execute());
    const second = db.transaction().execute(async (trx) => {
      const taken = await trx.selectFrom('things').select('id').where('id', '=', 7).executeTakeFirst();
      if (taken) throw new Error('taken');
    });
    const refusal = await second.then(
      () => 'not refused',
      (error: Error) => `${error.message}, committed: ${isCommitted(7)}`,
    );
    await first;
    expect(refusal).toBe('taken, committed: true');
  });

  it('reads outside a transaction only what has committed', async () => {
    const { db } = await openStore();
    await db.transaction().execute(async (trx) => {
      await trx.insertInto('things').values({ id: 1, name: 'not yet' }).execute();
      expect(await trx.selectFrom('things').select('name').where('id', '=', 1).executeTakeFirst()).toEqual({
        name: 'not yet',
      });
      expect(await db.selectFrom('things').select('name').where('id', '=', 1).executeTakeFirst()).toBeUndefined();
    });
    expect(await db.selectFrom('things').select('name').where('id', '=', 1).executeTakeFirst()).toEqual({
      name: 'not yet',
    });
  });

  it('answers a write outside a transaction once it is committed, with what it wrote', async () => {
    const { db, isCommitted } = await openStore();
    const written = await db.insertInto('things').values({ id: 5, name: 'öt' }).returning(['id', 'name']).execute();
    expect(written).toEqual([{ id: 5, name: 'öt' }]);
    expect(isCommitted(5)).toBe(true);
    await expect(db.insertInto('things').values({ id: 5, name: 'again' }).execute()).rejects.toThrow(/UNIQUE/);
  });

  it('fails every transaction of a batch whose COMMIT fails, keeps none of their writes, and carries on', async () => {
    const { db, isCommitted } = await openStore();
    await sql`create table owners (id integer primary key)`.execute(db);
    // Checked at COMMIT: a dangling row makes the whole batch's COMMIT fail.
    await sql`create table owned (id integer primary key, owner_id integer not null
      references owners (id) deferrable initially deferred)`.execute(db);
    const outcomes = await Promise.allSettled([
      db.transaction().execute((trx) => trx.insertInto('things').values({ id: 1, name: 'innocent' }).execute()),
      db.transaction().execute((trx) => trx.insertInto('owned').values({ id: 1, owner_id: 404 }).execute()),
    ]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['rejected', 'rejected']);
    expect(isCommitted(1)).toBe(false);
    await db.transaction().execute((trx) => trx.insertInto('things').values({ id: 2, name: 'next' }).execute());
    expect(isCommitted(2)).toBe(true);
  });

  it('runs PRAGMA and VACUUM outside any batch, committing the open one first', async () => {
    const { db, writer, isCommitted } = await openStore();
    const write = db.transaction().execute((trx) => trx.insertInto('things').values({ id: 3, name: 'há' }).execute());
    await sql`vacuum`.execute(db);
    await sql`pragma foreign_keys = off`.execute(db);
    await write;
    expect(isCommitted(3)).toBe(true);
    expect(writer.pragma('foreign_keys', { simple: true })).toBe(0);
  });

  it('closes both of its connections when destroyed, after committing the batch still open', async () => {
    const { db, writer, reader, isCommitted } = await openStore();
    let destroyed: Promise<void> | undefined;
    await db.transaction().execute(async (trx) => {
      await trx.insertInto('things').values({ id: 9, name: 'kilenc' }).execute();
      destroyed = db.destroy();
    });
    await destroyed;
    expect([writer.open, reader.open, isCommitted(9)]).toEqual([false, false, true]);
  });
});
