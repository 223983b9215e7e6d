import { messages } from '@csomag/domain/messages';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pickUp } from '../../test/delivery.ts';
import { createTestApp, requestAs, type SignedIn, signInSuperadmin, signUp, type TestApp } from '../../test/harness.ts';
import { sendParcel } from '../../test/parcels.ts';

/*
 * What is true of a runner (issue 27), instead of SPEC's status field, which said 'inaktív' of every
 * runner: approved, awaiting approval or suspended (with the reason), and whether they carry parcels
 * now — told to that runner and to the back office, no one else.
 */

let t: TestApp;
let admin: SignedIn;
let sender: SignedIn;
beforeAll(async () => {
  t = await createTestApp({ RUNNER_APPROVAL: 'manual' });
  admin = await signInSuperadmin(t.app);
  sender = await signUp(t.app);
});
afterAll(() => t.close());

const get = (who: SignedIn, url: string) => t.app.inject({ method: 'GET', url, headers: { cookie: who.cookie } });
const me = async (who: SignedIn) => (await get(who, '/api/auth/me')).json().account;
const listed = async (userName: string) =>
  (await get(admin, `/api/runners?q=${encodeURIComponent(userName)}`))
    .json()
    .items.find((item: { userName: string }) => item.userName === userName);

describe("a runner's standing", () => {
  it('follows approval and suspension, with the reason, on their own session and in the back office', async () => {
    const runner = await signUp(t.app, { role: 'runner' });
    const { userName } = runner.account;
    expect(runner.account.standing).toEqual({ state: 'awaiting_approval', suspendedReason: null });
    expect((await listed(userName)).standing).toEqual({ state: 'awaiting_approval', suspendedReason: null });

    expect((await requestAs(t.app, admin, 'POST', `/api/runners/${userName}/approve`)).statusCode).toBe(200);
    expect((await me(runner)).standing).toEqual({ state: 'approved', suspendedReason: null });
    expect((await listed(userName)).standing).toEqual({ state: 'approved', suspendedReason: null });

    const reason = 'Három panasz egy hét alatt.';
    const suspended = await requestAs(t.app, admin, 'POST', `/api/runners/${userName}/suspend`, { reason });
    expect(suspended.statusCode).toBe(200);
    expect(suspended.json().account.standing).toEqual({ state: 'suspended', suspendedReason: reason });
    expect((await me(runner)).standing).toEqual({ state: 'suspended', suspendedReason: reason });
    expect((await get(runner, `/api/users/${userName}`)).json().account.standing).toEqual({
      state: 'suspended',
      suspendedReason: reason,
    });
    expect((await listed(userName)).standing).toEqual({ state: 'suspended', suspendedReason: reason });
    // The waiting pool says the same, in the catalogue's words.
    const pool = await get(runner, '/api/parcels/waiting');
    expect(pool.json().error).toEqual({ code: 'runner_suspended', message: messages.runnerSuspended(reason) });

    expect((await requestAs(t.app, admin, 'POST', `/api/runners/${userName}/unsuspend`)).statusCode).toBe(200);
    expect((await me(runner)).standing).toEqual({ state: 'approved', suspendedReason: null });
  });

  it('is not told to anyone else: users have none, other accounts cannot read a runner', async () => {
    const runner = await signUp(t.app, { role: 'runner' });
    const other = await signUp(t.app, { role: 'runner' });
    expect(sender.account.standing).toBeUndefined();
    expect((await me(sender)).standing).toBeUndefined();
    for (const who of [sender, other]) {
      for (const url of [`/api/users/${runner.account.userName}`, `/api/runners/${runner.account.userName}`]) {
        const refused = await get(who, url);
        expect(refused.statusCode).toBe(403);
        expect(refused.body).not.toContain('standing');
      }
      expect((await get(who, '/api/runners')).statusCode).toBe(403);
    }
  });

  it('the back office list says how many parcels each runner carries now', async () => {
    const runner = await signUp(t.app, { role: 'runner' });
    const { userName } = runner.account;
    await requestAs(t.app, admin, 'POST', `/api/runners/${userName}/approve`);
    expect((await listed(userName)).parcelsInTransit).toBe(0);
    const first = await sendParcel(t.app, sender.cookie);
    const second = await sendParcel(t.app, sender.cookie);
    await pickUp(t.app, runner.cookie, first.id);
    await pickUp(t.app, runner.cookie, second.id);
    expect((await listed(userName)).parcelsInTransit).toBe(2);
    const delivered = await requestAs(t.app, admin, 'POST', `/api/parcels/${first.id}/deliver`, {});
    expect(delivered.statusCode).toBe(200);
    expect((await listed(userName)).parcelsInTransit).toBe(1);
  });
});
