import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  closeSync,
  constants,
  copyFileSync,
  existsSync,
  fsyncSync,
  linkSync,
  mkdirSync,
  openSync,
  readFileSync,
  readSync,
  renameSync,
  rmdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { messages } from '@csomag/domain/messages';
import SQLite from 'better-sqlite3';
import { SESSION_SECRET_FILE, VAPID_KEYS_FILE } from '../config.ts';
import { DATABASE_FILE } from './database.ts';

/**
 * Online backup and restore of the embedded SQLite store (docs/operations.md). Plain functions
 * that the scripts (server/src/scripts/backup.ts, restore.ts) and the tests call; a refusal is
 * an Error whose message an operator can act on. PostgreSQL is backed up with pg_dump instead.
 */

/** DATA_DIR as loadConfig reads it, without creating it or a session secret as loadConfig would. */
export const dataDirFromEnv = (env: NodeJS.ProcessEnv) => resolve(env.DATA_DIR || './data');

/** Where a backup's session secret travels: beside the backup file. */
export const sessionSecretBeside = (backupFile: string) => `${backupFile}.session-secret`;
/** Where a backup's push keys travel: beside it too (devices subscribed to them keep working). */
export const vapidKeysBeside = (backupFile: string) => `${backupFile}.${VAPID_KEYS_FILE}`;

export interface BackupOptions {
  dataDir: string;
  to: string;
  /** Read for DATABASE_URL and SESSION_SECRET. */
  env: NodeJS.ProcessEnv;
}

export interface DatabaseSummary {
  file: string;
  bytes: number;
  parcels: number;
  accounts: number;
}

export interface BackupResult extends DatabaseSummary {
  /** The session secret written beside the backup; undefined when there was none to take. */
  sessionSecretFile: string | undefined;
  /** Why no session secret was written, for the operator. */
  sessionSecretNote: string;
  /** DATA_DIR's push keys written beside the backup; undefined when VAPID_* is set or there were none. */
  vapidKeysFile: string | undefined;
}

export interface RestoreOptions {
  dataDir: string;
  from: string;
  env: NodeJS.ProcessEnv;
}

export interface RestoreResult extends DatabaseSummary {
  /** DATA_DIR's session-secret file. */
  sessionSecretFile: string;
  sessionSecret: 'restored' | 'already in place' | 'not in the backup';
  /** DATA_DIR's push-keys file. */
  vapidKeysFile: string;
  vapidKeys: 'restored' | 'already in place' | 'not in the backup';
}

/** The tables that make a SQLite file a database of this app. */
const APP_TABLES = ['accounts', 'parcels', 'kysely_migration'];
/** What SQLite leaves beside a database file; any of them means DATA_DIR already holds one. */
const COMPANION_SUFFIXES = ['', '-wal', '-shm', '-journal'];
const SQLITE_HEADER = Buffer.from('SQLite format 3\0', 'latin1');

/** Copies the live database at DATA_DIR into `to` while the app keeps serving, and checks the copy. */
export function backupDatabase({ to, env, ...options }: BackupOptions): BackupResult {
  const dataDir = resolve(options.dataDir);
  if (env.DATABASE_URL) {
    throw new Error('DATABASE_URL is set: the data lives in PostgreSQL; back it up with pg_dump (docs/operations.md)');
  }
  const source = join(dataDir, DATABASE_FILE);
  if (!existsSync(source)) throw new Error(`there is no database at ${source} (is DATA_DIR right?)`);
  const target = resolve(to);
  if (!existsSync(dirname(target))) throw new Error(`the folder ${dirname(target)} does not exist`);
  refuseExisting(target);
  const secretSource = join(dataDir, SESSION_SECRET_FILE);
  const takeSecret = !env.SESSION_SECRET && existsSync(secretSource);
  const secretTarget = sessionSecretBeside(target);
  if (takeSecret) refuseExisting(secretTarget);
  const vapidSource = join(dataDir, VAPID_KEYS_FILE);
  const takeVapid = !env.VAPID_PRIVATE_KEY && existsSync(vapidSource);
  const vapidTarget = vapidKeysBeside(target);
  if (takeVapid) refuseExisting(vapidTarget);

  const partial = siblingTempName(target);
  try {
    // Read-only: the app's writers never wait for us (WAL readers take no write lock).
    const live = new SQLite(source, { readonly: true, fileMustExist: true, timeout: 5000 });
    try {
      // One statement is one read transaction: a consistent snapshot that completes under any write load, as one
      // compact file in rollback mode (db.backup()'s 100-page steps restarted on every app write and never finished).
      live.prepare('VACUUM INTO ?').run(partial);
    } finally {
      live.close();
    }
    // It holds password hashes and addresses: its owner only. SQLite does not fsync what VACUUM INTO writes.
    chmodSync(partial, 0o600);
    fsyncFile(partial);
    const summary = checkCopy(partial, 'the copy', ['accounts', 'parcels']);
    placeWithoutOverwrite(partial, target);
    // The secrets travel beside the copy, which is only whole with them.
    const companions: { from: string; to: string }[] = [];
    if (takeSecret) companions.push({ from: secretSource, to: secretTarget });
    if (takeVapid) companions.push({ from: vapidSource, to: vapidTarget });
    const written = [target];
    try {
      for (const { from, to } of companions) {
        writeFileSync(to, readFileSync(from), { mode: 0o600, flag: 'wx' });
        written.push(to);
        fsyncFile(to);
      }
    } catch (error) {
      for (const file of written) rmSync(file, { force: true });
      throw error;
    }
    fsyncFile(dirname(target));
    return {
      ...summary,
      file: target,
      sessionSecretFile: takeSecret ? secretTarget : undefined,
      sessionSecretNote: takeSecret
        ? 'written'
        : env.SESSION_SECRET
          ? 'SESSION_SECRET is set in the environment: keep it with the backup'
          : `there is no ${SESSION_SECRET_FILE} in ${dataDir}`,
      vapidKeysFile: takeVapid ? vapidTarget : undefined,
    };
  } finally {
    removeDatabaseFile(partial);
  }
}

/** Puts a backup into a DATA_DIR that holds no database yet, with its session secret when it has one. */
export function restoreDatabase({ from, env, ...options }: RestoreOptions): RestoreResult {
  const dataDir = resolve(options.dataDir);
  if (env.DATABASE_URL) {
    throw new Error('DATABASE_URL is set: the app uses PostgreSQL; restore it with pg_restore (docs/operations.md)');
  }
  const source = resolve(from);
  if (!existsSync(source) || !statSync(source).isFile()) throw new Error(`there is no file at ${source}`);
  if (!startsWithSqliteHeader(source)) throw new Error(`${source} is not a SQLite database`);
  if (existsSync(`${source}-wal`)) {
    throw new Error(`${source}-wal exists: the backup is open in another program or was not closed cleanly`);
  }
  const target = join(dataDir, DATABASE_FILE);
  const present = COMPANION_SUFFIXES.map((suffix) => `${target}${suffix}`).filter((file) => existsSync(file));
  if (present.length > 0) {
    throw new Error(
      `${dataDir} already holds a database (${present.map((file) => basename(file)).join(', ')}); ` +
        'restore only into a data folder without one: stop the app and move those files away first',
    );
  }
  const secretSource = sessionSecretBeside(source);
  const secret = existsSync(secretSource) ? readFileSync(secretSource, 'utf8').trim() : undefined;
  if (secret === '') throw new Error(`${secretSource} is empty`);
  const secretTarget = join(dataDir, SESSION_SECRET_FILE);
  const secretInPlace = existsSync(secretTarget) ? readFileSync(secretTarget, 'utf8').trim() : undefined;
  if (secret !== undefined && secretInPlace !== undefined && secret !== secretInPlace) {
    throw new Error(
      `${secretTarget} differs from ${secretSource}; move it away first (the backup's secret keeps handover links valid)`,
    );
  }
  const vapidSource = vapidKeysBeside(source);
  const vapidKeys = existsSync(vapidSource) ? readFileSync(vapidSource) : undefined;
  const vapidTarget = join(dataDir, VAPID_KEYS_FILE);
  const vapidInPlace = existsSync(vapidTarget) ? readFileSync(vapidTarget) : undefined;
  if (vapidKeys !== undefined && vapidInPlace !== undefined && !vapidKeys.equals(vapidInPlace)) {
    throw new Error(
      `${vapidTarget} differs from ${vapidSource}; move it away first (the backup's keys keep devices' notifications working)`,
    );
  }

  // The first folder created, so a refused restore leaves no empty DATA_DIR behind either.
  const createdDir = mkdirSync(dataDir, { recursive: true });
  const partial = siblingTempName(target);
  let restored = false;
  try {
    copyFileSync(source, partial, constants.COPYFILE_EXCL);
    fsyncFile(partial);
    const summary = checkCopy(partial, source, APP_TABLES);
    placeWithoutOverwrite(partial, target);
    const writeSecret = secret !== undefined && secretInPlace === undefined;
    const writeVapid = vapidKeys !== undefined && vapidInPlace === undefined;
    try {
      if (writeSecret) {
        writeFileSync(secretTarget, `${secret}\n`, { mode: 0o600, flag: 'wx' });
        fsyncFile(secretTarget);
      }
      if (writeVapid) {
        writeFileSync(vapidTarget, vapidKeys, { mode: 0o600, flag: 'wx' });
        fsyncFile(vapidTarget);
      }
    } catch (error) {
      rmSync(target, { force: true });
      if (writeSecret) rmSync(secretTarget, { force: true });
      throw error;
    }
    fsyncFile(dataDir);
    restored = true;
    return {
      ...summary,
      file: target,
      sessionSecretFile: secretTarget,
      sessionSecret: writeSecret ? 'restored' : secret === undefined ? 'not in the backup' : 'already in place',
      vapidKeysFile: vapidTarget,
      vapidKeys: writeVapid ? 'restored' : vapidKeys === undefined ? 'not in the backup' : 'already in place',
    };
  } finally {
    removeDatabaseFile(partial);
    if (!restored && createdDir) removeEmptyFolders(dataDir, createdDir);
  }
}

/** Opens a copy and refuses it unless it is intact and holds this app's tables (start-up judges its migrations). */
function checkCopy(file: string, label: string, requiredTables: string[]): DatabaseSummary {
  const copy = new SQLite(file, { fileMustExist: true });
  try {
    let integrity: unknown;
    try {
      integrity = copy.pragma('integrity_check', { simple: true });
    } catch (error) {
      throw new Error(`${label} is not a readable SQLite database: ${messageOf(error)}`, { cause: error });
    }
    if (integrity !== 'ok') throw new Error(`${label} failed SQLite's integrity check: ${String(integrity)}`);
    const tables = new Set(
      copy
        .prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'table'")
        .all()
        .map((row) => row.name),
    );
    const missing = requiredTables.filter((table) => !tables.has(table));
    if (missing.length > 0) {
      throw new Error(messages.notOurDatabase(label, missing.join(', ')));
    }
    const count = (table: string) =>
      copy.prepare<[], { n: number }>(`SELECT count(*) AS n FROM ${table}`).get()?.n ?? 0;
    return { file, bytes: statSync(file).size, parcels: count('parcels'), accounts: count('accounts') };
  } finally {
    copy.close();
  }
}

/** Removes a database file and whatever SQLite left beside it. */
function removeDatabaseFile(file: string) {
  for (const suffix of COMPANION_SUFFIXES) rmSync(`${file}${suffix}`, { force: true });
}

/** rmdir from `deepest` up to `top`: only empty folders go. */
function removeEmptyFolders(deepest: string, top: string) {
  for (let dir = resolve(deepest); dir.startsWith(top); dir = dirname(dir)) {
    try {
      rmdirSync(dir);
    } catch {
      return;
    }
    if (dir === top) return;
  }
}

function refuseExisting(file: string) {
  if (existsSync(file)) throw new Error(`${file} already exists; refusing to overwrite it`);
}

/** A name in the same folder, so the final rename stays on one file system. */
const siblingTempName = (file: string) =>
  join(dirname(file), `.${basename(file)}.partial-${process.pid}-${randomBytes(4).toString('hex')}`);

/** Moves a finished file into place unless something appeared there meanwhile (a hard link never replaces). */
function placeWithoutOverwrite(from: string, to: string) {
  try {
    linkSync(from, to);
    rmSync(from);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') throw new Error(`${to} already exists; refusing to overwrite it`, { cause: error });
    // File systems without hard links (some network and FAT mounts): check, then rename.
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP') throw error;
    refuseExisting(to);
    renameSync(from, to);
  }
}

function startsWithSqliteHeader(file: string): boolean {
  const header = Buffer.alloc(SQLITE_HEADER.length);
  const fd = openSync(file, 'r');
  try {
    return readSync(fd, header, 0, header.length, 0) === header.length && header.equals(SQLITE_HEADER);
  } finally {
    closeSync(fd);
  }
}

/** Flushes a file, or a folder's entries after a rename, to disk. */
function fsyncFile(path: string) {
  const fd = openSync(path, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));
