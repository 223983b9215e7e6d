import type { Migration } from 'kysely';
import type { MigrationDb } from './index.ts';

/**
 * The language an account chose (issue 30): 'hu' or 'en'; null until they choose, when a
 * request's Accept-Language decides. What the server answers them in, and what its mail and push
 * will say to them.
 */
export const accountLanguage: Migration = {
  async up(db: MigrationDb) {
    await db.schema.alterTable('accounts').addColumn('language', 'text').execute();
  },
  async down(db: MigrationDb) {
    await db.schema.alterTable('accounts').dropColumn('language').execute();
  },
};
