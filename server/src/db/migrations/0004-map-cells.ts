import { type Migration, sql } from 'kysely';
import type { Dialect } from '../database.ts';
import type { MigrationDb } from './index.ts';

/**
 * Parcel counts per map grid cell, kept by triggers, so the admin map clusters a million parcels
 * from a few hundred rows instead of grouping every parcel (SPEC §2.8, DESIGN §5).
 *
 * A level-L cell is 90 / 2^L degrees square, the size of the map's cluster cell at zoom L, so cells
 * nest: four of level L+1 make one of level L. Levels 9, 12 and 15 are kept; views finer than
 * level 15 are small enough to group the parcels themselves. The levels are frozen here: changing
 * them takes a new migration (modules/map/cells.ts reads the same numbers).
 */
const LEVELS = [9, 12, 15] as const;
/** Degrees × scale = cell index; written as literals so both stores multiply the same doubles. */
const scale = (level: number) => String(2 ** level / 90);

/** One row per kept level for a point and status: what adding (+1) or removing (−1) it changes. */
const levelRows = (lat: string, lng: string, status: string, delta: string) =>
  LEVELS.map(
    (level) =>
      `select ${level} as level, floor(${lat} * ${scale(level)}) as cell_y, floor(${lng} * ${scale(level)}) as cell_x, ` +
      `${status} as status, ${delta} as parcels, ${lat} * ${delta} as lat_sum, ${lng} * ${delta} as lng_sum`,
  ).join(' union all ');

const upsert = (rows: string) =>
  `insert into parcel_map_cells (level, cell_y, cell_x, status, parcels, lat_sum, lng_sum)
   select level, cell_y, cell_x, status, parcels, lat_sum, lng_sum from (${rows}) as changed where true
   on conflict (level, cell_y, cell_x, status) do update set
     parcels = parcel_map_cells.parcels + excluded.parcels,
     lat_sum = parcel_map_cells.lat_sum + excluded.lat_sum,
     lng_sum = parcel_map_cells.lng_sum + excluded.lng_sum`;

/** Counts every parcel there is into the cells (the table's first filling, and the bulk seed's). */
export const fillMapCells = (db: MigrationDb) =>
  sql
    .raw(
      `insert into parcel_map_cells (level, cell_y, cell_x, status, parcels, lat_sum, lng_sum)
       ${LEVELS.map(
         (level) =>
           `select ${level}, floor(sender_lat * ${scale(level)}), floor(sender_lng * ${scale(level)}), status,
              count(*), sum(sender_lat), sum(sender_lng)
            from parcels group by 2, 3, 4`,
       ).join(' union all ')}`,
    )
    .execute(db);

const MOVED = `old.status <> new.status or old.sender_lat <> new.sender_lat or old.sender_lng <> new.sender_lng`;

async function createSqliteTriggers(db: MigrationDb) {
  await sql
    .raw(
      `create trigger parcels_map_cells_insert after insert on parcels begin
         ${upsert(levelRows('new.sender_lat', 'new.sender_lng', 'new.status', '1'))};
       end`,
    )
    .execute(db);
  await sql
    .raw(
      `create trigger parcels_map_cells_delete after delete on parcels begin
         ${upsert(levelRows('old.sender_lat', 'old.sender_lng', 'old.status', '-1'))};
       end`,
    )
    .execute(db);
  await sql
    .raw(
      `create trigger parcels_map_cells_update after update of status, sender_lat, sender_lng on parcels
       when ${MOVED} begin
         ${upsert(levelRows('old.sender_lat', 'old.sender_lng', 'old.status', '-1'))};
         ${upsert(levelRows('new.sender_lat', 'new.sender_lng', 'new.status', '1'))};
       end`,
    )
    .execute(db);
}

async function createPostgresTriggers(db: MigrationDb) {
  const apply = upsert(levelRows('p_lat', 'p_lng', 'p_status', 'p_delta'));
  await sql
    .raw(
      `create function parcel_map_cells_apply(p_lat double precision, p_lng double precision, p_status text, p_delta integer)
       returns void language sql as $$ ${apply} $$`,
    )
    .execute(db);
  await sql
    .raw(
      `create function parcels_map_cells_trigger() returns trigger language plpgsql as $$
       begin
         if tg_op <> 'INSERT' then perform parcel_map_cells_apply(old.sender_lat, old.sender_lng, old.status, -1); end if;
         if tg_op <> 'DELETE' then perform parcel_map_cells_apply(new.sender_lat, new.sender_lng, new.status, 1); end if;
         return null;
       end $$`,
    )
    .execute(db);
  for (const [name, event, when] of [
    ['parcels_map_cells_insert', 'insert', ''],
    ['parcels_map_cells_delete', 'delete', ''],
    ['parcels_map_cells_update', 'update of status, sender_lat, sender_lng', `when (${MOVED})`],
  ] as const) {
    await sql
      .raw(
        `create trigger ${name} after ${event} on parcels for each row ${when} execute function parcels_map_cells_trigger()`,
      )
      .execute(db);
  }
}

export const mapCells = (dialect: Dialect): Migration => ({
  async up(db: MigrationDb) {
    await db.schema
      .createTable('parcel_map_cells')
      .addColumn('level', 'integer', (c) => c.notNull())
      .addColumn('cell_y', 'integer', (c) => c.notNull())
      .addColumn('cell_x', 'integer', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('parcels', 'integer', (c) => c.notNull())
      .addColumn('lat_sum', 'double precision', (c) => c.notNull())
      .addColumn('lng_sum', 'double precision', (c) => c.notNull())
      // A view reads one level, a band of rows, a range of columns in each.
      .addPrimaryKeyConstraint('parcel_map_cells_pk', ['level', 'cell_y', 'cell_x', 'status'])
      .execute();
    await fillMapCells(db);
    if (dialect === 'postgres') await createPostgresTriggers(db);
    else await createSqliteTriggers(db);
  },
  async down(db: MigrationDb) {
    for (const name of ['parcels_map_cells_insert', 'parcels_map_cells_delete', 'parcels_map_cells_update']) {
      await sql.raw(`drop trigger ${name}${dialect === 'postgres' ? ' on parcels' : ''}`).execute(db);
    }
    if (dialect === 'postgres') {
      await sql.raw('drop function parcels_map_cells_trigger()').execute(db);
      await sql
        .raw('drop function parcel_map_cells_apply(double precision, double precision, text, integer)')
        .execute(db);
    }
    await db.schema.dropTable('parcel_map_cells').execute();
  },
});
