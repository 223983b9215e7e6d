import { accountResponseSchema, meResponseSchema } from '@csomag/domain/account';
import { handoverLinkSchema, handoverSummarySchema } from '@csomag/domain/delivery';
import { LIVE_EVENT, type LiveChange } from '@csomag/domain/live';
import { liveChangeSchema } from '@csomag/domain/live-schemas';
import { type Parcel, parcelSchema } from '@csomag/domain/parcel';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrations } from '../db/migrations/index.ts';
import { buildRegistration } from '../test/harness.ts';
import {
  createTestDatabase,
  type EventStream,
  type Instance,
  isConnectionError,
  newSessionSecret,
  openStream,
  ReconnectingEventSource,
  request,
  startInstance,
  stopAllInstances,
  type TestDatabase,
} from '../test/instances.ts';

/**
 * Several real instances (child processes) on one PostgreSQL database, as behind a load balancer:
 * sessions, live updates, abuse limits and handover links work whichever instance a request
 * reaches; an instance drains on SIGTERM without losing its clients' updates; start-up is safe
 * when they all start at once (docs/operations.md, issue 9).
 */

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

interface Person {
  userName: string;
  email: string;
  password: string;
  cookie: string;
}

/** Registers through the API on one instance; the session cookie comes with it. */
async function register(on: Instance, overrides: Partial<Record<string, unknown>> = {}): Promise<Person> {
  const body = buildRegistration(overrides);
  const response = await request(on.url, '/api/auth/register', { method: 'POST', body });
  if (response.status !== 201 || !response.cookie) {
    throw new Error(`register on ${on.name}: ${response.status} ${response.text}`);
  }
  const { account } = accountResponseSchema.parse(response.json);
  return { userName: account.userName, email: account.email, password: String(body.password), cookie: response.cookie };
}

let parcelCounter = 0;
/** A parcel between two Budapest addresses the offline gazetteer places. */
async function sendParcel(on: Instance, sender: Person): Promise<Parcel> {
  parcelCounter += 1;
  const response = await request(on.url, '/api/parcels', {
    method: 'POST',
    cookie: sender.cookie,
    body: {
      senderAddress: '1052 Budapest, Váci utca 12',
      receiverAddress: '1117 Budapest, Október huszonharmadika utca 8',
      category: `Könyv ${parcelCounter}`,
      weightGrams: 850,
    },
  });
  if (response.status !== 201) throw new Error(`parcel on ${on.name}: ${response.status} ${response.text}`);
  return parcelSchema.parse(response.json);
}

async function pickUp(on: Instance, runner: Person, parcelId: string): Promise<Parcel> {
  const response = await request(on.url, `/api/parcels/${parcelId}/pickup`, { method: 'POST', cookie: runner.cookie });
  if (response.status !== 200) throw new Error(`pickup on ${on.name}: ${response.status} ${response.text}`);
  return parcelSchema.parse(response.json);
}

/** The first change message on a stream that matches, with its id; null when none came in time. */
async function changeOn(stream: EventStream, match: (change: LiveChange) => boolean, timeoutMs = 10_000) {
  const block = await stream.waitForBlock(
    (b) => b.event === LIVE_EVENT && b.data !== undefined && match(liveChangeSchema.parse(JSON.parse(b.data))),
    timeoutMs,
  );
  return block?.data === undefined ? null : { id: block.id, ...liveChangeSchema.parse(JSON.parse(block.data)) };
}

/**
 * What /api/ready says first once it stops saying 200: a status, or that nothing listens any more.
 * Polled a few seconds at most: every poll counts against the API's per-IP limit.
 */
async function firstNotReady(instance: Instance) {
  for (let attempt = 0; attempt < 100; attempt++) {
    if (instance.hasExited()) return { status: 'not listening' as const, json: undefined };
    try {
      const response = await request(instance.url, '/api/ready');
      if (response.status !== 200) return { status: response.status, json: response.json };
    } catch (error) {
      if (isConnectionError(error)) return { status: 'not listening' as const, json: undefined };
      throw error;
    }
    await sleep(50);
  }
  return { status: 'still ready' as const, json: undefined };
}

const superadminCount = async (database: TestDatabase) =>
  (await database.query<{ n: number }>(`select count(*)::int as n from accounts where role = 'superadmin'`))[0]?.n;

describe.runIf(process.env.TEST_DATABASE_URL)('several instances on one PostgreSQL database', () => {
  const secret = newSessionSecret();
  const admin = { email: 'it.admin@example.hu', password: 'admin-jelszo-it' };
  const databases: TestDatabase[] = [];
  const streams: EventStream[] = [];
  const sources: ReconnectingEventSource[] = [];
  let database: TestDatabase;
  let startedTogether: PromiseSettledResult<Instance>[];
  let a: Instance;
  let b: Instance;
  let user: Person;
  let runner: Person;

  const envFor = (db: TestDatabase, extra: Record<string, string> = {}) => ({
    DATABASE_URL: db.url,
    SESSION_SECRET: secret,
    ADMIN_EMAIL: admin.email,
    ADMIN_PASSWORD: admin.password,
    ...extra,
  });

  beforeAll(async () => {
    database = await createTestDatabase();
    databases.push(database);
    // Both race to migrate and to create the superadmin, as when a deployment starts its instances.
    startedTogether = await Promise.allSettled([
      startInstance({ name: 'A', env: envFor(database) }),
      startInstance({ name: 'B', env: envFor(database) }),
    ]);
    // One that lost the race is started again on its own, so the other tests still say something.
    const [first, second] = startedTogether;
    a = first?.status === 'fulfilled' ? first.value : await startInstance({ name: 'A', env: envFor(database) });
    b = second?.status === 'fulfilled' ? second.value : await startInstance({ name: 'B', env: envFor(database) });
    user = await register(a);
    runner = await register(a, { role: 'runner' });
  });

  afterAll(async () => {
    for (const source of sources) source.close();
    for (const stream of streams) stream.close();
    await stopAllInstances();
    for (const db of databases) await db.drop();
  });

  it('starts two instances at once on an empty database, with one superadmin between them', async () => {
    const failures = startedTogether.flatMap((result) =>
      result.status === 'rejected' ? [String((result.reason as Error).message)] : [],
    );
    expect(failures).toEqual([]);
    expect(await superadminCount(database)).toBe(1);
    for (const instance of [a, b]) {
      const signIn = await request(instance.url, '/api/auth/login', { method: 'POST', body: admin });
      expect(signIn.status, `superadmin sign-in on ${instance.name}`).toBe(200);
    }
  });

  it('accepts on B a session made on A', async () => {
    const signIn = await request(a.url, '/api/auth/login', {
      method: 'POST',
      body: { email: runner.email, password: runner.password },
    });
    expect(signIn.status).toBe(200);
    for (const cookie of [user.cookie, signIn.cookie]) {
      const me = await request(b.url, '/api/auth/me', { cookie });
      expect(me.status).toBe(200);
      expect(meResponseSchema.parse(me.json).account?.userName).toBe(
        cookie === user.cookie ? user.userName : runner.userName,
      );
    }
  });

  it('brings a change made through A to event streams on B, with the same global id as on A', async () => {
    const runnersList = await openStream(b.url, 'parcels', { cookie: runner.cookie });
    streams.push(runnersList);
    expect(runnersList.status).toBe(200);

    const parcel = await sendParcel(a, user);
    expect(await changeOn(runnersList, (c) => c.parcelId === parcel.id)).toMatchObject({
      topic: 'parcels',
      kind: 'created',
      status: 'waiting',
    });

    const trackingOnB = await openStream(b.url, `parcel:${parcel.id}`);
    const trackingOnA = await openStream(a.url, `parcel:${parcel.id}`);
    streams.push(trackingOnB, trackingOnA);
    await pickUp(a, runner, parcel.id);
    const pickedUp = { topic: `parcel:${parcel.id}`, kind: 'picked_up', parcelId: parcel.id, status: 'in_transit' };
    const onB = await changeOn(trackingOnB, (c) => c.kind === 'picked_up');
    expect(onB).toMatchObject(pickedUp);
    expect(await changeOn(runnersList, (c) => c.parcelId === parcel.id && c.kind === 'picked_up')).toMatchObject({
      topic: 'parcels',
      status: 'in_transit',
    });
    // Ids come from the database, not from each instance: a browser can resume on any of them.
    const onA = await changeOn(trackingOnA, (c) => c.kind === 'picked_up');
    expect(onA?.id).toMatch(/^\d+$/);
    expect(onB?.id).toBe(onA?.id);
  });

  it('counts sign-in failures on both instances together: the sixth in a row is refused', async () => {
    // An address nobody has: every attempt fails, and no account of another test gets locked.
    const email = `nincs.ilyen.${Date.now().toString(36)}@example.hu`;
    const statuses: number[] = [];
    let last: unknown;
    for (const instance of [a, a, a, b, b, b]) {
      const response = await request(instance.url, '/api/auth/login', {
        method: 'POST',
        body: { email, password: 'rossz-jelszo-1' },
      });
      statuses.push(response.status);
      last = response.json;
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
    expect(last).toMatchObject({ error: { code: 'too_many_login_attempts' } });
  });

  it('caps one account at 32 open event streams across both instances', async () => {
    const opened: EventStream[] = [];
    try {
      for (const instance of [a, b]) {
        for (let n = 0; n < 16; n++) {
          const stream = await openStream(instance.url, 'me', { cookie: user.cookie });
          opened.push(stream);
          expect(stream.status, `stream ${n + 1} on ${instance.name}`).toBe(200);
        }
      }
      for (const instance of [a, b]) {
        const extra = await openStream(instance.url, 'me', { cookie: user.cookie });
        opened.push(extra);
        expect(extra.status, `the 33rd stream, on ${instance.name}`).toBe(429);
        expect(extra.json).toMatchObject({ error: { code: 'too_many_streams' } });
      }

      // A stream closed on A frees a place on B: the cap counts open streams, not attempts.
      opened.find((stream) => stream.status === 200)?.close();
      let again: EventStream | undefined;
      for (let attempt = 0; attempt < 50 && again?.status !== 200; attempt++) {
        if (again) await sleep(200);
        again = await openStream(b.url, 'me', { cookie: user.cookie });
        opened.push(again);
      }
      expect(again?.status).toBe(200);
    } finally {
      for (const stream of opened) stream.close();
    }
  });

  it('delivers a parcel on B with the handover link A made', async () => {
    const parcel = await sendParcel(a, user);
    await pickUp(a, runner, parcel.id);
    const linkResponse = await request(a.url, `/api/parcels/${parcel.id}/handover-token`, {
      method: 'POST',
      cookie: runner.cookie,
    });
    expect(linkResponse.status).toBe(200);
    const link = handoverLinkSchema.parse(linkResponse.json);
    const query = new URL(link.url).searchParams;
    const body = { token: query.get('token'), futar: query.get('futar'), felado: query.get('felado') };
    expect(body).toEqual({ token: expect.any(String), futar: runner.userName, felado: user.userName });

    const handedOver = await request(b.url, `/api/parcels/${parcel.id}/handover`, { method: 'POST', body });
    expect(handedOver.status, handedOver.text).toBe(200);
    expect(handoverSummarySchema.parse(handedOver.json)).toMatchObject({ id: parcel.id, status: 'delivered' });
    const tracking = await request(a.url, `/api/tracking/${parcel.id}`);
    expect(tracking.json).toMatchObject({ id: parcel.id, status: 'delivered' });
  });

  it('drains an instance on SIGTERM: not ready at once, its 50 streams resume on B and miss nothing', async () => {
    const c = await startInstance({ name: 'C', env: envFor(database, { SHUTDOWN_TIMEOUT: '5' }) });
    // Five runners with ten tabs each: under the per-account cap, 50 streams in all.
    const runners = [];
    for (let n = 0; n < 5; n++) runners.push(await register(b, { role: 'runner' }));
    const clients = runners.flatMap((person) =>
      Array.from(
        { length: 10 },
        () =>
          new ReconnectingEventSource(
            [
              { name: 'C', url: c.url },
              { name: 'B', url: b.url },
            ],
            'parcels',
            { cookie: person.cookie },
          ),
      ),
    );
    sources.push(...clients);
    await Promise.all(clients.map((client) => client.start(0)));
    expect(clients.map((client) => client.connectedTo)).toEqual(clients.map(() => 'C'));

    // Every client has an id to resume from.
    const before = await sendParcel(b, user);
    await Promise.all(clients.map((client) => client.waitFor((change) => change.parcelId === before.id)));

    // Soft from here on: every step of the drain is reported, not only the first that fails.
    for (const client of clients) client.holdReconnects();
    c.kill('SIGTERM');
    // A load balancer polling C stops sending to it at once; a refused connection says the same.
    const readiness = await firstNotReady(c);
    expect.soft([503, 'not listening'], 'C’s /api/ready once signalled').toContain(readiness.status);
    if (readiness.status === 503) {
      expect
        .soft(readiness.json)
        .toMatchObject({ error: { code: 'not_ready', fields: { draining: expect.any(String) } } });
    }

    const exit = await c.exited;
    expect.soft(exit, `C’s exit; log:\n${c.logs().slice(-3000)}`).toMatchObject({ code: 0, signal: null });
    const messages = c.logLines().map((line) => line.msg ?? '');
    expect.soft(messages, 'C closed its store').toContain('shutdown complete');
    expect
      .soft(
        messages.filter((msg) => /timed out|forced/i.test(msg)),
        'C’s drain cut off',
      )
      .toEqual([]);

    const disconnected = await Promise.all(clients.map((client) => client.waitUntilDisconnected()));
    expect.soft(disconnected.every(Boolean), 'every stream on C ended').toBe(true);
    expect.soft((await request(b.url, '/api/ready')).status, 'B still ready').toBe(200);

    // Made while nobody is connected: it reaches them only by Last-Event-ID.
    const missed = await sendParcel(b, user);
    for (const client of clients) client.releaseReconnects();
    await Promise.all(clients.map((client) => client.waitUntilConnectedTo('B', 30_000)));
    expect
      .soft(clients.map((client) => client.connections.at(-1)))
      .toEqual(clients.map(() => ({ to: 'B', lastEventId: expect.stringMatching(/^\d+$/) })));
    const after = await sendParcel(b, user);

    const got = async (client: ReconnectingEventSource, parcelId: string) =>
      client
        .waitFor((change) => change.parcelId === parcelId && change.from === 'B', 10_000)
        .then(
          () => true,
          () => false,
        );
    const replayed = await Promise.all(clients.map((client) => got(client, missed.id)));
    const live = await Promise.all(clients.map((client) => got(client, after.id)));
    expect.soft(live.filter(Boolean).length, 'clients that got the change made after they reconnected').toBe(50);
    expect.soft(replayed.filter(Boolean).length, 'clients that got the change made while they were away').toBe(50);
    for (const client of clients) client.close();
  });

  it('listens again by itself when the database drops its LISTEN connection, and catches up what it missed', async () => {
    const subscriber = new ReconnectingEventSource([{ name: 'B', url: b.url }], 'parcels', { cookie: runner.cookie });
    sources.push(subscriber);
    await subscriber.start();
    const baseline = await sendParcel(a, user);
    await subscriber.waitFor((change) => change.parcelId === baseline.id);
    const logLinesBefore = b.logLines().length;

    // No instance can reconnect until the gap change has been committed: the gap is certain.
    await database.adminQuery(`alter database ${database.name} allow_connections false`);
    let gap: Parcel | undefined;
    try {
      const terminated = await database.adminQuery<{ pid: number }>(
        `select pid, pg_terminate_backend(pid) from pg_stat_activity
          where application_name = 'csomagkuldo-listen' and datname = $1`,
        [database.name],
      );
      // A's and B's: the query the operator would run cannot tell instances apart.
      expect(terminated.length).toBeGreaterThanOrEqual(1);
      const readiness = await firstNotReady(b);
      expect(readiness).toMatchObject({
        status: 503,
        json: { error: { code: 'not_ready', fields: { changeFeed: expect.any(String) } } },
      });
      // A's pool still holds connections from the request above, so A can commit while nobody listens.
      gap = await sendParcel(a, user);
    } finally {
      await database.adminQuery(`alter database ${database.name} allow_connections true`);
    }

    const lostLine = await b
      .waitForLog((line) => line.level >= 40 && /LISTEN|change feed/i.test(line.msg ?? ''), 10_000)
      .catch(() => undefined);
    expect(lostLine, 'B logs the lost LISTEN connection').toBeDefined();
    expect(b.logLines().length).toBeGreaterThan(logLinesBefore);

    // The next change through A reaches B's subscriber once B listens again; retried until it does.
    let next: Parcel | undefined;
    for (let attempt = 0; attempt < 30; attempt++) {
      next = await sendParcel(a, user);
      const arrived = await subscriber
        .waitFor((change) => change.parcelId === next?.id, 2000)
        .then(() => true)
        .catch(() => false);
      if (arrived) break;
    }
    expect(subscriber.received.map((change) => change.parcelId)).toContain(next?.id);
    expect(
      subscriber.received.map((change) => change.parcelId),
      'the change made while nobody listened',
    ).toContain(gap?.id);
    let ready = 0;
    for (let attempt = 0; attempt < 100 && ready !== 200; attempt++) {
      if (attempt > 0) await sleep(200);
      ready = (await request(b.url, '/api/ready')).status;
    }
    expect(ready).toBe(200);
    subscriber.close();
  });

  it('starts three instances at once on another empty database: one superadmin, each migration once', async () => {
    const fresh = await createTestDatabase();
    databases.push(fresh);
    const started = await Promise.allSettled(
      ['D', 'E', 'F'].map((name) => startInstance({ name, env: envFor(fresh) })),
    );
    try {
      expect(started.flatMap((result) => (result.status === 'rejected' ? [String(result.reason)] : []))).toEqual([]);
      expect(await superadminCount(fresh)).toBe(1);
      const applied = await fresh.query<{ name: string }>('select name from kysely_migration order by name');
      expect(applied.map((row) => row.name)).toEqual(Object.keys(migrations('postgres')).sort());
    } finally {
      for (const result of started) if (result.status === 'fulfilled') result.value.kill('SIGTERM');
      await Promise.all(started.flatMap((result) => (result.status === 'fulfilled' ? [result.value.exited] : [])));
    }
  });
});
