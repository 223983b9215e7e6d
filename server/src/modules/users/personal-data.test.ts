import { messages } from '@csomag/domain/messages';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type SignedIn, signInSuperadmin, signUp, type TestApp } from '../../test/harness.ts';
import { sendParcel } from '../../test/parcels.ts';
import { callOn, deliveredParcel } from '../../test/ratings.ts';
import { verifyAllChains } from '../relay/chain.ts';

/** 'Adataim letöltése' (issue 29): everything kept about a person, to that person only. */
let t: TestApp;
let admin: SignedIn;
beforeAll(async () => {
  t = await createTestApp();
  admin = await signInSuperadmin(t.app);
});
afterAll(() => t.close());

const exportOf = (who: SignedIn | undefined, userName: string) =>
  callOn(t.app, 'GET', `/api/users/${userName}/export`, who);

describe('GET /api/users/:userName/export', () => {
  it('holds the account, the parcels both ways, ratings both ways, devices and mail, and no secret', async () => {
    const sender = await signUp(t.app);
    const runner = await signUp(t.app, { role: 'runner' });
    const { parcel, receiver } = await deliveredParcel(t.app, admin, sender, runner);
    expect(
      (await callOn(t.app, 'PUT', `/api/parcels/${parcel.id}/rating`, sender, { stars: 5, comment: 'Gyors' }))
        .statusCode,
    ).toBe(200);
    expect((await callOn(t.app, 'PUT', `/api/parcels/${parcel.id}/rating`, runner, { stars: 4 })).statusCode).toBe(200);
    await callOn(t.app, 'POST', '/api/auth/password-reset', undefined, { email: sender.account.email });
    await expect
      .poll(
        async () =>
          (
            await t.store.db
              .selectFrom('mail_outbox')
              .select('id')
              .where('to_address', '=', sender.account.email)
              .execute()
          ).length,
      )
      // The verification link mailed at registration, and the reset link.
      .toBe(2);

    const answer = await exportOf(sender, sender.account.userName);
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.headers['content-disposition']).toBe(
      `attachment; filename="csomagkuldo-${sender.account.userName}.json"`,
    );
    expect(answer.headers['cache-control']).toBe('private, no-store');
    const data = answer.json();
    expect(data.account).toMatchObject({
      user_name: sender.account.userName,
      email: sender.account.email,
      role: 'user',
    });
    expect(data.parcelsSent.map((row: { id: string }) => row.id)).toContain(parcel.id);
    expect(data.parcelEvents.map((row: { kind: string }) => row.kind)).toContain('created');
    expect(data.ratingsGiven).toEqual([expect.objectContaining({ stars: 5, comment: 'Gyors' })]);
    expect(data.ratingsReceived).toEqual([expect.objectContaining({ stars: 4 })]);
    expect(data.mailSent).toEqual([
      expect.objectContaining({ template: 'email_verification' }),
      expect.objectContaining({ template: 'password_reset' }),
    ]);
    // Nothing that opens anything: no password hash, no session, no reset token.
    const stored = await t.store.db
      .selectFrom('accounts')
      .select('password_hash')
      .where('user_name', '=', sender.account.userName)
      .executeTakeFirstOrThrow();
    expect(answer.body).not.toContain(stored.password_hash);
    expect(answer.body).not.toMatch(/password_hash|token_hash|p256dh/);

    const received = (await exportOf(receiver, receiver.account.userName)).json();
    expect(received.parcelsReceived.map((row: { id: string }) => row.id)).toEqual([parcel.id]);
    const carried = (await exportOf(runner, runner.account.userName)).json();
    expect(carried.parcelsCarried.map((row: { id: string }) => row.id)).toEqual([parcel.id]);
  });

  it('is the person’s own: refused to anyone else, the back office too', async () => {
    const person = await signUp(t.app);
    const other = await signUp(t.app);
    for (const who of [other, admin]) {
      const refused = await exportOf(who, person.account.userName);
      expect(refused.statusCode).toBe(403);
      expect(refused.json().error.code).toBe('forbidden');
    }
    expect((await exportOf(other, 'nincs_ilyen_felhasznalo')).statusCode).toBe(403);
    expect((await exportOf(undefined, person.account.userName)).statusCode).toBe(401);
  });
});

describe('DELETE /api/users/:userName', () => {
  const erase = (who: SignedIn | undefined, userName: string, password: string) =>
    callOn(t.app, 'DELETE', `/api/users/${userName}`, who, { password });

  it('erases a person who asks with their password: they cannot sign in, they are named nowhere, the chains still verify', async () => {
    const sender = await signUp(t.app, { name: 'Törlendő Tamás', phoneNumber: '+36 70 987 6543' });
    const runner = await signUp(t.app, { role: 'runner' });
    const { parcel } = await deliveredParcel(t.app, admin, sender, runner);
    await callOn(t.app, 'PUT', `/api/parcels/${parcel.id}/rating`, sender, { stars: 5, comment: 'Nagyon gyors volt' });
    const { account, password } = sender;

    const wrong = await erase(sender, account.userName, 'nem-ez-a-jelszo');
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().error.fields.password).toBe(messages.wrongPassword);

    const erased = await erase(sender, account.userName, password);
    expect(erased.statusCode, erased.body).toBe(204);
    expect(erased.headers['set-cookie']).toContain('Max-Age=0');
    expect(
      (await callOn(t.app, 'POST', '/api/auth/login', undefined, { email: account.email, password })).statusCode,
    ).toBe(401);
    expect((await callOn(t.app, 'GET', '/api/auth/me', sender)).json().account).toBeNull();

    // Their name, email and phone are nowhere in the database.
    for (const table of ['accounts', 'parcels', 'parcel_events', 'ratings', 'mail_outbox'] as const) {
      const rows = JSON.stringify(await t.store.db.selectFrom(table).selectAll().execute());
      for (const personal of [account.name, account.email, account.userName, account.phoneNumber]) {
        expect(rows, `${table} holds ${personal}`).not.toContain(personal);
      }
    }
    const verdicts = [];
    for await (const verdict of verifyAllChains(t.store.db)) verdicts.push(verdict);
    expect(verdicts.every((verdict) => verdict.ok)).toBe(true);
    expect(verdicts.map((verdict) => verdict.parcelId)).toContain(parcel.id);
    // The parcel's public tracking still tells its journey, by the new name.
    const tracking = (await callOn(t.app, 'GET', `/api/tracking/${parcel.id}`)).json();
    expect(tracking.senderUser).toMatch(/^torolt_\d+$/);
  });

  it('refuses while a parcel is on its way, someone else, and the back office, changing nothing', async () => {
    const sender = await signUp(t.app);
    const parcel = await sendParcel(t.app, sender.cookie);
    const password = sender.password;
    const blocked = await erase(sender, sender.account.userName, password);
    expect(blocked.statusCode).toBe(409);
    expect(blocked.json().error).toEqual({ code: 'account_has_parcels_in_progress', message: messages.eraseBlocked });
    const other = await signUp(t.app);
    expect((await erase(other, sender.account.userName, password)).statusCode).toBe(403);
    expect((await erase(admin, sender.account.userName, password)).statusCode).toBe(403);
    expect((await erase(undefined, sender.account.userName, password)).statusCode).toBe(401);
    expect((await callOn(t.app, 'GET', `/api/tracking/${parcel.id}`)).json().senderUser).toBe(sender.account.userName);
    expect(
      (await callOn(t.app, 'POST', '/api/auth/login', undefined, { email: sender.account.email, password })).statusCode,
    ).toBe(200);
  });
});
