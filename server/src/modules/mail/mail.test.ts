import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { messages } from '@csomag/domain/messages';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildRegistration,
  createTestApp,
  signInSuperadmin,
  signUp,
  type TestApp,
  testStore,
} from '../../test/harness.ts';
import { TestSmtpServer } from '../../test/smtp.ts';

/**
 * Email (issue 29): the outbox sends over a real SMTP server (smtp-server in this process), keeps
 * what a server that is down could not take, stops mail to an address that bounced; without SMTP
 * it writes .eml files. The forgotten password's link goes through it.
 */
let smtp: TestSmtpServer;
let t: TestApp;
beforeAll(async () => {
  smtp = await new TestSmtpServer().listen(0);
  t = await createTestApp({ SMTP_URL: smtp.url, PUBLIC_URL: 'https://csomag.example.hu' });
});
afterAll(async () => {
  await t.close();
  await smtp.stop();
});

const post = (url: string, payload: object, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url, payload, headers });
const linkIn = (text: string) => /https:\/\/csomag\.example\.hu\/UjJelszo#token=([A-Za-z0-9_-]{43})/.exec(text);
// Every account also gets its address's verification link at registration (email-verification.test.ts).
const outbox = (to: string) =>
  t.store.db
    .selectFrom('mail_outbox')
    .selectAll()
    .where('to_address', '=', to)
    .where('template', '=', 'password_reset')
    .orderBy('id')
    .execute();
const isReset = (mail: { subject?: string | undefined }) => mail.subject === messages.mailPasswordResetSubject;
const resetsTo = (address: string) => smtp.to(address).filter(isReset);

describe('a forgotten password', () => {
  it('gets a link by email, sets a new password with it once, and ends every session', async () => {
    const person = await signUp(t.app);
    const email = person.account.email;
    const asked = await post('/api/auth/password-reset', { email: email.toUpperCase() });
    expect(asked.statusCode, asked.body).toBe(202);
    await expect.poll(() => resetsTo(email).length).toBe(1);
    const [message] = resetsTo(email);
    expect(message?.subject).toBe(messages.mailPasswordResetSubject);
    expect(message?.from?.text).toContain('noreply@csomag.example.hu');
    expect(message?.text).toContain(messages.mailGreeting(person.account.name));
    expect(message?.html).toContain('<a href="https://csomag.example.hu/UjJelszo#token=');
    // Essential mail: no unsubscribe header; no password or hash in it.
    expect(message?.headers.has('list-unsubscribe')).toBe(false);
    const token = linkIn(message?.text ?? '')?.[1] ?? '';
    expect(token).toHaveLength(43);
    const stored = await t.store.db.selectFrom('password_resets').selectAll().execute();
    expect(stored.map((row) => row.token_hash)).not.toContain(token);

    const set = await post('/api/auth/password-reset/confirm', { token, password: 'uj-jelszo-2026' });
    expect(set.statusCode, set.body).toBe(204);
    // Every session ends: the old cookie is nobody's now.
    const me = await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: { cookie: person.cookie } });
    expect(me.json().account).toBeNull();
    const signIn = await post('/api/auth/login', { email, password: 'uj-jelszo-2026' });
    expect(signIn.statusCode).toBe(200);
    const again = await post('/api/auth/password-reset/confirm', { token, password: 'masik-jelszo-2026' });
    expect(again.statusCode).toBe(422);
    expect(again.json().error).toMatchObject({ code: 'reset_token_invalid', message: messages.resetTokenInvalid });
    expect((await post('/api/auth/login', { email, password: 'masik-jelszo-2026' })).statusCode).toBe(401);
  });

  it('answers an unknown address as a known one, and sends nothing', async () => {
    const before = smtp.received.filter(isReset).length;
    const unknown = await post('/api/auth/password-reset', { email: 'senki-nincs@pelda.hu' });
    expect(unknown.statusCode).toBe(202);
    expect(unknown.json()).toEqual({});
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await outbox('senki-nincs@pelda.hu')).toEqual([]);
    await t.app.mail.sendDue();
    expect(smtp.received.filter(isReset).length).toBe(before);
  });

  it('refuses a link past its hour, a tampered one and a weak password, changing nothing', async () => {
    const person = await signUp(t.app);
    await post('/api/auth/password-reset', { email: person.account.email });
    await expect.poll(() => resetsTo(person.account.email).length).toBe(1);
    const token = linkIn(resetsTo(person.account.email)[0]?.text ?? '')?.[1] ?? '';
    const tampered = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
    expect(
      (await post('/api/auth/password-reset/confirm', { token: tampered, password: 'uj-jelszo-2026' })).json().error
        .code,
    ).toBe('reset_token_invalid');
    const malformed = await post('/api/auth/password-reset/confirm', { token: 'x', password: 'uj-jelszo-2026' });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().error.fields.token).toBe(messages.resetTokenInvalid);
    const weak = await post('/api/auth/password-reset/confirm', { token, password: '1' });
    expect(weak.statusCode).toBe(400);
    await t.store.db
      .updateTable('password_resets')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .execute();
    expect((await post('/api/auth/password-reset/confirm', { token, password: 'uj-jelszo-2026' })).statusCode).toBe(
      422,
    );
    // The old password still opens the account.
    expect(
      (await post('/api/auth/login', { email: person.account.email, password: buildRegistration().password }))
        .statusCode,
    ).toBe(200);
  });

  it('refuses a malformed address in Hungarian, and more than three links an hour for one address', async () => {
    const bad = await post('/api/auth/password-reset', { email: 'nem-email' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.fields.email).toBe(messages.invalidEmail);
    const person = await signUp(t.app);
    const address = { 'x-forwarded-for': '10.9.9.9' };
    for (let i = 0; i < 3; i++)
      expect((await post('/api/auth/password-reset', { email: person.account.email }, address)).statusCode).toBe(202);
    const fourth = await post('/api/auth/password-reset', { email: person.account.email }, address);
    expect(fourth.statusCode).toBe(429);
    expect(fourth.json().error).toEqual({ code: 'too_many_reset_requests', message: messages.resetTooMany });
    await expect.poll(async () => (await outbox(person.account.email)).length).toBe(3);
  });
});

describe('the outbox', () => {
  it('keeps what a mail server that is down could not take, and sends it once when it is back', async () => {
    const person = await signUp(t.app);
    await smtp.stop();
    try {
      expect((await post('/api/auth/password-reset', { email: person.account.email })).statusCode).toBe(202);
      await expect.poll(async () => (await outbox(person.account.email))[0]?.attempts).toBe(1);
      const [kept] = await outbox(person.account.email);
      expect(kept).toMatchObject({ sent_at: null, failed_at: null, claimed_until_ms: null });
      expect(kept?.due_ms).toBeGreaterThan(Date.now());
    } finally {
      await smtp.listen();
    }
    // Not before its time; then exactly once, however often the worker runs.
    await t.app.mail.sendDue();
    expect(resetsTo(person.account.email)).toHaveLength(0);
    const later = Date.now() + 10 * 60_000;
    await Promise.all([t.app.mail.sendDue(later), t.app.mail.sendDue(later)]);
    await t.app.mail.sendDue(later);
    expect(resetsTo(person.account.email)).toHaveLength(1);
    expect((await outbox(person.account.email))[0]).toMatchObject({ attempts: 2, sent_at: expect.any(String) });
  });

  it.runIf(testStore === 'postgres')('sends each message once when two instances send at once', async () => {
    const other = await t.addInstance();
    const people = await Promise.all([1, 2, 3, 4, 5].map(() => signUp(t.app)));
    await smtp.stop();
    try {
      for (const person of people) await post('/api/auth/password-reset', { email: person.account.email });
      // Both tried while the server was down: every message waits for its next try.
      await expect
        .poll(async () => {
          const rows = await Promise.all(people.map((person) => outbox(person.account.email)));
          return rows.every((mine) => mine[0]?.attempts === 1);
        })
        .toBe(true);
    } finally {
      await smtp.listen();
    }
    const later = Date.now() + 10 * 60_000;
    await Promise.all([t.app.mail.sendDue(later), other.mail.sendDue(later), t.app.mail.sendDue(later)]);
    for (const person of people) expect(resetsTo(person.account.email)).toHaveLength(1);
  });

  it('stops mail to an address whose server refused it for good', async () => {
    const person = await signUp(t.app);
    const email = person.account.email;
    // The registration's verification link reaches the address first.
    await expect.poll(() => smtp.to(email).length).toBe(1);
    smtp.refuse.add(email);
    try {
      await post('/api/auth/password-reset', { email });
      await expect.poll(async () => (await outbox(email))[0]?.failed_at ?? null).not.toBeNull();
      expect((await outbox(email))[0]?.last_error).toContain('550');
      expect(
        await t.store.db.selectFrom('mail_suppressions').selectAll().where('address', '=', email).execute(),
      ).toHaveLength(1);
    } finally {
      smtp.refuse.delete(email);
    }
    // The server would take it now, but nothing more goes there.
    await post('/api/auth/password-reset', { email });
    await expect.poll(async () => (await outbox(email))[1]?.failed_at ?? null).not.toBeNull();
    expect((await outbox(email))[1]?.last_error).toMatch(/^suppressed/);
    expect(resetsTo(email)).toHaveLength(0);
  });

  it('shows the back office what went out, and nobody else', async () => {
    const admin = await signInSuperadmin(t.app);
    const list = await t.app.inject({ method: 'GET', url: '/api/admin/mail', headers: { cookie: admin.cookie } });
    expect(list.statusCode).toBe(200);
    expect(list.json().transport).toBe('smtp');
    expect(list.json().items[0]).toMatchObject({ template: 'password_reset', status: expect.any(String) });
    const someone = await signUp(t.app);
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/admin/mail', headers: { cookie: someone.cookie } })).statusCode,
    ).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/api/admin/mail' })).statusCode).toBe(401);
  });
});

describe('without an SMTP server', () => {
  it('writes each message as an .eml file under DATA_DIR/mail and lists it for the back office', async () => {
    const files = await createTestApp();
    try {
      const person = await signUp(files.app);
      const asked = await files.app.inject({
        method: 'POST',
        url: '/api/auth/password-reset',
        payload: { email: person.account.email },
      });
      expect(asked.statusCode).toBe(202);
      const mailDir = join(files.app.config.dataDir, 'mail');
      await expect
        .poll(() => readdirSync(mailDir, { withFileTypes: true }).filter((f) => f.name.endsWith('.eml')).length)
        .toBe(2);
      // The verification link mailed at registration, then the reset link.
      const [file] = readdirSync(mailDir).filter(
        (name) => name.endsWith('.eml') && readFileSync(join(mailDir, name), 'utf8').includes('/UjJelszo#token='),
      );
      const eml = readFileSync(join(mailDir, file ?? ''), 'utf8');
      expect(eml).toContain(`To: ${person.account.email}`);
      expect(eml).toMatch(/^Subject: /m);
      expect(eml).toContain('/UjJelszo#token=');
      const admin = await signInSuperadmin(files.app);
      const list = (
        await files.app.inject({ method: 'GET', url: '/api/admin/mail', headers: { cookie: admin.cookie } })
      ).json();
      expect(list.transport).toBe('files');
      expect(list.items[0]).toMatchObject({ status: 'sent', fileName: file, to: person.account.email });
    } finally {
      await files.close();
    }
  });
});
