import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { testStore } from '../test/harness.ts';
import { DATABASE_FILE, openStore } from './database.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(testStore === 'postgres')('the embedded SQLite store', () => {
  it('gathers query-planner statistics for indexed tables that have none when it opens', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'csomag-optimize-'));
    dirs.push(dataDir);
    // A database written before statistics were gathered, as every one before this release was.
    const earlier = new SQLite(join(dataDir, DATABASE_FILE));
    earlier.exec('create table things (id integer primary key, status text not null, at text not null)');
    earlier.exec('create index things_status_at on things (status, at)');
    const insert = earlier.prepare('insert into things (status, at) values (?, ?)');
    earlier.transaction(() => {
      for (let i = 0; i < 5000; i++) insert.run(i % 10 === 0 ? 'waiting' : 'delivered', String(i));
    })();
    earlier.close();

    const store = openStore({ dataDir });
    try {
      const stats = await sql<{ idx: string }>`select idx from sqlite_stat1 where tbl = 'things'`.execute(store.db);
      expect(stats.rows.map((row) => row.idx)).toContain('things_status_at');
    } finally {
      await store.close();
    }
  });
});
