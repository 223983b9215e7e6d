import { type Migration, sql } from 'kysely';
import type { Dialect } from '../database.ts';
import type { MigrationDb } from './index.ts';

const placePrecision = (column: string) => sql`${sql.ref(column)} in ('door', 'street', 'settlement', 'manual')`;

/**
 * Where things are (issue 25, docs/decisions/0028).
 *
 * A point's precision gains 'door' beside 'street' (now: somewhere on the street, not its door):
 * new columns beside 0007's, whose CHECK cannot widen on SQLite without rebuilding the table.
 * Expand only (ADR 0010): the release before keeps reading and writing the old columns; this one
 * writes both (the old vocabulary's 'street' meant "may deliver by position", so a door is written
 * there as 'street' and anything approximate as 'settlement') and reads the new one, falling back
 * to the old where a row predates it.
 *
 * Places imported from OpenStreetMap (`npm run places:import`): every import loads its rows under
 * its own id and becomes the active one in a single update, so a look-up sees the old import or
 * the new one whole, never a mix; a failed import leaves its 'loading' rows to be swept by the
 * next one.
 */
export const places = (dialect: Dialect): Migration => ({
  async up(db: MigrationDb) {
    for (const column of ['sender_place_precision', 'receiver_place_precision']) {
      await db.schema
        .alterTable('parcels')
        .addColumn(column, 'text', (c) => c.check(placePrecision(column)))
        .execute();
    }
    // 0007's 'street' was a geocoded street address or a pin the sender confirmed: the door.
    await sql`update parcels set
        sender_place_precision = case sender_precision when 'street' then 'door' else sender_precision end,
        receiver_place_precision = case receiver_precision when 'street' then 'door' else receiver_precision end
      where sender_precision is not null or receiver_precision is not null`.execute(db);
    // Cached answers from before say nothing about the door: they are asked again.
    await db.schema
      .alterTable('geocode_cache')
      .addColumn('place_precision', 'text', (c) => c.check(placePrecision('place_precision')))
      .execute();

    const id = (c: ReturnType<typeof db.schema.createTable>) =>
      dialect === 'postgres'
        ? c.addColumn('id', 'serial', (col) => col.primaryKey())
        : c.addColumn('id', 'integer', (col) => col.primaryKey().autoIncrement());
    await id(db.schema.createTable('place_imports'))
      .addColumn('file_name', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('loading', 'active', 'replaced')`))
      .addColumn('counts', 'text')
      .addColumn('started_at', 'text', (c) => c.notNull())
      .addColumn('finished_at', 'text')
      .execute();
    await db.schema
      .createTable('places')
      .addColumn('id', dialect === 'postgres' ? 'bigserial' : 'integer', (c) =>
        dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement(),
      )
      .addColumn('import_id', 'integer', (c) => c.notNull())
      .addColumn('kind', 'text', (c) =>
        c.notNull().check(sql`kind in ('address', 'street', 'settlement', 'station', 'landmark')`),
      )
      .addColumn('lat', 'double precision', (c) => c.notNull())
      .addColumn('lng', 'double precision', (c) => c.notNull())
      // A ~110 m square (places/grid.ts): reverse geocoding reads the squares around a point.
      .addColumn('cell', 'integer', (c) => c.notNull())
      // As OSM writes it, for labels; the keys below are what look-ups compare.
      .addColumn('name', 'text')
      .addColumn('name_key', 'text')
      .addColumn('settlement_key', 'text')
      .addColumn('district', 'integer')
      .addColumn('street', 'text')
      .addColumn('street_key', 'text')
      .addColumn('house_number', 'text')
      .addColumn('postal_code', 'text')
      .addColumn('place_type', 'text')
      .execute();
    await db.schema
      .createIndex('places_addresses')
      .on('places')
      .columns(['import_id', 'settlement_key', 'street_key', 'house_number'])
      .where(sql.ref('kind'), '=', 'address')
      .execute();
    // A street, station or landmark by name in a settlement is one seek (a Petőfi utca is in most villages).
    await db.schema
      .createIndex('places_names')
      .on('places')
      .columns(['import_id', 'name_key', 'kind', 'settlement_key'])
      .execute();
    await db.schema.createIndex('places_cells').on('places').columns(['import_id', 'cell']).execute();
  },
  async down(db: MigrationDb) {
    await db.schema.dropTable('places').execute();
    await db.schema.dropTable('place_imports').execute();
    await db.schema.alterTable('geocode_cache').dropColumn('place_precision').execute();
    for (const column of ['sender_place_precision', 'receiver_place_precision']) {
      await db.schema.alterTable('parcels').dropColumn(column).execute();
    }
  },
});
