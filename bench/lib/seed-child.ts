/**
 * The scale seed (server/src/seed/scale.ts, as `npm run seed:scale` runs it) in a process of its
 * own, for benchmarks that need a million parcels beside something else they measure: its memory
 * and garbage stay out of the measuring process. Unlike the script, it seeds a PostgreSQL schema
 * too (a benchmark's own, dropped afterwards). Prints one JSON line at the end.
 *
 *   node --import tsx bench/lib/seed-child.ts PARCELS OLD_WAITING_SHARE SEED
 *     (env: DATA_DIR; BENCH_DATABASE_URL and BENCH_PG_SCHEMA for PostgreSQL)
 */
import { seedScale } from '../../server/src/seed/scale.ts';
import { seededRandom } from '../../server/src/seed/seeded-random.ts';
import { printFromStore } from './child-store.ts';

export interface SeedFigures {
  seconds: number;
  tag: string;
}

const [parcels, share, seed] = process.argv.slice(2).map(Number);
const dataDir = process.env.DATA_DIR;
if (
  !dataDir ||
  parcels === undefined ||
  share === undefined ||
  !Number.isSafeInteger(parcels) ||
  !(share >= 0) ||
  !Number.isSafeInteger(seed)
) {
  console.error('usage: DATA_DIR=DIR node --import tsx bench/lib/seed-child.ts PARCELS OLD_WAITING_SHARE SEED');
  process.exit(2);
}
await printFromStore(dataDir, async (store): Promise<SeedFigures> => {
  // The seed script's proportions: ~25 parcels a sender, ~2,000 a runner.
  const { tag, ms } = await seedScale(store, {
    parcels,
    users: Math.max(100, Math.round(parcels / 25)),
    runners: Math.max(10, Math.round(parcels / 2000)),
    events: true,
    oldWaitingShare: share,
    // The same parcels every run: a benchmark's figures compare from day to day.
    random: seededRandom(seed as number),
    log: (line) => console.error(`  seed: ${line}`),
  });
  return { seconds: ms / 1000, tag };
});
