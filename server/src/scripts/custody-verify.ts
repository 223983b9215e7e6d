import { parseArgs } from 'node:util';
import { loadConfig } from '../config.ts';
import { migrateToLatest, openStore } from '../db/database.ts';
import { type ChainVerdict, verifyAllChains, verifyChain } from '../modules/relay/chain.ts';

// npm run custody:verify -- <parcel id>     one parcel's chain of custody
// npm run custody:verify -- --all           every parcel's (docs/decisions/0022)
// Exit code 0: every chain verifies; 1: a chain does not (its first bad row is named); 2: usage.
const usage = 'usage: npm run custody:verify -- <parcel id> | --all   (reads DATA_DIR or DATABASE_URL)';
let parsed: ReturnType<typeof parse>;
function parse() {
  return parseArgs({ options: { all: { type: 'boolean', default: false } }, allowPositionals: true });
}
try {
  parsed = parse();
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  console.error(usage);
  process.exit(2);
}
const { values, positionals } = parsed;
if (values.all === (positionals.length === 1) || positionals.length > 1) {
  console.error(usage);
  process.exit(2);
}

const describe = (verdict: ChainVerdict) =>
  verdict.ok
    ? `${verdict.parcelId}: ok (${verdict.events} events)`
    : verdict.problem === 'missing'
      ? `${verdict.parcelId}: BAD, no custody events`
      : verdict.problem === 'hash'
        ? `${verdict.parcelId}: BAD at seq ${verdict.badSeq} (hash or link broken; ${verdict.events} events)`
        : `${verdict.parcelId}: BAD at seq ${verdict.badSeq} (the last event's holder is not the parcel's holder)`;

const config = loadConfig();
const store = openStore(config);
try {
  await migrateToLatest(store);
  let bad = 0;
  let checked = 0;
  const verdicts = values.all ? verifyAllChains(store.db) : [await verifyChain(store.db, positionals[0] ?? '')];
  for await (const verdict of verdicts) {
    checked += 1;
    if (!verdict.ok) bad += 1;
    if (!verdict.ok || !values.all) console.log(describe(verdict));
  }
  if (values.all) console.log(`${checked} chains checked, ${bad} bad`);
  process.exitCode = bad === 0 ? 0 : 1;
} finally {
  await store.close();
}
