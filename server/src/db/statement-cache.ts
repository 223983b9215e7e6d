import type SQLite from 'better-sqlite3';
import type { SqliteDatabase, SqliteStatement } from 'kysely';
import { bump, trim } from '../lru.ts';

/** Distinct statements kept: the app has a few hundred query shapes; keyset pages add none. */
export const STATEMENT_CACHE_SIZE = 500;

/**
 * better-sqlite3 behind Kysely's SQLite dialect, preparing each SQL text once. Kysely asks for a
 * new statement on every query, and preparing was a fifth of the public tracking route's CPU
 * (docs/decisions/0013). A statement is bound afresh on every run, so reuse shares no values;
 * SQLite recompiles a prepared statement by itself when the schema changes under it (a migration),
 * so a cached one never answers from an old schema. Least recently used texts are dropped first.
 */
export function cachingStatements(database: SQLite.Database, size = STATEMENT_CACHE_SIZE): SqliteDatabase {
  const statements = new Map<string, SqliteStatement>();
  return {
    prepare(sql: string): SqliteStatement {
      const statement = statements.get(sql) ?? database.prepare(sql);
      bump(statements, sql, statement);
      trim(statements, size);
      return statement;
    },
    close() {
      statements.clear();
      database.close();
    },
  };
}
