import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cachingStatements } from './statement-cache.ts';

interface Tables {
  things: { id: number; name: string; colour?: string | null };
}

const open: SQLite.Database[] = [];
function memoryDatabase() {
  const database = new SQLite(':memory:');
  open.push(database);
  return database;
}
afterEach(() => {
  for (const database of open.splice(0)) if (database.open) database.close();
});

describe('the SQLite statement cache', () => {
  it('prepares each SQL text once and binds fresh values on every run', async () => {
    const database = memoryDatabase();
    const prepare = vi.spyOn(database, 'prepare');
    const db = new Kysely<Tables>({ dialect: new SqliteDialect({ database: cachingStatements(database) }) });
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

    const before = prepare.mock.calls.length;
    expect(await byId(1)).toEqual({ name: 'egy' });
    expect(await byId(2)).toEqual({ name: 'kettő' });
    expect(await byId(3)).toBeUndefined();
    expect(prepare.mock.calls.length - before).toBe(1);
  });

  it('answers from the schema as it is now after a migration adds, drops and recreates', async () => {
    const db = new Kysely<Tables>({ dialect: new SqliteDialect({ database: cachingStatements(memoryDatabase()) }) });
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

  it('keeps at most its size, dropping the least recently used text first', () => {
    const database = memoryDatabase();
    const prepare = vi.spyOn(database, 'prepare');
    const cache = cachingStatements(database, 2);
    const one = cache.prepare('select 1');
    cache.prepare('select 2');
    expect(cache.prepare('select 1')).toBe(one); // now the most recent
    cache.prepare('select 3'); // evicts 'select 2'
    expect(cache.prepare('select 1')).toBe(one);
    cache.prepare('select 2');
    expect(prepare.mock.calls.map(([text]) => text)).toEqual(['select 1', 'select 2', 'select 3', 'select 2']);
  });

  it('closes the database with it', () => {
    const database = memoryDatabase();
    cachingStatements(database).close();
    expect(database.open).toBe(false);
  });
});
