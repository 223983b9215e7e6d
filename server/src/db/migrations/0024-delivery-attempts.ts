import { type ColumnDefinitionBuilder, type Migration, sql } from 'kysely';
import type { Dialect } from '../database.ts';
import type { MigrationDb, SqliteSchemaEdit } from './index.ts';

const OLD_STATUSES = `status in ('waiting', 'in_transit', 'delivered')`;
/**
 * Every status issue 28 needs, taken at once so that later steps need not widen the CHECK again:
 * this release reaches 'returned'; the neighbour, the drop point and a lost parcel come with
 * their flows.
 */
const NEW_STATUSES = `status in ('waiting', 'in_transit', 'with_neighbour', 'at_drop_point', 'delivered', 'returned', 'lost')`;

/**
 * When a delivery does not go to plan (issue 28, docs/decisions/0030).
 *
 * - The status CHECK widens. PostgreSQL swaps the constraint; SQLite cannot alter a CHECK, and
 *   rebuilding a table of a million parcels with its indexes and triggers is a long, risky copy, so
 *   its stored CREATE TABLE text is edited in place (SQLite's documented procedure for relaxing
 *   a constraint: the rows already satisfy the wider one, nothing on disk changes).
 * - A parcel in transit counts its failed attempts at the current destination, says whether it is
 *   going back to its sender, and keeps the window asked for the next attempt.
 * - `delivery_attempts`: each failed attempt with where the carrier stood and an optional photo of
 *   the door, kept like a proof (re-encoded, removed after PROOF_RETENTION_DAYS, its hash kept).
 */
export const deliveryAttempts = (dialect: Dialect, editSqliteSchema?: SqliteSchemaEdit): Migration => ({
  async up(db: MigrationDb) {
    if (dialect === 'postgres') {
      const { rows } = await sql<{ name: string }>`select conname as name from pg_constraint
        where conrelid = 'parcels'::regclass and contype = 'c'
          and pg_get_constraintdef(oid) like '%in_transit%'`.execute(db);
      for (const { name } of rows) await sql`alter table parcels drop constraint ${sql.id(name)}`.execute(db);
      await sql`alter table parcels add constraint parcels_status_check check (${sql.raw(NEW_STATUSES)})`.execute(db);
    } else {
      if (!editSqliteSchema) throw new Error('widening the status CHECK on SQLite needs the writer connection');
      editSqliteSchema('parcels', OLD_STATUSES, NEW_STATUSES);
    }
    await db.schema
      .alterTable('parcels')
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema
      .alterTable('parcels')
      .addColumn('returning', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema.alterTable('parcels').addColumn('redelivery_from', 'text').execute();
    await db.schema.alterTable('parcels').addColumn('redelivery_until', 'text').execute();
    // Who it was left with: shown to its sender and receiver, kept after they collected it.
    await db.schema.alterTable('parcels').addColumn('neighbour_name', 'text').execute();
    await db.schema.alterTable('parcels').addColumn('neighbour_door', 'text').execute();
    // The neighbour the receiver asked it be left with after a failed attempt.
    await db.schema.alterTable('parcels').addColumn('neighbour_wish_name', 'text').execute();
    await db.schema.alterTable('parcels').addColumn('neighbour_wish_door', 'text').execute();

    await db.schema
      .createTable('delivery_attempts')
      .addColumn('id', dialect === 'postgres' ? 'serial' : 'integer', (c) =>
        dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement(),
      )
      .addColumn('parcel_id', 'text', (c) => c.notNull())
      // 1, 2, … per parcel, across legs and returns: the photo's address.
      .addColumn('number', 'integer', (c) => c.notNull())
      .addColumn('runner_id', 'integer', (c) => c.references('accounts.id').onDelete('set null'))
      .addColumn('reason', 'text', (c) =>
        c.notNull().check(sql`reason in ('nobody_home', 'wrong_address', 'refused', 'unsafe_access', 'other')`),
      )
      .addColumn('note', 'text')
      .addColumn('lat', 'double precision', (c) => c.notNull())
      .addColumn('lng', 'double precision', (c) => c.notNull())
      .addColumn('accuracy', 'double precision', (c) => c.notNull())
      .addColumn('at', 'text', (c) => c.notNull())
      .addColumn('occurred_at', 'text')
      .addColumn('started_return', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('photo', dialect === 'postgres' ? 'bytea' : 'blob')
      .addColumn('photo_mime', 'text')
      .addColumn('photo_sha256', 'text')
      .addColumn('photo_width', 'integer')
      .addColumn('photo_height', 'integer')
      .addColumn('photo_at', 'text')
      .addColumn('photo_removed_at', 'text')
      .addUniqueConstraint('delivery_attempts_parcel_number', ['parcel_id', 'number'])
      .execute();
    // The retention sweep's photos, oldest first.
    await db.schema
      .createIndex('delivery_attempts_photo_at')
      .on('delivery_attempts')
      .column('photo_at')
      .where(sql.ref('photo'), 'is not', null)
      .execute();

    const id = (c: ColumnDefinitionBuilder) =>
      dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement();
    // Drop points ('Átvételi pont'): partner places with their staff's accounts. A parcel going to
    // one has its id; one waiting there says since when (its collection deadline runs from then).
    await db.schema
      .createTable('drop_points')
      .addColumn('id', dialect === 'postgres' ? 'serial' : 'integer', id)
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('shop', 'locker', 'office')`))
      .addColumn('address', 'text', (c) => c.notNull())
      .addColumn('lat', 'double precision', (c) => c.notNull())
      .addColumn('lng', 'double precision', (c) => c.notNull())
      .addColumn('opening_hours', 'text', (c) => c.notNull())
      .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('drop_point_staff')
      .addColumn('drop_point_id', 'integer', (c) => c.notNull().references('drop_points.id').onDelete('cascade'))
      .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
      .addPrimaryKeyConstraint('drop_point_staff_key', ['drop_point_id', 'account_id'])
      .execute();
    await db.schema.createIndex('drop_point_staff_account').on('drop_point_staff').column('account_id').execute();
    await db.schema.alterTable('parcels').addColumn('drop_point_id', 'integer').execute();
    await db.schema.alterTable('parcels').addColumn('at_drop_point_since', 'text').execute();
    // The staff's list: what is on its way to or waits at their point.
    await db.schema
      .createIndex('parcels_drop_point')
      .on('parcels')
      .columns(['drop_point_id', 'status'])
      .where(sql.ref('drop_point_id'), 'is not', null)
      .execute();

    // Incidents ('Probléma bejelentése'): one open per parcel (a partial unique index lets one of
    // two reports made at once in), decided once; no foreign key to the parcel, like its history.
    await db.schema
      .createTable('incidents')
      .addColumn('id', dialect === 'postgres' ? 'serial' : 'integer', id)
      .addColumn('parcel_id', 'text', (c) => c.notNull())
      .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('damaged', 'lost')`))
      .addColumn('description', 'text', (c) => c.notNull())
      .addColumn('reporter_id', 'integer', (c) => c.references('accounts.id').onDelete('set null'))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('decision', 'text', (c) => c.check(sql`decision in ('continue', 'return', 'write_off')`))
      .addColumn('note', 'text')
      .addColumn('resolved_by', 'integer', (c) => c.references('accounts.id').onDelete('set null'))
      .addColumn('resolved_at', 'text')
      .execute();
    await db.schema
      .createIndex('incidents_open_parcel')
      .on('incidents')
      .column('parcel_id')
      .unique()
      .where(sql.ref('resolved_at'), 'is', null)
      .execute();
    await db.schema.createIndex('incidents_created').on('incidents').columns(['created_at', 'id']).execute();
    await db.schema
      .createTable('incident_photos')
      .addColumn('id', dialect === 'postgres' ? 'serial' : 'integer', id)
      .addColumn('incident_id', 'integer', (c) => c.notNull().references('incidents.id').onDelete('cascade'))
      .addColumn('number', 'integer', (c) => c.notNull())
      .addColumn('image', dialect === 'postgres' ? 'bytea' : 'blob')
      .addColumn('mime', 'text', (c) => c.notNull())
      .addColumn('sha256', 'text', (c) => c.notNull())
      .addColumn('width', 'integer', (c) => c.notNull())
      .addColumn('height', 'integer', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addUniqueConstraint('incident_photos_number', ['incident_id', 'number'])
      .execute();
  },
  async down(db: MigrationDb) {
    await db.schema.dropTable('incident_photos').execute();
    await db.schema.dropTable('incidents').execute();
    await db.schema.dropTable('drop_point_staff').execute();
    await db.schema.dropTable('drop_points').execute();
    await db.schema.dropTable('delivery_attempts').execute();
    for (const column of [
      'attempts',
      'returning',
      'redelivery_from',
      'redelivery_until',
      'neighbour_name',
      'neighbour_door',
      'neighbour_wish_name',
      'neighbour_wish_door',
      'drop_point_id',
      'at_drop_point_since',
    ]) {
      await db.schema.alterTable('parcels').dropColumn(column).execute();
    }
  },
});
