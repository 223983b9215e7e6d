import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildRegistration, createTestApp, sessionCookie, type TestApp } from '../test/harness.ts';
import { redactUrl } from './request-log.ts';

let t: TestApp;
let logged = '';
beforeAll(async () => {
  const stream = new PassThrough();
  stream.on('data', (chunk) => {
    logged += chunk.toString();
  });
  t = await createTestApp({ LOG_LEVEL: 'debug' }, { logStream: stream });
});
afterAll(() => t.close());

describe('logs', () => {
  it('never contain a password, its hash, a session token or a handover token', async () => {
    const body = buildRegistration({ password: 'nagyon-titkos-jelszo-42' });
    const registered = await t.app.inject({ method: 'POST', url: '/api/auth/register', payload: body });
    expect(registered.statusCode).toBe(201);
    const token = sessionCookie(registered).split('=')[1] ?? '';
    await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: { cookie: sessionCookie(registered) } });
    await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: body.email, password: 'rossz-jelszo-99' },
    });
    const handoverToken = `${Date.now().toString(36)}.${'A'.repeat(43)}`;
    await t.app.inject({ method: 'GET', url: `/api/handover/ABCDEFGHJK?token=${handoverToken}` });
    const hash = await t.store.db
      .selectFrom('accounts')
      .select('password_hash')
      .where('email', '=', String(body.email))
      .executeTakeFirstOrThrow();

    expect(logged).toContain('/api/auth/register');
    expect(logged).toContain('/api/handover/ABCDEFGHJK?token=[redacted]');
    for (const secret of ['nagyon-titkos-jelszo-42', 'rossz-jelszo-99', hash.password_hash, token, handoverToken]) {
      expect(logged).not.toContain(secret);
    }
  });

  it('redacts tokens anywhere in a query string', () => {
    expect(redactUrl('/Csomagatvetel?futar=a&token=abc.def&csomagid=X')).toBe(
      '/Csomagatvetel?futar=a&token=[redacted]&csomagid=X',
    );
    expect(redactUrl('/api/tracking/X')).toBe('/api/tracking/X');
  });
});
