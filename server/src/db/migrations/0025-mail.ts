import type { Migration } from 'kysely';
import type { Dialect } from '../database.ts';
import type { MigrationDb } from './index.ts';

/**
 * Email (issue 29, docs/decisions/0031): the outbox every message is written to in the transaction
 * of the change that caused it, sent by a worker (once across instances: a row is claimed by a
 * conditional UPDATE); the addresses mail no longer goes to (a permanent bounce); and the
 * password reset links, kept as hashes only.
 */
export const mail = (dialect: Dialect): Migration => ({
  async up(db: MigrationDb) {
    await db.schema
      .createTable('mail_outbox')
      .addColumn('id', dialect === 'postgres' ? 'serial' : 'integer', (c) =>
        dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement(),
      )
      .addColumn('to_address', 'text', (c) => c.notNull())
      .addColumn('template', 'text', (c) => c.notNull())
      .addColumn('subject', 'text', (c) => c.notNull())
      .addColumn('text_body', 'text', (c) => c.notNull())
      .addColumn('html_body', 'text', (c) => c.notNull())
      /** For a non-essential message: the one-click stop link (RFC 8058); null for a password reset. */
      .addColumn('unsubscribe_url', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      /** Not to be tried before this (ms since the epoch): the back-off after a failure. */
      .addColumn('due_ms', 'bigint', (c) => c.notNull())
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      /** A worker has it until then (ms): another instance leaves it alone. */
      .addColumn('claimed_until_ms', 'bigint')
      .addColumn('sent_at', 'text')
      .addColumn('failed_at', 'text')
      .addColumn('last_error', 'text')
      /** Without SMTP: the .eml file it was written to under DATA_DIR/mail. */
      .addColumn('file_name', 'text')
      .execute();
    await db.schema
      .createIndex('mail_outbox_due')
      .on('mail_outbox')
      .columns(['sent_at', 'failed_at', 'due_ms'])
      .execute();

    await db.schema
      .createTable('mail_suppressions')
      .addColumn('address', 'text', (c) => c.primaryKey())
      .addColumn('reason', 'text', (c) => c.notNull())
      .addColumn('at', 'text', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('password_resets')
      .addColumn('token_hash', 'text', (c) => c.primaryKey())
      .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .addColumn('used_at', 'text')
      .execute();
    await db.schema.createIndex('password_resets_account').on('password_resets').column('account_id').execute();
  },
  async down(db: MigrationDb) {
    await db.schema.dropTable('password_resets').execute();
    await db.schema.dropTable('mail_suppressions').execute();
    await db.schema.dropTable('mail_outbox').execute();
  },
});
