import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changeChannel } from '../db/change-feed.ts';
import type { AccountRow } from '../db/schema.ts';
import { accountRow } from '../test/back-office.ts';
import {
  createTestApp,
  requestAs,
  type SignedIn,
  sessionCookie,
  signInSuperadmin,
  signUp,
  type TestApp,
  testStore,
} from '../test/harness.ts';
import { buildParcelBody } from '../test/parcels.ts';
import { SessionCache } from './session-cache.ts';

/**
 * Sessions kept in memory on PostgreSQL (issue 31, docs/decisions/0032): what is kept, and — the
 * claim that matters — that a session revoked on one instance is refused on every other once the
 * change feed has brought the database's word, never served on after that. No timed test: each
 * waits on its condition with a deadline.
 */
const account = (id: number) => ({ id, user_name: `u${id}` }) as AccountRow;
const FUTURE = '2999-01-01T00:00:00.000Z';

describe('the session cache', () => {
  it('serves a session for its time, and never past the session’s own end', () => {
    let now = 1_000;
    const cache = new SessionCache(10_000, 100, () => now);
    cache.set('a', account(1), FUTURE, cache.epoch);
    cache.set('b', account(2), '2026-01-01T00:00:00.000Z', cache.epoch);
    expect(cache.get('a', '2025-06-01T00:00:00.000Z')?.id).toBe(1);
    expect(cache.get('b', '2026-02-01T00:00:00.000Z')).toBeUndefined();
    now += 10_001;
    expect(cache.get('a', '2025-06-01T00:00:00.000Z')).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('drops an account’s sessions when the feed says it changed, and everything for a change it cannot read', () => {
    const cache = new SessionCache();
    cache.set('a1', account(1), FUTURE, cache.epoch);
    cache.set('a2', account(1), FUTURE, cache.epoch);
    cache.set('b', account(2), FUTURE, cache.epoch);
    cache.heard({ kind: 'account_changed', accountId: 1 });
    expect([cache.get('a1', ''), cache.get('a2', ''), cache.get('b', '')?.id]).toEqual([undefined, undefined, 2]);
    cache.heard({ kind: 'account_changed', accountId: 'x' as unknown as number });
    expect(cache.size).toBe(0);
  });

  it('does not keep what a read begun before a drop found', () => {
    const cache = new SessionCache();
    const readFrom = cache.epoch;
    cache.heard({ kind: 'account_changed', accountId: 7 });
    cache.set('late', account(7), FUTURE, readFrom);
    expect(cache.get('late', '')).toBeUndefined();
  });

  it('holds at most its number of sessions, the oldest read going first', () => {
    const cache = new SessionCache(10_000, 2);
    for (const [token, id] of [
      ['a', 1],
      ['b', 2],
      ['c', 3],
    ] as const)
      cache.set(token, account(id), FUTURE, cache.epoch);
    expect([cache.get('a', ''), cache.get('b', '')?.id, cache.get('c', '')?.id]).toEqual([undefined, 2, 3]);
  });
});

describe.runIf(testStore === 'postgres')('sessions on two instances of one PostgreSQL', () => {
  let t: TestApp;
  let b: FastifyInstance;
  beforeAll(async () => {
    t = await createTestApp();
    b = await t.addInstance();
  });
  afterAll(() => t.close());

  /** A request only a signed-in user may make: 401 once their session is gone. */
  const me = (app: FastifyInstance, who: SignedIn) =>
    app.inject({ method: 'GET', url: '/api/me/sent-parcels', headers: { cookie: who.cookie } });
  /** Asks B until it answers `status`: the feed's delivery, with a deadline (not a timed test). */
  const untilB = (call: () => ReturnType<typeof me>, status: number) =>
    expect.poll(async () => (await call()).statusCode, { timeout: 10_000, interval: 20 }).toBe(status);
  const idOf = async (who: SignedIn) => (await accountRow(t.store, who.account.userName)).id;
  /** Ends `who`'s sessions with the database's triggers off for that transaction: the feed hears nothing. */
  const endBehindTheFeed = (who: SignedIn) =>
    t.store.db.transaction().execute(async (trx) => {
      await sql`set local session_replication_role = replica`.execute(trx);
      await trx
        .deleteFrom('sessions')
        .where('account_id', '=', await idOf(who))
        .execute();
    });

  it('refuses on B a session signed out on A', async () => {
    const user = await signUp(t.app);
    expect((await me(b, user)).statusCode).toBe(200);
    expect(b.sessionCache?.size).toBeGreaterThan(0);
    expect((await requestAs(t.app, user, 'POST', '/api/auth/logout', {})).statusCode).toBe(204);
    await untilB(() => me(b, user), 401);
  });

  it('refuses on B every other session once the password changed on A', async () => {
    const user = await signUp(t.app);
    const elsewhere = { ...user, cookie: (await signIn(t.app, user)).cookie };
    expect((await me(b, elsewhere)).statusCode).toBe(200);
    const changed = await requestAs(t.app, user, 'PATCH', `/api/users/${user.account.userName}`, {
      password: 'uj-jelszo-123456',
    });
    expect(changed.statusCode, changed.body).toBe(200);
    await untilB(() => me(b, elsewhere), 401);
    expect((await me(b, user)).statusCode).toBe(200);
  });

  it('refuses a runner suspended on A their next pickup on B', async () => {
    const admin = await signInSuperadmin(t.app);
    const runner = await signUp(t.app, { role: 'runner' });
    const sender = await signUp(t.app);
    const parcel = await requestAs(t.app, sender, 'POST', '/api/parcels', buildParcelBody());
    const carried = () =>
      b.inject({ method: 'GET', url: '/api/me/assigned-parcels', headers: { cookie: runner.cookie } });
    expect((await carried()).statusCode).toBe(200);
    const suspended = await requestAs(t.app, admin, 'POST', `/api/runners/${runner.account.userName}/suspend`, {
      reason: 'Panasz érkezett',
    });
    expect(suspended.statusCode, suspended.body).toBe(200);
    const pickUp = () =>
      b.inject({ method: 'POST', url: `/api/parcels/${parcel.json().id}/pickup`, headers: { cookie: runner.cookie } });
    await untilB(pickUp, 403);
    expect((await pickUp()).json().error.code).toBe('runner_suspended');
  });

  it('is told of an account’s change by the database, not of a runner’s position', async () => {
    const runner = await signUp(t.app, { role: 'runner' });
    const id = await idOf(runner);
    const told = async (change: () => Promise<unknown>) => {
      const [{ last }] = (
        await sql<{ last: number | null }>`select max(id) as last from change_log where id > 0`.execute(t.store.db)
      ).rows as [{ last: number | null }];
      await change();
      const rows = await t.store.db
        .selectFrom('change_log')
        .select('change')
        .where('id', '>', Number(last ?? 0))
        .execute();
      return rows.map((row) => JSON.parse(String(row.change)));
    };
    const moved = () =>
      t.store.db.updateTable('accounts').set({ last_lat: 47.5, last_lng: 19.05 }).where('id', '=', id).execute();
    expect(await told(moved)).toEqual([]);
    const renamed = () => t.store.db.updateTable('accounts').set({ name: 'Új Név' }).where('id', '=', id).execute();
    expect(await told(renamed)).toEqual([{ kind: 'account_changed', accountId: id }]);
  });

  it('drops and re-reads everything after a change it cannot read, never serving what it held', async () => {
    const user = await signUp(t.app);
    expect((await me(b, user)).statusCode).toBe(200);
    // B still has the session in memory once it ended behind the feed's back.
    await endBehindTheFeed(user);
    expect((await me(b, user)).statusCode).toBe(200);
    // A payload that is not a change: B drops what it keeps and reads the session again.
    await sql`select pg_notify(${changeChannel(t.store.pgSchema)}, 'nem JSON')`.execute(t.store.db);
    await untilB(() => me(b, user), 401);
  });

  it('drops everything for an account change whose account it cannot read', async () => {
    const user = await signUp(t.app);
    expect((await me(b, user)).statusCode).toBe(200);
    await endBehindTheFeed(user);
    const poisoned = JSON.stringify({
      id: Number.MAX_SAFE_INTEGER,
      at: Date.now(),
      requestId: null,
      change: { kind: 'account_changed', accountId: 'x' },
    });
    await sql`select pg_notify(${changeChannel(t.store.pgSchema)}, ${poisoned})`.execute(t.store.db);
    await untilB(() => me(b, user), 401);
  });
});

/** Signs in again as `who`: a second session of the same account. */
async function signIn(app: FastifyInstance, who: SignedIn) {
  const response = await app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email: who.account.email, password: who.password },
  });
  return { cookie: sessionCookie(response) };
}
