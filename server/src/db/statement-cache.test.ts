import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { testStore } from '../test/harness.ts';
import { sendBehind } from './database.ts';
import { GroupCommitSqliteDialect } from './sqlite-group-commit.ts';
import { preparingPool, statementCache } from './statement-cache.ts';

interface Tables {
  things: { id: number; name: string; colour?: string | null };
}

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** The SQLite store's two connections on a fresh file, behind Kysely as openStore puts them. */
function sqliteStore() {
  const dir = mkdtempSync(join(tmpdir(), 'csomag-statements-'));
  const writer = new SQLite(join(dir, 'test.sqlite'));
  writer.pragma('journal_mode = WAL');
  const reader = new SQLite(join(dir, 'test.sqlite'));
  const db = new Kysely<Tables>({ dialect: new GroupCommitSqliteDialect({ writer, reader }) });
  cleanups.push(async () => {
    await db.destroy();
    rmSync(dir, { recursive: true, force: true });
  });
  return { db, writer, reader };
}

describe('the SQLite statement cache', () => {
  it('prepares each SQL text once and binds fresh values on every run', async () => {
    const { db, reader } = sqliteStore();
    await db.schema
      .createTable('things')
      .addColumn('id', 'integer', (c) => c.primaryKey())
      .addColumn('name', 'text')
      .execute();
    await db
      .insertInto('things')
      .values([
        { id: 1, name: 'egy' },
        { id: 2, name: 'kettő' },
      ])
      .execute();
    const byId = (id: number) => db.selectFrom('things').select('name').where('id', '=', id).executeTakeFirst();
    const prepare = vi.spyOn(reader, 'prepare');
    expect(await byId(1)).toEqual({ name: 'egy' });
    expect(await byId(2)).toEqual({ name: 'kettő' });
    expect(await byId(3)).toBeUndefined();
    expect(prepare).toHaveBeenCalledTimes(1);
  });

  it('answers from the schema as it is now after a migration adds, drops and recreates', async () => {
    const { db } = sqliteStore();
    await db.schema
      .createTable('things')
      .addColumn('id', 'integer', (c) => c.primaryKey())
      .addColumn('name', 'text')
      .execute();
    await db.insertInto('things').values({ id: 1, name: 'egy' }).execute();
    const all = () => db.selectFrom('things').selectAll().orderBy('id').execute();
    expect(await all()).toEqual([{ id: 1, name: 'egy' }]);

    await db.schema
      .alterTable('things')
      .addColumn('colour', 'text', (c) => c.defaultTo('kék'))
      .execute();
    expect(await all()).toEqual([{ id: 1, name: 'egy', colour: 'kék' }]);

    await db.schema.dropTable('things').execute();
    await expect(all()).rejects.toThrow(/no such table/);
    await sql`create table things (id integer primary key, name text, colour text)`.execute(db);
    await db.insertInto('things').values({ id: 7, name: 'hét', colour: null }).execute();
    expect(await all()).toEqual([{ id: 7, name: 'hét', colour: null }]);
  });

  it('builds rows with the column names as they are now after a column is renamed', async () => {
    const { db, writer } = sqliteStore();
    await sql`create table things (id integer primary key, name text, colour text)`.execute(db);
    await db.insertInto('things').values({ id: 1, name: 'egy', colour: 'piros' }).execute();
    const all = () => sql`select * from things`.execute(db).then((result) => result.rows);
    expect(await all()).toEqual([{ id: 1, name: 'egy', colour: 'piros' }]);

    await sql`alter table things rename column colour to shade`.execute(db);
    expect(await all()).toEqual([{ id: 1, name: 'egy', shade: 'piros' }]);
    // Changed outside Kysely (another tool on the writing connection): the new width is noticed.
    writer.exec('alter table things add column size integer');
    expect(await all()).toEqual([{ id: 1, name: 'egy', shade: 'piros', size: null }]);
  });

  it('builds rows with the new column names on the reader after a rename it read across', async () => {
    const { db } = sqliteStore();
    await sql`create table things (id integer primary key, name text, colour text)`.execute(db);
    await db.insertInto('things').values({ id: 1, name: 'egy', colour: 'piros' }).execute();
    const all = () => sql`select * from things`.execute(db).then((result) => result.rows);
    await db.transaction().execute(async (trx) => {
      await sql`alter table things rename column colour to shade`.execute(trx);
      // Read on the other connection while the rename waits for its commit: the old name still.
      expect(await all()).toEqual([{ id: 1, name: 'egy', colour: 'piros' }]);
    });
    expect(await all()).toEqual([{ id: 1, name: 'egy', shade: 'piros' }]);
  });

  it('gives rows as plain objects, the last of two equal column names winning', async () => {
    const { db } = sqliteStore();
    const { rows } = await sql`select 1 as a, 'x' as b, 2 as a`.execute(db);
    expect(rows).toEqual([{ a: 2, b: 'x' }]);
    expect(Object.getPrototypeOf(rows[0])).toBe(Object.prototype);
  });

  it('keeps at most its size, dropping the least recently used text first', () => {
    const database = new SQLite(':memory:');
    cleanups.push(() => {
      database.close();
    });
    const prepare = vi.spyOn(database, 'prepare');
    const cached = statementCache(database, 2);
    const one = cached('select 1');
    cached('select 2');
    expect(cached('select 1')).toBe(one); // now the most recent
    cached('select 3'); // evicts 'select 2'
    expect(cached('select 1')).toBe(one);
    cached('select 2');
    expect(prepare.mock.calls.map(([text]) => text)).toEqual(['select 1', 'select 2', 'select 3', 'select 2']);
  });
});

/** A pool on a schema of its own in TEST_DATABASE_URL's database, behind Kysely with named statements. */
async function postgresStore(size?: number) {
  const url = process.env.TEST_DATABASE_URL as string;
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  const pool = new pg.Pool({ connectionString: url, options: `-c search_path=${schema}`, max: 1 });
  const db = new Kysely<Tables>({ dialect: new PostgresDialect({ pool: preparingPool(pool, size) }) });
  cleanups.push(async () => {
    await db.destroy();
    await admin.query(`drop schema ${schema} cascade`);
    await admin.end();
  });
  /** The named statements the pool's one connection holds. */
  const held = async () =>
    (await sql<{ statement: string }>`select statement from pg_prepared_statements order by statement`.execute(db)).rows
      .map((row) => row.statement)
      .filter((text) => text.includes('things'));
  await sql`create table things (id integer primary key, name text not null)`.execute(db);
  await db.insertInto('things').values({ id: 1, name: 'egy' }).execute();
  /** The rows as another connection sees them (what is committed). */
  const committed = async () =>
    (await admin.query(`select id, name from ${schema}.things order by id`)).rows as { id: number; name: string }[];
  /** What the database knows of a session's state now (pg_stat_activity). */
  const stateOf = async (pid: number) =>
    (await admin.query('select state from pg_stat_activity where pid = $1', [pid])).rows[0]?.state as string;
  return { db, held, committed, stateOf };
}

describe.runIf(testStore === 'postgres')('PostgreSQL named statements', () => {
  it('parses each SQL text with values once per connection, and binds fresh values on every run', async () => {
    const { db, held } = await postgresStore();
    const byId = (id: number) => db.selectFrom('things').select('name').where('id', '=', id).executeTakeFirst();
    expect(await byId(1)).toEqual({ name: 'egy' });
    expect(await byId(2)).toBeUndefined();
    expect(await held()).toEqual([
      'insert into "things" ("id", "name") values ($1, $2)',
      'select "name" from "things" where "id" = $1',
    ]);
  });

  it('keeps at most its size per connection, deallocating the least recently used first', async () => {
    const { db, held } = await postgresStore(2);
    await db.selectFrom('things').select('id').where('id', '=', 1).execute();
    await db.selectFrom('things').select('name').where('id', '=', 1).execute();
    await db.selectFrom('things').selectAll().where('id', '=', 1).execute();
    expect(await held()).toEqual([
      'select "name" from "things" where "id" = $1',
      'select * from "things" where "id" = $1',
    ]);
  });

  it('answers with the columns as they are now after a migration adds one', async () => {
    const { db } = await postgresStore();
    const all = () => db.selectFrom('things').selectAll().where('id', '>', 0).execute();
    expect(await all()).toEqual([{ id: 1, name: 'egy' }]);
    await sql`alter table things add column colour text default 'kék'`.execute(db);
    expect(await all()).toEqual([{ id: 1, name: 'egy', colour: 'kék' }]);
  });

  it('inside a transaction, fails once after such a migration and answers afresh after it', async () => {
    const { db } = await postgresStore();
    const all = (on: Kysely<Tables>) => on.selectFrom('things').selectAll().where('id', '>', 0).execute();
    expect(await all(db)).toEqual([{ id: 1, name: 'egy' }]);
    await sql`alter table things add column colour text default 'kék'`.execute(db);
    await expect(db.transaction().execute((trx) => all(trx))).rejects.toThrow(/cached plan/);
    expect(await db.transaction().execute((trx) => all(trx))).toEqual([{ id: 1, name: 'egy', colour: 'kék' }]);
  });

  describe('a write sent behind (sendBehind)', () => {
    const insert = (db: Kysely<Tables>, id: number, name: string) =>
      sendBehind(db, db.insertInto('things').values({ id, name }));
    const EGY = { id: 1, name: 'egy' };

    it('goes with the next statement of its transaction, before it: that one sees it, and it commits', async () => {
      const { db, committed } = await postgresStore();
      const seen = await db.transaction().execute(async (trx) => {
        await insert(trx, 2, 'kettő');
        await insert(trx, 3, 'három');
        return trx.selectFrom('things').select('name').where('id', '>=', 2).orderBy('id').execute();
      });
      expect(seen).toEqual([{ name: 'kettő' }, { name: 'három' }]);
      expect(await committed()).toEqual([EGY, { id: 2, name: 'kettő' }, { id: 3, name: 'három' }]);
    });

    it('is not sent before the next statement: until then the database has not even seen the BEGIN', async () => {
      const { db, stateOf } = await postgresStore();
      const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(db);
      const pid = rows[0]?.pid as number;
      const states = await db.transaction().execute(async (trx) => {
        await insert(trx, 2, 'kettő');
        const before = await stateOf(pid);
        await trx.selectFrom('things').select('id').execute();
        return [before, await stateOf(pid)];
      });
      expect(states).toEqual(['idle', 'idle in transaction']);
    });

    it('that fails, fails the next statement with its own error, and nothing of the transaction stays', async () => {
      const { db, committed } = await postgresStore();
      const failed = db.transaction().execute(async (trx) => {
        await trx.updateTable('things').set({ name: 'más' }).where('id', '=', 1).execute();
        await insert(trx, 1, 'ugyanaz'); // the same key: refused
        await trx.selectFrom('things').selectAll().execute();
      });
      await expect(failed).rejects.toMatchObject({ code: '23505' });
      expect(await committed()).toEqual([EGY]);
    });

    it('that fails last, fails the COMMIT with its error (never committed as a rollback unseen)', async () => {
      const { db, committed } = await postgresStore();
      const failed = db.transaction().execute(async (trx) => {
        await trx.updateTable('things').set({ name: 'más' }).where('id', '=', 1).execute();
        await insert(trx, 2, 'kettő');
        await insert(trx, 1, 'ugyanaz');
      });
      await expect(failed).rejects.toMatchObject({ code: '23505' });
      expect(await committed()).toEqual([EGY]);
      // The connection is as good as before.
      await db.transaction().execute((trx) => insert(trx, 2, 'kettő'));
      expect(await committed()).toEqual([EGY, { id: 2, name: 'kettő' }]);
    });

    it('is undone with its transaction when the work throws, which keeps its own reason', async () => {
      const { db, committed } = await postgresStore();
      const thrown = (name: string, id: number) =>
        db.transaction().execute(async (trx) => {
          await insert(trx, id, name);
          throw new Error(`mégsem: ${name}`);
        });
      await expect(thrown('négy', 4)).rejects.toThrow('mégsem: négy');
      await expect(thrown('ugyanaz', 1)).rejects.toThrow('mégsem: ugyanaz');
      expect(await committed()).toEqual([EGY]);
    });

    it('outside a transaction, runs at once', async () => {
      const { db, committed } = await postgresStore();
      await insert(db, 5, 'öt');
      expect(await committed()).toEqual([EGY, { id: 5, name: 'öt' }]);
    });
  });
});
