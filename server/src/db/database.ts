import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import {
  type Compilable,
  type CompiledQuery,
  Kysely,
  type LogEvent,
  Migrator,
  PostgresAdapter,
  PostgresDialect,
  sql,
} from 'kysely';
import pg from 'pg';
import { isMissingTable } from './errors.ts';
import { migrations, type SqliteSchemaEdit } from './migrations/index.ts';
import type { Database } from './schema.ts';
import { GroupCommitSqliteDialect } from './sqlite-group-commit.ts';
import { BEHIND, preparingPool } from './statement-cache.ts';

export type Dialect = 'sqlite' | 'postgres';

/** The embedded database's file in DATA_DIR (backups and restores name it too). */
export const DATABASE_FILE = 'csomagkuldo.sqlite';

export interface Store {
  db: Kysely<Database>;
  dialect: Dialect;
  /** A PostgreSQL pool for LISTEN (change feed); undefined on SQLite. */
  pgPool: pg.Pool | undefined;
  /** The PostgreSQL schema in use when not the default (tests): it names the change-feed channel. */
  pgSchema: string | undefined;
  /** The connection string, for the change feed's own LISTEN connection. */
  databaseUrl: string | undefined;
  /** Told of every query and its duration (metrics); one observer, replaced by the next. */
  observeQueries(observer: QueryObserver): void;
  /** SQLite only: edits a table's stored definition, for migrations that widen a CHECK. */
  editSqliteSchema?: SqliteSchemaEdit;
  close(): Promise<void>;
}

export type QueryObserver = (durationMs: number, failed: boolean) => void;

/** Told when the pool loses an idle connection; the pool replaces it on next use. */
export type ConnectionErrorListener = (error: Error) => void;

export interface StoreOptions {
  dataDir: string;
  databaseUrl?: string | undefined;
  /** PostgreSQL schema to use (tests isolate each file in its own). */
  pgSchema?: string | undefined;
  sqliteFile?: string | undefined;
  /** Where a dropped PostgreSQL connection is reported (a log); never left unhandled. */
  onConnectionError?: ConnectionErrorListener | undefined;
}

/** A request waits this long for a connection before it is told the database is unavailable (503). */
const CONNECT_TIMEOUT_MS = 5000;
/** `PRAGMA optimize` again while the store is open: SQLite suggests every few hours. */
const SQLITE_OPTIMIZE_EVERY_MS = 3 * 60 * 60 * 1000;

/** NOTIFY is per database; tests share one, so each test schema gets its own channel. */
export function changeChannel(pgSchema: string | undefined): string {
  if (pgSchema === undefined) return 'csk_changes';
  if (!/^[a-z_][a-z0-9_]{0,50}$/.test(pgSchema)) throw new Error(`unusable schema name for a channel: ${pgSchema}`);
  return `csk_changes_${pgSchema}`;
}

/**
 * pg options that name every connection, so an operator can tell ours apart in pg_stat_activity,
 * and tell the database which channel this app's changes are announced on (the change log's
 * commit trigger reads it: migration 0011).
 */
export function pgConnectionOptions(
  options: { databaseUrl?: string | undefined; pgSchema?: string | undefined },
  applicationName: string,
) {
  const searchPath = options.pgSchema ? `-c search_path=${options.pgSchema} ` : '';
  return {
    connectionString: options.databaseUrl,
    application_name: applicationName,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    options: `${searchPath}-c csomagkuldo.change_channel=${changeChannel(options.pgSchema)}`,
  };
}

// COUNT(*) and bigint come back as strings from pg; counts here always fit a JS number.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number.parseInt(value, 10));

export function openStore(options: StoreOptions): Store {
  let observer: QueryObserver | undefined;
  const log = (event: LogEvent) => observer?.(event.queryDurationMillis, event.level === 'error');
  const observeQueries = (next: QueryObserver) => {
    observer = next;
  };
  if (options.databaseUrl) {
    const pool = new pg.Pool({ ...pgConnectionOptions(options, 'csomagkuldo'), max: 10 });
    const reportLost = options.onConnectionError ?? (() => {});
    // A connection the database ends (restart, failover, pg_terminate_backend) emits 'error': on an
    // idle one the pool's event, on one in use the client's. Unheard, either kills the process.
    pool.on('error', reportLost);
    pool.on('connect', (client) => client.on('error', reportLost));
    // Each query's plan is kept per connection (named statements): docs/decisions/0016.
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: preparingPool(pool) }), log });
    return {
      db,
      dialect: 'postgres',
      pgPool: pool,
      pgSchema: options.pgSchema,
      databaseUrl: options.databaseUrl,
      observeQueries,
      close: () => db.destroy(),
    };
  }
  const file = options.sqliteFile ?? join(options.dataDir, DATABASE_FILE);
  const writer = new SQLite(file);
  writer.pragma('journal_mode = WAL');
  // FULL: a confirmed pickup or delivery survives a power cut.
  writer.pragma('synchronous = FULL');
  writer.pragma('foreign_keys = ON');
  // Checkpoints run inside a COMMIT, on the event loop: ten times fewer of them, each copying the
  // pages many commits changed once (the WAL may reach ~40 MB): ~15 % more state changes a second.
  writer.pragma('wal_autocheckpoint = 10000');
  // Reads outside transactions see only committed data on a connection of their own (WAL lets them).
  const reader = new SQLite(file);
  reader.pragma('busy_timeout = 5000');
  reader.pragma('query_only = ON');
  // Query plans from statistics, as SQLite advises for long-lived connections: without them SQLite
  // guesses that `status = ?` matches ten rows and walks that index whatever else a query says
  // (docs/decisions/0015). Bounded work: analysis_limit samples, and only tables that need it.
  writer.pragma('analysis_limit = 400');
  writer.pragma('optimize = 0x10002');
  const db = new Kysely<Database>({ dialect: new GroupCommitSqliteDialect({ writer, reader }), log });
  const optimizer = setInterval(() => {
    // Between batches (the dialect runs pragmas alone); a busy file is tried again next time.
    sql`pragma optimize`.execute(db).catch(() => {});
  }, SQLITE_OPTIMIZE_EVERY_MS);
  optimizer.unref();
  return {
    db,
    dialect: 'sqlite',
    pgPool: undefined,
    pgSchema: undefined,
    databaseUrl: undefined,
    observeQueries,
    editSqliteSchema: (table, from, to) => editTableDefinition(writer, table, from, to),
    close: () => {
      clearInterval(optimizer);
      return db.destroy();
    },
  };
}

/**
 * SQLite's procedure for changing a constraint without rebuilding the table
 * (sqlite.org/lang_altertable.html, "Making Other Kinds Of Table Schema Changes"): the stored
 * CREATE TABLE text is edited in one transaction and the schema version bumped, so every
 * connection reads the table's definition again. Only for a constraint every row already meets
 * (a wider CHECK); the file is checked after. better-sqlite3 refuses writes to sqlite_schema
 * unless in unsafe mode, taken for this alone. Synchronous on the writer: migrations run at start,
 * before anything else writes.
 */
function editTableDefinition(writer: SQLite.Database, table: string, from: string, to: string) {
  const current = writer
    .prepare(`select sql from sqlite_schema where type = 'table' and name = ?`)
    .pluck()
    .get(table) as string | undefined;
  if (current === undefined || !current.includes(from)) {
    throw new Error(`table ${table}'s definition does not hold ${from}`);
  }
  writer.unsafeMode(true);
  try {
    writer.transaction(() => {
      const version = writer.pragma('schema_version', { simple: true }) as number;
      writer.pragma('writable_schema = ON');
      writer
        .prepare(`update sqlite_schema set sql = ? where type = 'table' and name = ?`)
        .run(current.replace(from, to), table);
      writer.pragma(`schema_version = ${version + 1}`);
      writer.pragma('writable_schema = OFF');
    })();
  } finally {
    writer.unsafeMode(false);
  }
  const check = writer.pragma('quick_check', { simple: true });
  if (check !== 'ok') throw new Error(`the database failed its check after editing ${table}: ${String(check)}`);
}

/**
 * Applies this release's migrations. A database already migrated by a newer release (an older
 * instance restarting during a rolling upgrade) is left as it is when every migration this
 * release knows is applied: migrations only add (docs/decisions/0010), so the older code still
 * finds everything it uses. Kysely would refuse to start instead.
 */
export async function migrateToLatest(store: Store, log?: { warn(obj: object, msg: string): void }): Promise<void> {
  const known = migrations(store.dialect, store.editSqliteSchema);
  const applied = await appliedMigrations(store);
  const newer = applied.filter((name) => !(name in known));
  if (newer.length > 0) {
    const missing = missingFrom(known, applied);
    if (missing.length > 0) {
      throw new Error(
        `the database has migrations this release does not know (${newer.join(', ')}) and lacks some it needs (${missing.join(', ')})`,
      );
    }
    log?.warn({ newer }, 'the database was migrated by a newer release; leaving it as it is');
    return;
  }
  const migrator = new Migrator({
    db: store.db,
    provider: { getMigrations: async () => known },
    // Kysely looks for its own tables in every schema unless told which: another test's schema would fool it.
    ...(store.pgSchema ? { migrationTableSchema: store.pgSchema } : {}),
  });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`migration ${failed?.migrationName ?? ''} failed: ${String(error)}`, { cause: error });
  }
}

/** This release's migrations the database has not had (readiness asks too). */
export async function missingMigrations(store: Store): Promise<string[]> {
  return missingFrom(migrations(store.dialect), await appliedMigrations(store));
}

const missingFrom = (known: Record<string, unknown>, applied: string[]) =>
  Object.keys(known).filter((name) => !applied.includes(name));

/** Names of the migrations applied to this database; none before the first start. */
async function appliedMigrations(store: Store): Promise<string[]> {
  try {
    // Kysely's own table (in the search path: the test schema in tests), not in our typed schema.
    const result = await sql<{ name: string }>`select name from kysely_migration`.execute(store.db);
    return result.rows.map((row) => row.name);
  } catch (error) {
    if (isMissingTable(error)) return [];
    throw error;
  }
}

export const nowIso = () => new Date().toISOString();

/** Whether `db` (a transaction too) runs on PostgreSQL: for a statement SQLite has no form of (an INSERT in WITH). */
export const onPostgres = <DB = Database>(db: Kysely<DB>) => db.getExecutor().adapter instanceof PostgresAdapter;

/**
 * A write whose answer nobody reads (no RETURNING, no count looked at): inside a transaction on
 * PostgreSQL it goes with the transaction's next statement, its COMMIT at the latest, in one round
 * trip (statement-cache.ts). If it fails, that next statement fails with its error, and the
 * transaction is rolled back as it would have been at once. Elsewhere it runs as any statement.
 */
export async function sendBehind<DB = Database>(db: Kysely<DB>, query: Compilable<unknown> | CompiledQuery<unknown>) {
  const compiled = 'compile' in query ? query.compile() : query;
  await db.executeQuery(onPostgres(db) ? { ...compiled, sql: BEHIND + compiled.sql } : compiled);
}
