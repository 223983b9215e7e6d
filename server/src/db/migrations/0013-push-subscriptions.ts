import type { Migration } from 'kysely';
import type { Dialect } from '../database.ts';
import type { MigrationDb } from './index.ts';

/**
 * Web Push (issue 12, docs/decisions/0018): the devices that get an account's notifications, the
 * kinds each account switched off, and the claims that make one instance — the first to insert a
 * change's id — send that change's notifications when several listen to one PostgreSQL.
 */
export const pushSubscriptions = (dialect: Dialect): Migration => ({
  async up(db: MigrationDb) {
    await db.schema
      .createTable('push_subscriptions')
      .addColumn('id', dialect === 'postgres' ? 'serial' : 'integer', (c) =>
        dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement(),
      )
      .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
      .addColumn('endpoint', 'text', (c) => c.notNull().unique())
      .addColumn('p256dh', 'text', (c) => c.notNull())
      .addColumn('auth', 'text', (c) => c.notNull())
      .addColumn('label', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('push_subscriptions_account').on('push_subscriptions').column('account_id').execute();

    await db.schema
      .createTable('push_muted_kinds')
      .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
      .addColumn('kind', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('push_muted_kinds_pk', ['account_id', 'kind'])
      .execute();

    await db.schema
      .createTable('push_claims')
      .addColumn('change_id', 'bigint', (c) => c.primaryKey())
      .addColumn('claimed_ms', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('push_claims_claimed').on('push_claims').column('claimed_ms').execute();
  },
  async down(db: MigrationDb) {
    await db.schema.dropTable('push_claims').execute();
    await db.schema.dropTable('push_muted_kinds').execute();
    await db.schema.dropTable('push_subscriptions').execute();
  },
});
