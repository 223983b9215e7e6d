import { RECEIVER_LINK_HEADER } from '@csomag/domain/mail';
import { messages } from '@csomag/domain/messages';
import { en } from '@csomag/domain/messages-en';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Cast, carriedFor, signUpCast } from '../../test/cast.ts';
import { northOf, pickUp } from '../../test/delivery.ts';
import { createTestApp, requestAs, type SignedIn, signUp, type TestApp } from '../../test/harness.ts';
import { sendParcel } from '../../test/parcels.ts';
import { TestSmtpServer } from '../../test/smtp.ts';

/**
 * Mail about parcels (issue 29): a receiver without an account, told at the address the sender
 * typed, with a link that shows them their code; a sender with a verified address, per kind they
 * left on; the one-click stop. Each message written in its change's transaction.
 */
let smtp: TestSmtpServer;
let t: TestApp;
let cast: Cast;
const ORIGIN = 'https://csomag.example.hu';
beforeAll(async () => {
  smtp = await new TestSmtpServer().listen(0);
  t = await createTestApp(
    { SMTP_URL: smtp.url, PUBLIC_URL: ORIGIN, LOG_LEVEL: 'error' },
    { logStream: process.stderr },
  );
  cast = await signUpCast(t.app);
});
afterAll(async () => {
  await t.close();
  await smtp.stop();
});

let counter = 0;
const receiverEmail = () => `cimzett${++counter}.${Date.now().toString(36)}@example.hu`;
// Parcel mail only: every account also gets its verification link at registration (email-verification.test.ts).
const outbox = (to: string) =>
  t.store.db
    .selectFrom('mail_outbox')
    .selectAll()
    .where('to_address', '=', to)
    .where('template', '!=', 'email_verification')
    .orderBy('id')
    .execute();
const templatesTo = async (to: string) => (await outbox(to)).map((row) => row.template);
const linkKey = (text: string) => /#link=([0-9a-z]+\.[A-Za-z0-9_-]{43})/.exec(text)?.[1] ?? '';
const stopTokenIn = (url: string | null) => new URL(url ?? `${ORIGIN}/`).searchParams.get('token') ?? '';
const verify = (who: SignedIn) =>
  t.store.db
    .updateTable('accounts')
    .set({ email_verified_at: new Date().toISOString() })
    .where('user_name', '=', who.account.userName)
    .execute();
const getAs = (who: SignedIn, url: string) => t.app.inject({ method: 'GET', url, headers: { cookie: who.cookie } });
const receiverCode = (parcelId: string, key?: string) =>
  t.app.inject({
    method: 'GET',
    url: `/api/parcels/${parcelId}/receiver-code`,
    ...(key === undefined ? {} : { headers: { [RECEIVER_LINK_HEADER]: key } }),
  });

describe('the receiver without an account', () => {
  it('is told the parcel is coming, with a link that shows them their code and nobody else', async () => {
    const email = receiverEmail();
    const parcel = await sendParcel(t.app, cast.sender.cookie, {
      receiverAddress: cast.receiver.account.address,
      receiverEmail: email.toUpperCase(),
    });
    const [coming] = await outbox(email);
    expect(coming?.template).toBe('receiver_coming');
    expect(coming?.subject).toBe(messages.mailReceiverComingSubject(parcel.id));
    expect(coming?.text_body).toContain(messages.mailReceiverComing(cast.sender.account.name, parcel.id));
    // No third person's contacts: not the sender's phone, email or address.
    for (const secret of [cast.sender.account.phoneNumber, cast.sender.account.email, cast.sender.account.address]) {
      expect(coming?.text_body).not.toContain(secret);
      expect(coming?.html_body).not.toContain(secret);
    }
    expect(coming?.text_body).toContain(`${ORIGIN}/CsomagKovetes/${parcel.id}#link=`);
    expect(coming?.unsubscribe_url).toMatch(new RegExp(`^${ORIGIN}/api/mail/unsubscribe\\?token=`));

    // Sent over SMTP with the one-click stop headers (RFC 8058) and both parts.
    await expect.poll(() => smtp.to(email).length).toBe(1);
    const [sent] = smtp.to(email);
    // As the mail client reads the header: folded lines unfolded.
    const header = (name: string) => sent?.headerLines.find((line) => line.key === name)?.line.replace(/\r\n\s+/g, ' ');
    expect(header('list-unsubscribe')).toBe(`List-Unsubscribe: <${coming?.unsubscribe_url}>`);
    expect(header('list-unsubscribe-post')).toBe('List-Unsubscribe-Post: List-Unsubscribe=One-Click');
    expect(sent?.html).toContain(messages.mailTrackButton);

    // Waiting: no code is due yet, but the link is theirs.
    const key = linkKey(coming?.text_body ?? '');
    expect((await receiverCode(parcel.id, key)).json().error.code).toBe('parcel_not_in_transit');
    await pickUp(t.app, cast.runner.cookie, parcel.id);
    const byLink = await receiverCode(parcel.id, key);
    expect(byLink.statusCode, byLink.body).toBe(200);
    expect(byLink.headers['cache-control']).toBe('private, no-store');
    const signedIn = await getAs(cast.receiver, `/api/parcels/${parcel.id}/handover-pin`);
    expect(byLink.json()).toEqual(signedIn.json());

    // Without the key, with a tampered one, or another parcel's: refused, the same for a parcel that does not exist.
    const other = await sendParcel(t.app, cast.sender.cookie, { receiverEmail: receiverEmail() });
    const otherKey = linkKey((await outbox((await storedEmail(other.id)) ?? ''))[0]?.text_body ?? '');
    for (const [id, bad] of [
      [parcel.id, undefined],
      [parcel.id, `${key.slice(0, -1)}${key.endsWith('A') ? 'B' : 'A'}`],
      [parcel.id, otherKey],
      ['0000000000', key],
    ] as const) {
      const refused = await receiverCode(id, bad);
      expect(refused.statusCode).toBe(403);
      expect(refused.json().error).toMatchObject({
        code: 'receiver_link_invalid',
        message: messages.receiverLinkInvalid,
      });
    }
    expect(await templatesTo(email)).toEqual(['receiver_coming', 'receiver_picked_up']);
  });

  it('hears once that the runner is near, and that it was delivered', async () => {
    const email = receiverEmail();
    const parcel = await carriedFor(t.app, cast, { receiverEmail: email });
    const report = (lat: number, lng: number) =>
      requestAs(t.app, cast.runner, 'PUT', '/api/runners/me/location', { lat, lng, accuracy: 10 });
    const door = parcel.receiverCoordinates;
    const far = northOf(door, 5000);
    const farReport = await report(far.lat, far.lng);
    expect(farReport.statusCode, farReport.body).toBe(204);
    expect(await templatesTo(email)).toEqual(['receiver_coming', 'receiver_picked_up']);
    const near = northOf(door, 800);
    expect((await report(near.lat, near.lng)).statusCode).toBe(204);
    const nearer = northOf(door, 300);
    expect((await report(nearer.lat, nearer.lng)).statusCode).toBe(204);
    expect(await templatesTo(email)).toEqual(['receiver_coming', 'receiver_picked_up', 'receiver_near']);
    expect((await outbox(email))[2]?.subject).toBe(messages.mailReceiverNearSubject(parcel.id));

    const delivered = await requestAs(t.app, cast.admin, 'POST', `/api/parcels/${parcel.id}/deliver`, {});
    expect(delivered.statusCode, delivered.body).toBe(200);
    expect(await templatesTo(email)).toEqual([
      'receiver_coming',
      'receiver_picked_up',
      'receiver_near',
      'receiver_delivered',
    ]);
  });

  it('stops mail about the parcel with one click, from the mail client or the page; a forged link stops nothing', async () => {
    const email = receiverEmail();
    const parcel = await sendParcel(t.app, cast.sender.cookie, { receiverEmail: email });
    const [coming] = await outbox(email);
    const token = stopTokenIn(coming?.unsubscribe_url ?? null);

    // A link scanner's GET is only sent on to the page, which asks first.
    const opened = await t.app.inject({ method: 'GET', url: `/api/mail/unsubscribe?token=${token}` });
    expect(opened.statusCode).toBe(303);
    expect(opened.headers.location).toBe(`/Leiratkozas#token=${encodeURIComponent(token)}`);

    const forged = await t.app.inject({
      method: 'POST',
      url: `/api/mail/unsubscribe?token=${token.slice(0, -2)}xx`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(forged.statusCode, forged.body).toBe(422);
    expect(forged.json().error).toMatchObject({ code: 'mail_link_invalid', message: messages.mailLinkInvalid });
    const stillOn = await t.store.db
      .selectFrom('parcels')
      .select('receiver_mail_stopped_at')
      .where('id', '=', parcel.id)
      .executeTakeFirstOrThrow();
    expect(stillOn.receiver_mail_stopped_at).toBeNull();

    // The mail client's one-click POST: the token in the URL, the form says nothing else.
    const stopped = await t.app.inject({
      method: 'POST',
      url: coming?.unsubscribe_url?.replace(ORIGIN, '') ?? '',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(stopped.statusCode, stopped.body).toBe(200);
    expect(stopped.json()).toEqual({ stopped: 'parcel', parcelId: parcel.id, kind: null });
    // Again, from the page: harmless.
    const again = await t.app.inject({ method: 'POST', url: '/api/mail/unsubscribe', payload: { token } });
    expect(again.statusCode).toBe(200);

    await pickUp(t.app, cast.runner.cookie, parcel.id);
    expect(await templatesTo(email)).toEqual(['receiver_coming']);
  });

  it('is not told twice when the sender sends to their own address, and a bad address is refused with nothing sent', async () => {
    const self = await signUp(t.app);
    await verify(self);
    const parcel = await sendParcel(t.app, self.cookie, { receiverEmail: self.account.email });
    await pickUp(t.app, cast.runner.cookie, parcel.id);
    expect(await templatesTo(self.account.email)).toEqual(['sender_picked_up']);

    const before = await t.store.db.selectFrom('parcels').select(t.store.db.fn.countAll().as('n')).executeTakeFirst();
    const refused = await requestAs(t.app, cast.sender, 'POST', '/api/parcels', {
      senderAddress: '6720 Szeged, Kárász utca 5',
      receiverAddress: 'Debrecen, Piac utca 3',
      category: 'Könyv',
      weightGrams: 500,
      receiverEmail: 'nem-email',
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.fields, refused.body).toEqual({ receiverEmail: messages.invalidEmail });
    const after = await t.store.db.selectFrom('parcels').select(t.store.db.fn.countAll().as('n')).executeTakeFirst();
    expect(Number(after?.n)).toBe(Number(before?.n));
  });
});

/** The receiver's address stored on a parcel. */
const storedEmail = async (parcelId: string) =>
  (await t.store.db.selectFrom('parcels').select('receiver_email').where('id', '=', parcelId).executeTakeFirstOrThrow())
    .receiver_email;

describe('the sender', () => {
  it('hears nothing at an address not verified, and then each kind left on, with its own stop', async () => {
    const sender = await signUp(t.app);
    const first = await sendParcel(t.app, sender.cookie, { receiverAddress: cast.receiver.account.address });
    await pickUp(t.app, cast.runner.cookie, first.id);
    expect(await templatesTo(sender.account.email)).toEqual([]);

    await verify(sender);
    const parcel = await sendParcel(t.app, sender.cookie, { receiverAddress: cast.receiver.account.address });
    await pickUp(t.app, cast.runner.cookie, parcel.id);
    const reported = await requestAs(t.app, cast.runner, 'POST', `/api/parcels/${parcel.id}/incidents`, {
      kind: 'damaged',
      description: 'Megázott a doboz',
    });
    expect(reported.statusCode, reported.body).toBe(201);
    const mails = await outbox(sender.account.email);
    expect(mails.map((row) => row.template)).toEqual(['sender_picked_up', 'sender_reported']);
    expect(mails[0]?.subject).toBe(messages.mailSenderPickedUpSubject(parcel.id));
    expect(mails[0]?.text_body).toContain(messages.mailGreeting(sender.account.name));
    expect(mails[0]?.text_body).toContain(`${ORIGIN}/CsomagKovetes/${parcel.id}`);
    expect(mails[0]?.text_body).not.toContain('#link=');

    // Its stop switches off that kind only; the profile's switches show it and turn it back on.
    const stop = await t.app.inject({
      method: 'POST',
      url: '/api/mail/unsubscribe',
      payload: { token: stopTokenIn(mails[0]?.unsubscribe_url ?? null) },
    });
    expect(stop.json()).toEqual({ stopped: 'sender_kind', parcelId: null, kind: 'picked_up' });
    const settings = await getAs(sender, '/api/me/mail-preferences');
    expect(settings.json()).toEqual({
      email: sender.account.email,
      verified: true,
      pendingEmail: null,
      kinds: { picked_up: false, attempted: true, delivered: true, reported: true },
    });
    const third = await sendParcel(t.app, sender.cookie, { receiverAddress: cast.receiver.account.address });
    await pickUp(t.app, cast.runner.cookie, third.id);
    expect(await templatesTo(sender.account.email)).toEqual(['sender_picked_up', 'sender_reported']);

    const on = await requestAs(t.app, sender, 'PATCH', '/api/me/mail-preferences', {
      kinds: { picked_up: true, delivered: false },
    });
    expect(on.statusCode, on.body).toBe(200);
    expect(on.json().kinds).toEqual({ picked_up: true, attempted: true, delivered: false, reported: true });
    const delivered = await requestAs(t.app, cast.admin, 'POST', `/api/parcels/${third.id}/deliver`, {});
    expect(delivered.statusCode).toBe(200);
    expect(await templatesTo(sender.account.email)).toEqual(['sender_picked_up', 'sender_reported']);
  });

  it('is written to in the language their account chose (issue 30): English, a failed attempt’s reason too', async () => {
    const sender = await signUp(t.app);
    await verify(sender);
    const chosen = await requestAs(t.app, sender, 'PATCH', `/api/users/${sender.account.userName}`, { language: 'en' });
    expect(chosen.statusCode, chosen.body).toBe(200);
    const parcel = await sendParcel(t.app, sender.cookie, { receiverAddress: cast.receiver.account.address });
    await pickUp(t.app, cast.runner.cookie, parcel.id);
    const attempt = await requestAs(t.app, cast.runner, 'POST', `/api/parcels/${parcel.id}/attempts`, {
      reason: 'nobody_home',
      position: { lat: 47.5, lng: 19.05, accuracy: 5 },
    });
    expect(attempt.statusCode, attempt.body).toBe(201);
    const mails = await outbox(sender.account.email);
    expect(mails.map((row) => row.template)).toEqual(['sender_picked_up', 'sender_attempted']);
    expect(mails[0]?.subject).toBe(en.mailSenderPickedUpSubject(parcel.id));
    expect(mails[0]?.text_body).toContain(en.mailGreeting(sender.account.name));
    expect(mails[0]?.text_body).toContain(en.mailSenderPickedUp);
    expect(mails[0]?.text_body).toContain(en.mailSignature);
    expect(mails[0]?.html_body).toContain('<html lang="en">');
    expect(mails[1]?.text_body).toContain(en.mailSenderAttempted(en.attemptReasonNobodyHome));
    // The receiver, known by an address only, reads Hungarian.
    const toReceiver = await outbox(cast.receiver.account.email);
    expect(toReceiver.every((row) => !row.subject.includes(parcel.id) || row.html_body.includes('lang="hu"'))).toBe(
      true,
    );
  });

  it('keeps the switches to senders themselves: a runner, the back office and nobody are refused', async () => {
    expect((await getAs(cast.runner, '/api/me/mail-preferences')).statusCode).toBe(403);
    expect((await getAs(cast.admin, '/api/me/mail-preferences')).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/api/me/mail-preferences' })).statusCode).toBe(401);
    const bad = await requestAs(t.app, cast.sender, 'PATCH', '/api/me/mail-preferences', {
      kinds: { nincs_ilyen: false },
    });
    expect(bad.statusCode).toBe(400);
    const muted = await t.store.db
      .selectFrom('mail_muted_kinds')
      .innerJoin('accounts', 'accounts.id', 'mail_muted_kinds.account_id')
      .select('kind')
      .where('accounts.user_name', '=', cast.sender.account.userName)
      .execute();
    expect(muted).toEqual([]);
  });
});

describe('a delivery that does not go to plan', () => {
  it('tells the receiver of a failed attempt with its reason, and where the neighbour it was left with lives', async () => {
    const door = { lat: 47.5295, lng: 21.6255 };
    const atDoor = { ...northOf(door, 3), accuracy: 5 };
    const email = receiverEmail();
    await verify(cast.sender);
    const parcel = await carriedFor(t.app, cast, { receiverEmail: email, receiverCoordinates: door });
    const attempted = await requestAs(t.app, cast.runner, 'POST', `/api/parcels/${parcel.id}/attempts`, {
      reason: 'nobody_home',
      position: atDoor,
    });
    expect(attempted.statusCode, attempted.body).toBe(201);
    const left = await requestAs(t.app, cast.runner, 'POST', `/api/parcels/${parcel.id}/neighbour`, {
      name: 'Kovács Béla',
      door: '2. emelet 5.',
      confirmedName: 'kovács béla',
      position: atDoor,
    });
    expect(left.statusCode, left.body).toBe(201);
    const mails = await outbox(email);
    expect(mails.map((row) => row.template)).toEqual([
      'receiver_coming',
      'receiver_picked_up',
      'receiver_attempted',
      'receiver_with_neighbour',
    ]);
    expect(mails[2]?.text_body).toContain(messages.mailReceiverAttempted(messages.attemptReasonNobodyHome));
    expect(mails[3]?.text_body).toContain(messages.mailReceiverWithNeighbour('Kovács Béla', '2. emelet 5.'));
    // The sender hears of the attempt too (the neighbour is the receiver's to know).
    const toSender = (await outbox(cast.sender.account.email)).filter((row) => row.text_body.includes(parcel.id));
    expect(toSender.map((row) => row.template)).toEqual(['sender_picked_up', 'sender_attempted']);
  });
});

describe('atomicity', () => {
  it('writes no mail for a change that was refused', async () => {
    const email = receiverEmail();
    const parcel = await carriedFor(t.app, cast, { receiverEmail: email });
    const late = await requestAs(t.app, cast.otherRunner, 'POST', `/api/parcels/${parcel.id}/pickup`, {});
    expect(late.statusCode).toBe(409);
    expect(await templatesTo(email)).toEqual(['receiver_coming', 'receiver_picked_up']);
  });
});
