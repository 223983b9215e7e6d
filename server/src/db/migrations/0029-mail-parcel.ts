import type { Migration } from 'kysely';
import type { MigrationDb } from './index.ts';

/**
 * Which parcel a message is about (issue 28, the back office's incident detail lists them): set
 * for parcel mail, null for an account's own (a reset or verification link) and for messages
 * written before. No foreign key: a message outlives a deleted parcel, as its timeline does.
 */
export const mailParcel: Migration = {
  async up(db: MigrationDb) {
    await db.schema.alterTable('mail_outbox').addColumn('parcel_id', 'text').execute();
    await db.schema.createIndex('mail_outbox_parcel').on('mail_outbox').columns(['parcel_id', 'id']).execute();
  },
  async down(db: MigrationDb) {
    await db.schema.dropIndex('mail_outbox_parcel').execute();
    await db.schema.alterTable('mail_outbox').dropColumn('parcel_id').execute();
  },
};
