import { parseArgs } from 'node:util';
import { loadConfig } from '../config.ts';
import { migrateToLatest, openStore } from '../db/database.ts';
import { GtfsFormatError } from '../modules/timetable/gtfs/gtfs-format-error.ts';
import { importTimetable } from '../modules/timetable/store.ts';

// npm run gtfs:import -- FILE.zip [FILE2.zip …]     (reads DATA_DIR or DATABASE_URL)
// Compiles GTFS feeds (BKK, MÁV, Volánbusz, cities…) into one timetable, stores it beside the one in
// use and swaps it in at once (docs/decisions/0029); every instance loads it within half a minute.
// Exit code 0: imported; 1: a feed was refused and the timetable in use kept; 2: usage.
const usage = 'usage: npm run gtfs:import -- FILE.zip [FILE2.zip ...]';
let positionals: string[];
try {
  ({ positionals } = parseArgs({ allowPositionals: true }));
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  console.error(usage);
  process.exit(2);
}
if (positionals.length === 0) {
  console.error(usage);
  process.exit(2);
}

const config = loadConfig();
const store = openStore(config);
const started = performance.now();
try {
  await migrateToLatest(store);
  const { timetable, bytes } = await importTimetable(store.db, positionals, {
    onProgress: (stage, count) => console.log(`${stage}: ${count.toLocaleString('en')}`),
  });
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  for (const feed of timetable.feeds) {
    const { stops, routes, trips, stopTimes, transfers } = feed.counts;
    console.log(
      `${feed.file} (${feed.agencies.join(', ')}): valid ${feed.validFrom} to ${feed.validUntil}; ` +
        `${stops} stops, ${routes} routes, ${trips} trips, ${stopTimes} stop times, ${transfers} transfers`,
    );
  }
  console.log(
    `imported in ${seconds} s: ${timetable.connectionCount.toLocaleString('en')} connections, ` +
      `${timetable.stopCount.toLocaleString('en')} stops, ${(bytes / 1048576).toFixed(1)} MiB`,
  );
} catch (error) {
  if (!(error instanceof GtfsFormatError)) throw error;
  console.error(`refused, the timetable in use is kept: ${error.message}`);
  process.exitCode = 1;
} finally {
  await store.close();
}
