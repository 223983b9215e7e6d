/**
 * What the change log costs a write (docs/decisions/0011): the same small write — a runner's
 * position, announced as one change — committed C at a time, N times, two ways on each store:
 *   feed  through the change feed as the app does it: the write, then the change_log row under
 *         the end-of-transaction lock, then pg_notify (PostgreSQL), all in one transaction;
 *   bare  the write and, on PostgreSQL, pg_notify alone — what the feed did before the log.
 * Prints writes/s and the latency per write; never fails on a time (DESIGN §8).
 *
 *   npm run bench:change-log -- [--writes 4000] [--concurrency 10]
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run bench:change-log   (adds PostgreSQL)
 */

import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import pg from 'pg';
import { changeChannel, createChangeFeed, type ParcelChange } from '../server/src/db/change-feed.ts';
import { migrateToLatest, openStore, type Store } from '../server/src/db/database.ts';
import { machine, percentile } from './lib/app-process.ts';

const { values } = parseArgs({
  options: { writes: { type: 'string', default: '4000' }, concurrency: { type: 'string', default: '10' } },
});
const writes = Number(values.writes);
const concurrency = Number(values.concurrency);

const silent = { info() {}, warn() {}, error() {} };
const change: ParcelChange = {
  kind: 'runner_located',
  parcelId: 'AAAAAAAAAA',
  status: 'in_transit',
  runner: 'futar',
  senderUser: 'felado',
  receiverKey: 'x',
  previous: { status: 'in_transit', runner: 'futar', receiverKey: 'x' },
};

async function run(label: string, write: (i: number, worker: number) => Promise<unknown>) {
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async (_, worker) => {
      for (let i = next++; i < writes; i = next++) {
        const t0 = performance.now();
        await write(i, worker);
        latencies.push(performance.now() - t0);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  console.log(
    `${label.padEnd(24)} ${String(Math.round(writes / seconds)).padStart(7)} writes/s` +
      `   p50 ${percentile(latencies, 50).toFixed(2)} ms   p95 ${percentile(latencies, 95).toFixed(2)} ms`,
  );
}

async function measure(name: string, store: Store) {
  await migrateToLatest(store);
  // One runner per writer, as many runners reporting at once would be: no row is contended.
  const runners: number[] = [];
  for (let k = 0; k < concurrency; k++) {
    const account = await store.db
      .insertInto('accounts')
      .values({
        user_name: `bench_${randomBytes(4).toString('hex')}`,
        email: `bench.${randomBytes(4).toString('hex')}@example.hu`,
        name: 'Bench Futár',
        phone: '-',
        address: '-',
        address_key: '',
        password_hash: '-',
        role: 'runner',
        runner_status: 'active',
        created_at: new Date().toISOString(),
        updated_at: new Date().toISOString(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    runners.push(account.id);
  }
  const move = (i: number) => ({ last_lat: 47 + i / 1e6, last_lng: 19, located_at: new Date().toISOString() });
  const feed = createChangeFeed(store, silent);
  const channel = changeChannel(store.pgSchema);
  console.log(`\n${name}, ${writes} writes, ${concurrency} at a time`);
  await run('bare (before the log)', (i, worker) =>
    store.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('accounts')
        .set(move(i))
        .where('id', '=', runners[worker] ?? 0)
        .execute();
      if (store.dialect === 'postgres') await sql`select pg_notify(${channel}, ${JSON.stringify(change)})`.execute(trx);
    }),
  );
  await run('feed (with the log)', (i, worker) =>
    feed.transaction(async (trx, publish) => {
      await trx
        .updateTable('accounts')
        .set(move(i))
        .where('id', '=', runners[worker] ?? 0)
        .execute();
      await publish(change);
    }),
  );
  await feed.close();
}

console.log(`Change log cost — ${machine()}`);
const dataDir = mkdtempSync(join(tmpdir(), 'csomagkuldo-bench-log-'));
try {
  const sqlite = openStore({ dataDir });
  await measure('SQLite (synchronous=FULL: every commit is an fsync)', sqlite);
  await sqlite.close();
  const url = process.env.DATABASE_URL;
  if (url) {
    const schema = `bench_${randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`create schema ${schema}`);
    try {
      const postgres = openStore({ dataDir, databaseUrl: url, pgSchema: schema });
      await measure('PostgreSQL (pool of 10)', postgres);
      await postgres.close();
    } finally {
      await admin.query(`drop schema ${schema} cascade`);
      await admin.end();
    }
  }
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
