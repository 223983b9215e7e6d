import { type Migration, sql } from 'kysely';
import type { Dialect } from '../database.ts';
import type { MigrationDb } from './index.ts';

/**
 * Runner trust (issue 15): the back office approves and suspends runners (`approved_at`,
 * `suspended_at`, `suspended_reason` on accounts), and senders and receivers report delivered
 * parcels as not received (`not_received_reports`). Every runner that exists already could carry
 * parcels before, so each is backfilled as approved at its registration.
 */
export const runnerTrust = (dialect: Dialect): Migration => ({
  async up(db: MigrationDb) {
    await db.schema.alterTable('accounts').addColumn('approved_at', 'text').execute();
    await db.schema.alterTable('accounts').addColumn('suspended_at', 'text').execute();
    await db.schema.alterTable('accounts').addColumn('suspended_reason', 'text').execute();
    await db
      .updateTable('accounts')
      .set((eb) => ({ approved_at: eb.ref('created_at') }))
      .where('role', '=', 'runner')
      .execute();
    await db.schema
      .createTable('not_received_reports')
      .addColumn('id', dialect === 'postgres' ? 'serial' : 'integer', (c) =>
        dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement(),
      )
      // No foreign key to parcels, like parcel_events: deleting a parcel removes its reports itself.
      .addColumn('parcel_id', 'text', (c) => c.notNull())
      .addColumn('reporter_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
      .addColumn('description', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('resolved_at', 'text')
      .addColumn('resolved_by', 'integer', (c) => c.references('accounts.id').onDelete('set null'))
      .addColumn('resolution', 'text')
      .execute();
    // One open report per parcel and reporter; also the lookup of a parcel's open reports.
    await db.schema
      .createIndex('not_received_reports_open')
      .on('not_received_reports')
      .columns(['parcel_id', 'reporter_id'])
      .unique()
      .where(sql.ref('resolved_at'), 'is', null)
      .execute();
    // The back office's lists, newest first, open or resolved.
    await db.schema
      .createIndex('not_received_reports_created')
      .on('not_received_reports')
      .columns(['created_at', 'id'])
      .execute();
  },
  async down(db: MigrationDb) {
    await db.schema.dropTable('not_received_reports').execute();
    await db.schema.alterTable('accounts').dropColumn('suspended_reason').execute();
    await db.schema.alterTable('accounts').dropColumn('suspended_at').execute();
    await db.schema.alterTable('accounts').dropColumn('approved_at').execute();
  },
});
