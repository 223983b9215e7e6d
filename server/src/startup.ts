import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { messages } from '@csomag/domain/messages';
import SQLite from 'better-sqlite3';
import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'kysely';
import type { Config } from './config.ts';
import { migrateToLatest, type Store } from './db/database.ts';
import { ensureSuperadmin } from './modules/auth/superadmin.ts';
import { seedDemoData } from './seed/demo.ts';

/**
 * Everything an instance does to the database before it serves — migrations, the superadmin from
 * ADMIN_EMAIL, demo data — one instance at a time: on PostgreSQL any number may start at once
 * (a rolling deploy, a scaled-up service), and each of these steps reads before it writes.
 * Returns what to print for the person who started the app (demo credentials), if anything.
 */
export async function prepareDatabase(store: Store, config: Config, log: FastifyBaseLogger): Promise<string | null> {
  return withStartupLock(store, config.dataDir, async () => {
    await migrateToLatest(store, log);
    if (config.adminEmail && config.adminPassword) {
      await ensureSuperadmin(store.db, config.adminEmail, config.adminPassword);
      log.info({ email: config.adminEmail }, 'superadmin ready');
    }
    // Demo data only on an empty embedded database, or on PostgreSQL when DEMO_DATA=1 asks for it.
    const demoAsked = store.dialect === 'sqlite' ? config.demoData : process.env.DEMO_DATA === '1';
    if (!demoAsked) return null;
    const printed = await seedDemoData(store.db, config.dataDir);
    const saved = join(config.dataDir, 'demo-credentials.txt');
    return printed ?? (existsSync(saved) ? `Demo accounts: see ${saved}` : null);
  });
}

/** The data folder locks this process holds, until it exits. */
const heldDataDirs: SQLite.Database[] = [];

/**
 * SQLite serves one instance (live updates and limits live in its memory): a second process on
 * the same DATA_DIR is refused before it touches anything, rather than half-working beside the first.
 */
function holdDataDir(dataDir: string) {
  const lock = new SQLite(join(dataDir, 'instance.lock'), { timeout: 0 });
  try {
    lock.exec('begin exclusive');
  } catch (error) {
    lock.close();
    throw new Error(messages.instanceAlreadyRunning(dataDir), { cause: error });
  }
  heldDataDirs.push(lock);
}

/**
 * A PostgreSQL session lock held on one connection while `work` runs on others, so instances
 * starting together take turns; on SQLite the data folder's lock (one instance) is taken first.
 */
async function withStartupLock<T>(store: Store, dataDir: string, work: () => Promise<T>): Promise<T> {
  if (store.dialect !== 'postgres') {
    holdDataDir(dataDir);
    return work();
  }
  const key = `csomagkuldo-startup:${store.pgSchema ?? ''}`;
  return store.db.connection().execute(async (connection) => {
    await sql`select pg_advisory_lock(hashtext(${key}))`.execute(connection);
    try {
      return await work();
    } finally {
      await sql`select pg_advisory_unlock(hashtext(${key}))`.execute(connection);
    }
  });
}
