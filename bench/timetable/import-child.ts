/**
 * One timetable import (`importTimetable`, as `npm run gtfs:import` runs it) in a process of its
 * own, for bench/timetable.ts: its peak RSS is the import's (getrusage's maxRSS of this process:
 * Node, the tsx loader, the migrations and the import; the database server's memory is not in it).
 * Prints one JSON line at the end.
 *
 *   node --import tsx bench/timetable/import-child.ts FEED.zip   (env: DATA_DIR; BENCH_DATABASE_URL and BENCH_PG_SCHEMA for PostgreSQL)
 */
import { importTimetable } from '../../server/src/modules/timetable/store.ts';
import type { FeedSummary } from '../../server/src/modules/timetable/timetable.ts';
import { type ImportTimes, printFromStore, timedImport } from '../lib/child-store.ts';

export interface ImportFigures extends ImportTimes {
  id: number;
  /** The compiled timetable's encoded size, as stored. */
  bytes: number;
  feeds: FeedSummary[];
  connections: number;
  stops: number;
  trips: number;
  /** Walks between stops (each direction once). */
  footpaths: number;
  fastestKmh: number;
}

const file = process.argv[2];
const dataDir = process.env.DATA_DIR;
if (!file || !dataDir) {
  console.error('usage: DATA_DIR=DIR node --import tsx bench/timetable/import-child.ts FEED.zip');
  process.exit(2);
}
await printFromStore(dataDir, async (store): Promise<ImportFigures> => {
  const { result, times } = await timedImport((onProgress) => importTimetable(store.db, [file], { onProgress }));
  const { id, timetable, bytes } = result;
  return {
    id,
    ...times,
    bytes,
    feeds: timetable.feeds,
    connections: timetable.connectionCount,
    stops: timetable.stopCount,
    trips: timetable.tripCount,
    footpaths: (timetable.footStart[timetable.stopCount] ?? 0) / 2,
    fastestKmh: timetable.fastestKmh,
  };
});
