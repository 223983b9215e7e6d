import { type Migration, sql } from 'kysely';
import type { Dialect } from '../database.ts';
import type { MigrationDb } from './index.ts';

export const accountsAndSessions = (dialect: Dialect): Migration => ({
  async up(db: MigrationDb) {
    await db.schema
      .createTable('accounts')
      .addColumn('id', dialect === 'postgres' ? 'serial' : 'integer', (c) => c.primaryKey())
      .addColumn('user_name', 'text', (c) => c.notNull())
      .addColumn('email', 'text', (c) => c.notNull().unique())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('phone', 'text', (c) => c.notNull())
      .addColumn('address', 'text', (c) => c.notNull())
      .addColumn('address_key', 'text', (c) => c.notNull())
      .addColumn('password_hash', 'text', (c) => c.notNull())
      .addColumn('role', 'text', (c) => c.notNull().check(sql`role in ('user', 'runner', 'superadmin')`))
      .addColumn('runner_status', 'text', (c) => c.check(sql`runner_status in ('inactive', 'active')`))
      .addColumn('last_lat', 'double precision')
      .addColumn('last_lng', 'double precision')
      .addColumn('last_accuracy', 'double precision')
      .addColumn('located_at', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    // Case-insensitive uniqueness: "Anna" and "anna" are one user name.
    await db.schema
      .createIndex('accounts_user_name_lower')
      .on('accounts')
      .unique()
      .expression(sql`lower(user_name)`)
      .execute();
    await db.schema.createIndex('accounts_address_key').on('accounts').column('address_key').execute();
    await db.schema.createIndex('accounts_role_name').on('accounts').columns(['role', 'name']).execute();

    await db.schema
      .createTable('sessions')
      .addColumn('token_hash', 'text', (c) => c.primaryKey())
      .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('sessions_account').on('sessions').column('account_id').execute();
  },
  async down(db: MigrationDb) {
    await db.schema.dropTable('sessions').execute();
    await db.schema.dropTable('accounts').execute();
  },
});
