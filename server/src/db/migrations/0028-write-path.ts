import { type Migration, sql } from 'kysely';
import { foldMapDeltas } from '../../modules/map/fold.ts';
import type { Dialect } from '../database.ts';
import type { MigrationDb } from './index.ts';

/**
 * Fewer rows and index entries per state change (issue 31, docs/decisions/0033).
 *
 * - Both stores: two indexes that are each the first columns of another (0002's runner/status and
 *   receiver/created) go. Every query they served is served by the longer one, and a status change
 *   is not a HOT update: it wrote an entry in each of them.
 * - PostgreSQL: the map counts (0004, 0011) are kept as deltas. A change appends its cells' −1 and +1
 *   to `parcel_map_cell_deltas` (no key, no index: nothing to look up or lock), and the app folds
 *   them into `parcel_map_cells` every second (modules/map/fold.ts). Before, every change upserted
 *   the same few rows at its commit — one level-9 cell holds all of Budapest — so commits queued
 *   on those rows' locks through each other's WAL flush. The map reads the cells and the deltas
 *   not yet folded together, so it counts the same at every moment. SQLite keeps its triggers:
 *   one writer at a time waits on no row.
 */
const LEVELS = [9, 12, 15] as const;
const scale = (level: number) => String(2 ** level / 90);
const cellsOf = (row: 'old' | 'new', delta: string) =>
  LEVELS.map(
    (level) =>
      `(${level}, floor(${row}.sender_lat * ${scale(level)}), floor(${row}.sender_lng * ${scale(level)}), ` +
      `${row}.status, ${delta}, ${row}.sender_lat * ${delta}, ${row}.sender_lng * ${delta})`,
  ).join(', ');
const MOVED = 'old.status <> new.status or old.sender_lat <> new.sender_lat or old.sender_lng <> new.sender_lng';
const MAP_TRIGGERS = [
  ['parcels_map_cells_insert', 'insert', ''],
  ['parcels_map_cells_delete', 'delete', ''],
  ['parcels_map_cells_update', 'update of status, sender_lat, sender_lng', `when (${MOVED})`],
] as const;

/** Both ends of a move, each at every kept level: the rows a change adds or takes away. */
const changedCells = `
  select * from (values ${cellsOf('old', '-1')}) as gone(level, cell_y, cell_x, status, parcels, lat_sum, lng_sum)
  where tg_op <> 'INSERT'
  union all
  select * from (values ${cellsOf('new', '1')}) as came(level, cell_y, cell_x, status, parcels, lat_sum, lng_sum)
  where tg_op <> 'DELETE'`;

async function mapTriggers(db: MigrationDb, body: string, when: 'per row' | 'at commit') {
  await sql
    .raw(
      `create or replace function parcels_map_cells_trigger() returns trigger language plpgsql as $$
       begin
         ${body};
         return null;
       end $$`,
    )
    .execute(db);
  const kind = when === 'at commit' ? 'constraint trigger' : 'trigger';
  const deferred = when === 'at commit' ? 'deferrable initially deferred' : '';
  for (const [name, event, condition] of MAP_TRIGGERS) {
    await sql.raw(`drop trigger ${name} on parcels`).execute(db);
    await sql
      .raw(
        `create ${kind} ${name} after ${event} on parcels ${deferred}
         for each row ${condition} execute function parcels_map_cells_trigger()`,
      )
      .execute(db);
  }
}

export const writePath = (dialect: Dialect): Migration => ({
  async up(db: MigrationDb) {
    await db.schema.dropIndex('parcels_runner_status').execute();
    await db.schema.dropIndex('parcels_receiver_key').execute();
    if (dialect !== 'postgres') return;
    await sql
      .raw(
        `create table parcel_map_cell_deltas (
           level integer not null, cell_y integer not null, cell_x integer not null, status text not null,
           parcels integer not null, lat_sum double precision not null, lng_sum double precision not null)`,
      )
      .execute(db);
    // Appended at once, with the row's own write: there is no row to wait for.
    await mapTriggers(
      db,
      `insert into parcel_map_cell_deltas (level, cell_y, cell_x, status, parcels, lat_sum, lng_sum) ${changedCells}`,
      'per row',
    );
  },
  async down(db: MigrationDb) {
    if (dialect === 'postgres') {
      // 0011's upsert at commit again, after what was appended is counted.
      await mapTriggers(
        db,
        `insert into parcel_map_cells (level, cell_y, cell_x, status, parcels, lat_sum, lng_sum)
         select level, cell_y, cell_x, status, sum(parcels), sum(lat_sum), sum(lng_sum)
         from (${changedCells}) as changed
         group by level, cell_y, cell_x, status
         order by level, cell_y, cell_x, status
         on conflict (level, cell_y, cell_x, status) do update set
           parcels = parcel_map_cells.parcels + excluded.parcels,
           lat_sum = parcel_map_cells.lat_sum + excluded.lat_sum,
           lng_sum = parcel_map_cells.lng_sum + excluded.lng_sum`,
        'at commit',
      );
      await foldMapDeltas(db);
      await sql.raw('drop table parcel_map_cell_deltas').execute(db);
    }
    await db.schema.createIndex('parcels_runner_status').on('parcels').columns(['runner_id', 'status']).execute();
    await db.schema.createIndex('parcels_receiver_key').on('parcels').columns(['receiver_key', 'created_at']).execute();
  },
});
