import type { Migration } from 'kysely';
import type { MigrationDb } from './index.ts';

/**
 * Mail about parcels and verified addresses (issue 29, docs/decisions/0031):
 * - `parcels.receiver_email`: the receiver's address the sender typed (optional), told of the
 *   parcel's way; `receiver_mail_stopped_at` once they asked for no more; `receiver_near_mailed_at`
 *   once they were told a runner is near (told once per parcel).
 * - `accounts.email_verified_at`: when the account's address was shown to be theirs (a link);
 *   `pending_email`: a new address waiting for its link, the old one in use until then.
 * - `email_verifications`: those links, as hashes only, like password_resets.
 * - `mail_muted_kinds`: the sender's status mails switched off, per kind (absent = on).
 */
export const parcelMail: Migration = {
  async up(db: MigrationDb) {
    await db.schema.alterTable('parcels').addColumn('receiver_email', 'text').execute();
    await db.schema.alterTable('parcels').addColumn('receiver_mail_stopped_at', 'text').execute();
    await db.schema.alterTable('parcels').addColumn('receiver_near_mailed_at', 'text').execute();
    await db.schema.alterTable('accounts').addColumn('email_verified_at', 'text').execute();
    await db.schema.alterTable('accounts').addColumn('pending_email', 'text').execute();
    await db.schema
      .createTable('email_verifications')
      .addColumn('token_hash', 'text', (c) => c.primaryKey())
      .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
      .addColumn('email', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .addColumn('used_at', 'text')
      .execute();
    await db.schema.createIndex('email_verifications_account').on('email_verifications').column('account_id').execute();
    await db.schema
      .createTable('mail_muted_kinds')
      .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
      .addColumn('kind', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('mail_muted_kinds_pk', ['account_id', 'kind'])
      .execute();
  },
  async down(db: MigrationDb) {
    await db.schema.dropTable('mail_muted_kinds').execute();
    await db.schema.dropTable('email_verifications').execute();
    await db.schema.alterTable('accounts').dropColumn('pending_email').execute();
    await db.schema.alterTable('accounts').dropColumn('email_verified_at').execute();
    await db.schema.alterTable('parcels').dropColumn('receiver_near_mailed_at').execute();
    await db.schema.alterTable('parcels').dropColumn('receiver_mail_stopped_at').execute();
    await db.schema.alterTable('parcels').dropColumn('receiver_email').execute();
  },
};
