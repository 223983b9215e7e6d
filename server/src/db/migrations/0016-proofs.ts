import type { Migration } from 'kysely';
import type { Dialect } from '../database.ts';
import type { MigrationDb } from './index.ts';

/**
 * Proof of delivery (issue 15, docs/decisions/0023): whether the sender asked for a photo, and the
 * proofs themselves, one per parcel and kind, their bytes in the database on both stores (BLOB,
 * bytea) so a backup holds them and nothing is ever served from a public path.
 */
export const proofs = (dialect: Dialect): Migration => ({
  async up(db: MigrationDb) {
    await db.schema
      .alterTable('parcels')
      .addColumn('photo_required', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema
      .createTable('proofs')
      .addColumn('id', dialect === 'postgres' ? 'serial' : 'integer', (c) =>
        dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement(),
      )
      // No foreign key: deleteParcel removes them in its own transaction (changes.ts).
      .addColumn('parcel_id', 'text', (c) => c.notNull())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('image', dialect === 'postgres' ? 'bytea' : 'blob')
      .addColumn('mime', 'text', (c) => c.notNull())
      .addColumn('sha256', 'text', (c) => c.notNull())
      .addColumn('width', 'integer', (c) => c.notNull())
      .addColumn('height', 'integer', (c) => c.notNull())
      .addColumn('strokes', 'text')
      .addColumn('created_by', 'integer', (c) => c.references('accounts.id').onDelete('set null'))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('removed_at', 'text')
      .addUniqueConstraint('proofs_parcel_kind', ['parcel_id', 'kind'])
      .execute();
    // The retention sweep looks for images still kept, oldest first.
    await db.schema.createIndex('proofs_kept_created').on('proofs').column('created_at').execute();
  },
  async down(db: MigrationDb) {
    await db.schema.dropTable('proofs').execute();
    await db.schema.alterTable('parcels').dropColumn('photo_required').execute();
  },
});
