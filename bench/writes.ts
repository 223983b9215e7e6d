/**
 * State changes near the hardware's limit (issue 11): runners picking up and delivering parcels
 * through the real app over HTTP (bench/lib/app-process.ts: buildApp in a child process at its
 * default log level, TRUST_PROXY=1), on SQLite (`synchronous=FULL`) and, with DATABASE_URL, on
 * PostgreSQL (a schema of its own, dropped afterwards). Per store, three parts:
 *
 * 1. Throughput: R runners at once, each picking up the next waiting parcel and delivering it
 *    from the receiver's door (the 15 m rule, SPEC §4). Prints pickup + deliver pairs/s, p50/p99
 *    per write, and the server's CPU per pair (the app process; on PostgreSQL also every postgres
 *    process of the machine, whatever database it serves).
 * 2. Race: 200 runners try to pick up the same parcel at the same moment, parcel after parcel.
 *    Prints how many parcels had exactly one winner, and checks each winner against the stored
 *    parcel and its timeline (one `picked_up` event).
 * 3. Durability: the same load on a new server process, which is killed with SIGKILL once a given
 *    number of writes have been answered 200; a new process on the same data then shows every
 *    acknowledged change (the runner's view of each parcel). Writes still unanswered at the kill
 *    may or may not have committed: their count is printed.
 *
 *   npm run bench:writes -- [--runners 100] [--pairs 5000] [--warmup 500] [--race-runners 200]
 *     [--race-parcels 25] [--kill-after 2000] [--background 20000] [--skip-sqlite] [--cpu-prof DIR]
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/bench_writes npm run bench:writes
 *
 * Runners sign up through the API, each presenting its own X-Forwarded-For address (a new one
 * every 250 requests), so the 600 per minute per-client limit (DESIGN §4) runs on every request
 * without refusing any. Waiting parcels are seeded directly: copies of rows server/src/seed/scale.ts
 * made (its places and their spread), so writes touch the map-count cells a real country's parcels
 * would. Prints figures; never fails on a time (DESIGN §8). The load generator (this process), the
 * app and the database share the machine's cores.
 */

import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { PARCEL_ID_ALPHABET, type Parcel, type ParcelDetail } from '@csomag/domain/parcel';
import { sql } from 'kysely';
import pg from 'pg';
import { migrateToLatest, openStore, type Store } from '../server/src/db/database.ts';
import type { ParcelRow } from '../server/src/db/schema.ts';
import { NO_ATTEMPTS } from '../server/src/modules/parcels/changes.ts';
import { seedScale } from '../server/src/seed/scale.ts';
import {
  type AppProcess,
  addressSequence,
  cpuSeconds,
  inBatches,
  type JsonResponse,
  machine,
  percentile,
  postgresCpuSeconds,
  requestJson,
  signUpOverHttp,
  startAppProcess,
} from './lib/app-process.ts';

const { values } = parseArgs({
  options: {
    runners: { type: 'string', default: '100' },
    pairs: { type: 'string', default: '5000' },
    warmup: { type: 'string', default: '500' },
    'race-runners': { type: 'string', default: '200' },
    'race-parcels': { type: 'string', default: '25' },
    'kill-after': { type: 'string', default: '2000' },
    background: { type: 'string', default: '20000' },
    'skip-sqlite': { type: 'boolean', default: false },
    'cpu-prof': { type: 'string' },
  },
});
const runnerCount = Number(values.runners);
const pairCount = Number(values.pairs);
const warmupPairs = Number(values.warmup);
const raceRunnerCount = Number(values['race-runners']);
const raceParcelCount = Number(values['race-parcels']);
const killAfter = Number(values['kill-after']);
const backgroundParcels = Number(values.background);
const databaseUrl = process.env.DATABASE_URL || undefined;

/** Requests from one address before the runner presents the next (the per-client limit is 600 a minute). */
const ROTATE_ADDRESS_EVERY = 250;
/** The runner reports their position at the receiver's door, a few metres' accuracy. */
const ACCURACY_M = 5;
const nextAddress = addressSequence();

interface Runner {
  userName: string;
  cookie: string;
  agent: http.Agent;
  address: string;
  sent: number;
}

/** One POST as this runner, on its own keep-alive connection, from its current address. */
function post(origin: string, runner: Runner, path: string, body?: unknown): Promise<JsonResponse> {
  if (++runner.sent % ROTATE_ADDRESS_EVERY === 0) runner.address = nextAddress();
  return requestJson(origin, path, {
    method: 'POST',
    cookie: runner.cookie,
    forwardedFor: runner.address,
    agent: runner.agent,
    ...(body === undefined ? {} : { body }),
  });
}

function get(origin: string, runner: Runner, path: string): Promise<JsonResponse> {
  if (++runner.sent % ROTATE_ADDRESS_EVERY === 0) runner.address = nextAddress();
  return requestJson(origin, path, { cookie: runner.cookie, forwardedFor: runner.address, agent: runner.agent });
}

const codeOf = (response: JsonResponse) =>
  `${response.status} ${(response.body as { error?: { code?: string } })?.error?.code ?? ''}`.trim();

const tally = (counts: Map<string, number>, key: string) => counts.set(key, (counts.get(key) ?? 0) + 1);

const newAgent = () => new http.Agent({ keepAlive: true, maxSockets: 1 });

/* ------------------------------------------------------------------ data */

/** Parcel ids as the app draws them: 10 Crockford base32 characters. */
function parcelId(): string {
  const bytes = randomBytes(10);
  let id = '';
  for (const byte of bytes) id += PARCEL_ID_ALPHABET[byte & 31];
  return id;
}

/**
 * `count` new waiting parcels, copied from rows the scale seed made (senders, addresses, points),
 * oldest first; their ids in that order.
 */
const ROWS_PER_INSERT = 200;

async function seedWaiting(store: Store, count: number): Promise<string[]> {
  const templates = await store.db
    .selectFrom('parcels')
    .selectAll()
    .orderBy(sql`random()`)
    .limit(Math.min(count, 5000))
    .execute();
  const ids: string[] = [];
  const start = Date.now() - count;
  // SQLite takes at most 32,766 variables a statement: ~70 columns × 200 rows stays under.
  for (let offset = 0; offset < count; offset += ROWS_PER_INSERT) {
    const rows: ParcelRow[] = [];
    for (let i = offset; i < Math.min(count, offset + ROWS_PER_INSERT); i++) {
      const template = templates[i % templates.length] as ParcelRow;
      const id = parcelId();
      ids.push(id);
      rows.push({
        ...template,
        id,
        status: 'waiting',
        runner_id: null,
        created_at: new Date(start + i).toISOString(),
        picked_up_at: null,
        delivered_at: null,
        version: 1,
        // Waiting, as a new parcel is: with its sender, nothing attempted (issue 28's columns too).
        holder_kind: 'sender',
        holder_id: template.sender_id,
        custody_seq: 0,
        runner_handovers: 0,
        ...NO_ATTEMPTS,
      });
    }
    await store.db.insertInto('parcels').values(rows).execute();
  }
  return ids;
}

/* ------------------------------------------------------------------ load */

interface Outcome {
  pairs: number;
  seconds: number;
  pickupMs: number[];
  deliverMs: number[];
  /** Answers other than 200, by status and code. */
  refused: Map<string, number>;
  /** Acknowledged (200) pickups: parcel → runner; and acknowledged deliveries. */
  pickedUp: Map<string, string>;
  delivered: Set<string>;
  /** Writes whose request failed without an answer (the server was killed under them). */
  unanswered: { parcelId: string; kind: 'pickup' | 'deliver'; runner: string }[];
}

/**
 * Every runner at once: the next waiting parcel of `queue`, pickup, then delivery at its door,
 * until `pairs` parcels are taken. `onAnswered` hears the count of 200s so far (the durability
 * run kills the server from it); a request that fails without an answer stops its runner.
 */
async function pickUpAndDeliver(
  origin: string,
  runners: Runner[],
  queue: string[],
  pairs: number,
  onAnswered: (acknowledged: number) => void = () => {},
): Promise<Outcome> {
  const outcome: Outcome = {
    pairs: 0,
    seconds: 0,
    pickupMs: [],
    deliverMs: [],
    refused: new Map(),
    pickedUp: new Map(),
    delivered: new Set(),
    unanswered: [],
  };
  let next = 0;
  let acknowledged = 0;
  const started = performance.now();
  await Promise.all(
    runners.map(async (runner) => {
      while (next < pairs) {
        const id = queue[next++] as string;
        let step: 'pickup' | 'deliver' = 'pickup';
        try {
          const picked = await post(origin, runner, `/api/parcels/${id}/pickup`);
          if (picked.status !== 200) {
            tally(outcome.refused, codeOf(picked));
            continue;
          }
          outcome.pickupMs.push(picked.receivedAt - picked.sentAt);
          outcome.pickedUp.set(id, runner.userName);
          onAnswered(++acknowledged);
          const door = (picked.body as Parcel).receiverCoordinates;
          step = 'deliver';
          const delivered = await post(origin, runner, `/api/parcels/${id}/deliver`, { ...door, accuracy: ACCURACY_M });
          if (delivered.status !== 200) {
            tally(outcome.refused, codeOf(delivered));
            continue;
          }
          outcome.deliverMs.push(delivered.receivedAt - delivered.sentAt);
          outcome.delivered.add(id);
          outcome.pairs += 1;
          onAnswered(++acknowledged);
        } catch {
          outcome.unanswered.push({ parcelId: id, kind: step, runner: runner.userName });
          return;
        }
      }
    }),
  );
  outcome.seconds = (performance.now() - started) / 1000;
  return outcome;
}

/* ------------------------------------------------------------------ CPU */

/* ------------------------------------------------------------------ printing */

const ms = (value: number) => `${value.toFixed(1)} ms`;
const sortedCopy = (list: number[]) => [...list].sort((a, b) => a - b);
const latency = (list: number[]) => {
  const sorted = sortedCopy(list);
  return `p50 ${ms(percentile(sorted, 50))}, p99 ${ms(percentile(sorted, 99))}, max ${ms(percentile(sorted, 100))}`;
};
const counts = (map: Map<string, number>) =>
  map.size === 0 ? 'none' : [...map].map(([key, n]) => `${key} ×${n}`).join(', ');

interface StoreSummary {
  store: string;
  pairsPerSecond: number;
  p50: number;
  p99: number;
  appCpuPerPairUs: number;
  dbCpuPerPairUs: number | null;
  race: string;
  durability: string;
}

/* ------------------------------------------------------------------ one store */

interface Target {
  label: string;
  dataDir: string;
  /** PostgreSQL: the app's database and schema (passed to the child through its environment). */
  postgres?: { url: string; schema: string };
}

function openTarget(target: Target): Store {
  mkdirSync(target.dataDir, { recursive: true });
  return openStore({
    dataDir: target.dataDir,
    databaseUrl: target.postgres?.url,
    pgSchema: target.postgres?.schema,
  });
}

async function startApp(target: Target, cpuProfileDir?: string): Promise<AppProcess> {
  if (target.postgres) {
    process.env.BENCH_DATABASE_URL = target.postgres.url;
    process.env.BENCH_PG_SCHEMA = target.postgres.schema;
  }
  try {
    return await startAppProcess(target.dataDir, {
      trustProxy: true,
      logs: true,
      ...(cpuProfileDir ? { cpuProfileDir } : {}),
    });
  } finally {
    delete process.env.BENCH_DATABASE_URL;
    delete process.env.BENCH_PG_SCHEMA;
  }
}

async function measureStore(target: Target): Promise<StoreSummary> {
  const durabilityParcels = killAfter + runnerCount * 4;
  const store = openTarget(target);
  let queue: string[];
  let raceParcels: string[];
  let durabilityQueue: string[];
  const seedStarted = Date.now();
  try {
    await migrateToLatest(store);
    await seedScale(store, { parcels: backgroundParcels, users: 500, runners: 20, events: true });
    queue = await seedWaiting(store, warmupPairs + pairCount);
    raceParcels = await seedWaiting(store, raceParcelCount);
    durabilityQueue = await seedWaiting(store, durabilityParcels);
    if (store.dialect === 'postgres') await sql`vacuum analyze parcels`.execute(store.db);
  } finally {
    await store.close();
  }
  console.log(
    `\n${target.label}\n  data: ${backgroundParcels} parcels from the scale seed, then` +
      ` ${queue.length + raceParcels.length + durabilityQueue.length} waiting ones (${((Date.now() - seedStarted) / 1000).toFixed(1)} s)`,
  );

  // 1. Throughput (and the race) on one server process; its profile, if asked for, is written when it closes.
  const startedAt = performance.now();
  let app = await startApp(target, values['cpu-prof']);
  const runners: Runner[] = [];
  let summary: Omit<StoreSummary, 'race' | 'durability'>;
  let raceLine: string;
  try {
    const tag = randomBytes(3).toString('hex');
    const signUpStarted = Date.now();
    const signedUp = await inBatches(
      Array.from({ length: Math.max(runnerCount, raceRunnerCount) }, (_, i) => `b_${tag}_${i}`),
      4,
      async (userName) => {
        const address = nextAddress();
        const cookie = await signUpOverHttp(app.origin, 'runner', userName, { forwardedFor: address });
        return { userName, cookie, agent: newAgent(), address, sent: 0 };
      },
    );
    runners.push(...signedUp);
    console.log(
      `  ${runners.length} runners signed up through the API (${((Date.now() - signUpStarted) / 1000).toFixed(1)} s)`,
    );
    const loadRunners = runners.slice(0, runnerCount);

    await pickUpAndDeliver(app.origin, loadRunners, queue, warmupPairs);
    const measured = queue.slice(warmupPairs);
    const appCpuBefore = cpuSeconds(app.pid);
    const dbCpuBefore = target.postgres ? postgresCpuSeconds() : 0;
    const fromMs = performance.now() - startedAt;
    const outcome = await pickUpAndDeliver(app.origin, loadRunners, measured, pairCount);
    const toMs = performance.now() - startedAt;
    const appCpu = cpuSeconds(app.pid) - appCpuBefore;
    const dbCpu = target.postgres ? postgresCpuSeconds() - dbCpuBefore : null;
    const writes = sortedCopy([...outcome.pickupMs, ...outcome.deliverMs]);
    const pairsPerSecond = outcome.pairs / outcome.seconds;
    console.log(
      `  throughput: ${runnerCount} runners, ${outcome.pairs} pickup + deliver pairs in ${outcome.seconds.toFixed(2)} s` +
        ` (after ${warmupPairs} not counted)`,
    );
    console.log(
      `    ${pairsPerSecond.toFixed(0)} pairs/s (${(2 * pairsPerSecond).toFixed(0)} state changes/s); refused: ${counts(outcome.refused)}`,
    );
    console.log(`    every write: ${latency(writes)}`);
    console.log(`    pickup:      ${latency(outcome.pickupMs)}`);
    console.log(`    deliver:     ${latency(outcome.deliverMs)}`);
    const appUs = (1e6 * appCpu) / Math.max(1, outcome.pairs);
    const dbUs = dbCpu === null ? null : (1e6 * dbCpu) / Math.max(1, outcome.pairs);
    console.log(
      `    server CPU per pair: ${appUs.toFixed(0)} µs in the app process` +
        (dbUs === null ? '' : `, ${dbUs.toFixed(0)} µs in postgres processes (machine-wide)`) +
        ` — the app process used ${((100 * appCpu) / outcome.seconds).toFixed(0)} % of a core`,
    );
    if (values['cpu-prof']) {
      console.log(
        `    profile window: --from-ms ${fromMs.toFixed(0)} --to-ms ${toMs.toFixed(0)} (from the server's start)`,
      );
    }
    summary = {
      store: target.label,
      pairsPerSecond,
      p50: percentile(writes, 50),
      p99: percentile(writes, 99),
      appCpuPerPairUs: appUs,
      dbCpuPerPairUs: dbUs,
    };

    raceLine = await race(app.origin, runners.slice(0, raceRunnerCount), raceParcels);
  } finally {
    await app.close();
  }

  // 3. Durability: a new server process, killed under load, then another on the same data.
  for (const runner of runners) {
    runner.agent.destroy();
    runner.agent = newAgent();
  }
  app = await startApp(target);
  let killed = false;
  const outcome = await pickUpAndDeliver(
    app.origin,
    runners.slice(0, runnerCount),
    durabilityQueue,
    durabilityParcels,
    (n) => {
      if (n >= killAfter && !killed) {
        killed = true;
        process.kill(app.pid, 'SIGKILL');
      }
    },
  );
  if (killed) await reaped(app.pid);
  await app.close();
  for (const runner of runners) {
    runner.agent.destroy();
    runner.agent = newAgent();
  }
  app = await startApp(target);
  let durabilityLine: string;
  try {
    durabilityLine = await verifyDurability(app.origin, runners, outcome, killed);
  } finally {
    await app.close();
    for (const runner of runners) runner.agent.destroy();
  }
  return { ...summary, race: raceLine, durability: durabilityLine };
}

/** Resolves once the killed process is gone (its exit seen here too), so closing it sends it nothing. */
async function reaped(pid: number) {
  for (;;) {
    try {
      process.kill(pid, 0);
    } catch {
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Parcel after parcel, every runner tries to pick it up at the same moment; each must have one winner. */
async function race(origin: string, runners: Runner[], parcels: string[]): Promise<string> {
  const refused = new Map<string, number>();
  const winners = new Map<string, Runner[]>();
  for (const id of parcels) {
    const answers = await Promise.all(runners.map((runner) => post(origin, runner, `/api/parcels/${id}/pickup`)));
    answers.forEach((answer, i) => {
      if (answer.status === 200) winners.set(id, [...(winners.get(id) ?? []), runners[i] as Runner]);
      else tally(refused, codeOf(answer));
    });
  }
  let one = 0;
  let confirmed = 0;
  const wrong: string[] = [];
  for (const id of parcels) {
    const won = winners.get(id) ?? [];
    if (won.length !== 1) {
      wrong.push(`${id}: ${won.length} winners`);
      continue;
    }
    one += 1;
    const winner = won[0] as Runner;
    const detail = await get(origin, winner, `/api/parcels/${id}`);
    const parcel = detail.body as ParcelDetail;
    const pickups = detail.status === 200 ? parcel.events.filter((event) => event.kind === 'picked_up').length : -1;
    if (detail.status === 200 && parcel.runner === winner.userName && parcel.status === 'in_transit' && pickups === 1) {
      confirmed += 1;
    } else {
      wrong.push(`${id}: stored runner ${parcel.runner}, ${pickups} picked_up events (winner ${winner.userName})`);
    }
  }
  const line =
    `${one} of ${parcels.length} parcels had exactly one winner among ${runners.length} runners` +
    ` (${confirmed} confirmed by the stored parcel and its one picked_up event); refused: ${counts(refused)}`;
  console.log(`  race: ${line}`);
  for (const problem of wrong) console.log(`    WRONG ${problem}`);
  return `${one}/${parcels.length} one winner${wrong.length > 0 ? `, ${wrong.length} WRONG` : ''}`;
}

/** Every acknowledged change, looked up by its runner on the restarted server. */
async function verifyDurability(origin: string, runners: Runner[], outcome: Outcome, killed: boolean): Promise<string> {
  const byName = new Map(runners.map((runner) => [runner.userName, runner]));
  const acknowledged = [...outcome.pickedUp].map(([parcelId, runner]) => ({ parcelId, runner }));
  const missing: string[] = [];
  await inBatches(acknowledged, 16, async ({ parcelId, runner }) => {
    const response = await get(origin, byName.get(runner) as Runner, `/api/parcels/${parcelId}`);
    const parcel = response.body as ParcelDetail;
    const kinds = response.status === 200 ? parcel.events.map((event) => event.kind) : [];
    if (response.status !== 200 || parcel.runner !== runner || !kinds.includes('picked_up')) {
      missing.push(`pickup ${parcelId} by ${runner}: ${response.status} ${response.text.slice(0, 120)}`);
    } else if (outcome.delivered.has(parcelId) && (parcel.status !== 'delivered' || !kinds.includes('delivered'))) {
      missing.push(`delivery ${parcelId}: ${parcel.status}`);
    }
  });
  let committedAnyway = 0;
  await inBatches(outcome.unanswered, 16, async ({ parcelId, kind, runner }) => {
    const response = await get(origin, byName.get(runner) as Runner, `/api/parcels/${parcelId}`);
    const parcel = response.body as ParcelDetail;
    if (response.status === 200 && (kind === 'pickup' ? parcel.runner === runner : parcel.status === 'delivered')) {
      committedAnyway += 1;
    }
  });
  const changes = outcome.pickedUp.size + outcome.delivered.size;
  const present = changes - missing.length;
  console.log(
    `  durability: ${killed ? 'SIGKILL' : 'NOT killed (too few parcels for --kill-after)'} after ${changes} acknowledged writes` +
      ` (${outcome.pickedUp.size} pickups, ${outcome.delivered.size} deliveries); after a restart on the same data` +
      ` ${present} of ${changes} are present; ${outcome.unanswered.length} writes were unanswered at the kill` +
      ` (${committedAnyway} of them committed anyway)`,
  );
  for (const problem of missing.slice(0, 20)) console.log(`    MISSING ${problem}`);
  return `${present}/${changes} present${killed ? '' : ' (not killed)'}`;
}

/* ------------------------------------------------------------------ main */

console.log(`State changes: pickup + deliver — ${machine()}`);
console.log(
  `the app in a child process at its default log level (stdout thrown away), TRUST_PROXY=1; ${runnerCount} runners,` +
    ` each on its own keep-alive connection; the race with ${raceRunnerCount} runners on ${raceParcelCount} parcels;` +
    ` SIGKILL after ${killAfter} acknowledged writes`,
);
const summaries: StoreSummary[] = [];
const dataDir = mkdtempSync(join(tmpdir(), 'csomagkuldo-bench-writes-'));
try {
  if (!values['skip-sqlite']) {
    summaries.push(await measureStore({ label: 'SQLite (WAL, synchronous=FULL)', dataDir: join(dataDir, 'sqlite') }));
  }
  if (databaseUrl) {
    const schema = `bench_${randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    await admin.query(`create schema ${schema}`);
    try {
      summaries.push(
        await measureStore({
          label: 'PostgreSQL (pool of 10)',
          dataDir: join(dataDir, 'postgres'),
          postgres: { url: databaseUrl, schema },
        }),
      );
    } finally {
      await admin.query(`drop schema ${schema} cascade`);
      await admin.end();
    }
  }
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}

console.log(
  `\n${'store'.padEnd(32)} ${'pairs/s'.padStart(8)} ${'p50 ms'.padStart(7)} ${'p99 ms'.padStart(7)} ${'app µs'.padStart(7)} ${'db µs'.padStart(7)}  race; durability`,
);
for (const s of summaries) {
  console.log(
    `${s.store.padEnd(32)} ${s.pairsPerSecond.toFixed(0).padStart(8)} ${s.p50.toFixed(1).padStart(7)} ${s.p99.toFixed(1).padStart(7)}` +
      ` ${s.appCpuPerPairUs.toFixed(0).padStart(7)} ${(s.dbCpuPerPairUs === null ? '—' : s.dbCpuPerPairUs.toFixed(0)).padStart(7)}  ${s.race}; ${s.durability}`,
  );
}
console.log('(server CPU per pickup + deliver pair in µs: the app process; db: every postgres process of the machine)');
