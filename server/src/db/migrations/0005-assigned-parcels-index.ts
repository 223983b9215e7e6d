import type { Migration } from 'kysely';
import type { MigrationDb } from './index.ts';

/** A runner's in-transit list is read in pickup order; without this a busy runner's page sorts in memory. */
export const assignedParcelsIndex: Migration = {
  async up(db: MigrationDb) {
    await db.schema
      .createIndex('parcels_runner_status_picked_up')
      .on('parcels')
      .columns(['runner_id', 'status', 'picked_up_at', 'id'])
      .execute();
  },
  async down(db: MigrationDb) {
    await db.schema.dropIndex('parcels_runner_status_picked_up').execute();
  },
};
