import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateToLatest, openStore, type Store } from '../../db/database.ts';
import { custody } from '../../db/migrations/0015-custody.ts';
import { insertParcels } from '../../test/back-office.ts';
import { runScript } from '../../test/scripts.ts';

/** `npm run custody:verify`'s script in its own process on a SQLite data dir, as an operator runs it. */
const verify = (dataDir: string, args: string[]) =>
  runScript('custody-verify', args, { DATA_DIR: dataDir, LOG_LEVEL: 'silent' });

let dataDir: string;
let store: Store;
let good: string;
let bad: string;
beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'csomag-custody-'));
  store = openStore({ dataDir });
  await migrateToLatest(store);
  const now = new Date().toISOString();
  const sender = await store.db
    .insertInto('accounts')
    .values({
      user_name: 'felado_cli',
      email: 'felado.cli@example.hu',
      name: 'Feladó',
      phone: '+36 30 111 2222',
      address: '1052 Budapest, Váci utca 12',
      address_key: '1052 budapest vaci utca 12',
      password_hash: 'x',
      role: 'user',
      runner_status: null,
      last_lat: null,
      last_lng: null,
      last_accuracy: null,
      located_at: null,
      created_at: now,
      updated_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  [good = '', bad = ''] = await insertParcels(
    store,
    sender,
    [
      { lat: 47.5, lng: 19.05 },
      { lat: 47.6, lng: 19.1 },
    ],
    'delivered',
  );
  // Chains as an upgraded database has them (0015's backfill), then one row edited.
  const migration = custody('sqlite');
  await migration.down?.(store.db);
  await migration.up(store.db);
  await store.db
    .updateTable('custody_events')
    .set({ at: '2001-01-01T00:00:00.000Z' })
    .where('parcel_id', '=', bad)
    .where('seq', '=', 1)
    .execute();
});
afterAll(async () => {
  await store.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('npm run custody:verify', () => {
  it('says a sound chain is ok (exit 0) and names the first bad row of an edited one (exit 1)', async () => {
    expect(await verify(dataDir, [good])).toMatchObject({ code: 0, stdout: `${good}: ok (3 events)\n` });
    const one = await verify(dataDir, [bad]);
    expect(one.code).toBe(1);
    expect(one.stdout).toBe(`${bad}: BAD at seq 1 (hash or link broken; 3 events)\n`);
    const all = await verify(dataDir, ['--all']);
    expect(all.code).toBe(1);
    expect(all.stdout).toBe(`${bad}: BAD at seq 1 (hash or link broken; 3 events)\n2 chains checked, 1 bad\n`);
  });

  it('prints the usage and exits with 2 without exactly one of an id or --all', async () => {
    for (const args of [[], ['--all', good], [good, bad], ['--nope']]) {
      const run = await verify(dataDir, args);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain('usage: npm run custody:verify');
    }
  });
});
