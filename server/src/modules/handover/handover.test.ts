import { HANDOVER_TOKEN_TTL_MS } from '@csomag/domain/constants';
import { messages } from '@csomag/domain/messages';
import { type Parcel, parcelIdSchema } from '@csomag/domain/parcel';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pickUp, storedEvents, storedParcel } from '../../test/delivery.ts';
import { createTestApp, type SignedIn, signInSuperadmin, signUp, type TestApp } from '../../test/harness.ts';
import { sendParcel } from '../../test/parcels.ts';
import { schemaMessage } from '../../test/schema-message.ts';
import { handoverKey, signHandoverToken } from './token.ts';

let t: TestApp;
let admin: SignedIn;
let sender: SignedIn;
beforeAll(async () => {
  t = await createTestApp();
  admin = await signInSuperadmin(t.app);
  sender = await signUp(t.app);
});
afterAll(() => t.close());

const invalidLink = { code: 'handover_link_invalid', message: messages.handoverInvalid };
const alreadyHandedOver = { code: 'handover_link_used', message: messages.parcelAlreadyHandedOver };

const requestLink = (parcelId: string, cookie?: string) =>
  t.app.inject({
    method: 'POST',
    url: `/api/parcels/${parcelId}/handover-token`,
    payload: {},
    ...(cookie ? { headers: { cookie } } : {}),
  });
const summary = (parcelId: string, token: string) =>
  t.app.inject({ method: 'GET', url: `/api/handover/${parcelId}`, query: { token } });
const handOver = (parcelId: string, payload: Record<string, unknown>) =>
  t.app.inject({ method: 'POST', url: `/api/parcels/${parcelId}/handover`, payload });

/** A parcel in a runner's hands, and the QR link the runner shows for it. */
async function carriedWithLink() {
  const runner = await signUp(t.app, { role: 'runner' });
  const parcel = await sendParcel(t.app, sender.cookie);
  await pickUp(t.app, runner.cookie, parcel.id);
  const response = await requestLink(parcel.id, runner.cookie);
  expect(response.statusCode).toBe(200);
  const link = response.json() as { url: string; expiresAt: string };
  const query = new URL(link.url).searchParams;
  const body = { token: query.get('token') ?? '', futar: query.get('futar'), felado: query.get('felado') };
  return { runner, parcel, link, body };
}

/** A token this app would accept for the parcel and runner, signed at another moment. */
async function tokenSignedAt(parcel: Parcel, runnerUserName: string, nowMs: number) {
  const runner = await t.store.db
    .selectFrom('accounts')
    .select('id')
    .where('user_name', '=', runnerUserName)
    .executeTakeFirstOrThrow();
  const key = handoverKey(t.app.config.sessionSecret);
  return signHandoverToken(key, { parcelId: parcel.id, runnerId: runner.id }, nowMs).token;
}

describe('POST /api/parcels/:id/handover-token', () => {
  it('gives the parcel’s runner a link to the receiver’s page on this origin, valid for 15 minutes', async () => {
    const before = Date.now();
    const { runner, parcel, link } = await carriedWithLink();
    const url = new URL(link.url);
    // inject() calls from Host localhost:80, so that is the origin the runner's browser used.
    expect(`${url.origin}${url.pathname}`).toBe('http://localhost/Csomagatvetel');
    expect([...url.searchParams.keys()]).toEqual(['futar', 'felado', 'csomagid', 'token']);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      futar: runner.account.userName,
      felado: sender.account.userName,
      csomagid: parcel.id,
      token: expect.stringMatching(/^[0-9a-z]+\.[A-Za-z0-9_-]{43}$/),
    });
    const expires = Date.parse(link.expiresAt);
    expect(expires).toBeGreaterThanOrEqual(before + HANDOVER_TOKEN_TTL_MS);
    expect(expires).toBeLessThanOrEqual(Date.now() + HANDOVER_TOKEN_TTL_MS);
  });

  it('builds the link on PUBLIC_URL when it is set', async () => {
    const other = await createTestApp({ PUBLIC_URL: 'https://csomag.example.hu/' });
    try {
      const runner = await signUp(other.app, { role: 'runner' });
      const user = await signUp(other.app);
      const parcel = await sendParcel(other.app, user.cookie);
      await pickUp(other.app, runner.cookie, parcel.id);
      const response = await other.app.inject({
        method: 'POST',
        url: `/api/parcels/${parcel.id}/handover-token`,
        headers: { cookie: runner.cookie, host: 'tamado.example.com' },
      });
      expect(response.json().url).toMatch(
        new RegExp(`^https://csomag\\.example\\.hu/Csomagatvetel\\?futar=${runner.account.userName}&`),
      );
    } finally {
      await other.close();
    }
  });

  it('refuses another runner (403), users and the superadmin (403), anonymous callers (401)', async () => {
    const { parcel } = await carriedWithLink();
    const other = await signUp(t.app, { role: 'runner' });
    const refused = await requestLink(parcel.id, other.cookie);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toEqual({ code: 'not_your_parcel', message: messages.notYourParcel });
    expect(refused.body).not.toContain('token');
    for (const cookie of [sender.cookie, admin.cookie]) {
      const response = await requestLink(parcel.id, cookie);
      expect(response.statusCode).toBe(403);
      expect(response.json().error.code).toBe('forbidden');
    }
    const anonymous = await requestLink(parcel.id);
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json().error.code).toBe('sign_in_required');
  });

  it('answers 409 for a waiting or delivered parcel, 404 for an unknown one, 400 for a malformed id', async () => {
    const runner = await signUp(t.app, { role: 'runner' });
    const waiting = await sendParcel(t.app, sender.cookie);
    const notYet = await requestLink(waiting.id, runner.cookie);
    expect(notYet.statusCode).toBe(409);
    expect(notYet.json().error.code).toBe('parcel_not_in_transit');
    const { runner: carrier, parcel } = await carriedWithLink();
    await t.app.inject({ method: 'POST', url: `/api/parcels/${parcel.id}/deliver`, headers: { cookie: admin.cookie } });
    const delivered = await requestLink(parcel.id, carrier.cookie);
    expect(delivered.statusCode).toBe(409);
    expect(delivered.json().error).toEqual({
      code: 'parcel_already_delivered',
      message: messages.parcelAlreadyDelivered,
    });
    const unknown = await requestLink('0000000000', runner.cookie);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error.code).toBe('parcel_not_found');
    const malformed = await requestLink('nem-azonosito', runner.cookie);
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().error).toMatchObject({
      code: 'invalid_body',
      fields: { id: schemaMessage(parcelIdSchema, 'nem-azonosito') },
    });
  });
});

describe('GET /api/handover/:id', () => {
  it('shows anyone with the token what is being handed over, and nothing private', async () => {
    const { runner, parcel, body } = await carriedWithLink();
    const response = await summary(parcel.id, body.token);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      id: parcel.id,
      category: parcel.category,
      weightGrams: parcel.weightGrams,
      senderUser: sender.account.userName,
      runner: runner.account.userName,
      status: 'in_transit',
    });
    for (const secret of [parcel.senderAddress, parcel.receiverAddress, runner.account.email]) {
      expect(response.body).not.toContain(secret);
    }
  });

  it('refuses a tampered, expired or other parcel’s token (403) and a malformed one (400)', async () => {
    const { runner, parcel, body } = await carriedWithLink();
    const { parcel: otherParcel, body: otherBody } = await carriedWithLink();
    const flipped = `${body.token.slice(0, -2)}${body.token.at(-2) === 'A' ? 'B' : 'A'}${body.token.at(-1)}`;
    const expired = await tokenSignedAt(parcel, runner.account.userName, Date.now() - HANDOVER_TOKEN_TTL_MS - 1000);
    for (const token of [flipped, expired, otherBody.token]) {
      const response = await summary(parcel.id, token);
      expect(response.statusCode).toBe(403);
      expect(response.json().error).toEqual(invalidLink);
    }
    const malformed = await summary(parcel.id, 'nem-token');
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().error.code).toBe('invalid_body');
    expect(malformed.json().error.fields).toEqual({ token: messages.handoverInvalid });
    expect((await summary(otherParcel.id, otherBody.token)).statusCode).toBe(200);
  });
});

describe('POST /api/parcels/:id/handover', () => {
  it('delivers the parcel for anyone holding the link, as the runner’s handover', async () => {
    const { runner, parcel, body } = await carriedWithLink();
    const response = await handOver(parcel.id, body);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      id: parcel.id,
      category: parcel.category,
      weightGrams: parcel.weightGrams,
      senderUser: sender.account.userName,
      runner: runner.account.userName,
      status: 'delivered',
    });
    expect(await storedParcel(t.app, parcel.id)).toMatchObject({
      status: 'delivered',
      delivered_at: expect.any(String),
    });
    const events = await storedEvents(t.app, parcel.id);
    expect(events.map((e) => e.kind)).toEqual(['created', 'picked_up', 'handed_over_qr']);
    expect(events[2]?.actor_id).toBe(events[1]?.actor_id);
  });

  it('tells a second confirmation of the same link that the parcel was already handed over, changing nothing', async () => {
    const { parcel, body } = await carriedWithLink();
    expect((await handOver(parcel.id, body)).statusCode).toBe(200);
    const before = { parcel: await storedParcel(t.app, parcel.id), events: await storedEvents(t.app, parcel.id) };

    const replayed = await handOver(parcel.id, body);
    expect(replayed.statusCode).toBe(409);
    expect(replayed.json().error).toEqual(alreadyHandedOver);
    expect(await storedParcel(t.app, parcel.id)).toEqual(before.parcel);
    expect(await storedEvents(t.app, parcel.id)).toEqual(before.events);
    // The receiver's page, reloaded, learns it is done rather than failing.
    expect((await summary(parcel.id, body.token)).json().status).toBe('delivered');
  });

  it('lets only one of two simultaneous confirmations through; the other is told it is done', async () => {
    const { parcel, body } = await carriedWithLink();
    const responses = await Promise.all([handOver(parcel.id, body), handOver(parcel.id, body)]);
    expect(responses.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    expect(responses.find((r) => r.statusCode === 409)?.json().error).toEqual(alreadyHandedOver);
    const handovers = (await storedEvents(t.app, parcel.id)).filter((e) => e.kind === 'handed_over_qr');
    expect(handovers).toHaveLength(1);
  });

  it('takes futar and felado in any case', async () => {
    const { parcel, body } = await carriedWithLink();
    const response = await handOver(parcel.id, {
      ...body,
      futar: body.futar?.toUpperCase(),
      felado: body.felado?.toUpperCase(),
    });
    expect(response.statusCode).toBe(200);
  });

  it('refuses a tampered, expired or other parcel’s token, or the wrong runner or sender, changing nothing', async () => {
    const { runner, parcel, body } = await carriedWithLink();
    const { body: otherBody } = await carriedWithLink();
    const stranger = await signUp(t.app, { role: 'runner' });
    const expired = await tokenSignedAt(parcel, runner.account.userName, Date.now() - HANDOVER_TOKEN_TTL_MS - 1000);
    const [expiry, signature] = body.token.split('.');
    const later = `${(Number.parseInt(expiry ?? '', 36) + 60_000).toString(36)}.${signature}`;
    for (const attempt of [
      { ...body, token: expired },
      { ...body, token: later },
      { ...body, token: otherBody.token },
      { ...body, futar: stranger.account.userName },
      { ...body, felado: stranger.account.userName },
    ]) {
      const response = await handOver(parcel.id, attempt);
      expect(response.statusCode).toBe(403);
      expect(response.json().error).toEqual(invalidLink);
    }
    expect(await storedParcel(t.app, parcel.id)).toMatchObject({ status: 'in_transit', delivered_at: null });
    expect((await storedEvents(t.app, parcel.id)).map((e) => e.kind)).toEqual(['created', 'picked_up']);
  });

  it('refuses a link made before the parcel changed hands', async () => {
    const { parcel, body } = await carriedWithLink();
    const newRunner = await signUp(t.app, { role: 'runner' });
    const newRunnerId = (
      await t.store.db
        .selectFrom('accounts')
        .select('id')
        .where('user_name', '=', newRunner.account.userName)
        .executeTakeFirstOrThrow()
    ).id;
    await t.store.db.updateTable('parcels').set({ runner_id: newRunnerId }).where('id', '=', parcel.id).execute();
    const response = await handOver(parcel.id, { ...body, futar: newRunner.account.userName });
    expect(response.statusCode).toBe(403);
    expect(response.json().error).toEqual(invalidLink);
    expect(await storedParcel(t.app, parcel.id)).toMatchObject({ status: 'in_transit' });
  });

  it.each([
    ['token', 'nem-token', messages.handoverInvalid],
    ['token', undefined, messages.handoverInvalid],
    ['futar', 'ék', messages.invalidUserName],
    ['felado', undefined, messages.required],
  ])('refuses a bad %s (%j) with 400 naming the field, changing nothing', async (field, value, message) => {
    const { parcel, body } = await carriedWithLink();
    const payload: Record<string, unknown> = { ...body, [field]: value };
    if (value === undefined) delete payload[field];
    const response = await handOver(parcel.id, payload);
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe('invalid_body');
    expect(response.json().error.fields).toEqual({ [field]: message });
    expect(await storedParcel(t.app, parcel.id)).toMatchObject({ status: 'in_transit' });
  });

  it('answers 404 for an unknown parcel', async () => {
    const { body } = await carriedWithLink();
    const response = await handOver('0000000000', body);
    expect(response.statusCode).toBe(404);
    expect(response.json().error).toEqual({ code: 'parcel_not_found', message: messages.parcelNotFound });
  });
});
