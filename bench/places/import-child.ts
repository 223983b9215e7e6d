/**
 * One places import in a process of its own, for bench/places.ts: its peak RSS is the import's
 * (getrusage's maxRSS of this process: the tsx loader, the migrations and the import; the
 * database server's memory is not in it). Prints one JSON line at the end.
 *
 *   node --import tsx bench/places/import-child.ts FILE    (env: DATA_DIR; BENCH_DATABASE_URL and BENCH_PG_SCHEMA for PostgreSQL)
 */
import { importPlaces } from '../../server/src/modules/places/store.ts';
import { type ImportTimes, printFromStore, timedImport } from '../lib/child-store.ts';

export interface ImportFigures extends ImportTimes {
  counts: Record<string, number>;
}

const file = process.argv[2];
const dataDir = process.env.DATA_DIR;
if (!file || !dataDir) {
  console.error('usage: DATA_DIR=DIR node --import tsx bench/places/import-child.ts FILE');
  process.exit(2);
}
await printFromStore(dataDir, async (store): Promise<ImportFigures> => {
  const { result, times } = await timedImport((onProgress) => importPlaces(store.db, file, { onProgress }));
  return { ...times, counts: result.counts };
});
