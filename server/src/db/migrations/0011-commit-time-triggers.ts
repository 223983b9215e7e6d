import { type Migration, sql } from 'kysely';
import type { Dialect } from '../database.ts';
import type { MigrationDb } from './index.ts';

/**
 * PostgreSQL only (docs/decisions/0016): what every state change must do in commit order is done
 * by the database at COMMIT, so no lock is held across a round trip to the app.
 *
 * - change_log ids: the app inserts a change's log row with a placeholder id below zero (from a
 *   sequence of its own, so the ids given out stay consecutive for one writer); at commit
 *   a deferred trigger takes the change log's lock (the one 0009's writers took), gives the row its
 *   id from the sequence and sends its NOTIFY. The lock is held only for the rest of the commit, as
 *   NOTIFY's own lock is, so ids still follow commit order (docs/decisions/0011). Rows written with
 *   their id already (a release before this one, during a rolling upgrade) are left as they are.
 *   The channel is the session's `csomagkuldo.change_channel` (set on each connection).
 * - map counts (0004): one upsert of both ends of a move, with its plan kept by PL/pgSQL (0004
 *   called an SQL function, planned again on every change: half of a status change's time), run at
 *   commit, in one order of cells, so a hot cell's row is locked only while the commit lasts and two
 *   changes crossing the same cells cannot deadlock.
 */
const CHANGE_LOG_LOCK = '27992927693991783'; // 0x63736b5f6c6f67 ("csk_log"), the key 0009's writers took
const LEVELS = [9, 12, 15] as const;
const scale = (level: number) => String(2 ** level / 90);
const cellsOf = (row: 'old' | 'new', delta: string) =>
  LEVELS.map(
    (level) =>
      `(${level}, floor(${row}.sender_lat * ${scale(level)}), floor(${row}.sender_lng * ${scale(level)}), ` +
      `${row}.status, ${delta}, ${row}.sender_lat * ${delta}, ${row}.sender_lng * ${delta})`,
  ).join(', ');
const MOVED = 'old.status <> new.status or old.sender_lat <> new.sender_lat or old.sender_lng <> new.sender_lng';
/** In a parcels trigger: the cells the row's change takes a parcel from (−1) and adds it to (+1), at every kept level. */
export const CHANGED_CELLS = `
  select * from (values ${cellsOf('old', '-1')}) as gone(level, cell_y, cell_x, status, parcels, lat_sum, lng_sum)
  where tg_op <> 'INSERT'
  union all
  select * from (values ${cellsOf('new', '1')}) as came(level, cell_y, cell_x, status, parcels, lat_sum, lng_sum)
  where tg_op <> 'DELETE'`;
/** Those cells added to the counts in one upsert, in one order of cells (so two cannot deadlock). */
export const UPSERT_CHANGED_CELLS = `
  insert into parcel_map_cells (level, cell_y, cell_x, status, parcels, lat_sum, lng_sum)
  select level, cell_y, cell_x, status, sum(parcels), sum(lat_sum), sum(lng_sum)
  from (${CHANGED_CELLS}) as changed
  group by level, cell_y, cell_x, status
  order by level, cell_y, cell_x, status
  on conflict (level, cell_y, cell_x, status) do update set
    parcels = parcel_map_cells.parcels + excluded.parcels,
    lat_sum = parcel_map_cells.lat_sum + excluded.lat_sum,
    lng_sum = parcel_map_cells.lng_sum + excluded.lng_sum`;
const MAP_TRIGGERS = [
  ['parcels_map_cells_insert', 'insert', ''],
  ['parcels_map_cells_delete', 'delete', ''],
  ['parcels_map_cells_update', 'update of status, sender_lat, sender_lng', `when (${MOVED})`],
] as const;

async function up(db: MigrationDb) {
  await sql.raw('create sequence change_log_placeholder_seq').execute(db);
  await sql
    .raw(
      `create function change_log_in_commit_order() returns trigger language plpgsql as $$
       declare
         logged change_log;
       begin
         perform pg_advisory_xact_lock(${CHANGE_LOG_LOCK});
         update change_log set id = nextval('change_log_id_seq') where id = new.id returning * into logged;
         perform pg_notify(
           coalesce(current_setting('csomagkuldo.change_channel', true), 'csk_changes'),
           json_build_object('id', logged.id, 'at', logged.created_ms, 'requestId', logged.request_id,
             'change', logged.change::json)::text);
         return null;
       end $$`,
    )
    .execute(db);
  await sql
    .raw(
      `create constraint trigger change_log_in_commit_order after insert on change_log
       deferrable initially deferred for each row when (new.id < 0) execute function change_log_in_commit_order()`,
    )
    .execute(db);

  await sql
    .raw(
      `create or replace function parcels_map_cells_trigger() returns trigger language plpgsql as $$
       begin
         ${UPSERT_CHANGED_CELLS};
         return null;
       end $$`,
    )
    .execute(db);
  await replaceMapTriggers(db, 'at commit');
}

/** Back to 0004's and 0009's ways (the app of that release takes the lock and notifies itself). */
async function down(db: MigrationDb) {
  await sql.raw('drop trigger change_log_in_commit_order on change_log').execute(db);
  await sql.raw('drop function change_log_in_commit_order()').execute(db);
  await sql.raw('drop sequence change_log_placeholder_seq').execute(db);
  await sql
    .raw(
      `create or replace function parcels_map_cells_trigger() returns trigger language plpgsql as $$
       begin
         if tg_op <> 'INSERT' then perform parcel_map_cells_apply(old.sender_lat, old.sender_lng, old.status, -1); end if;
         if tg_op <> 'DELETE' then perform parcel_map_cells_apply(new.sender_lat, new.sender_lng, new.status, 1); end if;
         return null;
       end $$`,
    )
    .execute(db);
  await replaceMapTriggers(db, 'per row');
}

/** The map-count triggers again, fired with each row (0004) or deferred to COMMIT (this migration). */
export async function replaceMapTriggers(db: MigrationDb, when: 'per row' | 'at commit') {
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

export const commitTimeTriggers = (dialect: Dialect): Migration =>
  dialect === 'postgres' ? { up, down } : { async up() {} };
