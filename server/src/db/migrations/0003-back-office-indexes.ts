import type { Migration } from 'kysely';
import type { MigrationDb } from './index.ts';

/**
 * Indexes for the back office at a million parcels: every filter of GET /api/parcels walks an
 * index in (created_at, id) order, the admin map's status filter reads its bbox from one, and the
 * account search pages by name.
 */
export const backOfficeIndexes: Migration = {
  async up(db: MigrationDb) {
    await db.schema
      .createIndex('parcels_runner_created')
      .on('parcels')
      .columns(['runner_id', 'created_at', 'id'])
      .execute();
    await db.schema
      .createIndex('parcels_runner_status_created')
      .on('parcels')
      .columns(['runner_id', 'status', 'created_at', 'id'])
      .execute();
    await db.schema
      .createIndex('parcels_sender_status_created')
      .on('parcels')
      .columns(['sender_id', 'status', 'created_at', 'id'])
      .execute();
    await db.schema
      .createIndex('parcels_status_sender_point')
      .on('parcels')
      .columns(['status', 'sender_lat', 'sender_lng'])
      .execute();
    // The account search without a role (by role, accounts_role_name serves it).
    await db.schema.createIndex('accounts_name').on('accounts').columns(['name', 'id']).execute();
  },
  async down(db: MigrationDb) {
    for (const name of [
      'accounts_name',
      'parcels_status_sender_point',
      'parcels_sender_status_created',
      'parcels_runner_status_created',
      'parcels_runner_created',
    ]) {
      await db.schema.dropIndex(name).execute();
    }
  },
};
