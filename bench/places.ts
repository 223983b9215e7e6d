/**
 * Where things are at Hungary's scale (issue 25, docs/decisions/0028): a synthetic extract of
 * ~3,150 settlements, 150 k streets and 3 M address points (bench/places/write-extract.ts) imported
 * with the real import (`importPlaces`, as `npm run places:import` runs it) into a fresh SQLite
 * DATA_DIR and, with DATABASE_URL, into PostgreSQL (a schema of its own, dropped afterwards). Per
 * store:
 *
 * 1. Import: wall time and peak RSS, the import run in a child process of its own
 *    (bench/places/import-child.ts) so that its peak is the import's; the store's size (SQLite: the
 *    file with its WAL after a checkpoint, and what `places` and its indexes take of it; PostgreSQL:
 *    `pg_total_relation_size('places')`, after ANALYZE).
 * 2. Forward geocoding (`PlacesGeocoder.geocode`, the national check included, no cache in front):
 *    doors drawn at random from the import, written as people write them — postal code first, postal
 *    code last, 'u.' with floor and door and without accents, Budapest by its district ('Bp. XI.
 *    ker.') —, streets without a house number, settlements alone.
 * 3. Reverse geocoding (`PlacesGeocoder.reverse`): points up to 50 m from a door, and points drawn
 *    anywhere in Hungary (mostly fields and woods: the nearest-settlement fallback after two look-ups).
 *
 * Each look-up is timed alone, one after another (after 100 not counted per kind). Prints p50, p95,
 * p99 and max per kind and store, what the answers were (precision, refusals, the drawn door found),
 * and the queries per look-up. Issue 25's target is p95 < 20 ms at this size. `--explain` prints
 * each query of every kind's slowest look-up with its plan (SQLite EXPLAIN QUERY PLAN, PostgreSQL
 * EXPLAIN (ANALYZE, BUFFERS)). Prints figures; never fails on a time (DESIGN §8).
 *
 *   npm run bench:places -- [--extract FILE] [--addresses 3000000] [--streets 150000] [--stations 4000]
 *     [--building-addresses 0] [--background-buildings 0] [--seed 1] [--lookups 2000] [--skip-sqlite]
 *     [--explain] [--keep DIR]
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run bench:places     (adds PostgreSQL)
 *
 * Without --extract the extract is written into a temp folder first (write-extract.ts with
 * --addresses, --streets, --stations, --building-addresses, --background-buildings and --seed;
 * `--building-addresses 1000000 --background-buildings 6000000` comes near a real extract's ~35 M
 * nodes). --keep DIR keeps the extract and the SQLite DATA_DIR there instead of a temp folder that
 * is removed at the end.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { foldAccents } from '@csomag/domain/address';
import { ROMAN_NUMERALS } from '@csomag/domain/address-parse';
import { isInHungary } from '@csomag/domain/places';
import SQLite from 'better-sqlite3';
import { type CompiledQuery, Kysely, PostgresDialect, SqliteDialect, sql } from 'kysely';
import pg from 'pg';
import {
  DATABASE_FILE,
  migrateToLatest,
  openStore,
  pgConnectionOptions,
  type Store,
} from '../server/src/db/database.ts';
import type { Database } from '../server/src/db/schema.ts';
import { AppError } from '../server/src/errors.ts';
import { PlacesGeocoder } from '../server/src/modules/places/geocoder.ts';
import { settlementByKey } from '../server/src/modules/places/settlements.ts';
import { type PlaceRow, PlaceStore } from '../server/src/modules/places/store.ts';
import { seededRandom as random } from '../server/src/seed/seeded-random.ts';
import { machine, mib, percentile } from './lib/app-process.ts';
import type { ImportFigures } from './places/import-child.ts';

const { values } = parseArgs({
  options: {
    extract: { type: 'string' },
    addresses: { type: 'string', default: '3000000' },
    streets: { type: 'string', default: '150000' },
    stations: { type: 'string', default: '4000' },
    seed: { type: 'string', default: '1' },
    'building-addresses': { type: 'string', default: '0' },
    'background-buildings': { type: 'string', default: '0' },
    lookups: { type: 'string', default: '2000' },
    'skip-sqlite': { type: 'boolean', default: false },
    explain: { type: 'boolean', default: false },
    keep: { type: 'string' },
  },
});
const lookups = Number(values.lookups);
if (!Number.isSafeInteger(lookups) || lookups < 1) throw new Error('--lookups must be a positive whole number');
const databaseUrl = process.env.DATABASE_URL || undefined;
const root = new URL('..', import.meta.url).pathname;
/** Look-ups per kind run before the timed ones. */
const WARM_UP = 100;
const TARGET_P95_MS = 20;

const rand = random(Number(values.seed) + 25);

const seconds = (s: number) => `${s.toFixed(1)} s`;
const ms = (n: number) => (n >= 100 ? n.toFixed(0) : n >= 10 ? n.toFixed(1) : n.toFixed(2));

/* ------------------------------------------------------------------ the extract */

function writeExtract(file: string): void {
  const args = ['--import', 'tsx', join(root, 'bench/places/write-extract.ts'), file];
  const flags = ['addresses', 'streets', 'stations', 'building-addresses', 'background-buildings', 'seed'] as const;
  for (const flag of flags) args.push(`--${flag}`, values[flag]);
  const result = spawnSync(process.execPath, args, { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] });
  if (result.status !== 0) throw new Error(`write-extract.ts failed (${result.status ?? result.signal})`);
}

/* ------------------------------------------------------------------ the import */

interface Target {
  label: string;
  dataDir: string;
  postgres?: { url: string; schema: string };
}

function importInChild(target: Target, extract: string): ImportFigures & { processSeconds: number } {
  const started = performance.now();
  const result = spawnSync(process.execPath, ['--import', 'tsx', join(root, 'bench/places/import-child.ts'), extract], {
    cwd: root,
    env: {
      ...process.env,
      DATA_DIR: target.dataDir,
      BENCH_DATABASE_URL: target.postgres?.url ?? '',
      BENCH_PG_SCHEMA: target.postgres?.schema ?? '',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
    encoding: 'utf8',
    maxBuffer: 1 << 20,
  });
  if (result.status !== 0) throw new Error(`the import failed (${result.status ?? result.signal})`);
  const last = result.stdout.trim().split('\n').at(-1) ?? '';
  return { ...(JSON.parse(last) as ImportFigures), processSeconds: (performance.now() - started) / 1000 };
}

const openTarget = (target: Target): Store =>
  openStore({ dataDir: target.dataDir, databaseUrl: target.postgres?.url, pgSchema: target.postgres?.schema });

/** The store's size on disk and what the places take of it. */
async function storeSize(target: Target, store: Store): Promise<string> {
  if (store.dialect === 'sqlite') {
    const file = join(target.dataDir, DATABASE_FILE);
    const sqlite = new SQLite(file);
    try {
      sqlite.pragma('wal_checkpoint(TRUNCATE)');
      const total = [file, `${file}-wal`, `${file}-shm`]
        .filter((f) => existsSync(f))
        .reduce((sum, f) => sum + statSync(f).size, 0);
      const rows = sqlite
        .prepare(
          `select d.name, sum(d.pgsize) as bytes from dbstat d join sqlite_schema s on s.name = d.name
           where s.tbl_name = 'places' group by d.name`,
        )
        .all() as { name: string; bytes: number }[];
      const table = rows.find((r) => r.name === 'places')?.bytes ?? 0;
      const indexes = rows.filter((r) => r.name !== 'places').map((r) => `${r.name} ${mib(r.bytes)}`);
      return `${mib(total)} (file with WAL and shm after a checkpoint; places ${mib(table)}, ${indexes.join(', ')})`;
    } finally {
      sqlite.close();
    }
  }
  const { rows } = await sql<{ total: number; heap: number; indexes: number }>`
    select pg_total_relation_size('places') as total, pg_relation_size('places') as heap,
      pg_indexes_size('places') as indexes`.execute(store.db);
  const row = rows[0];
  if (!row) return '?';
  return `${mib(Number(row.total))} (pg_total_relation_size('places'): heap ${mib(Number(row.heap))}, indexes ${mib(Number(row.indexes))})`;
}

/* ------------------------------------------------------------------ what is looked up */

interface Door {
  row: PlaceRow;
  settlement: string;
}

/** Doors drawn at random from the import (ids at random): `count` anywhere, `count` in Budapest. */
async function drawDoors(store: Store, count: number): Promise<{ anywhere: Door[]; budapest: Door[] }> {
  const bounds = await store.db
    .selectFrom('places')
    .select((eb) => [eb.fn.min('id').as('low'), eb.fn.max('id').as('high')])
    .executeTakeFirstOrThrow();
  const [low, high] = [Number(bounds.low), Number(bounds.high)];
  const anywhere: Door[] = [];
  const budapest: Door[] = [];
  const seen = new Set<number>();
  for (let round = 0; (anywhere.length < count || budapest.length < count) && round < 500; round++) {
    const ids = Array.from({ length: 1000 }, () => low + Math.floor(rand() * (high - low + 1))).filter(
      (id) => !seen.has(id) && seen.add(id),
    );
    const rows = (await store.db
      .selectFrom('places')
      .selectAll()
      .where('id', 'in', ids)
      .where('kind', '=', 'address')
      .execute()) as PlaceRow[];
    for (const row of rows) {
      // A settlement the national list spells otherwise than the extract is not asked for.
      const settlement = row.settlement_key ? settlementByKey(row.settlement_key) : undefined;
      if (!settlement || !row.street || !row.house_number) continue;
      const door = { row, settlement: settlement.name };
      if (row.settlement_key === 'budapest' && budapest.length < count) budapest.push(door);
      else if (anywhere.length < count) anywhere.push(door);
    }
  }
  return { anywhere, budapest };
}

/** 'Rózsa utca' → 'Rózsa u.'; other types as they are. */
const abbreviated = (street: string) => street.replace(/ utca$/, ' u.');

type Lookup = { kind: 'forward'; text: string; door?: PlaceRow } | { kind: 'reverse'; lat: number; lng: number };

interface Kind {
  label: string;
  lookups: Lookup[];
}

function kindsOf(doors: Door[], budapest: Door[]): Kind[] {
  if (doors.length === 0) throw new Error('the import holds no address of a settlement the national list knows');
  // Each kind takes its own doors (WARM_UP + lookups of them), in turn from the shuffled draw.
  let next = 0;
  const take = () => doors[next++ % doors.length] as Door;
  const perKind = WARM_UP + lookups;
  const many = <T>(make: (i: number) => T) => Array.from({ length: perKind }, (_, i) => make(i));
  const postcode = (d: Door) => d.row.postal_code ?? '';
  const kinds: Kind[] = [
    {
      label: 'door, postal code first',
      lookups: many(() => {
        const d = take();
        return {
          kind: 'forward',
          text: `${postcode(d)} ${d.settlement}, ${d.row.street} ${d.row.house_number}.`,
          door: d.row,
        };
      }),
    },
    {
      label: 'door, postal code last',
      lookups: many(() => {
        const d = take();
        return {
          kind: 'forward',
          text: `${d.row.street} ${d.row.house_number}, ${postcode(d)} ${d.settlement}`,
          door: d.row,
        };
      }),
    },
    {
      label: "door, 'u.', floor, no accents",
      lookups: many((i) => {
        const d = take();
        const text = `${d.settlement}, ${abbreviated(d.row.street ?? '')} ${d.row.house_number}. ${1 + (i % 4)}. em. ${1 + (i % 9)}.`;
        return { kind: 'forward', text: i % 2 === 0 ? foldAccents(text) : text, door: d.row };
      }),
    },
    {
      label: 'door, Budapest by district',
      lookups: many((i) => {
        const d = budapest[i % budapest.length] as Door;
        const roman = (ROMAN_NUMERALS[(d.row.district ?? 1) - 1] ?? 'i').toUpperCase();
        const text =
          i % 2 === 0
            ? `Bp. ${roman}. ker., ${abbreviated(d.row.street ?? '')} ${d.row.house_number}.`
            : `${postcode(d)} Budapest ${roman}. kerület, ${d.row.street} ${d.row.house_number}.`;
        return { kind: 'forward', text, door: d.row };
      }),
    },
    {
      label: 'street, no house number',
      lookups: many(() => {
        const d = take();
        return { kind: 'forward', text: `${postcode(d)} ${d.settlement}, ${d.row.street}` };
      }),
    },
    {
      label: 'settlement alone',
      lookups: many((i) => {
        const d = take();
        return { kind: 'forward', text: i % 2 === 0 ? d.settlement : `${postcode(d)} ${d.settlement}` };
      }),
    },
    {
      label: 'reverse, ≤ 50 m from a door',
      lookups: many(() => {
        const d = take();
        const [metres, bearing] = [50 * Math.sqrt(rand()), rand() * 2 * Math.PI];
        const lat = d.row.lat + (metres * Math.cos(bearing)) / 111_320;
        const lng = d.row.lng + (metres * Math.sin(bearing)) / (111_320 * Math.cos((d.row.lat * Math.PI) / 180));
        return { kind: 'reverse', lat, lng };
      }),
    },
    {
      label: 'reverse, anywhere in Hungary',
      lookups: many(() => {
        for (;;) {
          const point = { lat: 45.74 + rand() * (48.59 - 45.74), lng: 16.11 + rand() * (22.9 - 16.11) };
          if (isInHungary(point)) return { kind: 'reverse', ...point };
        }
      }),
    },
  ];
  // An extract without Budapest (a small --streets) has no district to write.
  return budapest.length > 0 ? kinds : kinds.filter((kind) => !kind.label.includes('Budapest'));
}

/* ------------------------------------------------------------------ the look-ups */

interface Timed {
  kind: string;
  times: number[];
  outcomes: Map<string, number>;
  queries: number;
  /** The slowest look-up, for --explain. */
  slowest: { lookup: Lookup; ms: number };
}

const tally = (counts: Map<string, number>, key: string) => counts.set(key, (counts.get(key) ?? 0) + 1);

async function run(geocoder: PlacesGeocoder, lookup: Lookup): Promise<string> {
  if (lookup.kind === 'reverse') {
    const found = await geocoder.reverse(lookup);
    return found ? found.precision : 'nothing';
  }
  try {
    const found = await geocoder.geocode(lookup.text);
    if (!found) return 'nothing';
    if (lookup.door && found.precision === 'door') {
      const same = Math.abs(found.lat - lookup.door.lat) < 1e-7 && Math.abs(found.lng - lookup.door.lng) < 1e-7;
      return same ? 'door (the drawn one)' : 'door (another)';
    }
    return found.precision;
  } catch (error) {
    if (error instanceof AppError) return `refused: ${error.code}`;
    throw error;
  }
}

async function timeKinds(store: Store, kinds: Kind[]): Promise<Timed[]> {
  const geocoder = new PlacesGeocoder(new PlaceStore(store.db));
  let queries = 0;
  store.observeQueries(() => queries++);
  const results: Timed[] = [];
  for (const kind of kinds) {
    for (const lookup of kind.lookups.slice(0, WARM_UP)) await run(geocoder, lookup);
    const timed: Timed = {
      kind: kind.label,
      times: [],
      outcomes: new Map(),
      queries: 0,
      slowest: { lookup: kind.lookups[WARM_UP] as Lookup, ms: -1 },
    };
    const queriesBefore = queries;
    for (const lookup of kind.lookups.slice(WARM_UP)) {
      const started = performance.now();
      const outcome = await run(geocoder, lookup);
      const took = performance.now() - started;
      timed.times.push(took);
      if (took > timed.slowest.ms) timed.slowest = { lookup, ms: took };
      tally(timed.outcomes, outcome);
    }
    timed.queries = (queries - queriesBefore) / timed.times.length;
    timed.times.sort((a, b) => a - b);
    results.push(timed);
    const p = (q: number) => ms(percentile(timed.times, q));
    console.log(
      `  ${kind.label.padEnd(31)} p50 ${p(50).padStart(5)}  p95 ${p(95).padStart(5)}  p99 ${p(99).padStart(5)}  max ${p(100).padStart(5)} ms` +
        `  ${timed.queries.toFixed(1)} queries — ${[...timed.outcomes]
          .sort((a, b) => b[1] - a[1])
          .map(([what, n]) => `${what} ${n}`)
          .join(', ')}`,
    );
  }
  store.observeQueries(() => {});
  return results;
}

/* ------------------------------------------------------------------ --explain */

/** A second Kysely on the same database that writes down each query it runs. */
function recordingDb(target: Target, recorded: CompiledQuery[]): { db: Kysely<Database>; close: () => Promise<void> } {
  const log = (event: { query: CompiledQuery }) => {
    recorded.push(event.query);
  };
  const dialect = target.postgres
    ? new PostgresDialect({
        pool: new pg.Pool({
          ...pgConnectionOptions(
            { databaseUrl: target.postgres.url, pgSchema: target.postgres.schema },
            'bench-places',
          ),
          max: 1,
        }),
      })
    : new SqliteDialect({ database: new SQLite(join(target.dataDir, DATABASE_FILE), { readonly: true }) });
  const db = new Kysely<Database>({ dialect, log });
  return { db, close: () => db.destroy() };
}

async function explainSlowest(target: Target, store: Store, timed: Timed[]): Promise<void> {
  const recorded: CompiledQuery[] = [];
  const recording = recordingDb(target, recorded);
  try {
    const geocoder = new PlacesGeocoder(new PlaceStore(recording.db));
    for (const t of timed) {
      const { lookup, ms: took } = t.slowest;
      recorded.length = 0;
      const outcome = await run(geocoder, lookup);
      const what =
        lookup.kind === 'forward' ? `'${lookup.text}'` : `(${lookup.lat.toFixed(5)}, ${lookup.lng.toFixed(5)})`;
      console.log(`\n  === ${t.kind}: slowest ${ms(took)} ms, ${what} → ${outcome}`);
      for (const query of [...recorded]) {
        console.log(`\n  ${query.sql}\n    ${JSON.stringify(query.parameters)}`);
        for (const line of await explain(target, store, query)) console.log(`      ${line}`);
      }
    }
  } finally {
    await recording.close();
  }
}

async function explain(target: Target, store: Store, query: CompiledQuery): Promise<string[]> {
  if (store.pgPool) {
    const result = await store.pgPool.query(`explain (analyze, buffers) ${query.sql}`, [...query.parameters]);
    return result.rows.map((row: Record<string, string>) => row['QUERY PLAN'] ?? '');
  }
  const sqlite = new SQLite(join(target.dataDir, DATABASE_FILE), { readonly: true });
  try {
    const parameters = query.parameters as unknown[];
    const plan = sqlite.prepare(`explain query plan ${query.sql}`).all(...parameters) as { detail: string }[];
    const started = performance.now();
    const rows = sqlite.prepare(query.sql).all(...parameters).length;
    const took = performance.now() - started;
    return [...plan.map((row) => row.detail), `(${rows} rows in ${ms(took)} ms)`];
  } finally {
    sqlite.close();
  }
}

/* ------------------------------------------------------------------ per store */

interface Summary {
  store: string;
  importLine: string;
  size: string;
  timed: Timed[];
}

let kinds: Kind[] | undefined;

async function measure(target: Target, extract: string): Promise<Summary> {
  console.log(`\n${target.label}`);
  mkdirSync(target.dataDir, { recursive: true });
  const figures = importInChild(target, extract);
  const counts = Object.entries(figures.counts)
    .map(([kind, n]) => `${n.toLocaleString('en')} ${kind}`)
    .join(', ');
  const stages = figures.stages.map(([stage, at]) => `${stage} read by ${seconds(at)}`).join(', ');
  const importLine = `${seconds(figures.seconds)}, peak RSS ${mib(figures.peakRss)}`;
  console.log(
    `  import: ${importLine} (${mib(figures.rssBefore)} before it began; the child process ran ${seconds(figures.processSeconds)} with start-up and migrations)`,
  );
  console.log(`    ${counts}`);
  console.log(`    ${stages}; then streets, stations and landmarks placed, and the import made active`);
  const store = openTarget(target);
  try {
    await migrateToLatest(store);
    if (store.dialect === 'postgres') {
      // Autovacuum would analyze the new rows within a minute or so; the look-ups are timed after it.
      await store.pgPool?.query('analyze places');
    }
    const size = await storeSize(target, store);
    console.log(`  store: ${size}`);
    if (!kinds) {
      const drawn = await drawDoors(store, lookups + WARM_UP);
      kinds = kindsOf(drawn.anywhere, drawn.budapest);
      console.log(
        `  drew ${drawn.anywhere.length.toLocaleString('en')} doors anywhere and ${drawn.budapest.length.toLocaleString('en')} in Budapest; ` +
          `${lookups.toLocaleString('en')} look-ups per kind after ${WARM_UP} not counted, one at a time (ms):`,
      );
    } else {
      console.log(`  the same look-ups (ms):`);
    }
    const timed = await timeKinds(store, kinds);
    if (values.explain) await explainSlowest(target, store, timed);
    return { store: target.label, importLine, size, timed };
  } finally {
    await store.close();
  }
}

/* ------------------------------------------------------------------ main */

console.log(`Places: import and geocoding at Hungary's scale — ${machine()}`);
const work = values.keep ?? mkdtempSync(join(tmpdir(), 'csomagkuldo-bench-places-'));
mkdirSync(work, { recursive: true });
const summaries: Summary[] = [];
try {
  let extract = values.extract;
  if (!extract) {
    extract = join(work, 'hungary.osm.pbf');
    writeExtract(extract);
  }
  console.log(`extract: ${extract}, ${mib(statSync(extract).size)}`);
  if (!values['skip-sqlite']) {
    const dataDir = join(work, 'sqlite');
    rmSync(dataDir, { recursive: true, force: true });
    summaries.push(await measure({ label: 'SQLite (WAL, synchronous=FULL)', dataDir }, extract));
  }
  if (databaseUrl) {
    const schema = `bench_places_${randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    await admin.query(`create schema ${schema}`);
    try {
      const version = (await admin.query('show server_version')).rows[0]?.server_version ?? '?';
      summaries.push(
        await measure(
          {
            label: `PostgreSQL ${version} (schema ${schema}, pool of 10)`,
            dataDir: join(work, 'postgres'),
            postgres: { url: databaseUrl, schema },
          },
          extract,
        ),
      );
    } finally {
      await admin.query(`drop schema ${schema} cascade`);
      await admin.end();
    }
  } else {
    console.log('\n(PostgreSQL as well: set DATABASE_URL, e.g. postgres://postgres@127.0.0.1:5432/test)');
  }
} finally {
  if (!values.keep) rmSync(work, { recursive: true, force: true });
}

console.log(
  `\n${'kind'.padEnd(31)} ${'store'.padEnd(10)} ${['p50', 'p95', 'p99', 'max'].map((h) => h.padStart(6)).join(' ')}  ms`,
);
for (const s of summaries) {
  const name = s.store.split(' ')[0] ?? s.store;
  for (const t of s.timed) {
    const figures = [50, 95, 99, 100].map((q) => ms(percentile(t.times, q)).padStart(6)).join(' ');
    const over = percentile(t.times, 95) >= TARGET_P95_MS ? '  p95 ≥ 20 ms' : '';
    console.log(`${t.kind.padEnd(31)} ${name.padEnd(10)} ${figures}${over}`);
  }
}
for (const s of summaries) console.log(`${s.store}: import ${s.importLine}; store ${s.size}`);
console.log(`(target, issue 25: p95 < ${TARGET_P95_MS} ms per look-up at this size)`);
