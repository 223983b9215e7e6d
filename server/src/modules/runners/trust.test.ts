import { messages } from '@csomag/domain/messages';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runnerTrust } from '../../db/migrations/0018-runner-trust.ts';
import { pickUp, storedEvents, storedParcel } from '../../test/delivery.ts';
import { createTestApp, requestAs, type SignedIn, signInSuperadmin, signUp, type TestApp } from '../../test/harness.ts';
import { sendParcel } from '../../test/parcels.ts';
import { readChain } from '../relay/chain.ts';

const nyugati = { lat: 47.5106, lng: 19.0567 };
const inMinutes = (minutes: number) => new Date(Date.now() + minutes * 60_000).toISOString();
const offerBody = () => ({ place: nyugati, placeLabel: 'Nyugati pu.', from: inMinutes(10), until: inMinutes(70) });
const get = (t: TestApp, who: SignedIn | null, url: string) =>
  t.app.inject({ method: 'GET', url, ...(who ? { headers: { cookie: who.cookie } } : {}) });
const stored = (t: TestApp, userName: string) =>
  t.store.db
    .selectFrom('accounts')
    .select(['approved_at', 'suspended_at', 'suspended_reason'])
    .where('user_name', '=', userName)
    .executeTakeFirstOrThrow();
const snapshot = async (t: TestApp, parcelId: string) => ({
  parcel: await storedParcel(t.app, parcelId),
  events: await storedEvents(t.app, parcelId),
  custody: await readChain(t.store.db, parcelId),
});

describe('RUNNER_APPROVAL=manual', () => {
  let t: TestApp;
  let admin: SignedIn;
  let sender: SignedIn;
  beforeAll(async () => {
    t = await createTestApp({ RUNNER_APPROVAL: 'manual' });
    admin = await signInSuperadmin(t.app);
    sender = await signUp(t.app);
  });
  afterAll(() => t.close());

  it('a new runner waits: no waiting pool, no pickup, no assignment until the back office approves', async () => {
    const runner = await signUp(t.app, { role: 'runner' });
    expect((await stored(t, runner.account.userName)).approved_at).toBeNull();
    expect(runner.account.status).toBe('inactive');
    const parcel = await sendParcel(t.app, sender.cookie);

    const pool = await get(t, runner, '/api/parcels/waiting');
    expect(pool.statusCode).toBe(403);
    expect(pool.json().error).toEqual({ code: 'runner_not_approved', message: messages.runnerNotApproved });
    const before = await snapshot(t, parcel.id);
    const pickup = await requestAs(t.app, runner, 'POST', `/api/parcels/${parcel.id}/pickup`);
    expect(pickup.json().error.code).toBe('runner_not_approved');
    const assign = await requestAs(t.app, admin, 'POST', `/api/parcels/${parcel.id}/assign`, {
      runner: runner.account.userName,
    });
    expect(assign.statusCode).toBe(403);
    expect(assign.json().error).toEqual({ code: 'runner_not_approved', message: messages.assigneeNotApproved });
    expect(await snapshot(t, parcel.id)).toEqual(before);

    const detail = await get(t, admin, `/api/runners/${runner.account.userName}`);
    expect(detail.json().trust).toMatchObject({ approvedAt: null, suspendedAt: null, openReports: 0 });
    const flags = await get(t, admin, `/api/runner-flags?userNames=${runner.account.userName}`);
    expect(flags.json().items).toEqual([
      { userName: runner.account.userName, awaitingApproval: true, suspended: false, openReports: 0 },
    ]);

    const approved = await requestAs(t.app, admin, 'POST', `/api/runners/${runner.account.userName}/approve`);
    expect(approved.statusCode).toBe(200);
    expect(approved.json().trust.approvedAt).toEqual(expect.any(String));
    // SPEC's status field stays as it was: approval is beside it.
    expect(approved.json().account.status).toBe('inactive');
    expect((await get(t, runner, '/api/parcels/waiting')).statusCode).toBe(200);
    await pickUp(t.app, runner.cookie, parcel.id);
  });

  it('a runner the back office registers waits for approval too', async () => {
    const response = await requestAs(t.app, admin, 'POST', '/api/runners', {
      name: 'Kovács Futár',
      userName: `kovacs_${Date.now().toString(36)}`,
      email: `kovacs.${Date.now().toString(36)}@example.hu`,
      password: 'titkos-jelszo',
      phoneNumber: '+36 30 111 2222',
      address: '1052 Budapest, Váci utca 12',
    });
    expect(response.statusCode).toBe(201);
    expect((await stored(t, response.json().account.userName)).approved_at).toBeNull();
  });
});

describe('approval and suspension (RUNNER_APPROVAL=auto)', () => {
  let t: TestApp;
  let admin: SignedIn;
  let sender: SignedIn;
  beforeAll(async () => {
    t = await createTestApp();
    admin = await signInSuperadmin(t.app);
    sender = await signUp(t.app);
  });
  afterAll(() => t.close());

  it('a new runner is approved at registration', async () => {
    const runner = await signUp(t.app, { role: 'runner' });
    expect((await stored(t, runner.account.userName)).approved_at).toEqual(expect.any(String));
    expect((await get(t, runner, '/api/parcels/waiting')).statusCode).toBe(200);
  });

  it('only the superadmin approves, suspends and lifts; a suspension needs a reason; nothing changes otherwise', async () => {
    const runner = await signUp(t.app, { role: 'runner' });
    const other = await signUp(t.app, { role: 'runner' });
    const user = await signUp(t.app);
    const name = runner.account.userName;
    const before = await stored(t, name);
    for (const action of ['approve', 'suspend', 'unsuspend']) {
      const url = `/api/runners/${name}/${action}`;
      const payload = { reason: 'próba' };
      expect((await t.app.inject({ method: 'POST', url, payload })).statusCode).toBe(401);
      for (const who of [runner, other, user]) {
        const refused = await requestAs(t.app, who, 'POST', url, payload);
        expect(refused.statusCode).toBe(403);
        expect(refused.json().error.code).toBe('forbidden');
      }
    }
    for (const who of [runner, user]) {
      expect((await get(t, who, `/api/runners/${name}/parcels-in-transit`)).statusCode).toBe(403);
    }
    expect((await get(t, user, `/api/runner-flags?userNames=${name}`)).statusCode).toBe(403);
    expect((await get(t, null, `/api/runner-flags?userNames=${name}`)).statusCode).toBe(401);
    expect((await get(t, null, `/api/runners/${name}/parcels-in-transit`)).statusCode).toBe(401);
    const tooMany = Array.from({ length: 101 }, (_, i) => `futar_${i}`).join(',');
    const tooManyAnswer = await get(t, admin, `/api/runner-flags?userNames=${tooMany}`);
    expect(tooManyAnswer.statusCode).toBe(400);
    expect(tooManyAnswer.json().error.fields.userNames).toBe(messages.runnerFlagsTooMany);
    for (const payload of [{}, { reason: '' }, { reason: '   ' }, { reason: 'x'.repeat(501) }]) {
      const bad = await requestAs(t.app, admin, 'POST', `/api/runners/${name}/suspend`, payload);
      expect(bad.statusCode).toBe(400);
      expect(bad.json().error.code).toBe('invalid_body');
      expect(Object.values(bad.json().error.fields ?? {}).join()).toMatch(/felfüggesztés ok/);
    }
    expect(await stored(t, name)).toEqual(before);
    const missing = await requestAs(t.app, admin, 'POST', '/api/runners/nincs_ilyen_futar/suspend', { reason: 'x' });
    expect(missing.json().error.code).toBe('runner_not_found');
    const notRunner = await requestAs(t.app, admin, 'POST', `/api/runners/${user.account.userName}/approve`);
    expect(notRunner.json().error.code).toBe('runner_not_found');

    const suspended = await requestAs(t.app, admin, 'POST', `/api/runners/${name}/suspend`, { reason: 'Panasz' });
    expect(suspended.statusCode).toBe(200);
    expect(suspended.json().trust).toMatchObject({ suspendedAt: expect.any(String), suspendedReason: 'Panasz' });
    const lifted = await requestAs(t.app, admin, 'POST', `/api/runners/${name}/unsuspend`);
    expect(lifted.json().trust).toMatchObject({ suspendedAt: null, suspendedReason: null });
    expect(await stored(t, name)).toMatchObject({ suspended_at: null, suspended_reason: null });
  });

  it('a suspended runner is refused the pool, pickup, assignment, relay take-over and offers; may still deliver', async () => {
    const runner = await signUp(t.app, { role: 'runner' });
    const holder = await signUp(t.app, { role: 'runner' });
    const carried = await sendParcel(t.app, sender.cookie);
    await pickUp(t.app, runner.cookie, carried.id);
    const relayed = await sendParcel(t.app, sender.cookie);
    await pickUp(t.app, holder.cookie, relayed.id);
    const offer = await requestAs(t.app, holder, 'POST', `/api/parcels/${relayed.id}/relay-offer`, offerBody());
    expect(offer.statusCode).toBe(201);
    const link = await requestAs(t.app, holder, 'POST', `/api/parcels/${relayed.id}/relay-token`, {});
    const token = new URL(link.json().url).searchParams.get('token') ?? '';
    const waiting = await sendParcel(t.app, sender.cookie);

    await requestAs(t.app, admin, 'POST', `/api/runners/${runner.account.userName}/suspend`, { reason: 'Panasz' });
    const expected = { code: 'runner_suspended', message: messages.runnerSuspended('Panasz') };

    const pool = await get(t, runner, '/api/parcels/waiting');
    expect(pool.statusCode).toBe(403);
    expect(pool.json().error).toEqual(expected);
    const snapshots = await Promise.all([waiting, relayed, carried].map((parcel) => snapshot(t, parcel.id)));
    expect((await requestAs(t.app, runner, 'POST', `/api/parcels/${waiting.id}/pickup`)).json().error).toEqual(
      expected,
    );
    const assign = await requestAs(t.app, admin, 'POST', `/api/parcels/${waiting.id}/assign`, {
      runner: runner.account.userName,
    });
    expect(assign.json().error).toEqual({ code: 'runner_suspended', message: messages.assigneeSuspended('Panasz') });
    const take = await requestAs(t.app, runner, 'POST', `/api/relay-offers/${offer.json().id}/take`);
    expect(take.json().error).toEqual(expected);
    const relay = await requestAs(t.app, runner, 'POST', `/api/parcels/${relayed.id}/relay`, { token, place: nyugati });
    expect(relay.json().error).toEqual(expected);
    const ownOffer = await requestAs(t.app, runner, 'POST', `/api/parcels/${carried.id}/relay-offer`, offerBody());
    expect(ownOffer.json().error).toEqual(expected);
    expect(await Promise.all([waiting, relayed, carried].map((parcel) => snapshot(t, parcel.id)))).toEqual(snapshots);
    expect(
      (await t.store.db.selectFrom('relay_offers').select('taken_by').where('id', '=', offer.json().id).execute())[0],
    ).toEqual({ taken_by: null });

    // The back office sees what to reassign.
    const inTransit = await get(t, admin, `/api/runners/${runner.account.userName}/parcels-in-transit`);
    expect(inTransit.json().items.map((item: { id: string }) => item.id)).toEqual([carried.id]);
    const flags = await get(
      t,
      admin,
      `/api/runner-flags?userNames=${runner.account.userName},${holder.account.userName}`,
    );
    expect(flags.json().items).toEqual(
      expect.arrayContaining([
        { userName: runner.account.userName, awaitingApproval: false, suspended: true, openReports: 0 },
        { userName: holder.account.userName, awaitingApproval: false, suspended: false, openReports: 0 },
      ]),
    );

    // What they carry they may take back to its sender (or deliver): safer than leaving it with them.
    const back = await requestAs(t.app, runner, 'POST', `/api/parcels/${carried.id}/return`, {
      reason: 'Felfüggesztve',
    });
    expect(back.statusCode).toBe(200);

    // Lifted: they carry again.
    await requestAs(t.app, admin, 'POST', `/api/runners/${runner.account.userName}/unsuspend`);
    await pickUp(t.app, runner.cookie, waiting.id);
  });
});

describe('migration 0018', () => {
  it('approves every existing runner as of their registration, and nobody else', async () => {
    const t = await createTestApp({ RUNNER_APPROVAL: 'manual' });
    try {
      const runner = await signUp(t.app, { role: 'runner' });
      const user = await signUp(t.app);
      // Back to before 0018, then forward again, as an upgrade of an existing database would run it.
      const migration = runnerTrust(t.store.dialect);
      await migration.down?.(t.store.db);
      await migration.up(t.store.db);
      const rows = await t.store.db
        .selectFrom('accounts')
        .select(['user_name', 'created_at', 'approved_at', 'suspended_at'])
        .where('user_name', 'in', [runner.account.userName, user.account.userName])
        .execute();
      const byName = new Map(rows.map((row) => [row.user_name, row]));
      const runnerRow = byName.get(runner.account.userName);
      expect(runnerRow?.approved_at).toBe(runnerRow?.created_at);
      expect(runnerRow?.suspended_at).toBeNull();
      expect(byName.get(user.account.userName)?.approved_at).toBeNull();
      expect(await t.store.db.selectFrom('not_received_reports').selectAll().execute()).toEqual([]);
    } finally {
      await t.close();
    }
  });
});
