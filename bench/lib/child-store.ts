/**
 * What the benchmarks' child processes share (lib/seed-child.ts, places/ and timetable/import-child.ts):
 * the store their parent names, migrated, and one JSON line of figures printed at the end.
 */
import { migrateToLatest, openStore, type Store } from '../../server/src/db/database.ts';

/**
 * Opens the store of `dataDir` — or, with BENCH_DATABASE_URL and BENCH_PG_SCHEMA, the parent's
 * PostgreSQL schema — migrates it, prints what `work` answers as one JSON line, and closes it.
 */
export async function printFromStore(dataDir: string, work: (store: Store) => Promise<unknown>): Promise<void> {
  const store = openStore({
    dataDir,
    databaseUrl: process.env.BENCH_DATABASE_URL || undefined,
    pgSchema: process.env.BENCH_PG_SCHEMA || undefined,
  });
  try {
    await migrateToLatest(store);
    console.log(JSON.stringify(await work(store)));
  } finally {
    await store.close();
  }
}

/** An import's wall time, this process's resident set before it and at its peak, and when each stage last reported. */
export interface ImportTimes {
  seconds: number;
  /** Peak resident set of this process, bytes. */
  peakRss: number;
  /** Resident set just before the import started (Node, tsx, the store, the migrations), bytes. */
  rssBefore: number;
  /** Seconds from the import's start to each stage's last progress report. */
  stages: [stage: string, seconds: number][];
}

/** Runs an import that reports its stages to `onProgress`, timed (ImportTimes). */
export async function timedImport<T>(
  run: (onProgress: (stage: string) => void) => Promise<T>,
): Promise<{ result: T; times: ImportTimes }> {
  const rssBefore = process.memoryUsage().rss;
  const stageEnds = new Map<string, number>();
  const started = performance.now();
  const result = await run((stage) => stageEnds.set(stage, performance.now()));
  const seconds = (performance.now() - started) / 1000;
  return {
    result,
    times: {
      seconds,
      // maxRSS is in KiB on Linux.
      peakRss: process.resourceUsage().maxRSS * 1024,
      rssBefore,
      stages: [...stageEnds].map(([stage, at]) => [stage, (at - started) / 1000]),
    },
  };
}
