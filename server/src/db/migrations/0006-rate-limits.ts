import { type Migration, sql } from 'kysely';
import type { Dialect } from '../database.ts';
import type { MigrationDb } from './index.ts';

/**
 * Abuse-limit counters shared by every instance on PostgreSQL (DESIGN §4, docs/decisions/0003):
 * one row per limited key and fixed window; `reset_at` is epoch milliseconds. SQLite gets the
 * table too (one set of migrations) but counts in process memory and leaves it empty.
 *
 * UNLOGGED on PostgreSQL: every request writes here, and a counter needs no WAL. The price is
 * that a database crash empties the table (windows start afresh) and replicas do not carry it.
 */
export const rateLimits = (dialect: Dialect): Migration => ({
  async up(db: MigrationDb) {
    let table = db.schema.createTable('rate_limits');
    if (dialect === 'postgres') table = table.modifyFront(sql`unlogged`);
    await table
      .addColumn('key', 'text', (c) => c.primaryKey())
      .addColumn('count', 'integer', (c) => c.notNull())
      .addColumn('reset_at', 'bigint', (c) => c.notNull())
      .execute();
    // The sweep of ended windows finds them without reading the live ones.
    await db.schema.createIndex('rate_limits_reset_at').on('rate_limits').column('reset_at').execute();
  },
  async down(db: MigrationDb) {
    await db.schema.dropTable('rate_limits').execute();
  },
});
