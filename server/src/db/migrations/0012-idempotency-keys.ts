import type { Migration } from 'kysely';
import type { Dialect } from '../database.ts';
import type { MigrationDb } from './index.ts';

/**
 * Idempotent writes (docs/decisions/0017): a signed-in account's Idempotency-Key, the fingerprint
 * of the request it was first used with, and that request's answer once it succeeded (status and
 * JSON body; null while it is under way). The row is written in the transaction of the change it
 * guards, so the primary key stops a second change under the same key on both stores. Kept for
 * IDEMPOTENCY_KEY_TTL_MS (plugins/idempotency.ts prunes them).
 *
 * parcel_events.occurred_at: when the person says the action happened (an action sent later from
 * the offline outbox), beside `at`, when the server recorded it; null: at `at`.
 */
export const idempotencyKeys = (_dialect: Dialect): Migration => ({
  async up(db: MigrationDb) {
    await db.schema
      .createTable('idempotency_keys')
      .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
      .addColumn('key', 'text', (c) => c.notNull())
      .addColumn('fingerprint', 'text', (c) => c.notNull())
      .addColumn('created_ms', 'bigint', (c) => c.notNull())
      .addColumn('status', 'integer')
      .addColumn('body', 'text')
      .addPrimaryKeyConstraint('idempotency_keys_pk', ['account_id', 'key'])
      .execute();
    await db.schema.createIndex('idempotency_keys_created').on('idempotency_keys').column('created_ms').execute();
    await db.schema.alterTable('parcel_events').addColumn('occurred_at', 'text').execute();
  },
  async down(db: MigrationDb) {
    await db.schema.alterTable('parcel_events').dropColumn('occurred_at').execute();
    await db.schema.dropTable('idempotency_keys').execute();
  },
});
