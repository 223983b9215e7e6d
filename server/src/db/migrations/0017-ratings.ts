import type { Migration } from 'kysely';
import type { Dialect } from '../database.ts';
import type { MigrationDb } from './index.ts';

/**
 * Ratings (issue 15): one per parcel and rater role — the sender and the receiver rate the runner,
 * the runner rates the sender. They go with either account (cascade): deleting a runner must not be
 * refused because someone rated them. No foreign key to parcels, as for proofs: deleting a parcel
 * removes its ratings in its own transaction (changes.ts).
 */
export const ratings = (dialect: Dialect): Migration => ({
  async up(db: MigrationDb) {
    await db.schema
      .createTable('ratings')
      .addColumn('id', dialect === 'postgres' ? 'serial' : 'integer', (c) =>
        dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement(),
      )
      .addColumn('parcel_id', 'text', (c) => c.notNull())
      .addColumn('rater_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
      .addColumn('rater_role', 'text', (c) => c.notNull())
      .addColumn('ratee_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
      .addColumn('stars', 'integer', (c) => c.notNull())
      .addColumn('comment', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addUniqueConstraint('ratings_parcel_role', ['parcel_id', 'rater_role'])
      .execute();
    // Averages are grouped by whom they rate; stars in the index so the sums read no table rows.
    await db.schema.createIndex('ratings_ratee').on('ratings').columns(['ratee_id', 'rater_role', 'stars']).execute();
    // Ratings go with their rater too: an account's deletion finds them by this.
    await db.schema.createIndex('ratings_rater').on('ratings').column('rater_id').execute();
  },
  async down(db: MigrationDb) {
    await db.schema.dropTable('ratings').execute();
  },
});
