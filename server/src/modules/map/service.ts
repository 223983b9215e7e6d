import { MAP_MARKER_LIMIT, type MapQuery, type MapResponse } from '@csomag/domain/admin';
import { type Kysely, type RawBuilder, type SqlBool, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { selectParcels } from '../parcels/service.ts';

/** However the zoom and the box disagree, a view never has more than about this many cells a side. */
const MAX_CELLS_PER_SIDE = 64;
/** The levels migration 0004 keeps counts for (a level-L cell is 90 / 2^L degrees square). */
const COUNTED_LEVELS = [9, 12, 15] as const;

/** Degrees × scale = the index of a level's cell; the same doubles the triggers multiply by. */
const scale = (level: number) => 2 ** level / 90;

/**
 * The grid level for a view: a cell a quarter of a 256-pixel tile wide at that zoom (level = zoom),
 * coarser when the box is too big for its zoom. Cells are fixed to the globe, not to the box, so
 * clusters stay put while the map pans.
 */
export function gridLevel({ south, west, north, east, zoom }: MapQuery): number {
  const span = Math.max(north - south, east - west);
  return Math.min(zoom, Math.floor(Math.log2((MAX_CELLS_PER_SIDE * 90) / span)));
}

/** The box as bounds on the pickup point: an index range on (sender_lat, sender_lng). */
const inView = ({ south, west, north, east, status }: MapQuery): RawBuilder<SqlBool> =>
  sql<SqlBool>`parcels.sender_lat between ${south} and ${north} and parcels.sender_lng between ${west} and ${east}${
    status ? sql` and parcels.status = ${status}` : sql``
  }`;

interface CellRow {
  count: number | string;
  lat_sum: number;
  lng_sum: number;
}

/** The kept counts; on PostgreSQL with the deltas appended since the last fold (migration 0028, fold.ts). */
const KEPT_CELLS = sql.raw('parcel_map_cells');
const KEPT_CELLS_AND_DELTAS = sql.raw(
  '(select * from parcel_map_cells union all select * from parcel_map_cell_deltas) as parcel_map_cells',
);

/**
 * Clusters from the kept counts: the finest counted level no coarser than the grid, its cells that
 * touch the box summed into grid cells. Cells at the edge count whole, so a cluster there may
 * include parcels just outside the view.
 */
function clustersFromCounts(db: Kysely<Database>, view: MapQuery, level: number, counted: number, deltas: boolean) {
  const s = scale(counted);
  const [top, bottom] = [Math.floor(view.north * s), Math.floor(view.south * s)];
  const [left, right] = [Math.floor(view.west * s), Math.floor(view.east * s)];
  // A literal, fractional divisor: PostgreSQL groups by the ordinal select expressions, and integer
  // division would round negative cells (west of Greenwich, south of the equator) the wrong way.
  const per = sql.raw(`${2 ** (counted - level)}.0`);
  return sql<CellRow>`
    select floor(cell_y / ${per}) as grid_y, floor(cell_x / ${per}) as grid_x,
      sum(parcels) as count, sum(lat_sum) as lat_sum, sum(lng_sum) as lng_sum
    from ${deltas ? KEPT_CELLS_AND_DELTAS : KEPT_CELLS}
    where level = ${counted} and cell_y between ${bottom} and ${top} and cell_x between ${left} and ${right}
      ${view.status ? sql`and status = ${view.status}` : sql``}
    group by 1, 2
    having sum(parcels) > 0`.execute(db);
}

/** Clusters from the parcels themselves, for views finer than the finest counted level (a few streets). */
function clustersFromParcels(db: Kysely<Database>, view: MapQuery, level: number) {
  const s = sql.lit(scale(level));
  return sql<CellRow>`
    select floor(sender_lat * ${s}) as grid_y, floor(sender_lng * ${s}) as grid_x,
      count(*) as count, sum(sender_lat) as lat_sum, sum(sender_lng) as lng_sum
    from parcels
    where ${inView(view)}
    group by 1, 2`.execute(db);
}

/**
 * What the admin map shows in a view: up to MAP_MARKER_LIMIT parcels as markers, more as grid
 * clusters, never the rows themselves. A million parcels country-wide are a few hundred count rows.
 */
export async function parcelsInView(
  db: Kysely<Database>,
  view: MapQuery,
  /** PostgreSQL keeps its counts as cells and deltas (migration 0028). */
  deltas: boolean,
): Promise<MapResponse> {
  // Ids first, from the point index alone; rows with names only when few. Joined in one query, SQLite's
  // planner (which sees the box's values) may walk the senders instead when the box holds many parcels.
  const inBox = await db
    .selectFrom('parcels')
    .select('id')
    .where(inView(view))
    .limit(MAP_MARKER_LIMIT + 1)
    .execute();
  if (inBox.length <= MAP_MARKER_LIMIT) {
    const ids = inBox.map((row) => row.id);
    const rows = ids.length === 0 ? [] : await selectParcels(db).where('parcels.id', 'in', ids).execute();
    return {
      mode: 'markers',
      total: rows.length,
      markers: rows.map((row) => ({
        id: row.id,
        status: row.status,
        pickup: { lat: row.sender_lat, lng: row.sender_lng },
        destination: { lat: row.receiver_lat, lng: row.receiver_lng },
        receiverAddress: row.receiver_address,
        senderUser: row.sender_user_name,
        runner: row.runner_user_name,
      })),
    };
  }
  const level = gridLevel(view);
  const counted = COUNTED_LEVELS.find((kept) => kept >= level);
  const { rows: cells } =
    counted === undefined
      ? await clustersFromParcels(db, view, level)
      : await clustersFromCounts(db, view, level, counted, deltas);
  let total = 0;
  const clusters = cells.map((cell) => {
    const count = Number(cell.count);
    total += count;
    return { lat: Number(cell.lat_sum) / count, lng: Number(cell.lng_sum) / count, count };
  });
  const size = 90 / 2 ** level;
  return { mode: 'clusters', total, cell: { lat: size, lng: size }, clusters };
}
