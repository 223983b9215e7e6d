import { type Migration, sql } from 'kysely';
import type { Dialect } from '../database.ts';
import type { MigrationDb } from './index.ts';

export const parcels = (dialect: Dialect): Migration => ({
  async up(db: MigrationDb) {
    await db.schema
      .createTable('parcels')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('sender_id', 'integer', (c) => c.notNull().references('accounts.id'))
      .addColumn('runner_id', 'integer', (c) => c.references('accounts.id'))
      .addColumn('category', 'text', (c) => c.notNull())
      .addColumn('weight_grams', 'integer', (c) => c.notNull().check(sql`weight_grams > 0`))
      .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('waiting', 'in_transit', 'delivered')`))
      .addColumn('sender_address', 'text', (c) => c.notNull())
      .addColumn('receiver_address', 'text', (c) => c.notNull())
      .addColumn('receiver_key', 'text', (c) => c.notNull())
      .addColumn('sender_lat', 'double precision', (c) => c.notNull())
      .addColumn('sender_lng', 'double precision', (c) => c.notNull())
      .addColumn('receiver_lat', 'double precision', (c) => c.notNull())
      .addColumn('receiver_lng', 'double precision', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('picked_up_at', 'text')
      .addColumn('delivered_at', 'text')
      .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
      .execute();
    // One index per list the app shows (DESIGN §3); id breaks ties for stable cursors.
    await db.schema
      .createIndex('parcels_status_created')
      .on('parcels')
      .columns(['status', 'created_at', 'id'])
      .execute();
    await db.schema
      .createIndex('parcels_sender_created')
      .on('parcels')
      .columns(['sender_id', 'created_at', 'id'])
      .execute();
    await db.schema.createIndex('parcels_runner_status').on('parcels').columns(['runner_id', 'status']).execute();
    await db.schema.createIndex('parcels_receiver_key').on('parcels').columns(['receiver_key', 'created_at']).execute();
    await db.schema.createIndex('parcels_created').on('parcels').columns(['created_at', 'id']).execute();
    await db.schema.createIndex('parcels_sender_point').on('parcels').columns(['sender_lat', 'sender_lng']).execute();

    await db.schema
      .createTable('parcel_events')
      .addColumn('id', dialect === 'postgres' ? 'serial' : 'integer', (c) => c.primaryKey())
      .addColumn('parcel_id', 'text', (c) => c.notNull())
      .addColumn('at', 'text', (c) => c.notNull())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('actor_id', 'integer')
      .addColumn('data', 'text')
      .execute();
    // No foreign key to parcels: the timeline outlives a deleted parcel (the deletion is an event).
    await db.schema.createIndex('parcel_events_parcel').on('parcel_events').columns(['parcel_id', 'id']).execute();

    await db.schema
      .createTable('geocode_cache')
      .addColumn('query_key', 'text', (c) => c.primaryKey())
      .addColumn('lat', 'double precision', (c) => c.notNull())
      .addColumn('lng', 'double precision', (c) => c.notNull())
      .addColumn('label', 'text', (c) => c.notNull())
      .addColumn('source', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
  },
  async down(db: MigrationDb) {
    await db.schema.dropTable('geocode_cache').execute();
    await db.schema.dropTable('parcel_events').execute();
    await db.schema.dropTable('parcels').execute();
  },
});
