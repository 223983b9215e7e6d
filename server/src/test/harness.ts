import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Account } from '@csomag/domain/account';
import type { Role } from '@csomag/domain/roles';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { migrateToLatest, openStore, type Store } from '../db/database.ts';
import { ensureSuperadmin } from '../modules/auth/superadmin.ts';
import type { Geocoder } from '../modules/geo/geocoder.ts';

export interface TestApp {
  app: FastifyInstance;
  store: Store;
  /**
   * Another instance of the app on the same database, as a second server behind a load balancer
   * would be: its own store (on PostgreSQL its own pool on the same schema) and its own process
   * state. Closed by close().
   */
  addInstance(): Promise<FastifyInstance>;
  close(): Promise<void>;
}

/** Which store this run uses: the server project runs once per store (vitest.config.ts). */
export const testStore = process.env.TEST_STORE === 'postgres' ? 'postgres' : 'sqlite';

/**
 * A real app on a real, empty database: a fresh SQLite file, or a fresh schema in the
 * PostgreSQL at TEST_DATABASE_URL. Never a mock.
 */
export async function createTestApp(
  env: Record<string, string> = {},
  options: {
    geocoder?: Geocoder;
    logStream?: NodeJS.WritableStream;
    /** PostgreSQL: the app's connections go through this host:port (a proxy a test can cut) to the same database. */
    connectVia?: string;
  } = {},
): Promise<TestApp> {
  const dataDir = mkdtempSync(join(tmpdir(), 'csomag-test-'));
  const config = loadConfig({ DATA_DIR: dataDir, WEB_DIST: '', LOG_LEVEL: 'silent', ...env });
  let dropSchema = async () => {};
  let open: () => Store;
  if (testStore === 'postgres') {
    const url = process.env.TEST_DATABASE_URL;
    if (!url) throw new Error('TEST_STORE=postgres needs TEST_DATABASE_URL');
    const schema = `t_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`create schema ${schema}`);
    await admin.end();
    const appUrl = options.connectVia ? withHost(url, options.connectVia) : url;
    open = () => openStore({ dataDir, databaseUrl: appUrl, pgSchema: schema });
    dropSchema = async () => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      await client.query(`drop schema ${schema} cascade`);
      await client.end();
    };
  } else {
    open = () => openStore({ dataDir });
  }
  const build = async (store: Store) => {
    const app = await buildApp({
      config: { ...config, databaseUrl: undefined },
      store,
      logger: options.logStream ? { stream: options.logStream } : false,
      geocoder: options.geocoder,
      checkResponses: true,
    });
    await app.ready();
    return app;
  };
  const store = open();
  await migrateToLatest(store);
  const app = await build(store);
  const others: { app: FastifyInstance; store: Store }[] = [];
  return {
    app,
    store,
    async addInstance() {
      const otherStore = open();
      try {
        const otherApp = await build(otherStore);
        others.push({ app: otherApp, store: otherStore });
        return otherApp;
      } catch (error) {
        await otherStore.close();
        throw error;
      }
    },
    async close() {
      for (const other of others) {
        await other.app.close();
        await other.store.close();
      }
      await app.close();
      await store.close();
      await dropSchema();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

function withHost(url: string, hostAndPort: string) {
  const parsed = new URL(url);
  parsed.host = hostAndPort;
  return parsed.toString();
}

let counter = 0;
/** A unique, valid registration body; override any field. */
export function buildRegistration(overrides: Partial<Record<string, unknown>> = {}) {
  counter += 1;
  const tag = `${Date.now().toString(36)}${counter}`;
  return {
    role: 'user',
    name: `Teszt Elek ${counter}`,
    userName: `teszt_${tag}`,
    email: `teszt.${tag}@example.hu`,
    password: 'titkos-jelszo',
    phoneNumber: '+36 30 111 2222',
    address: '1052 Budapest, Váci utca 12',
    ...overrides,
  };
}

export function sessionCookie(response: LightMyRequestResponse): string {
  const cookie = response.cookies.find((c) => c.name === 'csk_session');
  if (!cookie) throw new Error(`no session cookie in ${response.statusCode} ${response.body}`);
  return `${cookie.name}=${cookie.value}`;
}

export interface SignedIn {
  account: Account;
  cookie: string;
  password: string;
}

/** Registers a user or runner through the API and returns its session. */
export async function signUp(
  app: FastifyInstance,
  overrides: Partial<Record<string, unknown>> & { role?: Exclude<Role, 'superadmin'> } = {},
): Promise<SignedIn> {
  const body = buildRegistration(overrides);
  // Each sign-up from its own address: a test file registers more people than one IP may per hour.
  const remoteAddress = `10.200.${Math.floor(counter / 250) % 250}.${(counter % 250) + 1}`;
  const response = await app.inject({ method: 'POST', url: '/api/auth/register', payload: body, remoteAddress });
  if (response.statusCode !== 201) throw new Error(`register failed: ${response.body}`);
  return { account: response.json().account, cookie: sessionCookie(response), password: String(body.password) };
}

/** Creates a superadmin in the store and signs it in. */
export async function signInSuperadmin(app: FastifyInstance): Promise<SignedIn> {
  counter += 1;
  const email = `admin${counter}.${Date.now().toString(36)}@example.hu`;
  const password = 'admin-jelszo';
  await ensureSuperadmin(app.store.db, email, password);
  const response = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password } });
  if (response.statusCode !== 200) throw new Error(`admin login failed: ${response.body}`);
  return { account: response.json().account, cookie: sessionCookie(response), password };
}

/** The people of a parcel's life, each signed in: the back office, a sender and a runner. */
export async function signInCast(app: FastifyInstance) {
  return {
    admin: await signInSuperadmin(app),
    sender: await signUp(app),
    runner: await signUp(app, { role: 'runner' }),
  };
}

/** A state-changing request as a signed-in person. */
export const requestAs = (
  app: FastifyInstance,
  who: SignedIn,
  method: 'POST' | 'PATCH' | 'PUT' | 'DELETE',
  url: string,
  payload?: object,
) => app.inject({ method, url, headers: { cookie: who.cookie }, ...(payload ? { payload } : {}) });
