/**
 * One timetable import (`importTimetable`, as `npm run gtfs:import` runs it) in a process of its
 * own, for bench/timetable.ts: its peak RSS is the import's (getrusage's maxRSS of this process:
 * Node, the tsx loader, the migrations and the import; the database server's memory is not in it).
 * Prints one JSON line at the end.
 *
 *   node --import tsx bench/timetable/import-child.ts FEED.zip   (env: DATA_DIR; BENCH_DATABASE_URL and BENCH_PG_SCHEMA for PostgreSQL)
 */
import { migrateToLatest, openStore } from '../../server/src/db/database.ts';
import { importTimetable } from '../../server/src/modules/timetable/store.ts';
import type { FeedSummary } from '../../server/src/modules/timetable/timetable.ts';

export interface ImportFigures {
  id: number;
  seconds: number;
  /** Peak resident set of this process, bytes. */
  peakRss: number;
  /** Resident set just before the import started (Node, tsx, the store, the migrations), bytes. */
  rssBefore: number;
  /** The compiled timetable's encoded size, as stored. */
  bytes: number;
  feeds: FeedSummary[];
  connections: number;
  stops: number;
  trips: number;
  /** Walks between stops (each direction once). */
  footpaths: number;
  fastestKmh: number;
  /** Seconds from the import's start to each stage's last progress report. */
  stages: [stage: string, seconds: number][];
}

const file = process.argv[2];
const dataDir = process.env.DATA_DIR;
if (!file || !dataDir) {
  console.error('usage: DATA_DIR=DIR node --import tsx bench/timetable/import-child.ts FEED.zip');
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
  const { id, timetable, bytes } = await importTimetable(store.db, [file], {
    onProgress: (stage) => stageEnds.set(stage, performance.now()),
  });
  const seconds = (performance.now() - started) / 1000;
  const figures: ImportFigures = {
    id,
    seconds,
    // maxRSS is in KiB on Linux.
    peakRss: process.resourceUsage().maxRSS * 1024,
    rssBefore,
    bytes,
    feeds: timetable.feeds,
    connections: timetable.connectionCount,
    stops: timetable.stopCount,
    trips: timetable.tripCount,
    footpaths: (timetable.footStart[timetable.stopCount] ?? 0) / 2,
    fastestKmh: timetable.fastestKmh,
    stages: [...stageEnds].map(([stage, at]) => [stage, (at - started) / 1000]),
  };
  console.log(JSON.stringify(figures));
} finally {
  await store.close();
}
