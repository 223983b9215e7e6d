/**
 * Lists, map and trip queries at scale: every list and map request a person makes, and the runner's
 * trip query (POST /api/trips/matches; issue 13 asks p95 < 50 ms at 1 M parcels, 50 k waiting),
 * sent through the real app (app.inject: routing, validation, auth, SQL, serialisation) to a small database (1,000
 * parcels) and a large one (1,000,000), side by side, with the ratio large / small of the medians.
 * Both are seeded once by the real seed script and reused. Prints figures; never fails on a time
 * (DESIGN §8).
 *
 *   npm run bench:scale -- [--parcels 1000000] [--small 1000] [--runs 30] [--only TEXT] [--explain]
 *                          [--data-dir DIR] [--small-data-dir DIR]
 *   DATABASE_URL=postgres://…/bench_scale SMALL_DATABASE_URL=postgres://…/bench_scale_1k npm run bench:scale
 *
 * Lists are asked for the page size their screen asks for; when the small database has fewer
 * rows for a list than that, both are asked for as many as the small one has, so both answers
 * carry the same number of items and the ratio compares queries, not page sizes. Lists a cache may
 * answer from memory are read as after a change: one's own lists as another person each time, the
 * waiting pool with a cursor from before its first parcel. `--explain`
 * prints each request's SQL with its plan (SQLite EXPLAIN QUERY PLAN, PostgreSQL EXPLAIN
 * (ANALYZE, BUFFERS)) on the large database instead of timing.
 */
import { execSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, rmSync, statSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import SQLite from 'better-sqlite3';
import type { FastifyInstance } from 'fastify';
import { type CompiledQuery, Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import { buildApp } from '../server/src/app.ts';
import { loadConfig } from '../server/src/config.ts';
import { encodeCursor } from '../server/src/db/cursor.ts';
import { DATABASE_FILE, migrateToLatest, openStore, type Store } from '../server/src/db/database.ts';
import type { Database } from '../server/src/db/schema.ts';
import { ensureSuperadmin } from '../server/src/modules/auth/superadmin.ts';
import { hashToken } from '../server/src/plugins/auth.ts';

const { values } = parseArgs({
  options: {
    parcels: { type: 'string', default: '1000000' },
    small: { type: 'string', default: '1000' },
    'data-dir': { type: 'string' },
    'small-data-dir': { type: 'string' },
    runs: { type: 'string', default: '30' },
    only: { type: 'string' },
    explain: { type: 'boolean', default: false },
  },
});
const runs = Number(values.runs);
const root = new URL('..', import.meta.url).pathname;
const bigUrl = process.env.DATABASE_URL || undefined;
const smallUrl = process.env.SMALL_DATABASE_URL || undefined;
if (bigUrl && !smallUrl) {
  console.error(
    'With DATABASE_URL, SMALL_DATABASE_URL names the small database (another database, e.g. createdb bench_scale_1k).',
  );
  process.exit(2);
}

interface Size {
  parcels: number;
  dataDir: string;
  databaseUrl: string | undefined;
}
const sizes: [Size, Size] = [
  {
    parcels: Number(values.small),
    dataDir: values['small-data-dir'] ?? join(tmpdir(), `csomagkuldo-bench-${values.small}`),
    databaseUrl: smallUrl,
  },
  {
    parcels: Number(values.parcels),
    dataDir: values['data-dir'] ?? join(tmpdir(), `csomagkuldo-bench-${values.parcels}`),
    databaseUrl: bigUrl,
  },
];

async function parcelCount(db: Kysely<Database>): Promise<number> {
  const row = await db
    .selectFrom('parcels')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** Reuses a database that already holds enough parcels; otherwise seeds it with the real script. */
async function prepare({ parcels, dataDir, databaseUrl }: Size): Promise<string> {
  if (databaseUrl || existsSync(join(dataDir, DATABASE_FILE))) {
    const store = openStore({ dataDir, databaseUrl });
    // Also where a new migration meets a full table: its time is part of the figures' story.
    const started = Date.now();
    await migrateToLatest(store);
    const migrated = Date.now() - started;
    const have = await parcelCount(store.db);
    await store.close();
    if (have >= parcels) return `reused (${have} parcels; migrations ${(migrated / 1000).toFixed(1)} s)`;
    if (!databaseUrl) rmSync(dataDir, { recursive: true, force: true });
  }
  console.log(`seeding ${parcels} parcels into ${databaseUrl ? 'the database' : dataDir} …`);
  const started = Date.now();
  const seed = spawnSync(
    process.execPath,
    [
      '--import',
      'tsx',
      'server/src/scripts/seed-scale.ts',
      '--parcels',
      String(parcels),
      // ~50 k of 1 M waiting, the trip query's condition (issue 13); the other lists page the same.
      '--old-waiting-share',
      '0.05',
    ],
    {
      cwd: root,
      stdio: 'inherit',
      env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: databaseUrl ?? '' },
    },
  );
  if (seed.status !== 0) throw new Error('seeding failed');
  return `seeded in ${((Date.now() - started) / 1000).toFixed(1)} s`;
}

/** The SQL each request ran, for --explain: a second Kysely on the same database that writes it down. */
function recordingStore(store: Store, dataDir: string, recorded: CompiledQuery[]): Store {
  const log = (event: { level: string; query: CompiledQuery }) => {
    if (event.level === 'query') recorded.push(event.query);
  };
  const dialect = store.pgPool
    ? new PostgresDialect({ pool: store.pgPool })
    : new SqliteDialect({ database: new SQLite(join(dataDir, DATABASE_FILE)) });
  return { ...store, db: new Kysely<Database>({ dialect, log }) };
}

async function explain(d: Dataset, query: CompiledQuery): Promise<string[]> {
  if (d.store.pgPool) {
    // Bound through pg, as the app's queries are: the plan a parameterised query gets.
    const result = await d.store.pgPool.query(`explain (analyze, buffers) ${query.sql}`, [...query.parameters]);
    return result.rows.map((row: { 'QUERY PLAN': string }) => row['QUERY PLAN']);
  }
  const sqlite = new SQLite(join(d.size.dataDir, DATABASE_FILE), { readonly: true });
  try {
    const plan = sqlite.prepare(`explain query plan ${query.sql}`).all(...(query.parameters as unknown[])) as {
      id: number;
      parent: number;
      detail: string;
    }[];
    const depth = new Map<number, number>([[0, 0]]);
    return plan.map((row) => {
      const level = (depth.get(row.parent) ?? 0) + 1;
      depth.set(row.id, level);
      return `${'  '.repeat(level - 1)}${row.detail}`;
    });
  } finally {
    sqlite.close();
  }
}

interface Subjects {
  admin: string;
  sender: { id: number; userName: string; parcels: number };
  runner: { id: number; userName: string; carried: number; total: number; cookie: string };
  /** The busiest senders and receivers, one per request: each read of their lists is a first read. */
  senders: string[];
  receivers: string[];
  receiver: { parcels: number };
  sessions: string[];
  moving: string;
  deep: { all: string; delivered: string; runner: string; sender: string };
  /** A box around the busiest part of Budapest holding about MARKER_VIEW_PARCELS parcels. */
  markerView: string;
}

interface Dataset {
  size: Size;
  store: Store;
  app: FastifyInstance;
  note: string;
  statusCounts: Record<string, number>;
  total: number;
  subjects: Subjects;
  recorded: CompiledQuery[];
}

const MARKER_VIEW_PARCELS = 300;
/**
 * People whose own lists are read in turn, one per request (warm-ups included), so no request
 * reads a list it read before: a cache in front of a list would otherwise answer from memory.
 */
const PEOPLE = runs + 3;

/** The row halfway down a newest-first list: where page N of a long scroll starts. */
async function deepCursor(
  db: Kysely<Database>,
  filter: { status?: 'delivered'; runnerId?: number; senderId?: number },
  total: number,
) {
  let query = db.selectFrom('parcels').select(['created_at', 'id']);
  if (filter.status) query = query.where('status', '=', filter.status);
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

/** A view box centred on Budapest's busiest spot, grown until it holds about `want` parcels. */
async function boxHolding(db: Kysely<Database>, want: number): Promise<string> {
  const [lat, lng] = [47.4979, 19.0402];
  const inBox = async (half: number) =>
    Number(
      (
        await db
          .selectFrom('parcels')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('sender_lat', '>=', lat - half)
          .where('sender_lat', '<=', lat + half)
          .where('sender_lng', '>=', lng - half * 1.5)
          .where('sender_lng', '<=', lng + half * 1.5)
          .executeTakeFirstOrThrow()
      ).n,
    );
  let [low, high] = [0.0001, 2];
  for (let i = 0; i < 30; i++) {
    const mid = (low + high) / 2;
    if ((await inBox(mid)) < want) low = mid;
    else high = mid;
  }
  const h = high;
  const f = (x: number) => x.toFixed(5);
  return `south=${f(lat - h)}&west=${f(lng - h * 1.5)}&north=${f(lat + h)}&east=${f(lng + h * 1.5)}`;
}

async function open(size: Size): Promise<Dataset> {
  const note = await prepare(size);
  const config = loadConfig({ DATA_DIR: size.dataDir, WEB_DIST: '', LOG_LEVEL: 'silent', DEMO_DATA: '0' });
  const opened = openStore({ dataDir: size.dataDir, databaseUrl: size.databaseUrl });
  const recorded: CompiledQuery[] = [];
  const store = values.explain ? recordingStore(opened, size.dataDir, recorded) : opened;
  const app = await buildApp({ config: { ...config, databaseUrl: size.databaseUrl }, store, logger: false });
  await app.ready();
  const { db } = opened;

  /** A session written the way sign-in writes it (no argon2 in the timed loop); removed at the end. */
  const sessions: string[] = [];
  const sessionFor = async (accountId: number) => {
    const token = randomBytes(32).toString('base64url');
    sessions.push(hashToken(token));
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
  };

  const adminAccount = await ensureSuperadmin(db, 'bench.admin@pelda.hu', 'bench-admin-jelszo');
  // The subjects: the busiest sender, runner and receiver (the longest lists), a parcel in transit.
  const senders = await db
    .selectFrom('parcels')
    .innerJoin('accounts', 'accounts.id', 'parcels.sender_id')
    .select(['accounts.id', 'accounts.user_name', (eb) => eb.fn.countAll<number>().as('n')])
    .groupBy(['accounts.id', 'accounts.user_name'])
    .orderBy('n', 'desc')
    .orderBy('accounts.id')
    .limit(PEOPLE)
    .execute();
  const sender = senders[0];
  if (!sender) throw new Error('no parcels');
  const runner = await db
    .selectFrom('parcels')
    .innerJoin('accounts', 'accounts.id', 'parcels.runner_id')
    .select(['accounts.id', 'accounts.user_name', (eb) => eb.fn.countAll<number>().as('n')])
    .where('parcels.status', '=', 'in_transit')
    .groupBy(['accounts.id', 'accounts.user_name'])
    .orderBy('n', 'desc')
    .limit(1)
    .executeTakeFirstOrThrow();
  const runnerTotal = Number(
    (
      await db
        .selectFrom('parcels')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('runner_id', '=', runner.id)
        .executeTakeFirstOrThrow()
    ).n,
  );
  const receivers = await db
    .selectFrom('accounts')
    .innerJoin('parcels', 'parcels.receiver_key', 'accounts.address_key')
    .select(['accounts.id', (eb) => eb.fn.countAll<number>().as('n')])
    .where('accounts.role', '=', 'user')
    .groupBy('accounts.id')
    .orderBy('n', 'desc')
    .orderBy('accounts.id')
    .limit(PEOPLE)
    .execute();
  const moving = await db
    .selectFrom('parcels')
    .select('id')
    .where('status', '=', 'in_transit')
    .orderBy('id')
    .limit(1)
    .executeTakeFirstOrThrow();
  const statusCounts = Object.fromEntries(
    (
      await db
        .selectFrom('parcels')
        .select(['status', (eb) => eb.fn.countAll<number>().as('n')])
        .groupBy('status')
        .execute()
    ).map((r) => [r.status, Number(r.n)]),
  );
  const total = await parcelCount(db);
  const senderSessions = await Promise.all(senders.map((row) => sessionFor(row.id)));
  const receiverSessions = await Promise.all(receivers.map((row) => sessionFor(row.id)));
  return {
    size,
    store,
    app,
    note,
    statusCounts,
    total,
    recorded,
    subjects: {
      admin: await sessionFor(adminAccount.id),
      sender: { id: sender.id, userName: sender.user_name, parcels: Number(sender.n) },
      senders: senderSessions,
      receivers: receiverSessions,
      receiver: { parcels: Number(receivers[0]?.n ?? 0) },
      sessions,
      runner: {
        id: runner.id,
        userName: runner.user_name,
        carried: Number(runner.n),
        total: runnerTotal,
        cookie: await sessionFor(runner.id),
      },
      moving: moving.id,
      deep: {
        all: await deepCursor(db, {}, total),
        delivered: await deepCursor(db, { status: 'delivered' }, statusCounts.delivered ?? 0),
        runner: await deepCursor(db, { runnerId: runner.id }, runnerTotal),
        sender: await deepCursor(db, { senderId: sender.id }, Number(sender.n)),
      },
      markerView: await boxHolding(db, MARKER_VIEW_PARCELS),
    },
  };
}

interface Case {
  label: string;
  /** The request for a dataset's subjects; lists end in `limit=` (see `limit`). */
  url: (s: Subjects, i: number) => string;
  /** Whose request; `i` counts the case's requests (a list of one's own is read as another person each time). */
  cookie: (s: Subjects, i: number) => string;
  /** Set when `cookie` takes turns among people: every one of them is asked how much they have. */
  rotates?: true;
  /** The page size the screen asks for; absent for the map and single views. */
  limit?: number;
  /** A POST's JSON body (the trip query); a case without one is a GET. */
  body?: unknown;
}

const admin = (s: Subjects) => s.admin;
const asRunner = (s: Subjects) => s.runner.cookie;
const inTurn = (people: string[], i: number) => people[i % people.length] ?? '';
const asSender = (s: Subjects, i: number) => inTurn(s.senders, i);
const asReceiver = (s: Subjects, i: number) => inTurn(s.receivers, i);

const hungary = 'south=45.6&west=16&north=48.7&east=23';
const budapest = 'south=47.4&west=18.95&north=47.6&east=19.2';
const district = 'south=47.49&west=19.04&north=47.51&east=19.08';
const street = 'south=47.497&west=19.05&north=47.5&east=19.055';
const szeged = 'south=46.1&west=19.9&north=46.4&east=20.4';
/**
 * The waiting pool is the same for every runner, so the app may answer it from memory until it
 * changes. Each request here carries a cursor from before the first parcel (by age, or by
 * distance), a different one each time: the first page, read as it is read after a change.
 */
const byAge = (i: number) => `cursor=${encodeCursor(['0000-01-01T00:00:00.000Z', String(i)])}&`;
const byDistance = (i: number) => `cursor=${encodeCursor(['-1', String(i)])}&`;
/** Where a runner stands in Budapest (Deák Ferenc tér). */
const here = 'near=47.4979,19.0545';
/**
 * A runner's trip (POST /api/trips/matches, issue 13): the ellipse's index box, then exact scoring
 * of the waiting parcels in it (docs/decisions/0020).
 */
const trip = (from: [number, number], to: [number, number], mode: string, maxDetourMinutes: number) => ({
  from: { lat: from[0], lng: from[1] },
  to: { lat: to[0], lng: to[1] },
  mode,
  departure: 'now',
  maxDetourMinutes,
});
const deak: [number, number] = [47.4979, 19.0545];

/** Every list and map query a person uses, with the page size of its screen (web/src/features/*). */
const cases: Case[] = [
  // The back office's parcel list (SaCsomagListazas): 20 a page, newest first, filters, paging.
  { label: 'parcels: first page', url: () => '/api/parcels?', cookie: admin, limit: 20 },
  { label: 'parcels: deep page', url: (s) => `/api/parcels?cursor=${s.deep.all}&`, cookie: admin, limit: 20 },
  { label: 'parcels: waiting', url: () => '/api/parcels?status=waiting&', cookie: admin, limit: 20 },
  { label: 'parcels: in transit', url: () => '/api/parcels?status=in_transit&', cookie: admin, limit: 20 },
  { label: 'parcels: delivered', url: () => '/api/parcels?status=delivered&', cookie: admin, limit: 20 },
  {
    label: 'parcels: delivered, deep page',
    url: (s) => `/api/parcels?status=delivered&cursor=${s.deep.delivered}&`,
    cookie: admin,
    limit: 20,
  },
  { label: 'parcels: runner', url: (s) => `/api/parcels?runner=${s.runner.userName}&`, cookie: admin, limit: 20 },
  {
    label: 'parcels: runner, deep page',
    url: (s) => `/api/parcels?runner=${s.runner.userName}&cursor=${s.deep.runner}&`,
    cookie: admin,
    limit: 20,
  },
  {
    label: 'parcels: runner + in transit',
    url: (s) => `/api/parcels?runner=${s.runner.userName}&status=in_transit&`,
    cookie: admin,
    limit: 20,
  },
  {
    label: 'parcels: runner + delivered',
    url: (s) => `/api/parcels?runner=${s.runner.userName}&status=delivered&`,
    cookie: admin,
    limit: 20,
  },
  { label: 'parcels: sender', url: (s) => `/api/parcels?sender=${s.sender.userName}&`, cookie: admin, limit: 20 },
  {
    label: 'parcels: sender, deep page',
    url: (s) => `/api/parcels?sender=${s.sender.userName}&cursor=${s.deep.sender}&`,
    cookie: admin,
    limit: 20,
  },
  {
    label: 'parcels: sender + waiting',
    url: (s) => `/api/parcels?sender=${s.sender.userName}&status=waiting&`,
    cookie: admin,
    limit: 20,
  },
  {
    label: 'parcels: sender + runner',
    url: (s) => `/api/parcels?sender=${s.sender.userName}&runner=${s.runner.userName}&`,
    cookie: admin,
    limit: 20,
  },
  // The admin map (SaTerkep): the app asks for its view at each pan and zoom.
  { label: 'map: Hungary, zoom 7', url: () => `/api/map/parcels?${hungary}&zoom=7`, cookie: admin },
  { label: 'map: Hungary, waiting', url: () => `/api/map/parcels?${hungary}&zoom=7&status=waiting`, cookie: admin },
  { label: 'map: Budapest, zoom 12', url: () => `/api/map/parcels?${budapest}&zoom=12`, cookie: admin },
  { label: 'map: district, zoom 15', url: () => `/api/map/parcels?${district}&zoom=15`, cookie: admin },
  { label: 'map: street, zoom 18', url: () => `/api/map/parcels?${street}&zoom=18`, cookie: admin },
  {
    label: `map: ~${MARKER_VIEW_PARCELS} parcels in view`,
    url: (s) => `/api/map/parcels?${s.markerView}&zoom=16`,
    cookie: admin,
  },
  // The runner's waiting pool: 20 a page, oldest first or nearest first, and the runner's map (200).
  { label: 'waiting: oldest first', url: (_, i) => `/api/parcels/waiting?${byAge(i)}`, cookie: asRunner, limit: 20 },
  {
    label: 'waiting: nearest first',
    url: (_, i) => `/api/parcels/waiting?${here}&${byDistance(i)}`,
    cookie: asRunner,
    limit: 20,
  },
  {
    label: 'waiting: Budapest',
    url: (_, i) => `/api/parcels/waiting?settlement=Budapest&${byAge(i)}`,
    cookie: asRunner,
    limit: 20,
  },
  {
    label: 'waiting: Szeged',
    url: (_, i) => `/api/parcels/waiting?settlement=Szeged&${byAge(i)}`,
    cookie: asRunner,
    limit: 20,
  },
  {
    label: 'waiting: Szeged, nearest',
    url: (_, i) => `/api/parcels/waiting?settlement=Szeged&near=46.253,20.1482&${byDistance(i)}`,
    cookie: asRunner,
    limit: 20,
  },
  {
    label: 'waiting: runner map, Budapest',
    url: (_, i) => `/api/parcels/waiting?${budapest}&${byAge(i)}`,
    cookie: asRunner,
    limit: 200,
  },
  {
    label: 'waiting: runner map, Szeged',
    url: (_, i) => `/api/parcels/waiting?${szeged}&${byAge(i)}`,
    cookie: asRunner,
    limit: 200,
  },
  { label: 'runner: parcels I carry', url: () => '/api/me/assigned-parcels?', cookie: asRunner, limit: 20 },
  // The runner's trips: the waiting parcels on the way (at most 50, by added minutes).
  {
    label: 'trip: Budapest, transit 10 min',
    url: () => '/api/trips/matches',
    cookie: asRunner,
    // Széll Kálmán tér → Örs vezér tere, ~7 km across the city.
    body: trip([47.5071, 19.0235], [47.5036, 19.1367], 'transit', 10),
  },
  {
    label: 'trip: Budapest → Győr, transit 30',
    url: () => '/api/trips/matches',
    cookie: asRunner,
    body: trip(deak, [47.6875, 17.6504], 'transit', 30),
  },
  {
    label: 'trip: Budapest, walk 15 min',
    url: () => '/api/trips/matches',
    cookie: asRunner,
    // Deák Ferenc tér → Kálvin tér → Corvin-negyed, ~2 km on foot.
    body: trip(deak, [47.4862, 19.0708], 'walk', 15),
  },
  // The sender's lists: 4 on the dashboard, 20 a page on their own pages.
  { label: 'sent: dashboard preview', url: () => '/api/me/sent-parcels?', cookie: asSender, limit: 4, rotates: true },
  { label: 'sent: first page', url: () => '/api/me/sent-parcels?', cookie: asSender, limit: 20, rotates: true },
  {
    label: 'sent: delivered',
    url: () => '/api/me/sent-parcels?status=delivered&',
    cookie: asSender,
    limit: 20,
    rotates: true,
  },
  {
    label: 'sent: waiting',
    url: () => '/api/me/sent-parcels?status=waiting&',
    cookie: asSender,
    limit: 20,
    rotates: true,
  },
  {
    label: 'incoming: first page',
    url: () => '/api/me/incoming-parcels?',
    cookie: asReceiver,
    limit: 20,
    rotates: true,
  },
  // The runner directory (SaFutarListazas, assignment) and the account directory (sender picker).
  { label: 'runners: by name', url: () => '/api/runners?', cookie: admin, limit: 20 },
  { label: 'runners: search', url: () => '/api/runners?q=nagy&', cookie: admin, limit: 20 },
  { label: 'runners: nearest a parcel', url: (s) => `/api/runners?near=${s.moving}&`, cookie: admin, limit: 20 },
  { label: 'accounts: common name', url: () => '/api/users?role=user&q=nagy&', cookie: admin, limit: 10 },
  {
    label: 'accounts: one user name',
    url: (s) => `/api/users?role=user&q=${s.sender.userName}&`,
    cookie: admin,
    limit: 10,
  },
  { label: 'accounts: no match', url: () => '/api/users?role=user&q=zzzq&', cookie: admin, limit: 10 },
  { label: 'accounts: all users', url: () => '/api/users?role=user&', cookie: admin, limit: 10 },
  // Single views, for comparison: a parcel with its timeline, the public tracking page.
  { label: 'parcel detail + timeline', url: (s) => `/api/parcels/${s.moving}`, cookie: admin },
  { label: 'tracking view (public)', url: (s) => `/api/tracking/${s.moving}`, cookie: () => '' },
];

let request = 0;
/** Each request from its own address: the per-IP rate limit is for people, not for this loop. */
function inject(app: FastifyInstance, url: string, cookie: string, body?: unknown) {
  request += 1;
  return app.inject({
    method: body === undefined ? 'GET' : 'POST',
    url,
    remoteAddress: `10.${(request >> 16) & 255}.${(request >> 8) & 255}.${request & 255}`,
    ...(cookie ? { headers: { cookie } } : {}),
    ...(body === undefined ? {} : { payload: body as object }),
  });
}

interface Shown {
  items: number;
  mode: string;
}
function shown(body: string): Shown {
  const json = JSON.parse(body);
  const list = json.items ?? json.matches ?? json.markers ?? json.clusters ?? json.events ?? [];
  return { items: list.length, mode: json.mode ?? '' };
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;

function commit(): string {
  try {
    const head = execSync('git rev-parse --short HEAD', { cwd: root }).toString().trim();
    const dirty = execSync('git status --porcelain -- server bench domain', { cwd: root }).toString().trim();
    return dirty ? `${head} + working tree` : head;
  } catch {
    return 'unknown';
  }
}

const datasets: Dataset[] = [];
for (const size of sizes) datasets.push(await open(size));
const [small, big] = datasets as [Dataset, Dataset];
const selected = values.only ? cases.filter((c) => c.label.includes(values.only as string)) : cases;

const describe = (d: Dataset) => {
  const { sender, runner, receiver } = d.subjects;
  const file = join(d.size.dataDir, DATABASE_FILE);
  return `${d.store.dialect}, ${d.total} parcels (${Object.entries(d.statusCounts)
    .map(([s, n]) => `${s} ${n}`)
    .join(', ')}), ${d.note}${
    d.store.dialect === 'sqlite' ? `, file ${(statSync(file).size / 2 ** 20).toFixed(0)} MiB` : ''
  }\n  busiest sender ${sender.parcels} parcels, busiest runner carries ${runner.carried} (${runner.total} in all), busiest receiver ${receiver.parcels}; sent and incoming lists read as each of the ${PEOPLE} busiest senders and receivers in turn`;
};
console.log(
  `\n${new Date().toISOString()}, commit ${commit()}, Node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? '?'}, load ${loadavg()
    .map((n) => n.toFixed(2))
    .join(' ')}`,
);
console.log(`small: ${describe(small)}`);
console.log(`large: ${describe(big)}`);

/**
 * The page size both get: the screen's, or fewer when the small database has fewer rows for it.
 * Asked with one more than the screen's and as nobody the timed requests are (i = -1), so the
 * probe leaves nothing in a cache for them.
 */
async function pageSize(c: Case): Promise<number | undefined> {
  if (c.limit === undefined) return undefined;
  let have = c.limit;
  for (let person = 0; person < (c.rotates ? PEOPLE : 1); person++) {
    const url = `${c.url(small.subjects, -1)}limit=${Math.min(200, c.limit + 1)}`;
    const probe = await inject(small.app, url, c.cookie(small.subjects, person));
    if (probe.statusCode === 200) have = Math.min(have, shown(probe.body).items);
  }
  return Math.max(1, have);
}

const urlOf = (c: Case, d: Dataset, i: number, limit: number | undefined) =>
  `${c.url(d.subjects, i)}${limit === undefined ? '' : `limit=${limit}`}`;

if (values.explain) {
  for (const c of selected) {
    const url = urlOf(c, big, 0, await pageSize(c));
    big.recorded.length = 0;
    const response = await inject(big.app, url, c.cookie(big.subjects, 0), c.body);
    console.log(`\n=== ${c.label}: ${c.body === undefined ? 'GET' : 'POST'} ${url} → ${response.statusCode}`);
    for (const query of [...big.recorded]) {
      // Sessions and rate limits are every request's, not this list's.
      if (/from "sessions"|rate_limits/.test(query.sql)) continue;
      console.log(`\n${query.sql}\n  ${JSON.stringify(query.parameters)}`);
      for (const line of await explain(big, query)) console.log(`    ${line}`);
    }
  }
} else {
  console.log(`\n${runs} runs each (after 3 warm-ups), small and large alternating; ms`);
  const short = (n: number) => (n >= 1e6 ? `${n / 1e6}M` : n >= 1e3 ? `${n / 1e3}k` : String(n));
  const [a, z] = [short(small.total), short(big.total)];
  console.log(
    `${'request'.padEnd(32)} ${`${a} p50`.padStart(7)} ${'p95'.padStart(6)} ${`${z} p50`.padStart(7)} ${'p95'.padStart(6)} ${'max'.padStart(6)} ${'ratio'.padStart(6)}   items ${a} / ${z} (≠: different answers)`,
  );
  for (const c of selected) {
    const limit = await pageSize(c);
    const timed = [
      { d: small, times: [] as number[], last: undefined as Shown | undefined, status: 0 },
      { d: big, times: [] as number[], last: undefined as Shown | undefined, status: 0 },
    ];
    for (const t of timed) {
      for (let i = 0; i < 3; i++) {
        const response = await inject(t.d.app, urlOf(c, t.d, i, limit), c.cookie(t.d.subjects, i), c.body);
        t.status = response.statusCode;
        if (t.status === 200) t.last = shown(response.body);
        else console.log(`${c.label}: HTTP ${t.status} ${response.body.slice(0, 160)}`);
      }
    }
    if (timed.some((t) => t.status !== 200)) continue;
    for (let i = 3; i < runs + 3; i++) {
      for (const t of timed) {
        const [url, cookie] = [urlOf(c, t.d, i, limit), c.cookie(t.d.subjects, i)];
        const started = performance.now();
        await inject(t.d.app, url, cookie, c.body);
        t.times.push(performance.now() - started);
      }
    }
    for (const t of timed) t.times.sort((a, b) => a - b);
    const [s, b] = timed as [(typeof timed)[0], (typeof timed)[0]];
    const p = (t: typeof s, q: number) => percentile(t.times, q).toFixed(q === 50 ? 2 : 1);
    const ratio = percentile(b.times, 50) / percentile(s.times, 50);
    const what = (t: typeof s) => `${t.last?.items}${t.last?.mode ? ` ${t.last.mode}` : ''}`;
    // Answers of another kind or size (a map view holding a few parcels at 1k, thousands at 1M) are other work.
    const [x, y] = [s.last?.items ?? 0, b.last?.items ?? 0];
    const same = s.last?.mode === b.last?.mode && Math.abs(x - y) <= 0.15 * Math.max(x, y) ? ' ' : '≠';
    const fewer = c.limit !== undefined && limit !== undefined && limit < c.limit ? ` (of ${c.limit})` : '';
    console.log(
      `${c.label.padEnd(32)} ${p(s, 50).padStart(7)} ${p(s, 95).padStart(6)} ${p(b, 50).padStart(7)} ${p(b, 95).padStart(6)} ${(b.times.at(-1) ?? 0).toFixed(1).padStart(6)} ${ratio.toFixed(2).padStart(6)} ${same} ${what(s)} / ${what(b)}${fewer}`,
    );
  }
}

for (const d of datasets) {
  await d.store.db.deleteFrom('sessions').where('token_hash', 'in', d.subjects.sessions).execute();
  await d.app.close();
  await d.store.close();
}
