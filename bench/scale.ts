/**
 * Back office at scale: seeds (or reuses) a database with a million parcels, then times every list
 * and view the app serves from it through the real app (app.inject: routing, validation, auth,
 * serialization, SQL). Prints p50/p95 per request; never fails on a time (DESIGN §8).
 *
 *   npm run bench:scale -- [--parcels 1000000] [--data-dir DIR] [--runs 30]
 *   DATABASE_URL=postgres://… npm run bench:scale -- --parcels 1000000   (seeds it when empty)
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { buildApp } from '../server/src/app.ts';
import { loadConfig } from '../server/src/config.ts';
import { encodeCursor } from '../server/src/db/cursor.ts';
import { migrateToLatest, openStore, type Store } from '../server/src/db/database.ts';
import { ensureSuperadmin } from '../server/src/modules/auth/superadmin.ts';
import { hashToken } from '../server/src/plugins/auth.ts';

const { values } = parseArgs({
  options: {
    parcels: { type: 'string', default: '1000000' },
    'data-dir': { type: 'string' },
    runs: { type: 'string', default: '30' },
  },
});
const parcels = Number(values.parcels);
const runs = Number(values.runs);
const databaseUrl = process.env.DATABASE_URL || undefined;
const dataDir = values['data-dir'] ?? join(tmpdir(), `csomagkuldo-bench-${parcels}`);
const root = new URL('..', import.meta.url).pathname;

async function parcelCount(store: Store): Promise<number> {
  const row = await store.db
    .selectFrom('parcels')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** Reuses a database that already holds enough parcels; otherwise seeds a fresh one with the real script. */
async function prepare(): Promise<{ seededIn: string }> {
  if (!databaseUrl && existsSync(join(dataDir, 'csomagkuldo.sqlite'))) {
    const store = openStore({ dataDir });
    await migrateToLatest(store);
    const have = await parcelCount(store);
    await store.close();
    if (have >= parcels) return { seededIn: `reused (${have} parcels)` };
    rmSync(dataDir, { recursive: true, force: true });
  }
  if (databaseUrl) {
    const store = openStore({ dataDir, databaseUrl });
    await migrateToLatest(store);
    const have = await parcelCount(store);
    await store.close();
    if (have >= parcels) return { seededIn: `reused (${have} parcels)` };
  }
  console.log(`seeding ${parcels} parcels into ${databaseUrl ? 'DATABASE_URL' : dataDir} …`);
  const started = Date.now();
  const seed = spawnSync(
    process.execPath,
    ['--import', 'tsx', 'server/src/scripts/seed-scale.ts', '--parcels', String(parcels)],
    { cwd: root, stdio: 'inherit', env: { ...process.env, DATA_DIR: dataDir } },
  );
  if (seed.status !== 0) throw new Error('seeding failed');
  return { seededIn: `${((Date.now() - started) / 1000).toFixed(1)} s` };
}

const { seededIn } = await prepare();
const config = loadConfig({ DATA_DIR: dataDir, WEB_DIST: '', LOG_LEVEL: 'silent', DEMO_DATA: '0' });
const store = openStore({ dataDir, databaseUrl });
await migrateToLatest(store);
const app = await buildApp({ config: { ...config, databaseUrl }, store, logger: false });
await app.ready();
const { db } = store;

/** A session for an account, written the way sign-in writes it (no argon2 in the timed loop). */
async function sessionFor(accountId: number): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await db
    .insertInto('sessions')
    .values({
      token_hash: hashToken(token),
      account_id: accountId,
      expires_at: new Date(Date.now() + 3_600_000).toISOString(),
      created_at: new Date().toISOString(),
    })
    .execute();
  return `csk_session=${token}`;
}

const adminAccount = await ensureSuperadmin(db, 'bench.admin@pelda.hu', 'bench-admin-jelszo');
const admin = await sessionFor(adminAccount.id);

// The subjects: the busiest sender and runner (the longest lists), a parcel in transit, an address with mail.
const busiestSender = await db
  .selectFrom('parcels')
  .innerJoin('accounts', 'accounts.id', 'parcels.sender_id')
  .select(['accounts.id', 'accounts.user_name', (eb) => eb.fn.countAll<number>().as('n')])
  .groupBy(['accounts.id', 'accounts.user_name'])
  .orderBy('n', 'desc')
  .limit(1)
  .executeTakeFirstOrThrow();
const busiestRunner = await db
  .selectFrom('parcels')
  .innerJoin('accounts', 'accounts.id', 'parcels.runner_id')
  .select(['accounts.id', 'accounts.user_name', (eb) => eb.fn.countAll<number>().as('n')])
  .where('parcels.status', '=', 'in_transit')
  .groupBy(['accounts.id', 'accounts.user_name'])
  .orderBy('n', 'desc')
  .limit(1)
  .executeTakeFirstOrThrow();
const moving = await db
  .selectFrom('parcels')
  .select('id')
  .where('status', '=', 'in_transit')
  .limit(1)
  .executeTakeFirstOrThrow();
const receiver = await db
  .selectFrom('accounts')
  .innerJoin('parcels', 'parcels.receiver_key', 'accounts.address_key')
  .select('accounts.id')
  .where('accounts.role', '=', 'user')
  .limit(1)
  .executeTakeFirstOrThrow();
const senderSession = await sessionFor(busiestSender.id);
const runnerSession = await sessionFor(busiestRunner.id);
const receiverSession = await sessionFor(receiver.id);

/** The cursor of the row halfway down a newest-first list: what page N of a long scroll sends. */
async function deepCursor(filter: { status?: string; runnerId?: number; senderId?: number }, total: number) {
  let query = db.selectFrom('parcels').select(['created_at', 'id']);
  if (filter.status) query = query.where('status', '=', filter.status as 'delivered');
  if (filter.runnerId) query = query.where('runner_id', '=', filter.runnerId);
  if (filter.senderId) query = query.where('sender_id', '=', filter.senderId);
  const row = await query
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .offset(Math.floor(total / 2))
    .executeTakeFirstOrThrow();
  return encodeURIComponent(encodeCursor([row.created_at, row.id]));
}
const statusCounts = Object.fromEntries(
  (
    await db
      .selectFrom('parcels')
      .select(['status', (eb) => eb.fn.countAll<number>().as('n')])
      .groupBy('status')
      .execute()
  ).map((r) => [r.status, Number(r.n)]),
);
const runnerTotal = Number(
  (
    await db
      .selectFrom('parcels')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('runner_id', '=', busiestRunner.id)
      .executeTakeFirstOrThrow()
  ).n,
);
const total = await parcelCount(store);

const hungary = 'south=45.6&west=16&north=48.7&east=23';
const budapest = 'south=47.4&west=18.95&north=47.6&east=19.2';
const district = 'south=47.49&west=19.04&north=47.51&east=19.08';
const street = 'south=47.497&west=19.05&north=47.5&east=19.055';

const cases: [label: string, url: string, cookie: string][] = [
  ['all parcels, first page', '/api/parcels', admin],
  ['all parcels, deep page', `/api/parcels?cursor=${await deepCursor({}, total)}`, admin],
  ['status=waiting', '/api/parcels?status=waiting', admin],
  ['status=in_transit', '/api/parcels?status=in_transit', admin],
  ['status=delivered', '/api/parcels?status=delivered', admin],
  [
    'status=delivered, deep page',
    `/api/parcels?status=delivered&cursor=${await deepCursor({ status: 'delivered' }, statusCounts.delivered ?? 0)}`,
    admin,
  ],
  [`runner=<busiest>`, `/api/parcels?runner=${busiestRunner.user_name}`, admin],
  [
    'runner=<busiest>, deep page',
    `/api/parcels?runner=${busiestRunner.user_name}&cursor=${await deepCursor({ runnerId: busiestRunner.id }, runnerTotal)}`,
    admin,
  ],
  ['runner + status=in_transit', `/api/parcels?runner=${busiestRunner.user_name}&status=in_transit`, admin],
  ['sender=<busiest>', `/api/parcels?sender=${busiestSender.user_name}`, admin],
  [
    'sender=<busiest>, deep page',
    `/api/parcels?sender=${busiestSender.user_name}&cursor=${await deepCursor({ senderId: busiestSender.id }, Number(busiestSender.n))}`,
    admin,
  ],
  ['sender + status=waiting', `/api/parcels?sender=${busiestSender.user_name}&status=waiting`, admin],
  ['admin map: Hungary, zoom 7', `/api/map/parcels?${hungary}&zoom=7`, admin],
  ['admin map: Hungary, waiting only', `/api/map/parcels?${hungary}&zoom=7&status=waiting`, admin],
  ['admin map: Budapest, zoom 12', `/api/map/parcels?${budapest}&zoom=12`, admin],
  ['admin map: district, zoom 15', `/api/map/parcels?${district}&zoom=15`, admin],
  ['admin map: street, zoom 18', `/api/map/parcels?${street}&zoom=18`, admin],
  ['runners by name', '/api/runners', admin],
  ['runners, search', '/api/runners?q=nagy', admin],
  ['runners nearest a parcel', `/api/runners?near=${moving.id}`, admin],
  ['sender picker: common name', '/api/users?role=user&limit=10&q=nagy', admin],
  ['sender picker: one user name', `/api/users?role=user&limit=10&q=${busiestSender.user_name}`, admin],
  ['parcel detail + timeline', `/api/parcels/${moving.id}`, admin],
  ['waiting list (runner)', '/api/parcels/waiting', runnerSession],
  ['my parcels in transit (runner)', '/api/me/assigned-parcels', runnerSession],
  ['sent list (busiest sender)', '/api/me/sent-parcels', senderSession],
  ['sent list, status=delivered', '/api/me/sent-parcels?status=delivered', senderSession],
  ['incoming list', '/api/me/incoming-parcels', receiverSession],
  ['tracking view (public)', `/api/tracking/${moving.id}`, ''],
];

let request = 0;
/** Each request from its own address: the per-IP rate limit is for people, not for this loop. */
const inject = (url: string, cookie: string) => {
  request += 1;
  return app.inject({
    method: 'GET',
    url,
    remoteAddress: `10.${(request >> 16) & 255}.${(request >> 8) & 255}.${request & 255}`,
    ...(cookie ? { headers: { cookie } } : {}),
  });
};

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;

const sqliteFile = join(dataDir, 'csomagkuldo.sqlite');
console.log(
  `\n${store.dialect}, ${total} parcels (${Object.entries(statusCounts)
    .map(([s, n]) => `${s} ${n}`)
    .join(', ')}), seeding: ${seededIn}${
    store.dialect === 'sqlite' ? `, file ${(statSync(sqliteFile).size / 2 ** 20).toFixed(0)} MiB` : ''
  }`,
);
console.log(
  `busiest sender ${busiestSender.n} parcels, busiest runner ${runnerTotal} parcels; ${runs} runs each after 3 warm-ups\n`,
);
console.log(`${'request'.padEnd(34)} ${'p50 ms'.padStart(8)} ${'p95 ms'.padStart(8)} ${'max ms'.padStart(8)}  items`);
for (const [label, url, cookie] of cases) {
  let last = await inject(url, cookie);
  for (let i = 0; i < 2; i++) last = await inject(url, cookie);
  if (last.statusCode !== 200) {
    console.log(`${label.padEnd(34)} HTTP ${last.statusCode}: ${last.body.slice(0, 120)}`);
    continue;
  }
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    last = await inject(url, cookie);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const body = last.json();
  const size = body.items?.length ?? body.markers?.length ?? body.clusters?.length ?? body.events?.length ?? '';
  const mode = body.mode ? ` ${body.mode}` : '';
  console.log(
    `${label.padEnd(34)} ${percentile(times, 50).toFixed(1).padStart(8)} ${percentile(times, 95).toFixed(1).padStart(8)} ${(times.at(-1) ?? 0).toFixed(1).padStart(8)}  ${size}${mode}`,
  );
}

await sql`delete from sessions where account_id in (${adminAccount.id}, ${busiestSender.id}, ${busiestRunner.id}, ${receiver.id})`.execute(
  db,
);
await app.close();
await store.close();
