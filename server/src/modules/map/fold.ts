import fp from 'fastify-plugin';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';

/** How often PostgreSQL's map-count deltas are folded into the cells (migration 0028). */
export const MAP_FOLD_MS = 1000;

/**
 * Adds the appended deltas to the cells and removes them, in one statement: the map reads both, so
 * it counts the same before and after. Two instances folding at once each take the rows the other
 * has not deleted (a deleted row is skipped once its deleter commits), so nothing counts twice;
 * cells are upserted in one order, so two folds cannot deadlock.
 */
export async function foldMapDeltas(db: Kysely<Database>): Promise<void> {
  await sql`
    with folded as (
      delete from parcel_map_cell_deltas returning level, cell_y, cell_x, status, parcels, lat_sum, lng_sum
    )
    insert into parcel_map_cells (level, cell_y, cell_x, status, parcels, lat_sum, lng_sum)
    select level, cell_y, cell_x, status, sum(parcels), sum(lat_sum), sum(lng_sum)
    from folded
    group by level, cell_y, cell_x, status
    order by level, cell_y, cell_x, status
    on conflict (level, cell_y, cell_x, status) do update set
      parcels = parcel_map_cells.parcels + excluded.parcels,
      lat_sum = parcel_map_cells.lat_sum + excluded.lat_sum,
      lng_sum = parcel_map_cells.lng_sum + excluded.lng_sum`.execute(db);
}

/** PostgreSQL: every instance folds every MAP_FOLD_MS (one fold at a time here); SQLite has no deltas. */
export const mapFolding = fp(async (app) => {
  if (app.store.dialect !== 'postgres') return;
  let timer: NodeJS.Timeout | undefined;
  let folding: Promise<unknown> | null = null;
  const fold = () => {
    // A fold that outlasts the interval is not joined by another.
    folding ??= foldMapDeltas(app.store.db)
      .catch((err) => app.log.warn({ err }, 'folding the map counts failed'))
      .finally(() => {
        folding = null;
      });
  };
  app.addHook('onReady', async () => {
    timer = setInterval(fold, MAP_FOLD_MS).unref();
  });
  app.addHook('onClose', async () => {
    clearInterval(timer);
    await folding;
  });
});
