import { type Migration, sql } from 'kysely';
import { foldMapDeltas } from '../../modules/map/fold.ts';
import type { Dialect } from '../database.ts';
import { CHANGED_CELLS, replaceMapTriggers, UPSERT_CHANGED_CELLS } from './0011-commit-time-triggers.ts';
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
/** The parcels triggers' one function, doing `body` for each changed row, fired with the row or at commit. */
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
  await replaceMapTriggers(db, when);
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
      `insert into parcel_map_cell_deltas (level, cell_y, cell_x, status, parcels, lat_sum, lng_sum) ${CHANGED_CELLS}`,
      'per row',
    );
  },
  async down(db: MigrationDb) {
    if (dialect === 'postgres') {
      // 0011's upsert at commit again, after what was appended is counted.
      await mapTriggers(db, UPSERT_CHANGED_CELLS, 'at commit');
      await foldMapDeltas(db);
      await sql.raw('drop table parcel_map_cell_deltas').execute(db);
    }
    await db.schema.createIndex('parcels_runner_status').on('parcels').columns(['runner_id', 'status']).execute();
    await db.schema.createIndex('parcels_receiver_key').on('parcels').columns(['receiver_key', 'created_at']).execute();
  },
});
