import { parseArgs } from 'node:util';
import { loadConfig } from '../config.ts';
import { migrateToLatest, openStore } from '../db/database.ts';
import { SCALE_PASSWORD, seedScale } from '../seed/scale.ts';
import { seededRandom } from '../seed/seeded-random.ts';

// npm run seed:scale -- --parcels 1000000 [--users 40000] [--runners 500] [--no-events] [--old-waiting-share 0.05] [--seed N]
// Fills the configured database (DATA_DIR's SQLite file, or DATABASE_URL) with bulk test data;
// with --seed, the same data every time (the same N, the same sizes).
const { values } = parseArgs({
  options: {
    parcels: { type: 'string', default: '100000' },
    users: { type: 'string' },
    runners: { type: 'string' },
    'no-events': { type: 'boolean', default: false },
    // 0.05 leaves ~50 k of 1 M parcels waiting (the trip query's figure, issue 13); default 0.01, ~13 k.
    'old-waiting-share': { type: 'string', default: '0.01' },
    seed: { type: 'string' },
  },
});

function count(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < 0) {
    console.error(`--${name} must be a whole number, not ${raw}`);
    process.exit(2);
  }
  return value;
}

const parcels = count('parcels', values.parcels, 100_000);
// About 25 parcels per sender and 2,000 per runner unless told otherwise.
const users = count('users', values.users, Math.max(100, Math.round(parcels / 25)));
const runners = count('runners', values.runners, Math.max(10, Math.round(parcels / 2000)));

const oldWaitingShare = Number(values['old-waiting-share']);
if (!(oldWaitingShare >= 0 && oldWaitingShare <= 1)) {
  console.error(`--old-waiting-share must be between 0 and 1, not ${values['old-waiting-share']}`);
  process.exit(2);
}

const seed = values.seed === undefined ? undefined : count('seed', values.seed, 0);

const config = loadConfig();
const store = openStore(config);
try {
  await migrateToLatest(store);
  const where = store.dialect === 'sqlite' ? config.dataDir : 'DATABASE_URL';
  console.log(`seeding ${parcels} parcels, ${users} users, ${runners} runners into ${store.dialect} (${where})`);
  const { tag, ms } = await seedScale(store, {
    parcels,
    users,
    runners,
    events: !values['no-events'],
    oldWaitingShare,
    random: seed === undefined ? Math.random : seededRandom(seed),
    log: (line) => console.log(`  ${line}`),
  });
  console.log(`done in ${(ms / 1000).toFixed(1)} s. Accounts ${tag}_u0… (users) and ${tag}_f0… (runners),`);
  console.log(`email <user name>@pelda.hu, password ${SCALE_PASSWORD}. Superadmin: npm run create-admin.`);
} catch (error) {
  console.error(`seeding failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
} finally {
  await store.close();
}
