import { messages } from '@csomag/domain/messages';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pickUp } from '../../test/delivery.ts';
import {
  buildRegistration,
  createTestApp,
  requestAs,
  type SignedIn,
  signInSuperadmin,
  signUp,
  type TestApp,
} from '../../test/harness.ts';
import { buildParcelBody, sendParcel } from '../../test/parcels.ts';

/**
 * Email verification (issue 29): the link mailed at registration, used once; a fresh one asked for
 * again (3 an hour); a change of address that waits for the new address's link, then tells the old
 * one; and REQUIRE_EMAIL_VERIFICATION, which keeps an unverified account from sending or carrying.
 */
const ORIGIN = 'https://csomag.example.hu';
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ PUBLIC_URL: ORIGIN });
});
afterAll(() => t.close());

const outbox = (to: string) =>
  t.store.db.selectFrom('mail_outbox').selectAll().where('to_address', '=', to).orderBy('id').execute();
const linkPattern = /https:\/\/csomag\.example\.hu\/EmailMegerosites#token=([A-Za-z0-9_-]{43})/;
/** The token in the newest verification message to `to`. */
async function tokenTo(to: string): Promise<string> {
  const mails = (await outbox(to)).filter((row) => row.template === 'email_verification');
  const token = linkPattern.exec(mails.at(-1)?.text_body ?? '')?.[1];
  if (!token) throw new Error(`no verification link to ${to}`);
  return token;
}
const verify = (token: string) => t.app.inject({ method: 'POST', url: '/api/auth/verify-email', payload: { token } });
const resend = (who: SignedIn) => requestAs(t.app, who, 'POST', '/api/auth/verify-email/resend');
const me = async (who: SignedIn) =>
  (await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: { cookie: who.cookie } })).json().account;
const stored = (userName: string) =>
  t.store.db.selectFrom('accounts').selectAll().where('user_name', '=', userName).executeTakeFirstOrThrow();
const signIn = (email: string, password: string) =>
  t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password } });
const newAddress = (tag: string) =>
  `${tag}.${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@example.hu`;

describe('registration', () => {
  it('mails a verification link with the account, unverified until it is opened', async () => {
    const person = await signUp(t.app);
    expect(person.account).toMatchObject({ emailVerified: false, pendingEmail: null });
    const [mail, ...more] = await outbox(person.account.email);
    expect(more).toEqual([]);
    expect(mail).toMatchObject({
      template: 'email_verification',
      subject: messages.mailVerifySubject,
      unsubscribe_url: null,
    });
    expect(mail?.text_body).toContain(messages.mailGreeting(person.account.name));
    expect(mail?.text_body).toContain(messages.mailVerifyBody);
    expect(mail?.html_body).toContain(`<a href="${ORIGIN}/EmailMegerosites#token=`);
    const token = await tokenTo(person.account.email);
    // Only the token's hash is kept.
    const rows = await t.store.db.selectFrom('email_verifications').selectAll().execute();
    expect(rows.map((row) => row.token_hash)).not.toContain(token);
    expect(JSON.stringify(rows)).not.toContain(token);
  });

  it('mails nothing and stores no link when the registration is refused', async () => {
    const first = await signUp(t.app);
    const body = buildRegistration({ userName: first.account.userName });
    const refused = await t.app.inject({ method: 'POST', url: '/api/auth/register', payload: body });
    expect(refused.statusCode).toBe(409);
    expect(await outbox(String(body.email))).toEqual([]);
  });

  it('creates the superadmin verified', async () => {
    const admin = await signInSuperadmin(t.app);
    expect(admin.account.emailVerified).toBe(true);
    expect(await outbox(admin.account.email)).toEqual([]);
  });
});

describe('POST /api/auth/verify-email', () => {
  it('verifies the address once, signed in or not', async () => {
    const person = await signUp(t.app);
    const token = await tokenTo(person.account.email);
    const verified = await verify(token);
    expect(verified.statusCode, verified.body).toBe(200);
    expect(verified.json()).toEqual({ email: person.account.email });
    expect(await me(person)).toMatchObject({ emailVerified: true, pendingEmail: null });
    const firstAt = (await stored(person.account.userName)).email_verified_at;

    const again = await verify(token);
    expect(again.statusCode).toBe(422);
    expect(again.json().error).toMatchObject({ code: 'verify_token_invalid', message: messages.verifyTokenInvalid });
    expect((await stored(person.account.userName)).email_verified_at).toBe(firstAt);
  });

  it('refuses a tampered, an expired and a malformed link, changing nothing', async () => {
    const person = await signUp(t.app);
    const token = await tokenTo(person.account.email);
    const tampered = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
    const forged = await verify(tampered);
    expect(forged.statusCode).toBe(422);
    expect(forged.json().error.code).toBe('verify_token_invalid');
    const malformed = await verify('');
    expect(malformed.statusCode).toBe(400);

    await t.store.db
      .updateTable('email_verifications')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('email', '=', person.account.email)
      .execute();
    const expired = await verify(token);
    expect(expired.statusCode).toBe(422);
    expect(expired.json().error).toMatchObject({ code: 'verify_token_invalid', message: messages.verifyTokenInvalid });
    const row = await stored(person.account.userName);
    expect(row.email_verified_at).toBeNull();
    const links = await t.store.db
      .selectFrom('email_verifications')
      .select('used_at')
      .where('email', '=', person.account.email)
      .execute();
    expect(links).toEqual([{ used_at: null }]);
  });

  it('verifies once when the same link is opened twice at once', async () => {
    const person = await signUp(t.app);
    const token = await tokenTo(person.account.email);
    const answers = await Promise.all([verify(token), verify(token), verify(token)]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 422, 422]);
  });
});

describe('POST /api/auth/verify-email/resend', () => {
  it('mails a fresh link to an unverified address, 3 an hour, and 409 once there is nothing to verify', async () => {
    const person = await signUp(t.app);
    for (let i = 0; i < 3; i++) {
      const sent = await resend(person);
      expect(sent.statusCode, sent.body).toBe(202);
      expect(sent.json()).toEqual({ email: person.account.email });
    }
    const fourth = await resend(person);
    expect(fourth.statusCode).toBe(429);
    expect(fourth.json().error).toEqual({ code: 'too_many_verification_requests', message: messages.verifyTooMany });
    const mails = await outbox(person.account.email);
    expect(mails.map((row) => row.template)).toEqual(Array(4).fill('email_verification'));
    expect(mails[1]?.text_body).toContain(messages.mailVerifyAccountBody);

    expect((await verify(await tokenTo(person.account.email))).statusCode).toBe(200);
    const nothing = await resend(person);
    expect(nothing.statusCode).toBe(409);
    expect(nothing.json().error).toEqual({ code: 'email_already_verified', message: messages.emailAlreadyVerified });
    expect(await outbox(person.account.email)).toHaveLength(4);
  });

  it('is for a signed-in account only', async () => {
    const anonymous = await t.app.inject({ method: 'POST', url: '/api/auth/verify-email/resend' });
    expect(anonymous.statusCode).toBe(401);
  });
});

describe('a change of address', () => {
  it('keeps the old address until the new one is verified, then switches and tells the old one', async () => {
    const person = await signUp(t.app);
    expect((await verify(await tokenTo(person.account.email))).statusCode).toBe(200);
    const oldEmail = person.account.email;
    const email = newAddress('uj');

    const patched = await requestAs(t.app, person, 'PATCH', `/api/users/${person.account.userName}`, {
      email: email.toUpperCase(),
    });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json().account).toMatchObject({ email: oldEmail, emailVerified: true, pendingEmail: email });
    const [toNew] = await outbox(email);
    expect(toNew?.template).toBe('email_verification');
    expect(toNew?.text_body).toContain(messages.mailVerifyChangeBody);
    // Sent again unchanged (the form keeps what was typed): no second link.
    await requestAs(t.app, person, 'PATCH', `/api/users/${person.account.userName}`, { email, name: 'Uj Nev' });
    expect(await outbox(email)).toHaveLength(1);
    // The old address is still the one to sign in with; a fresh link goes to the new one.
    expect((await signIn(oldEmail, person.password)).statusCode).toBe(200);
    expect((await signIn(email, person.password)).statusCode).toBe(401);
    const again = await resend(person);
    expect(again.json()).toEqual({ email });
    expect(await outbox(email)).toHaveLength(2);

    const verified = await verify(await tokenTo(email));
    expect(verified.statusCode, verified.body).toBe(200);
    expect(verified.json()).toEqual({ email });
    expect(await me(person)).toMatchObject({ email, emailVerified: true, pendingEmail: null });
    expect((await signIn(email, person.password)).statusCode).toBe(200);
    expect((await signIn(oldEmail, person.password)).statusCode).toBe(401);
    const notice = (await outbox(oldEmail)).filter((row) => row.template === 'email_changed');
    expect(notice).toHaveLength(1);
    expect(notice[0]?.subject).toBe(messages.mailEmailChangedSubject);
    expect(notice[0]?.text_body).toContain(messages.mailEmailChangedBody(email));
    expect(notice[0]?.text_body).toContain(`${ORIGIN}/Kapcsolat`);
    // The first link to the new address died with the change.
    const first = linkPattern.exec((await outbox(email))[0]?.text_body ?? '')?.[1] ?? '';
    expect((await verify(first)).json().error.code).toBe('verify_token_invalid');
  });

  it('refuses an address another account has, when asked and when the link is opened', async () => {
    const person = await signUp(t.app);
    const other = await signUp(t.app);
    const taken = await requestAs(t.app, person, 'PATCH', `/api/users/${person.account.userName}`, {
      email: other.account.email,
    });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().error).toMatchObject({ code: 'email_taken', fields: { email: messages.emailTaken } });
    expect((await stored(person.account.userName)).pending_email).toBeNull();

    // Free when asked, taken by someone who registered with it before the link was opened.
    const email = newAddress('verseny');
    await requestAs(t.app, person, 'PATCH', `/api/users/${person.account.userName}`, { email });
    const token = await tokenTo(email);
    const late = await signUp(t.app, { email });
    const refused = await verify(token);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toMatchObject({ code: 'email_taken', message: messages.emailTaken });
    const row = await stored(person.account.userName);
    expect(row).toMatchObject({ email: person.account.email, pending_email: email });
    expect(await outbox(person.account.email)).toHaveLength(1);
    expect((await me(late)).email).toBe(email);
  });

  it('a link to an address asked for before another change is void', async () => {
    const person = await signUp(t.app);
    const first = newAddress('elso');
    const second = newAddress('masodik');
    await requestAs(t.app, person, 'PATCH', `/api/users/${person.account.userName}`, { email: first });
    const firstToken = await tokenTo(first);
    await requestAs(t.app, person, 'PATCH', `/api/users/${person.account.userName}`, { email: second });
    expect((await verify(firstToken)).json().error.code).toBe('verify_token_invalid');
    expect((await stored(person.account.userName)).email).toBe(person.account.email);
    expect((await verify(await tokenTo(second))).json()).toEqual({ email: second });
  });

  it("the back office sets another person's address at once, unverified, and tells the old one", async () => {
    const admin = await signInSuperadmin(t.app);
    const person = await signUp(t.app);
    expect((await verify(await tokenTo(person.account.email))).statusCode).toBe(200);
    const email = newAddress('admin.altal');
    const patched = await requestAs(t.app, admin, 'PATCH', `/api/users/${person.account.userName}`, { email });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json().account).toMatchObject({ email, emailVerified: false, pendingEmail: null });
    expect((await outbox(person.account.email)).map((row) => row.template)).toEqual([
      'email_verification',
      'email_changed',
    ]);
    expect((await verify(await tokenTo(email))).json()).toEqual({ email });
    expect(await me(person)).toMatchObject({ email, emailVerified: true });
  });
});

describe('REQUIRE_EMAIL_VERIFICATION', () => {
  it('is off by default: an unverified account sends and carries', async () => {
    const sender = await signUp(t.app);
    const runner = await signUp(t.app, { role: 'runner' });
    const parcel = await sendParcel(t.app, sender.cookie);
    expect((await pickUp(t.app, runner.cookie, parcel.id)).status).toBe('in_transit');
  });

  describe('=1', () => {
    let strict: TestApp;
    beforeAll(async () => {
      strict = await createTestApp({ PUBLIC_URL: ORIGIN, REQUIRE_EMAIL_VERIFICATION: '1' });
    });
    afterAll(() => strict.close());

    const verifyIn = async (who: SignedIn) => {
      const [mail] = await strict.store.db
        .selectFrom('mail_outbox')
        .select('text_body')
        .where('to_address', '=', who.account.email)
        .where('template', '=', 'email_verification')
        .execute();
      const token = linkPattern.exec(mail?.text_body ?? '')?.[1] ?? '';
      const answer = await strict.app.inject({ method: 'POST', url: '/api/auth/verify-email', payload: { token } });
      expect(answer.statusCode, answer.body).toBe(200);
    };

    it('refuses an unverified account sending and carrying with 403 until its link is opened', async () => {
      const sender = await signUp(strict.app);
      const runner = await signUp(strict.app, { role: 'runner' });
      const send = () => requestAs(strict.app, sender, 'POST', '/api/parcels', buildParcelBody());
      const refused = await send();
      expect(refused.statusCode).toBe(403);
      expect(refused.json().error).toEqual({ code: 'email_not_verified', message: messages.emailNotVerified });
      expect(await strict.store.db.selectFrom('parcels').select('id').execute()).toEqual([]);

      await verifyIn(sender);
      const sent = await send();
      expect(sent.statusCode, sent.body).toBe(201);
      const parcelId = sent.json().id as string;

      const claim = () => requestAs(strict.app, runner, 'POST', `/api/parcels/${parcelId}/pickup`);
      const notYet = await claim();
      expect(notYet.statusCode).toBe(403);
      expect(notYet.json().error).toEqual({ code: 'email_not_verified', message: messages.emailNotVerified });
      const row = await strict.store.db
        .selectFrom('parcels')
        .select(['status', 'runner_id'])
        .where('id', '=', parcelId)
        .executeTakeFirstOrThrow();
      expect(row).toEqual({ status: 'waiting', runner_id: null });

      await verifyIn(runner);
      const claimed = await claim();
      expect(claimed.statusCode, claimed.body).toBe(200);
      expect(claimed.json().status).toBe('in_transit');
    });

    it('holds a person whose new address waits for its link to the old, verified one', async () => {
      const sender = await signUp(strict.app);
      await verifyIn(sender);
      await requestAs(strict.app, sender, 'PATCH', `/api/users/${sender.account.userName}`, {
        email: newAddress('kesobb'),
      });
      const sent = await requestAs(strict.app, sender, 'POST', '/api/parcels', buildParcelBody());
      expect(sent.statusCode, sent.body).toBe(201);
    });

    it('lets the back office through unverified', async () => {
      const admin = await signInSuperadmin(strict.app);
      const sender = await signUp(strict.app);
      await strict.store.db
        .updateTable('accounts')
        .set({ email_verified_at: null })
        .where('user_name', '=', admin.account.userName)
        .execute();
      const sent = await requestAs(
        strict.app,
        admin,
        'POST',
        '/api/parcels',
        buildParcelBody({ senderUser: sender.account.userName }),
      );
      expect(sent.statusCode, sent.body).toBe(201);
    });
  });
});
