import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import { migrations } from './migrations/index.ts';
import type { Database } from './schema.ts';

export type Dialect = 'sqlite' | 'postgres';

export interface Store {
  db: Kysely<Database>;
  dialect: Dialect;
  /** A PostgreSQL pool for LISTEN (change feed); undefined on SQLite. */
  pgPool: pg.Pool | undefined;
  /** The PostgreSQL schema in use when not the default (tests): it names the change-feed channel. */
  pgSchema: string | undefined;
  close(): Promise<void>;
}

export interface StoreOptions {
  dataDir: string;
  databaseUrl?: string | undefined;
  /** PostgreSQL schema to use (tests isolate each file in its own). */
  pgSchema?: string | undefined;
  sqliteFile?: string | undefined;
}

// COUNT(*) and bigint come back as strings from pg; counts here always fit a JS number.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number.parseInt(value, 10));

export function openStore(options: StoreOptions): Store {
  if (options.databaseUrl) {
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: 10,
      ...(options.pgSchema ? { options: `-c search_path=${options.pgSchema}` } : {}),
    });
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    return { db, dialect: 'postgres', pgPool: pool, pgSchema: options.pgSchema, close: () => db.destroy() };
  }
  const sqlite = new SQLite(options.sqliteFile ?? join(options.dataDir, 'csomagkuldo.sqlite'));
  sqlite.pragma('journal_mode = WAL');
  // FULL: a confirmed pickup or delivery survives a power cut.
  sqlite.pragma('synchronous = FULL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
  return { db, dialect: 'sqlite', pgPool: undefined, pgSchema: undefined, close: () => db.destroy() };
}

export async function migrateToLatest(store: Store): Promise<void> {
  const migrator = new Migrator({
    db: store.db,
    provider: { getMigrations: async () => migrations(store.dialect) },
    // Kysely looks for its own tables in every schema unless told which: another test's schema would fool it.
    ...(store.pgSchema ? { migrationTableSchema: store.pgSchema } : {}),
  });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`migration ${failed?.migrationName ?? ''} failed: ${String(error)}`, { cause: error });
  }
}

export const nowIso = () => new Date().toISOString();
