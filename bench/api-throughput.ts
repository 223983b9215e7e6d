/**
 * API throughput: the real app (buildApp, SQLite with synchronous=FULL) listening on 127.0.0.1 in a
 * child process over a fresh temp data dir with a few thousand seeded parcels, driven by autocannon
 * from this process. Prints requests/s and p50/p97.5/p99 latency per endpoint; never fails on a time
 * (DESIGN §8). The load generator shares the machine with the server: on 2 cores these are floors.
 * First, the same load against bare Fastify answering constant JSON: the ceiling right now, with
 * this load generator (DESIGN §10 measured ~75–85 k requests/s on a quiet machine).
 *
 *   npm run bench:api -- [--duration 5] [--warmup 1] [--connections 20] [--parcels 5000] [--senders 150]
 *                        [--rounds 3] [--skip-baseline] [--no-logs] [--only health,tracking] [--cpu-prof DIR]
 *
 * The app logs at its default level (one line per request, as in production; its stdout is thrown
 * away). Bare Fastify answers each GET endpoint's exact response bytes at the same path, in a
 * process beside the app's: each round measures every endpoint on the app and then on bare, one
 * after the other, so a ratio compares two runs seconds apart (this machine's speed drifts by tens of
 * per cent within minutes). The last table prints each endpoint's ratio to bare, the median of the
 * rounds with their spread (issue 11's and issue 31's targets).
 *
 * --only keeps the endpoints whose label contains one of the words; --cpu-prof DIR writes the app
 * process's V8 CPU profile there (open it in Chrome DevTools, or summarise it with bench/profile-top.ts).
 *
 * With DATABASE_URL (postgres://…) the app and the seed data are on PostgreSQL, in a schema of
 * their own that is dropped at the end; without it, SQLite with synchronous=FULL.
 *
 * The app runs with TRUST_PROXY=1 (as behind a reverse proxy) and every connection presents a new
 * X-Forwarded-For address every 500 requests, so the 600/min per-client limit (DESIGN §4) runs on
 * every request without turning the run into 429s. Parcel creation is limited to 120 per account per
 * minute: POST /api/parcels rotates through --senders accounts signed up through the API, 110 parcels
 * each, and stops early (a short burst, said in the output) when they are used up.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import pg from 'pg';
import { migrateToLatest, openStore } from '../server/src/db/database.ts';
import { SCALE_PASSWORD, seedScale } from '../server/src/seed/scale.ts';
import {
  type AppProcess,
  addressSequence,
  cpuSeconds,
  expectStatus,
  inBatches,
  machine,
  mib,
  percentile,
  postgresCpuSeconds,
  requestJson,
  signUpOverHttp,
  startAppProcess,
} from './lib/app-process.ts';

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '5' },
    warmup: { type: 'string', default: '1' },
    connections: { type: 'string', default: '20' },
    parcels: { type: 'string', default: '5000' },
    senders: { type: 'string', default: '150' },
    rounds: { type: 'string', default: '3' },
    'skip-baseline': { type: 'boolean', default: false },
    'no-logs': { type: 'boolean', default: false },
    'cpu-prof': { type: 'string' },
    only: { type: 'string' },
  },
});
const duration = Number(values.duration);
const warmup = Number(values.warmup);
const connections = Number(values.connections);
const parcels = Number(values.parcels);
const senders = Number(values.senders);
const rounds = Math.max(1, Number(values.rounds));
const ROTATE_ADDRESS_EVERY = 500;
const PARCELS_PER_SENDER = 110;
const machineAtStart = machine();
const nextAddress = addressSequence();

interface Case {
  label: string;
  path: string;
  method?: 'GET' | 'POST';
  cookie?: string;
  body?: string;
  /** Rotates accounts: a fresh one every PARCELS_PER_SENDER responses; undefined when none is left. */
  accounts?: () => string | undefined;
}

/** `seconds` of load on one endpoint; stops early when the case runs out of accounts. */
function hammer(origin: string, c: Case, seconds: number) {
  let budgetSpent = false;
  return new Promise<{ result: autocannon.Result; budgetSpent: boolean }>((resolve, reject) => {
    const headersFor = (address: string, cookie: string | undefined) => ({
      'x-forwarded-for': address,
      ...(cookie ? { cookie } : {}),
      ...(c.body ? { 'content-type': 'application/json' } : {}),
    });
    const instance = autocannon(
      {
        url: `${origin}${c.path}`,
        method: c.method ?? 'GET',
        ...(c.body ? { body: c.body } : {}),
        connections,
        pipelining: 1,
        duration: seconds,
        setupClient(client) {
          let address = nextAddress();
          let cookie = c.accounts ? c.accounts() : c.cookie;
          let served = 0;
          // Fewer accounts than connections: the run ends now rather than count 401s.
          if (c.accounts && !cookie) {
            budgetSpent = true;
            // Clients are set up inside autocannon(): the instance is not assigned yet.
            setImmediate(() => instance.stop());
            return;
          }
          client.setHeaders(headersFor(address, cookie));
          client.on('response', () => {
            served += 1;
            let changed = false;
            if (served % ROTATE_ADDRESS_EVERY === 0) {
              address = nextAddress();
              changed = true;
            }
            if (c.accounts && served % PARCELS_PER_SENDER === 0) {
              cookie = c.accounts();
              changed = true;
              if (!cookie) {
                budgetSpent = true;
                instance.stop();
                return;
              }
            }
            if (changed) client.setHeaders(headersFor(address, cookie));
          });
        },
      },
      (error, result) => (error ? reject(error) : resolve({ result, budgetSpent })),
    );
  });
}

const notes: string[] = [];
/** Warm-up (not counted), then the measured run; prints one row. */
async function measure(server: AppProcess, c: Case, described: string) {
  if (warmup > 0) await hammer(server.origin, c, warmup);
  const cpuBefore = cpuSeconds(server.pid);
  // On PostgreSQL the database's own processes work for the requests too (machine-wide: nothing else should run).
  const dbCpuBefore = databaseUrl ? postgresCpuSeconds() : 0;
  const { result, budgetSpent } = await hammer(server.origin, c, duration);
  const cpuPerRequest = (1e6 * (cpuSeconds(server.pid) - cpuBefore)) / Math.max(1, result.requests.total);
  const dbCpuPerRequest = databaseUrl
    ? (1e6 * (postgresCpuSeconds() - dbCpuBefore)) / Math.max(1, result.requests.total)
    : null;
  const rps = result.requests.total / result.duration;
  const other = result.non2xx + result.errors;
  // autocannon's latency histogram has whole-millisecond resolution.
  const ms = (value: number) => String(Math.round(value)).padStart(6);
  console.log(
    `${c.label.padEnd(36)} ${rps.toFixed(0).padStart(8)} ${ms(result.latency.p50)} ${ms(result.latency.p97_5)} ${ms(result.latency.p99)} ${ms(result.latency.max)} ${cpuPerRequest.toFixed(0).padStart(6)} ${(dbCpuPerRequest === null ? '' : dbCpuPerRequest.toFixed(0)).padStart(6)} ${String(result['2xx']).padStart(7)} ${String(other).padStart(6)}  ${described}`,
  );
  if (other > 0) {
    const codes = Object.entries(result.statusCodeStats ?? {})
      .map(([code, { count }]) => `${code}×${count}`)
      .join(' ');
    notes.push(`${c.label}: ${result.non2xx} non-2xx (${codes}), ${result.errors} errors, ${result.timeouts} timeouts`);
  }
  return { result, budgetSpent, cpuPerRequest };
}

/** The rounds' median (the lower middle of an even count). */
const median = (values: number[]) =>
  percentile(
    [...values].sort((a, b) => a - b),
    50,
  );

/** One endpoint's rounds: the app's and bare's requests/s and server CPU µs per request, side by side. */
interface Paired {
  appRps: number[];
  bareRps: number[];
  appCpu: number[];
  bareCpu: number[];
}

/**
 * Each GET endpoint against bare Fastify answering its exact bytes at the same path (issue 11's and
 * 31's ratios): requests/s and CPU per request, each the median over the rounds of the ratio of two
 * runs made one after the other, with the least and the greatest round's ratio.
 */
function printRatios(cases: Case[], paired: Map<string, Paired>) {
  const spread = (values: number[]) =>
    `${median(values).toFixed(2)} (${Math.min(...values).toFixed(2)}–${Math.max(...values).toFixed(2)})`;
  console.log(
    `\n${'endpoint'.padEnd(36)} ${'app'.padStart(8)} ${'bare'.padStart(8)} ${'ratio (spread)'.padStart(17)}   ${'app µs'.padStart(6)} ${'bare'.padStart(6)} ${'ratio (spread)'.padStart(17)}` +
      `   (req/s, then server CPU µs per request; bare Fastify answering the same bytes; medians of ${rounds} rounds)`,
  );
  for (const c of cases) {
    const p = paired.get(c.label);
    if (!p || p.bareRps.length === 0) continue;
    const rpsRatios = p.appRps.map((app, i) => app / (p.bareRps[i] ?? Number.NaN));
    const cpuRatios = p.bareCpu.map((bare, i) => bare / (p.appCpu[i] ?? Number.NaN));
    console.log(
      `${c.label.padEnd(36)} ${median(p.appRps).toFixed(0).padStart(8)} ${median(p.bareRps).toFixed(0).padStart(8)} ${spread(rpsRatios).padStart(17)}` +
        `   ${median(p.appCpu).toFixed(0).padStart(6)} ${median(p.bareCpu).toFixed(0).padStart(6)} ${spread(cpuRatios).padStart(17)}`,
    );
  }
}

// 1. A fresh database with realistic data, seeded directly (not timed). With DATABASE_URL, a
// schema of its own in that PostgreSQL database (dropped at the end), else SQLite in a temp dir.
const dataDir = mkdtempSync(join(tmpdir(), 'csomagkuldo-bench-api-'));
const databaseUrl = process.env.DATABASE_URL || undefined;
const pgSchema = databaseUrl ? `bench_api_${Date.now().toString(36)}` : undefined;
if (databaseUrl && pgSchema) {
  await withPostgres(databaseUrl, (client) => client.query(`create schema ${pgSchema}`));
  // The app child (bench/lib/app-child.ts) opens the same store.
  process.env.BENCH_DATABASE_URL = databaseUrl;
  process.env.BENCH_PG_SCHEMA = pgSchema;
}
const storeName = databaseUrl ? 'PostgreSQL' : 'SQLite synchronous=FULL';
let seededIn = 0;
const subjects = await (async () => {
  const store = openStore({ dataDir, databaseUrl, pgSchema });
  try {
    await migrateToLatest(store);
    const started = Date.now();
    await seedScale(store, {
      parcels,
      users: Math.max(100, Math.round(parcels / 25)),
      runners: Math.max(5, Math.round(parcels / 500)),
      events: true,
    });
    seededIn = Date.now() - started;
    const { db } = store;
    const busiestSender = await db
      .selectFrom('parcels')
      .innerJoin('accounts', 'accounts.id', 'parcels.sender_id')
      .select(['accounts.user_name', 'accounts.email', (eb) => eb.fn.countAll<number>().as('n')])
      .groupBy(['accounts.user_name', 'accounts.email'])
      .orderBy('n', 'desc')
      .limit(1)
      .executeTakeFirstOrThrow();
    const runner = await db
      .selectFrom('accounts')
      .select(['user_name', 'email'])
      .where('role', '=', 'runner')
      .limit(1)
      .executeTakeFirstOrThrow();
    const moving = await db
      .selectFrom('parcels')
      .select('id')
      .where('status', '=', 'in_transit')
      .limit(1)
      .executeTakeFirstOrThrow();
    const waiting = await db
      .selectFrom('parcels')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('status', '=', 'waiting')
      .executeTakeFirstOrThrow();
    return { busiestSender, runner, moving: moving.id, waiting: Number(waiting.n) };
  } finally {
    await store.close();
  }
})();

console.log(`\nAPI throughput — ${storeName} — ${machineAtStart}`);
console.log(
  `${connections} connections, pipelining 1, ${warmup} s warm-up (not counted) then ${duration} s per endpoint;` +
    ' autocannon runs in this process and the server in a child process: they share the machine',
);
console.log(
  `\n${'endpoint'.padEnd(36)} ${'req/s'.padStart(8)} ${'p50 ms'.padStart(6)} ${'p97.5'.padStart(6)} ${'p99'.padStart(6)} ${'max'.padStart(6)} ${'cpu µs'.padStart(6)} ${'db µs'.padStart(6)} ${'2xx'.padStart(7)} ${'other'.padStart(6)}  response`,
);

// 2. The ceiling: bare Fastify, constant JSON, same load generator, same moment.
if (!values['skip-baseline']) {
  const bare = await startAppProcess(dataDir, { bare: true });
  try {
    await measure(bare, { label: 'bare Fastify GET / (the ceiling)', path: '/' }, 'constant JSON');
  } finally {
    await bare.close();
  }
}

// 3. The real app in its own process; sign-ins and sign-ups through the API.
let app: AppProcess | undefined;
let bare: AppProcess | undefined;
try {
  app = await startAppProcess(dataDir, {
    trustProxy: true,
    logs: !values['no-logs'],
    ...(values['cpu-prof'] ? { cpuProfileDir: values['cpu-prof'] } : {}),
  });
  const { origin } = app;
  const signIn = async (email: string) => {
    const response = await requestJson(origin, '/api/auth/login', {
      method: 'POST',
      body: { email, password: SCALE_PASSWORD },
      forwardedFor: nextAddress(),
    });
    const { cookie } = expectStatus(response, 200, `sign-in ${email}`);
    if (!cookie) throw new Error(`no session cookie for ${email}`);
    return cookie;
  };
  const senderCookie = await signIn(subjects.busiestSender.email);
  const runnerCookie = await signIn(subjects.runner.email);

  const runTag = Date.now().toString(36);
  const signUpStarted = Date.now();
  const senderCookies = await inBatches(
    Array.from({ length: senders }, (_, i) => i),
    4,
    (i) => signUpOverHttp(origin, 'user', `bench_${runTag}_${i}`, { forwardedFor: nextAddress() }),
  );
  const signUpMs = Date.now() - signUpStarted;
  let nextSender = 0;
  const takeSender = () => senderCookies[nextSender++];

  const only = values.only?.split(',').map((word) => word.trim().toLowerCase());
  const allCases: Case[] = [
    { label: 'GET /api/health', path: '/api/health' },
    { label: 'GET /api/tracking/:id (public)', path: `/api/tracking/${subjects.moving}` },
    { label: 'GET /api/me/sent-parcels (user)', path: '/api/me/sent-parcels', cookie: senderCookie },
    { label: 'GET /api/parcels/waiting (runner)', path: '/api/parcels/waiting', cookie: runnerCookie },
    {
      label: 'POST /api/parcels (user, coords)',
      path: '/api/parcels',
      method: 'POST',
      body: JSON.stringify({
        senderAddress: '1052 Budapest, Váci utca 12.',
        receiverAddress: '6720 Szeged, Kárász utca 5.',
        category: 'Könyv',
        weightGrams: 750,
        senderCoordinates: { lat: 47.4953, lng: 19.0536 },
        receiverCoordinates: { lat: 46.2524, lng: 20.1484 },
      }),
      accounts: takeSender,
    },
  ];
  const cases = only ? allCases.filter((c) => only.some((word) => c.label.toLowerCase().includes(word))) : allCases;

  // One request each first: the figures are of 2xx answers, not of errors.
  const described: Record<string, string> = {};
  /** Each GET endpoint's response text: what bare Fastify answers for the ratio. */
  const answered: Record<string, string> = {};
  for (const c of cases) {
    const response = await requestJson(origin, c.path, {
      method: c.method ?? 'GET',
      cookie: c.accounts ? c.accounts() : c.cookie,
      forwardedFor: nextAddress(),
      ...(c.body ? { body: JSON.parse(c.body) } : {}),
    });
    expectStatus(response, c.method === 'POST' ? 201 : 200, c.label);
    if ((c.method ?? 'GET') === 'GET') answered[c.path] = response.text;
    const list = (response.body as { items?: unknown[] }).items;
    const size = Buffer.byteLength(response.text);
    const bytes = size < 1024 ? `${size} B` : `${(size / 1024).toFixed(1)} KiB`;
    described[c.label] = `${list ? `${list.length} items, ` : ''}${bytes}`;
  }

  // Bare Fastify answering each GET's bytes, beside the app (idle while the other is measured).
  const routesFile = join(dataDir, 'bare-routes.json');
  writeFileSync(routesFile, JSON.stringify(answered));
  bare = values['skip-baseline'] ? undefined : await startAppProcess(dataDir, { bare: true, bareRoutes: routesFile });
  const paired = new Map<string, Paired>(
    cases.map((c) => [c.label, { appRps: [], bareRps: [], appCpu: [], bareCpu: [] }]),
  );
  for (let round = 0; round < rounds; round++) {
    for (const c of cases) {
      // Creating parcels spends the accounts' budget: measured in the first round only.
      if (c.accounts && round > 0) continue;
      const p = paired.get(c.label) as Paired;
      const { result, budgetSpent, cpuPerRequest } = await measure(app, c, described[c.label] ?? '');
      p.appRps.push(result.requests.total / result.duration);
      p.appCpu.push(cpuPerRequest);
      if (budgetSpent) {
        notes.push(
          `${c.label}: a ${result.duration.toFixed(1)} s burst — all ${senders} accounts made ${PARCELS_PER_SENDER} parcels` +
            ' each (the limit is 120 per account per minute); pass a larger --senders for a longer run',
        );
      } else if (c.accounts) {
        notes.push(
          `${c.label}: ${nextSender} of ${senders} accounts used (warm-up included), ≤${PARCELS_PER_SENDER} parcels each`,
        );
      }
      const bytes = answered[c.path];
      if (!bare || bytes === undefined) continue;
      const same = await measure(
        bare,
        { label: `bare, same bytes: ${c.path}`.slice(0, 36), path: c.path },
        `${Buffer.byteLength(bytes)} B`,
      );
      p.bareRps.push(same.result.requests.total / same.result.duration);
      p.bareCpu.push(same.cpuPerRequest);
    }
  }

  const memory = await app.memory();
  printRatios(cases, paired);
  notes.push(
    `data: ${parcels} seeded parcels (${subjects.waiting} waiting; the busiest sender has ${subjects.busiestSender.n})` +
      ` in ${(seededIn / 1000).toFixed(1)} s; ${senders} senders signed up through the API in ${(signUpMs / 1000).toFixed(1)} s`,
    `server: the real app, ${storeName}, TRUST_PROXY=1 (a new X-Forwarded-For every ${ROTATE_ADDRESS_EVERY}` +
      ` requests per connection); RSS after the run ${mib(memory.rss)}, heap ${mib(memory.heapUsed)}`,
  );
  console.log(`\n${notes.join('\n')}`);
} finally {
  await app?.close();
  await bare?.close();
  rmSync(dataDir, { recursive: true, force: true });
  if (databaseUrl) await withPostgres(databaseUrl, (client) => client.query(`drop schema ${pgSchema} cascade`));
}

async function withPostgres<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}
