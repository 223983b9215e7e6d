import { addressField } from '@csomag/domain/account';
import { messages } from '@csomag/domain/messages';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type SignedIn, signInSuperadmin, signUp, type TestApp } from '../../test/harness.ts';
import { sendParcel } from '../../test/parcels.ts';
import { schemaMessage } from '../../test/schema-message.ts';

let t: TestApp;
let admin: SignedIn;
beforeAll(async () => {
  t = await createTestApp();
  admin = await signInSuperadmin(t.app);
});
afterAll(() => t.close());

const getProfile = (userName: string, cookie?: string) =>
  t.app.inject({ method: 'GET', url: `/api/users/${userName}`, ...(cookie ? { headers: { cookie } } : {}) });
const patchProfile = (userName: string, payload: Record<string, unknown>, cookie?: string) =>
  t.app.inject({ method: 'PATCH', url: `/api/users/${userName}`, payload, ...(cookie ? { headers: { cookie } } : {}) });
const signIn = (email: string, password: string) =>
  t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password } });
const me = (cookie: string) => t.app.inject({ method: 'GET', url: '/api/auth/me', headers: { cookie } });
const storedAccount = (userName: string) =>
  t.store.db.selectFrom('accounts').selectAll().where('user_name', '=', userName).executeTakeFirstOrThrow();

let addressCounter = 0;
const uniqueAddress = () => `4025 Debrecen, Piac utca ${Date.now() % 100000}/${++addressCounter}`;

/** No response may ever carry a password or its hash. */
function expectNoSecrets(body: string) {
  expect(body).not.toMatch(/\$argon2/);
  expect(body.toLowerCase()).not.toContain('password');
}

describe('GET /api/users/:userName', () => {
  it('shows a user their own profile, in any case of the user name, without secrets', async () => {
    const user = await signUp(t.app);
    const response = await getProfile(user.account.userName.toUpperCase(), user.cookie);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ account: user.account });
    expectNoSecrets(response.body);
  });

  it('shows a runner their own profile and the superadmin anyone’s', async () => {
    const runner = await signUp(t.app, { role: 'runner' });
    expect((await getProfile(runner.account.userName, runner.cookie)).json().account).toMatchObject({
      role: 'runner',
      status: 'inactive',
    });
    const asAdmin = await getProfile(runner.account.userName, admin.cookie);
    expect(asAdmin.statusCode).toBe(200);
    expect(asAdmin.json().account.email).toBe(runner.account.email);
  });

  it('refuses another user or runner (403, even for names that do not exist) and anonymous callers (401)', async () => {
    const user = await signUp(t.app);
    const other = await signUp(t.app);
    const runner = await signUp(t.app, { role: 'runner' });
    const refused = await getProfile(user.account.userName, other.cookie);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toEqual({ code: 'forbidden', message: messages.forbidden });
    expect(refused.body).not.toContain(user.account.email);
    for (const response of [
      await getProfile(user.account.userName, runner.cookie),
      await getProfile('nincs_ilyen', other.cookie),
    ]) {
      expect(response.statusCode).toBe(403);
      expect(response.json().error.code).toBe('forbidden');
    }
    const anonymous = await getProfile(user.account.userName);
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json().error.code).toBe('sign_in_required');
  });

  it('answers the superadmin 404 for an unknown user and 400 for a malformed name', async () => {
    const unknown = await getProfile('nincs_ilyen_senki', admin.cookie);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error).toEqual({ code: 'account_not_found', message: messages.accountNotFound });
    const malformed = await getProfile('ék', admin.cookie);
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().error.code).toBe('invalid_body');
    expect(Object.keys(malformed.json().error.fields)).toEqual(['userName']);
  });
});

describe('PATCH /api/users/:userName', () => {
  it('saves name, phone, address and email, and never the role or user name', async () => {
    const user = await signUp(t.app);
    const email = `uj.${Date.now()}@example.hu`;
    const response = await patchProfile(
      user.account.userName,
      {
        name: 'Új Név',
        phoneNumber: '+36 70 999 8888',
        address: '6720 Szeged, Kárász utca 9',
        email: email.toUpperCase(),
        role: 'superadmin',
        userName: 'valaki_mas',
      },
      user.cookie,
    );
    expect(response.statusCode).toBe(200);
    // The new email waits for its link (issue 29: email-verification.test.ts); the old one stays until then.
    expect(response.json().account).toEqual({
      userName: user.account.userName,
      name: 'Új Név',
      email: user.account.email,
      emailVerified: false,
      pendingEmail: email,
      phoneNumber: '+36 70 999 8888',
      address: '6720 Szeged, Kárász utca 9',
      role: 'user',
      language: null,
    });
    expectNoSecrets(response.body);
    const row = await storedAccount(user.account.userName);
    expect(row).toMatchObject({ role: 'user', address_key: 'szeged||karasz|utca|9' });
  });

  it('keeps the password when it is sent empty, changes it otherwise and signs out other sessions', async () => {
    const user = await signUp(t.app);
    const otherDevice = await signIn(user.account.email, user.password);
    const otherCookie = `csk_session=${otherDevice.cookies.find((c) => c.name === 'csk_session')?.value}`;

    expect((await patchProfile(user.account.userName, { password: '' }, user.cookie)).statusCode).toBe(200);
    expect((await signIn(user.account.email, user.password)).statusCode).toBe(200);
    expect((await me(otherCookie)).json().account).not.toBeNull();

    expect((await patchProfile(user.account.userName, { password: 'uj-titkos-jelszo' }, user.cookie)).statusCode).toBe(
      200,
    );
    expect((await signIn(user.account.email, user.password)).statusCode).toBe(401);
    expect((await signIn(user.account.email, 'uj-titkos-jelszo')).statusCode).toBe(200);
    expect((await me(user.cookie)).json().account.userName).toBe(user.account.userName);
    expect((await me(otherCookie)).json().account).toBeNull();
  });

  it('moves incoming parcels with the address', async () => {
    const oldAddress = uniqueAddress();
    const newAddress = uniqueAddress();
    const user = await signUp(t.app, { address: oldAddress });
    const sender = await signUp(t.app);
    const toOld = await sendParcel(t.app, sender.cookie, { receiverAddress: oldAddress });
    const toNew = await sendParcel(t.app, sender.cookie, { receiverAddress: newAddress });
    const incoming = async () =>
      (await t.app.inject({ method: 'GET', url: '/api/me/incoming-parcels', headers: { cookie: user.cookie } }))
        .json()
        .items.map((p: { id: string }) => p.id);
    expect(await incoming()).toEqual([toOld.id]);
    expect((await patchProfile(user.account.userName, { address: newAddress }, user.cookie)).statusCode).toBe(200);
    expect(await incoming()).toEqual([toNew.id]);
  });

  it('refuses an email someone else has with 409 naming the field, and changes nothing', async () => {
    const user = await signUp(t.app);
    const other = await signUp(t.app);
    const response = await patchProfile(
      user.account.userName,
      { name: 'Nem mentődik', email: other.account.email.toUpperCase() },
      user.cookie,
    );
    expect(response.statusCode).toBe(409);
    expect(response.json().error).toEqual({
      code: 'email_taken',
      message: messages.emailTaken,
      fields: { email: messages.emailTaken },
    });
    expect(await storedAccount(user.account.userName)).toMatchObject({
      name: user.account.name,
      email: user.account.email,
    });
  });

  it('lets a runner edit their own profile but not their email (400 naming it); the same email is fine', async () => {
    const runner = await signUp(t.app, { role: 'runner' });
    const same = await patchProfile(
      runner.account.userName,
      { name: 'Futó Ferenc', email: runner.account.email },
      runner.cookie,
    );
    expect(same.statusCode).toBe(200);
    expect(same.json().account).toMatchObject({ name: 'Futó Ferenc', role: 'runner', status: 'inactive' });

    const changed = await patchProfile(
      runner.account.userName,
      { name: 'Más Név', email: 'masik@example.hu' },
      runner.cookie,
    );
    expect(changed.statusCode).toBe(400);
    expect(changed.json().error).toEqual({
      code: 'email_read_only',
      message: messages.emailReadOnlyForRunner,
      fields: { email: messages.emailReadOnlyForRunner },
    });
    expect(await storedAccount(runner.account.userName)).toMatchObject({
      name: 'Futó Ferenc',
      email: runner.account.email,
    });
  });

  it('lets the superadmin edit a user without signing them out or changing the role', async () => {
    const user = await signUp(t.app);
    const response = await patchProfile(user.account.userName, { name: 'Admin Írta', role: 'runner' }, admin.cookie);
    expect(response.statusCode).toBe(200);
    expect(response.json().account).toMatchObject({ name: 'Admin Írta', role: 'user' });
    expect((await me(user.cookie)).json().account.name).toBe('Admin Írta');
  });

  it('refuses another user or runner (403) and anonymous callers (401), changing nothing', async () => {
    const user = await signUp(t.app);
    const other = await signUp(t.app);
    const runner = await signUp(t.app, { role: 'runner' });
    for (const cookie of [other.cookie, runner.cookie]) {
      const response = await patchProfile(user.account.userName, { name: 'Betörő', password: 'betoro-jelszo' }, cookie);
      expect(response.statusCode).toBe(403);
      expect(response.json().error).toEqual({ code: 'forbidden', message: messages.forbidden });
    }
    const anonymous = await patchProfile(user.account.userName, { name: 'Betörő' });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json().error.code).toBe('sign_in_required');
    expect((await storedAccount(user.account.userName)).name).toBe(user.account.name);
    expect((await signIn(user.account.email, user.password)).statusCode).toBe(200);
  });

  it.each([
    ['name', '', messages.required],
    ['phoneNumber', '  ', messages.required],
    ['address', 'x'.repeat(201), schemaMessage(addressField, 'x'.repeat(201))],
    ['email', 'nem-email', messages.invalidEmail],
    ['password', '12345', messages.passwordMin],
  ])('refuses a bad %s (%j) with 400 naming the field, changing nothing', async (field, value, message) => {
    const user = await signUp(t.app);
    const response = await patchProfile(user.account.userName, { name: 'Nem mentődik', [field]: value }, user.cookie);
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toMatchObject({ code: 'invalid_body', fields: { [field]: message } });
    expect((await storedAccount(user.account.userName)).name).toBe(user.account.name);
  });
});
