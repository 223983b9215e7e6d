/**
 * The production build as a person reaches it, for the browser benchmarks (bench:bundle,
 * bench:lighthouse): `node server/dist/main.js` serving web/dist (or WEB_DIST) on 127.0.0.1 over a
 * fresh temp data dir, no demo data, and a shared tracking link to open cold. Builds first with
 * `npm run build` when the build is missing or when asked to.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { paths } from '@csomag/domain/paths';
import { expectStatus, requestJson, signUpOverHttp } from './app-process.ts';

const root = new URL('../..', import.meta.url).pathname;
const serverMain = join(root, 'server', 'dist', 'main.js');

export interface ProductionServer {
  origin: string;
  port: number;
  /** The built web app it serves. */
  webDist: string;
  close(): Promise<void>;
}

/** Loopback, another origin than the app's, a closed port: every tile request fails at once. */
export const TILE_ORIGIN = 'http://127.0.0.2:9';

/** Runs `npm run build` when asked or when server/dist or the web build is missing; throws when it fails. */
export function ensureBuild(webDist: string, force: boolean) {
  const missing = [serverMain, join(webDist, 'index.html')].filter((file) => !existsSync(file));
  if (!force && missing.length === 0) return;
  console.log(force ? 'building with npm run build …' : `missing ${missing.join(', ')}: building with npm run build …`);
  const build = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) throw new Error('npm run build failed');
  const stillMissing = [serverMain, join(webDist, 'index.html')].filter((file) => !existsSync(file));
  if (stillMissing.length > 0) throw new Error(`still missing after the build: ${stillMissing.join(', ')}`);
}

function isFree(port: number): Promise<boolean> {
  return new Promise((resolvePort) => {
    const probe = net.createServer();
    probe.once('error', () => resolvePort(false));
    probe.listen({ host: '127.0.0.1', port }, () => probe.close(() => resolvePort(true)));
  });
}

/** The first port from `from` on that nobody listens on (127.0.0.1). */
async function freePort(from: number, count = 100): Promise<number> {
  for (let port = from; port < from + count; port++) if (await isFree(port)) return port;
  throw new Error(`no free port in ${from}–${from + count - 1}`);
}

async function waitForHealth(origin: string, child: ChildProcess, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null)
      throw new Error(`server/dist/main.js exited (${child.exitCode}) before it was healthy`);
    try {
      if ((await fetch(`${origin}/api/health`)).ok) return;
    } catch {}
    await new Promise((done) => setTimeout(done, 100));
  }
  throw new Error(`${origin}/api/health did not answer within ${timeoutMs} ms`);
}

/**
 * Starts `node server/dist/main.js` on 127.0.0.1 (the first free port from `firstPort`) over a fresh
 * temp data dir: no demo data, warnings only, SQLite even when DATABASE_URL is set. Map tiles come
 * from another origin, as in a real installation (their own connections, none of the app's), and
 * that origin refuses at once: nothing is reachable offline, and nothing leaves loopback.
 */
export async function startProductionServer(
  options: { webDist?: string; build?: boolean; firstPort?: number; trustProxy?: boolean } = {},
): Promise<ProductionServer> {
  const webDist = resolve(options.webDist ?? (process.env.WEB_DIST || join(root, 'web', 'dist')));
  ensureBuild(webDist, options.build ?? false);
  const port = await freePort(options.firstPort ?? 3300);
  const origin = `http://127.0.0.1:${port}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'csomag-bench-web-'));
  const {
    DATABASE_URL: _database,
    PUBLIC_URL: _publicUrl,
    ADMIN_EMAIL: _adminEmail,
    ADMIN_PASSWORD: _adminPassword,
    ...env
  } = process.env;
  const child = spawn(process.execPath, [serverMain], {
    cwd: root,
    env: {
      ...env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DEMO_DATA: '0',
      LOG_LEVEL: 'warn',
      WEB_DIST: webDist,
      TRUST_PROXY: options.trustProxy ? '1' : '0',
      TILE_URL: `${TILE_ORIGIN}/{z}/{x}/{y}.png`,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  // The benchmark died or was interrupted: never leave the server or its data behind.
  const killOnExit = () => {
    child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  };
  process.once('exit', killOnExit);
  const close = async () => {
    process.off('exit', killOnExit);
    if (child.exitCode === null) child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await waitForHealth(origin, child, 60_000);
  } catch (error) {
    await close();
    throw error;
  }
  return { origin, port, webDist, close };
}

export interface SharedParcel {
  parcelId: string;
  /** The tracking link a sender shares: opened cold by someone who never signed in. */
  trackingPath: string;
  /** The sender's session cookie (`csk_session=…`), to open the sender's own pages. */
  senderCookie: string;
}

/** Signs up a throwaway sender and sends one parcel between two addresses the offline gazetteer knows. */
export async function createSharedParcel(origin: string): Promise<SharedParcel> {
  const senderCookie = await signUpOverHttp(origin, 'user', `bench_sender_${Date.now().toString(36)}`);
  const response = await requestJson(origin, '/api/parcels', {
    method: 'POST',
    cookie: senderCookie,
    body: {
      senderAddress: '1052 Budapest, Váci utca 12',
      receiverAddress: '1132 Budapest, Váci út 40',
      category: 'Könyv',
      weightGrams: 500,
    },
  });
  const { id } = expectStatus(response, 201, 'send a parcel').body as { id: string };
  return { parcelId: id, trackingPath: paths.tracking(id), senderCookie };
}
