import { type Migration, sql } from 'kysely';
import type { Dialect } from '../database.ts';
import type { MigrationDb } from './index.ts';

/**
 * Rating comments are read and moderated (issue 4, docs/decisions/0025): the back office hides an
 * abusive comment with a reason. The ratings row carries the hide in force (`hidden_at`,
 * `hidden_by`, `hidden_reason`; all null while the comment is shown), and `rating_moderations`
 * records every hide and every showing again, who did it, when and why. Expand only (ADR 0010):
 * nullable columns and a new table, so the release before this one keeps writing ratings as it did.
 */
export const ratingModeration = (dialect: Dialect): Migration => ({
  async up(db: MigrationDb) {
    await db.schema.alterTable('ratings').addColumn('hidden_at', 'text').execute();
    await db.schema
      .alterTable('ratings')
      .addColumn('hidden_by', 'integer', (c) => c.references('accounts.id').onDelete('set null'))
      .execute();
    await db.schema.alterTable('ratings').addColumn('hidden_reason', 'text').execute();
    await db.schema
      .createTable('rating_moderations')
      .addColumn('id', dialect === 'postgres' ? 'serial' : 'integer', (c) =>
        dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement(),
      )
      // The record goes with its rating (a deleted parcel's or account's ratings).
      .addColumn('rating_id', 'integer', (c) => c.notNull().references('ratings.id').onDelete('cascade'))
      .addColumn('action', 'text', (c) => c.notNull().check(sql`action in ('hide', 'show')`))
      .addColumn('reason', 'text')
      .addColumn('by_id', 'integer', (c) => c.references('accounts.id').onDelete('set null'))
      .addColumn('at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('rating_moderations_rating')
      .on('rating_moderations')
      .columns(['rating_id', 'id'])
      .execute();
    // The comments about a runner, newest first (keyset by time and id); only rows with a comment.
    await db.schema
      .createIndex('ratings_ratee_comments')
      .on('ratings')
      .columns(['ratee_id', 'created_at', 'id'])
      .where(sql.ref('comment'), 'is not', null)
      .execute();
  },
  async down(db: MigrationDb) {
    await db.schema.dropIndex('ratings_ratee_comments').execute();
    await db.schema.dropTable('rating_moderations').execute();
    await db.schema.alterTable('ratings').dropColumn('hidden_reason').execute();
    await db.schema.alterTable('ratings').dropColumn('hidden_by').execute();
    await db.schema.alterTable('ratings').dropColumn('hidden_at').execute();
  },
});
