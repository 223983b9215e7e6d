import { registerBodySchema } from '@csomag/domain/account';
import { messages } from '@csomag/domain/messages';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildRegistration,
  createTestApp,
  sessionCookie,
  signInSuperadmin,
  signUp,
  type TestApp,
} from '../../test/harness.ts';
import { schemaMessage } from '../../test/schema-message.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const register = (payload: Record<string, unknown>, remoteAddress = '10.0.0.1') =>
  t.app.inject({ method: 'POST', url: '/api/auth/register', payload, remoteAddress });
const login = (payload: Record<string, unknown>, remoteAddress = '10.0.0.1') =>
  t.app.inject({ method: 'POST', url: '/api/auth/login', payload, remoteAddress });
const me = (cookie?: string) =>
  t.app.inject({ method: 'GET', url: '/api/auth/me', ...(cookie ? { headers: { cookie } } : {}) });

const countAccounts = async (email: string) =>
  (await t.store.db.selectFrom('accounts').select('id').where('email', '=', email.toLowerCase()).execute()).length;

/** No response may ever carry a password or its hash. */
function expectNoSecrets(body: string, password: string) {
  expect(body).not.toContain(password);
  expect(body).not.toMatch(/\$argon2/);
  expect(body.toLowerCase()).not.toContain('password');
}

describe('registration', () => {
  it('registers a user, signs them in and never returns the password', async () => {
    const body = buildRegistration({ email: 'Vegyes.Betu@Example.hu' });
    const response = await register(body);
    expect(response.statusCode).toBe(201);
    expect(response.json().account).toEqual({
      userName: body.userName,
      name: body.name,
      email: 'vegyes.betu@example.hu',
      emailVerified: false,
      pendingEmail: null,
      phoneNumber: body.phoneNumber,
      address: body.address,
      role: 'user',
      language: null,
    });
    expectNoSecrets(response.body, String(body.password));
    const session = await me(sessionCookie(response));
    expect(session.json().account.userName).toBe(body.userName);
  });

  it('registers a runner as inactive', async () => {
    const response = await register(buildRegistration({ role: 'runner' }));
    expect(response.statusCode).toBe(201);
    expect(response.json().account).toMatchObject({ role: 'runner', status: 'inactive' });
  });

  it('sets the session cookie httpOnly and SameSite', async () => {
    const response = await register(buildRegistration());
    const cookie = response.cookies.find((c) => c.name === 'csk_session');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    expect(cookie?.value.length).toBeGreaterThanOrEqual(40);
  });

  it('stores only the hash of the session token and an argon2id password hash', async () => {
    const body = buildRegistration();
    const response = await register(body);
    const token = response.cookies.find((c) => c.name === 'csk_session')?.value ?? '';
    const sessions = await t.store.db.selectFrom('sessions').select('token_hash').execute();
    expect(sessions.some((s) => s.token_hash === token)).toBe(false);
    const row = await t.store.db
      .selectFrom('accounts')
      .select('password_hash')
      .where('email', '=', String(body.email))
      .executeTakeFirstOrThrow();
    expect(row.password_hash).toMatch(/^\$argon2id\$/);
  });

  it('refuses a taken user name (in any case) with 409 naming the field', async () => {
    const first = buildRegistration();
    await register(first);
    const again = buildRegistration({ userName: String(first.userName).toUpperCase() });
    const response = await register(again);
    expect(response.statusCode).toBe(409);
    expect(response.json().error).toMatchObject({
      code: 'user_name_taken',
      message: messages.userNameTaken,
      fields: { userName: messages.userNameTaken },
    });
    expect(await countAccounts(String(again.email))).toBe(0);
  });

  it('refuses a taken email (in any case) with 409 naming the field', async () => {
    const first = buildRegistration();
    await register(first);
    const response = await register(buildRegistration({ email: String(first.email).toUpperCase() }));
    expect(response.statusCode).toBe(409);
    expect(response.json().error.code).toBe('email_taken');
    expect(response.json().error.fields).toEqual({ email: messages.emailTaken });
  });

  it.each([
    ['name', '', messages.required],
    ['userName', 'ékezetes', messages.invalidUserName],
    ['userName', 'ab', messages.invalidUserName],
    ['email', 'nem-email', messages.invalidEmail],
    ['password', '12345', messages.passwordMin],
    ['phoneNumber', '   ', messages.required],
    ['address', undefined, messages.required],
    ['role', 'superadmin', schemaMessage(registerBodySchema.shape.role, 'superadmin')],
  ])('refuses a bad %s (%j) with 400 naming the field, and saves nothing', async (field, value, message) => {
    const body = buildRegistration({ [field]: value });
    const response = await register(body);
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toMatchObject({ code: 'invalid_body', fields: { [field]: message } });
    if (field !== 'email') expect(await countAccounts(String(body.email))).toBe(0);
  });

  it('refuses a body that is not JSON with a Hungarian 400', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      headers: { 'content-type': 'application/json' },
      payload: '{"name":',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toMatchObject({ code: 'invalid_body', message: messages.invalidBody });
  });
});

describe('sign-in and sign-out', () => {
  it('signs in with the right password, case-insensitively on the email', async () => {
    const { account, password } = await signUp(t.app);
    const response = await login({ email: account.email.toUpperCase(), password });
    expect(response.statusCode).toBe(200);
    expect(response.json().account.userName).toBe(account.userName);
    expectNoSecrets(response.body, password);
    expect((await me(sessionCookie(response))).json().account.email).toBe(account.email);
  });

  it('refuses a wrong password and an unknown email with the same 401', async () => {
    const { account } = await signUp(t.app);
    const wrong = await login({ email: account.email, password: 'rossz-jelszo' }, '10.0.1.1');
    const unknown = await login({ email: 'senki@example.hu', password: 'rossz-jelszo' }, '10.0.1.1');
    for (const response of [wrong, unknown]) {
      expect(response.statusCode).toBe(401);
      expect(response.json().error).toEqual({ code: 'wrong_credentials', message: messages.wrongCredentials });
      expect(response.cookies).toHaveLength(0);
    }
  });

  it('applies the login minimums on the server too', async () => {
    const response = await login({ email: 'ab', password: '123' });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe('invalid_body');
    expect(response.json().error.fields).toEqual({
      email: messages.emailTooShort,
      password: messages.passwordTooShort,
    });
  });

  it('limits failed sign-ins per email and IP with a Hungarian 429, other IPs unaffected', async () => {
    const { account, password } = await signUp(t.app);
    for (let i = 0; i < 5; i++) {
      expect((await login({ email: account.email, password: 'rossz-jelszo' }, '10.0.2.1')).statusCode).toBe(401);
    }
    const limited = await login({ email: account.email, password }, '10.0.2.1');
    expect(limited.statusCode).toBe(429);
    expect(limited.json().error).toEqual({ code: 'too_many_login_attempts', message: messages.tooManyLoginAttempts });
    expect((await login({ email: account.email, password }, '10.0.2.2')).statusCode).toBe(200);
  });

  it('signs out: the cookie is cleared and the session no longer works', async () => {
    const { cookie } = await signUp(t.app);
    expect((await me(cookie)).json().account).not.toBeNull();
    const response = await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: { cookie } });
    expect(response.statusCode).toBe(204);
    expect(response.cookies.find((c) => c.name === 'csk_session')?.value).toBe('');
    expect((await me(cookie)).json()).toEqual({ account: null });
  });

  it('answers me with null when signed out or with a forged cookie', async () => {
    expect((await me()).json()).toEqual({ account: null });
    expect((await me('csk_session=forged-token')).json()).toEqual({ account: null });
  });

  it('signs in the configured superadmin', async () => {
    const admin = await signInSuperadmin(t.app);
    expect(admin.account.role).toBe('superadmin');
  });
});

describe('registration rate limit', () => {
  it('allows 30 registrations per IP per hour, then answers 429 in Hungarian', async () => {
    const ip = '10.9.9.9';
    for (let i = 0; i < 30; i++) {
      const response = await register(buildRegistration({ userName: 'ab' }), ip);
      expect(response.statusCode).toBe(400);
    }
    const limited = await register(buildRegistration(), ip);
    expect(limited.statusCode).toBe(429);
    expect(limited.json().error).toEqual({ code: 'rate_limited', message: messages.tooManyRequests });
  });
});
