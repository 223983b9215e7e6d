import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type SignedIn, signInSuperadmin, signUp, type TestApp } from '../../test/harness.ts';
import { callOn, deliveredParcel } from '../../test/ratings.ts';

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
      .toBe(1);

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
    expect(data.mailSent).toEqual([expect.objectContaining({ template: 'password_reset' })]);
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
