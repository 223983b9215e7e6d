import type { Kysely } from 'kysely';
import { nowIso } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import { decodeTimetable, encodeTimetable } from './codec.ts';
import { readGtfs } from './gtfs/read-gtfs.ts';
import type { FeedSummary, Timetable } from './timetable.ts';

/** Bytes per stored chunk: well under both stores' limits on one value, few rows for a country. */
const CHUNK_BYTES = 4 * 1024 * 1024;

export interface ImportOptions {
  maxUncompressedBytes?: number;
  onProgress?: (stage: string, count: number) => void;
}

/**
 * `npm run gtfs:import`: reads and compiles the feeds (a malformed one throws GtfsFormatError
 * before anything is written), stores the result beside the timetable in use and swaps it in with
 * one update (ADR 0029). Answers the stored import's id and the timetable.
 */
export async function importTimetable(
  db: Kysely<Database>,
  files: readonly string[],
  options: ImportOptions = {},
): Promise<{ id: number; timetable: Timetable; bytes: number }> {
  const timetable = await readGtfs([...files], options);
  const encoded = encodeTimetable(timetable);
  // Rows of an import that died half-way (its process killed) are never read: swept here.
  await sweep(db, 'loading');
  const { id } = await db
    .insertInto('timetables')
    .values({
      status: 'loading',
      feeds: JSON.stringify(timetable.feeds),
      byte_length: encoded.byteLength,
      started_at: nowIso(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  for (let seq = 0, offset = 0; offset < encoded.byteLength; seq++, offset += CHUNK_BYTES) {
    await db
      .insertInto('timetable_chunks')
      .values({ timetable_id: id, seq, data: encoded.subarray(offset, offset + CHUNK_BYTES) })
      .execute();
    options.onProgress?.('stored bytes', Math.min(encoded.byteLength, offset + CHUNK_BYTES));
  }
  await db.transaction().execute(async (trx) => {
    await trx.updateTable('timetables').set({ status: 'replaced' }).where('status', '=', 'active').execute();
    await trx.updateTable('timetables').set({ status: 'active', finished_at: nowIso() }).where('id', '=', id).execute();
  });
  await sweep(db, 'replaced');
  return { id, timetable, bytes: encoded.byteLength };
}

async function sweep(db: Kysely<Database>, status: 'loading' | 'replaced') {
  const rows = await db.selectFrom('timetables').select('id').where('status', '=', status).execute();
  if (rows.length === 0) return;
  const ids = rows.map((row) => row.id);
  await db.deleteFrom('timetable_chunks').where('timetable_id', 'in', ids).execute();
  await db.deleteFrom('timetables').where('id', 'in', ids).execute();
}

/** The active import's id, or null when none is loaded (a cheap check every instance repeats). */
export async function activeTimetableId(db: Kysely<Database>): Promise<number | null> {
  const row = await db.selectFrom('timetables').select('id').where('status', '=', 'active').executeTakeFirst();
  return row?.id ?? null;
}

/** The timetable of import `id`, read back from its chunks; null when it was replaced meanwhile. */
export async function loadTimetable(db: Kysely<Database>, id: number): Promise<Timetable | null> {
  const head = await db.selectFrom('timetables').select('byte_length').where('id', '=', id).executeTakeFirst();
  if (!head) return null;
  const chunks = await db
    .selectFrom('timetable_chunks')
    .select('data')
    .where('timetable_id', '=', id)
    .orderBy('seq')
    .execute();
  const bytes = Buffer.concat(chunks.map((chunk) => chunk.data));
  // Swept between the two reads (a newer import): the caller asks again.
  if (bytes.byteLength !== head.byte_length) return null;
  return decodeTimetable(bytes);
}

/** The active import's feeds, as the back office lists them. */
export async function activeFeeds(
  db: Kysely<Database>,
): Promise<{ importedAt: string | null; feeds: FeedSummary[] } | null> {
  const row = await db
    .selectFrom('timetables')
    .select(['feeds', 'finished_at'])
    .where('status', '=', 'active')
    .executeTakeFirst();
  return row ? { importedAt: row.finished_at, feeds: JSON.parse(row.feeds) as FeedSummary[] } : null;
}
