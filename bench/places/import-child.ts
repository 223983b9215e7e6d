/**
 * One places import in a process of its own, for bench/places.ts: its peak RSS is the import's
 * (getrusage's maxRSS of this process: the tsx loader, the migrations and the import; the
 * database server's memory is not in it). Prints one JSON line at the end.
 *
 *   node --import tsx bench/places/import-child.ts FILE    (env: DATA_DIR; BENCH_DATABASE_URL and BENCH_PG_SCHEMA for PostgreSQL)
 */
import { migrateToLatest, openStore } from '../../server/src/db/database.ts';
import { importPlaces } from '../../server/src/modules/places/store.ts';

export interface ImportFigures {
  seconds: number;
  /** Peak resident set of this process, bytes. */
  peakRss: number;
  /** Resident set just before the import started (Node, tsx, the store, the migrations), bytes. */
  rssBefore: number;
  counts: Record<string, number>;
  /** Seconds from the import's start to each reading pass's last progress report. */
  stages: [stage: string, seconds: number][];
}

const file = process.argv[2];
const dataDir = process.env.DATA_DIR;
if (!file || !dataDir) {
  console.error('usage: DATA_DIR=DIR node --import tsx bench/places/import-child.ts FILE');
  process.exit(2);
}
const store = openStore({
  dataDir,
  databaseUrl: process.env.BENCH_DATABASE_URL || undefined,
  pgSchema: process.env.BENCH_PG_SCHEMA || undefined,
});
try {
  await migrateToLatest(store);
  const rssBefore = process.memoryUsage().rss;
  const stageEnds = new Map<string, number>();
  const started = performance.now();
  const { counts } = await importPlaces(store.db, file, {
    onProgress: (stage) => stageEnds.set(stage, performance.now()),
  });
  const seconds = (performance.now() - started) / 1000;
  const figures: ImportFigures = {
    seconds,
    // maxRSS is in KiB on Linux.
    peakRss: process.resourceUsage().maxRSS * 1024,
    rssBefore,
    counts,
    stages: [...stageEnds].map(([stage, at]) => [stage, (at - started) / 1000]),
  };
  console.log(JSON.stringify(figures));
} finally {
  await store.close();
}
