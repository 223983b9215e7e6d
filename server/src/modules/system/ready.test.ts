import { messages } from '@csomag/domain/messages';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signUp, type TestApp, testStore } from '../../test/harness.ts';
import { openTcpProxy, type TcpProxy } from '../../test/tcp-proxy.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const ready = (app = t.app, remoteAddress = '127.0.0.1') =>
  app.inject({ method: 'GET', url: '/api/ready', remoteAddress });

describe('GET /api/ready', () => {
  it('is ready when the database answers, every migration is applied and live updates are heard', async () => {
    const response = await ready();
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ready' });
  });

  it('is not ready while the instance drains, and says so', async () => {
    const other = await t.addInstance();
    other.lifecycle.drain();
    const response = await ready(other);
    expect(response.statusCode).toBe(503);
    expect(response.json().error).toEqual({
      code: 'not_ready',
      message: messages.notReady,
      fields: { draining: messages.notReadyDraining },
    });
    // Draining is this instance's own state: the other one stays ready.
    expect((await ready()).statusCode).toBe(200);
  });

  it('is not ready on a database whose schema is behind this release', async () => {
    const other = await t.addInstance();
    const last = await sql<{ name: string }>`select name from kysely_migration order by name desc limit 1`.execute(
      t.store.db,
    );
    const name = last.rows[0]?.name ?? '';
    await sql`delete from kysely_migration where name = ${name}`.execute(t.store.db);
    try {
      const response = await ready(other);
      expect(response.statusCode).toBe(503);
      expect(response.json().error.code).toBe('not_ready');
      expect(response.json().error.fields).toEqual({ migrations: messages.notReadyMigrations });
    } finally {
      await sql`insert into kysely_migration (name, timestamp) values (${name}, ${new Date().toISOString()})`.execute(
        t.store.db,
      );
    }
    expect((await ready(other)).statusCode).toBe(200);
  });

  it('is rate limited like the API when hammered, and never answers with a 5xx', async () => {
    const statuses = new Set<number>();
    for (let i = 0; i < 650; i++) statuses.add((await ready(t.app, '10.99.0.1')).statusCode);
    expect([...statuses].sort()).toEqual([200, 429]);
    // The liveness check is for the orchestrator on the same host: never limited.
    const health = await t.app.inject({ method: 'GET', url: '/api/health', remoteAddress: '10.99.0.1' });
    expect(health.statusCode).toBe(200);
  });
});

describe.runIf(testStore === 'postgres')('a PostgreSQL outage', () => {
  let proxy: TcpProxy;
  let cut: TestApp;
  beforeAll(async () => {
    const target = new URL(process.env.TEST_DATABASE_URL ?? '');
    proxy = await openTcpProxy(target.hostname, Number(target.port || 5432));
    cut = await createTestApp({}, { connectVia: proxy.address });
  });
  afterAll(async () => {
    proxy.restore();
    await cut.close();
    await proxy.close();
  });

  it('answers 503 while the database is unreachable and serves again by itself once it is back', async () => {
    const person = await signUp(cut.app);
    // A read the database must answer (the session itself may be kept in memory: ADR 0032).
    const me = () =>
      cut.app.inject({ method: 'GET', url: '/api/me/mail-preferences', headers: { cookie: person.cookie } });
    expect((await me()).statusCode).toBe(200);

    // Every connection the pool holds dies at once: idle ones too, which used to kill the process.
    proxy.cut();
    // Liveness with its database check: every request answers what the database said, together or not.
    const health = () => cut.app.inject({ method: 'GET', url: '/api/health' });
    for (const response of [await health(), ...(await Promise.all([health(), health(), health()]))]) {
      expect(response.statusCode).toBe(503);
      expect(response.json().error).toEqual({ code: 'unavailable', message: messages.databaseUnavailable });
    }
    const during = await me();
    expect(during.statusCode).toBe(503);
    expect(during.headers['retry-after']).toBe('5');
    expect(during.json().error).toEqual({ code: 'unavailable', message: messages.databaseUnavailable });
    const notReady = await ready(cut.app);
    expect(notReady.statusCode).toBe(503);
    expect(notReady.json().error.code).toBe('not_ready');
    expect(notReady.json().error.fields).toMatchObject({
      database: messages.notReadyDatabase,
      changeFeed: messages.notReadyChangeFeed,
    });
    const login = await cut.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: person.account.email, password: person.password },
    });
    expect(login.statusCode).toBe(503);
    expect(login.json().error.code).toBe('unavailable');

    proxy.restore();
    let back = await ready(cut.app);
    for (let attempt = 0; attempt < 100 && back.statusCode !== 200; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      back = await ready(cut.app);
    }
    expect(back.statusCode).toBe(200);
    expect((await health()).statusCode).toBe(200);
    expect((await me()).statusCode).toBe(200);
  });
});

describe.runIf(testStore === 'postgres')('GET /api/health under load', () => {
  it('asks the database once for the requests that arrive while a check is under way', async () => {
    let queries = 0;
    t.store.observeQueries(() => {
      queries += 1;
    });
    const responses = await Promise.all(
      Array.from({ length: 20 }, () => t.app.inject({ method: 'GET', url: '/api/health' })),
    );
    expect(responses.map((response) => response.statusCode)).toEqual(Array(20).fill(200));
    expect(queries).toBeGreaterThan(0);
    expect(queries).toBeLessThan(20);
    // One after another, each asks again.
    queries = 0;
    for (let i = 0; i < 3; i++)
      expect((await t.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
    expect(queries).toBe(3);
  });
});
