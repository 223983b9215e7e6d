import { type Migration, sql } from 'kysely';
import type { Dialect } from '../database.ts';
import type { MigrationDb } from './index.ts';

/**
 * Saved trips (issue 13, docs/decisions/0021): a runner's regular trip, its weekdays (ISO numbers,
 * '1,2,3,4,5') and departure time ('07:40', Budapest). Read only by its owner. The matches query
 * reads waiting parcels' points from a partial index of its own.
 */
export const trips = (dialect: Dialect): Migration => ({
  async up(db: MigrationDb) {
    await db.schema
      .createTable('saved_trips')
      .addColumn('id', dialect === 'postgres' ? 'serial' : 'integer', (c) =>
        dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement(),
      )
      .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
      .addColumn('label', 'text', (c) => c.notNull())
      .addColumn('from_lat', 'double precision', (c) => c.notNull())
      .addColumn('from_lng', 'double precision', (c) => c.notNull())
      .addColumn('to_lat', 'double precision', (c) => c.notNull())
      .addColumn('to_lng', 'double precision', (c) => c.notNull())
      .addColumn('mode', 'text', (c) => c.notNull())
      .addColumn('max_detour_minutes', 'integer', (c) => c.notNull())
      .addColumn('weekdays', 'text', (c) => c.notNull())
      .addColumn('time', 'text', (c) => c.notNull())
      .addColumn('paused', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('saved_trips_account').on('saved_trips').column('account_id').execute();
    // Live offers look up the trips departing within the hour: not paused, time in a range.
    await db.schema.createIndex('saved_trips_paused_time').on('saved_trips').columns(['paused', 'time']).execute();
    // The matches query: waiting parcels by pickup point, the delivery point read from the index
    // too (no table row per candidate); partial, so it holds the pool, not every parcel ever sent.
    await sql`create index if not exists parcels_waiting_points on parcels
      (sender_lat, sender_lng, receiver_lat, receiver_lng, created_at, id) where status = 'waiting'`.execute(db);
  },
  async down(db: MigrationDb) {
    await sql`drop index if exists parcels_waiting_points`.execute(db);
    await db.schema.dropTable('saved_trips').execute();
  },
});
