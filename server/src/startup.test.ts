import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { messages } from '@csomag/domain/messages';
import { sql } from 'kysely';
import pg from 'pg';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from './app.ts';
import { loadConfig } from './config.ts';
import { migrateToLatest, openStore, type Store } from './db/database.ts';
import { migrations } from './db/migrations/index.ts';
import { prepareDatabase } from './startup.ts';
import { testStore } from './test/harness.ts';

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/** An empty database and a way to open as many stores (instances) on it as a test wants. */
async function emptyDatabase(): Promise<{ dataDir: string; open: () => Store }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'csomag-startup-'));
  cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }));
  if (testStore !== 'postgres') return { dataDir, open: () => openStore({ dataDir }) };
  const url = process.env.TEST_DATABASE_URL ?? '';
  const schema = `s_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  cleanups.push(async () => {
    await admin.query(`drop schema ${schema} cascade`);
    await admin.end();
  });
  return { dataDir, open: () => openStore({ dataDir, databaseUrl: url, pgSchema: schema }) };
}

describe('starting several instances at once on an empty database', () => {
  it.runIf(testStore === 'sqlite')('serves one instance per data folder and refuses the others cleanly', async () => {
    const { dataDir, open } = await emptyDatabase();
    const config = loadConfig({ DATA_DIR: dataDir, WEB_DIST: '', DEMO_DATA: '1' });
    const stores = [open(), open(), open()];
    cleanups.push(async () => {
      for (const store of stores) await store.close();
    });
    const results = await Promise.allSettled(
      stores.map((store) => prepareDatabase(store, config, pino({ level: 'silent' }))),
    );
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
    for (const result of results.filter((result) => result.status === 'rejected')) {
      expect(String(result.reason)).toContain(messages.instanceAlreadyRunning(dataDir));
    }
    // The one that started seeded the demo once.
    const [store] = stores as [Store];
    const demoAdmins = await store.db
      .selectFrom('accounts')
      .select('user_name')
      .where('role', '=', 'superadmin')
      .execute();
    expect(demoAdmins).toEqual([{ user_name: 'admin' }]);
  });

  it.runIf(testStore === 'postgres')(
    'brings every one of them up, with one superadmin and each migration applied once',
    async () => {
      const { dataDir, open } = await emptyDatabase();
      const config = loadConfig({
        DATA_DIR: dataDir,
        WEB_DIST: '',
        ADMIN_EMAIL: 'uzemelteto@example.hu',
        ADMIN_PASSWORD: 'uzemeltetoi-jelszo',
        DEMO_DATA: '0',
      });
      const stores = [open(), open(), open()];
      cleanups.push(async () => {
        for (const store of stores) await store.close();
      });
      const log = pino({ level: 'silent' });
      // Without the start-up lock, two of these found no superadmin and then collided inserting one.
      const results = await Promise.allSettled(stores.map((store) => prepareDatabase(store, config, log)));
      expect(results.map((result) => result.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled']);

      const [store] = stores as [Store];
      const admins = await store.db
        .selectFrom('accounts')
        .select(['email', 'role'])
        .where('role', '=', 'superadmin')
        .execute();
      expect(admins).toEqual([{ email: 'uzemelteto@example.hu', role: 'superadmin' }]);
      const applied = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(store.db);
      expect(applied.rows.map((row) => row.name)).toEqual(Object.keys(migrations(store.dialect)).sort());
    },
  );
});

describe('a rolling upgrade', () => {
  it('lets an older release start on a database a newer one has migrated, and serve', async () => {
    const { dataDir, open } = await emptyDatabase();
    const config = loadConfig({ DATA_DIR: dataDir, WEB_DIST: '', DEMO_DATA: '0' });
    const store = open();
    cleanups.push(() => store.close());
    await migrateToLatest(store);
    // A migration from a later release, applied by an instance of it.
    await sql`insert into kysely_migration (name, timestamp) values ('9999-from-the-future', ${new Date().toISOString()})`.execute(
      store.db,
    );
    const warnings: object[] = [];
    await migrateToLatest(store, { warn: (obj) => warnings.push(obj) });
    expect(warnings).toEqual([{ newer: ['9999-from-the-future'] }]);
    const app = await buildApp({ config, store, logger: false });
    cleanups.push(() => app.close());
    expect((await app.inject({ method: 'GET', url: '/api/ready' })).statusCode).toBe(200);
  });

  it('refuses a database that is newer and yet lacks a migration this release needs', async () => {
    const { open } = await emptyDatabase();
    const store = open();
    cleanups.push(() => store.close());
    await migrateToLatest(store);
    const last = Object.keys(migrations(store.dialect)).sort().at(-1) ?? '';
    await sql`delete from kysely_migration where name = ${last}`.execute(store.db);
    await sql`insert into kysely_migration (name, timestamp) values ('9999-from-the-future', ${new Date().toISOString()})`.execute(
      store.db,
    );
    await expect(migrateToLatest(store)).rejects.toThrow(/does not know \(9999-from-the-future\).*lacks some it needs/);
  });
});
