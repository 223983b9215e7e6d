import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { messages } from '@csomag/domain/messages';
import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { loadConfig, SESSION_SECRET_FILE, VAPID_KEYS_FILE } from '../config.ts';
import { pickUp } from '../test/delivery.ts';
import { createTestApp, signUp, type TestApp, testStore } from '../test/harness.ts';
import { sendParcel } from '../test/parcels.ts';
import { runScript } from '../test/scripts.ts';
import { backupDatabase, restoreDatabase } from './backup.ts';
import { DATABASE_FILE, migrateToLatest, openStore } from './database.ts';

const processTest = { timeout: 60_000 };

/** Every file in a folder with a hash of its bytes, to show that a refusal changed nothing. */
function snapshot(dir: string): Record<string, string> {
  if (!existsSync(dir)) return {};
  return Object.fromEntries(
    readdirSync(dir).map((name) => [
      name,
      createHash('sha256')
        .update(readFileSync(join(dir, name)))
        .digest('hex'),
    ]),
  );
}

const modeOf = (file: string) => statSync(file).mode & 0o777;

// The embedded store is SQLite only; a PostgreSQL install is backed up with pg_dump (docs/operations.md).
describe.skipIf(testStore === 'postgres')('backup and restore of the embedded SQLite database', () => {
  let t: TestApp;
  let dataDir: string;
  let work: string;
  beforeAll(async () => {
    t = await createTestApp();
    dataDir = t.app.config.dataDir;
    work = mkdtempSync(join(tmpdir(), 'csomag-backup-'));
  });
  afterAll(async () => {
    await t?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('copies every write acknowledged before it started while the app keeps writing', processTest, async () => {
    const acknowledged: { accountId: number; email: string; parcelId: string }[] = [];
    let writing = true;
    const writer = (async () => {
      while (writing) {
        const sender = await signUp(t.app);
        const parcel = await sendParcel(t.app, sender.cookie);
        const { id } = await t.store.db
          .selectFrom('accounts')
          .select('id')
          .where('email', '=', sender.account.email)
          .executeTakeFirstOrThrow();
        acknowledged.push({ accountId: id, email: sender.account.email, parcelId: parcel.id });
      }
    })();
    while (acknowledged.length < 3) await new Promise((resolve) => setTimeout(resolve, 10));

    const file = join(work, 'under-load.sqlite');
    const beforeSpawn = [...acknowledged];
    const backup = runScript('backup', ['--to', file], { DATA_DIR: dataDir });
    const run = await backup;
    const writtenMeanwhile = acknowledged.length - beforeSpawn.length;
    writing = false;
    await writer;

    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    // The app went on registering and sending while the copy was made.
    expect(writtenMeanwhile).toBeGreaterThan(0);
    const copy = new SQLite(file, { readonly: true, fileMustExist: true });
    try {
      expect(copy.pragma('integrity_check', { simple: true })).toBe('ok');
      const account = copy.prepare<[number], { email: string }>('SELECT email FROM accounts WHERE id = ?');
      const parcel = copy.prepare<[string], { sender_id: number }>('SELECT sender_id FROM parcels WHERE id = ?');
      for (const write of beforeSpawn) {
        expect(account.get(write.accountId)).toEqual({ email: write.email });
        expect(parcel.get(write.parcelId)).toEqual({ sender_id: write.accountId });
      }
      const count = (table: string) => copy.prepare<[], { n: number }>(`SELECT count(*) AS n FROM ${table}`).get()?.n;
      expect(run.stdout).toContain(
        `backup written: ${file} (${statSync(file).size} bytes, ${count('parcels')} parcels, ${count('accounts')} accounts)`,
      );
    } finally {
      copy.close();
    }
    expect(modeOf(file)).toBe(0o600);
    // The generated session secret travels beside the copy, readable by its owner only.
    const secretFile = `${file}.session-secret`;
    expect(run.stdout).toContain(`session secret written: ${secretFile}`);
    expect(readFileSync(secretFile, 'utf8')).toBe(readFileSync(join(dataDir, SESSION_SECRET_FILE), 'utf8'));
    expect(modeOf(secretFile)).toBe(0o600);
    // Nothing half-written is left beside it.
    expect(
      readdirSync(work)
        .filter((name) => name.includes('under-load'))
        .sort(),
    ).toEqual(['under-load.sqlite', 'under-load.sqlite.session-secret', `under-load.sqlite.${VAPID_KEYS_FILE}`]);
    // So do the push keys: devices subscribed to them keep receiving after a restore.
    const vapidFile = `${file}.${VAPID_KEYS_FILE}`;
    expect(run.stdout).toContain(`push keys written: ${vapidFile}`);
    expect(readFileSync(vapidFile, 'utf8')).toBe(readFileSync(join(dataDir, VAPID_KEYS_FILE), 'utf8'));
    expect(modeOf(vapidFile)).toBe(0o600);
  });

  it(
    'restores into an empty data folder an app that serves the sessions, accounts and links of before',
    processTest,
    async () => {
      const person = await signUp(t.app);
      const runner = await signUp(t.app, { role: 'runner' });
      const parcel = await sendParcel(t.app, person.cookie);
      await pickUp(t.app, runner.cookie, parcel.id);
      const link = await t.app.inject({
        method: 'POST',
        url: `/api/parcels/${parcel.id}/handover-token`,
        headers: { cookie: runner.cookie },
        payload: {},
      });
      expect(link.statusCode).toBe(200);
      const token = new URL(link.json<{ url: string }>().url).searchParams.get('token') ?? '';

      const file = join(work, 'to-restore.sqlite');
      expect((await runScript('backup', ['--to', file], { DATA_DIR: dataDir })).code).toBe(0);
      const restoredDir = join(work, 'restored', 'data');
      const run = await runScript('restore', ['--from', file], { DATA_DIR: restoredDir });
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      expect(run.stdout).toContain(`database restored: ${join(restoredDir, DATABASE_FILE)}`);
      expect(run.stdout).toContain(`session secret restored: ${join(restoredDir, SESSION_SECRET_FILE)}`);
      expect(run.stdout).toContain(`push keys restored: ${join(restoredDir, VAPID_KEYS_FILE)}`);
      expect(readdirSync(restoredDir).sort()).toEqual([DATABASE_FILE, SESSION_SECRET_FILE, VAPID_KEYS_FILE].sort());
      expect(modeOf(join(restoredDir, SESSION_SECRET_FILE))).toBe(0o600);

      const store = openStore({ dataDir: restoredDir });
      await migrateToLatest(store);
      const app = await buildApp({
        config: loadConfig({ DATA_DIR: restoredDir, WEB_DIST: '', LOG_LEVEL: 'silent' }),
        store,
        logger: false,
      });
      try {
        expect(app.config.sessionSecret).toBe(t.app.config.sessionSecret);
        expect(app.config.vapid).toEqual(t.app.config.vapid);
        expect((await app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
        const login = await app.inject({
          method: 'POST',
          url: '/api/auth/login',
          payload: { email: person.account.email, password: person.password },
        });
        expect(login.statusCode).toBe(200);
        // A session opened before the backup is still signed in.
        const me = await app.inject({ method: 'GET', url: '/api/auth/me', headers: { cookie: person.cookie } });
        expect(me.json()).toMatchObject({ account: { email: person.account.email } });
        // The QR link signed before the backup still opens: the session secret came along.
        const summary = await app.inject({ method: 'GET', url: `/api/handover/${parcel.id}`, query: { token } });
        expect(summary.statusCode).toBe(200);
      } finally {
        await app.close();
        await store.close();
      }
    },
  );

  describe('refusals', () => {
    it('will not overwrite an existing file', processTest, async () => {
      const dir = join(work, 'existing');
      mkdirSync(dir);
      const file = join(dir, 'backup.sqlite');
      writeFileSync(file, 'yesterday’s backup');
      const before = snapshot(dir);
      const run = await runScript('backup', ['--to', file], { DATA_DIR: dataDir });
      expect(run.code).toBe(1);
      expect(run.stderr).toBe(`backup failed: ${file} already exists; refusing to overwrite it\n`);
      expect(snapshot(dir)).toEqual(before);
    });

    it('will not write beside a session secret that is already there', () => {
      const file = join(work, 'secret-in-the-way.sqlite');
      writeFileSync(`${file}.session-secret`, 'older secret\n');
      expect(() => backupDatabase({ dataDir, to: file, env: {} })).toThrow(
        `${file}.session-secret already exists; refusing to overwrite it`,
      );
      expect(existsSync(file)).toBe(false);
    });

    it('leaves the secret out when SESSION_SECRET is set, and says so', () => {
      const file = join(work, 'secret-from-env.sqlite');
      const result = backupDatabase({ dataDir, to: file, env: { SESSION_SECRET: 'a'.repeat(32) } });
      expect(result.sessionSecretFile).toBeUndefined();
      expect(result.sessionSecretNote).toMatch(/SESSION_SECRET is set/);
      expect(existsSync(`${file}.session-secret`)).toBe(false);
    });

    it('points to pg_dump and pg_restore when the app runs on PostgreSQL', () => {
      const env = { DATABASE_URL: 'postgres://csomag@127.0.0.1:5432/csomagkuldo' };
      const file = join(work, 'postgres.sqlite');
      expect(() => backupDatabase({ dataDir, to: file, env })).toThrow(/pg_dump \(docs\/operations\.md\)/);
      expect(() => restoreDatabase({ dataDir: join(work, 'pg'), from: file, env })).toThrow(/pg_restore/);
      expect(existsSync(file)).toBe(false);
      expect(existsSync(join(work, 'pg'))).toBe(false);
    });

    it(
      'will not restore into a data folder that holds a database, and changes nothing there',
      processTest,
      async () => {
        const file = join(work, 'good.sqlite');
        backupDatabase({ dataDir, to: file, env: {} });
        const occupied = join(work, 'occupied');
        mkdirSync(occupied);
        backupDatabase({ dataDir, to: join(occupied, DATABASE_FILE), env: { SESSION_SECRET: 'a'.repeat(32) } });
        const before = snapshot(occupied);
        const run = await runScript('restore', ['--from', file], { DATA_DIR: occupied });
        expect(run.code).toBe(1);
        expect(run.stderr).toContain(`restore failed: ${occupied} already holds a database (${DATABASE_FILE});`);
        expect(snapshot(occupied)).toEqual(before);
      },
    );

    it.each(['-wal', '-shm', '-journal'])('will not restore beside a leftover %s file', (suffix) => {
      const file = join(work, 'good-too.sqlite');
      if (!existsSync(file)) backupDatabase({ dataDir, to: file, env: {} });
      const leftover = mkdtempSync(join(work, 'leftover-'));
      writeFileSync(join(leftover, `${DATABASE_FILE}${suffix}`), 'from an earlier life');
      const before = snapshot(leftover);
      expect(() => restoreDatabase({ dataDir: leftover, from: file, env: {} })).toThrow(
        `already holds a database (${DATABASE_FILE}${suffix})`,
      );
      expect(snapshot(leftover)).toEqual(before);
    });

    it('will not replace a different session secret already in the data folder', () => {
      const file = join(work, 'good-three.sqlite');
      backupDatabase({ dataDir, to: file, env: {} });
      const target = mkdtempSync(join(work, 'other-secret-'));
      writeFileSync(join(target, SESSION_SECRET_FILE), 'another secret\n');
      const before = snapshot(target);
      expect(() => restoreDatabase({ dataDir: target, from: file, env: {} })).toThrow(/differs from/);
      expect(snapshot(target)).toEqual(before);
    });

    it('will not replace different push keys already in the data folder', () => {
      const file = join(work, 'other-push-keys.sqlite');
      backupDatabase({ dataDir, to: file, env: {} });
      const target = mkdtempSync(join(work, 'other-vapid-'));
      writeFileSync(join(target, VAPID_KEYS_FILE), '{"publicKey":"another","privateKey":"pair"}\n');
      const before = snapshot(target);
      expect(() => restoreDatabase({ dataDir: target, from: file, env: {} })).toThrow(/differs from/);
      expect(snapshot(target)).toEqual(before);
    });

    it('leaves the push keys out when VAPID_* is set', () => {
      const file = join(work, 'keys-from-env.sqlite');
      const result = backupDatabase({ dataDir, to: file, env: { VAPID_PRIVATE_KEY: 'set' } });
      expect(result.vapidKeysFile).toBeUndefined();
      expect(existsSync(`${file}.${VAPID_KEYS_FILE}`)).toBe(false);
    });

    it('will not restore with an empty session secret beside the backup', () => {
      const file = join(work, 'empty-secret.sqlite');
      backupDatabase({ dataDir, to: file, env: { SESSION_SECRET: 'a'.repeat(32) } });
      writeFileSync(`${file}.session-secret`, '\n');
      const target = join(work, 'empty-secret-target');
      expect(() => restoreDatabase({ dataDir: target, from: file, env: {} })).toThrow(
        `${file}.session-secret is empty`,
      );
      expect(existsSync(target)).toBe(false);
    });

    it('will not restore a file that is not a SQLite database', processTest, async () => {
      const file = join(work, 'notes.txt');
      writeFileSync(file, 'not a database at all');
      const target = join(work, 'never-made');
      const run = await runScript('restore', ['--from', file], { DATA_DIR: target });
      expect(run.code).toBe(1);
      expect(run.stderr).toBe(`restore failed: ${file} is not a SQLite database\n`);
      expect(existsSync(target)).toBe(false);
    });

    it('will not restore another program’s database or a damaged copy, and leaves no folder behind', () => {
      const foreign = join(work, 'foreign.sqlite');
      const other = new SQLite(foreign);
      other.exec('CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT)');
      other.close();
      const target = join(work, 'not-made', 'data');
      expect(() => restoreDatabase({ dataDir: target, from: foreign, env: {} })).toThrow(
        messages.notOurDatabase(foreign, 'accounts, parcels, kysely_migration'),
      );
      expect(existsSync(join(work, 'not-made'))).toBe(false);

      const good = join(work, 'to-damage.sqlite');
      backupDatabase({ dataDir, to: good, env: {} });
      const damaged = join(work, 'damaged.sqlite');
      const bytes = readFileSync(good);
      writeFileSync(damaged, bytes.subarray(0, Math.floor(bytes.length / 2)));
      expect(() => restoreDatabase({ dataDir: target, from: damaged, env: {} })).toThrow(
        /is not a readable SQLite database|failed SQLite's integrity check/,
      );
      expect(existsSync(join(work, 'not-made'))).toBe(false);
    });

    it.each([
      ['backup', []],
      ['backup', ['--to']],
      ['backup', ['--from', 'x.sqlite']],
      ['restore', []],
      ['restore', ['--from', '']],
      ['restore', ['backup.sqlite']],
    ] as const)('%s %j: prints the usage and exits with 2', processTest, async (script, args) => {
      const target = join(work, 'untouched');
      const run = await runScript(script, [...args], { DATA_DIR: target });
      expect(run.code).toBe(2);
      expect(run.stderr).toContain(`usage: npm run ${script} -- --${script === 'backup' ? 'to' : 'from'} <`);
      expect(run.stdout).toBe('');
      expect(existsSync(target)).toBe(false);
    });
  });
});
