import { HANDOVER_TOKEN_TTL_MS } from '@csomag/domain/constants';
import { messages } from '@csomag/domain/messages';
import { paths } from '@csomag/domain/paths';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pickUp, storedEvents, storedParcel } from '../../test/delivery.ts';
import { createTestApp, type SignedIn, signInSuperadmin, signUp, type TestApp } from '../../test/harness.ts';
import { sendParcel } from '../../test/parcels.ts';
import { readChain, verifyChain } from './chain.ts';
import { relayKey, signRelayToken } from './token.ts';

let t: TestApp;
let admin: SignedIn;
let sender: SignedIn;
beforeAll(async () => {
  t = await createTestApp();
  admin = await signInSuperadmin(t.app);
  sender = await signUp(t.app);
});
afterAll(() => t.close());

const requestLink = (parcelId: string, who?: SignedIn) =>
  t.app.inject({
    method: 'POST',
    url: `/api/parcels/${parcelId}/relay-token`,
    payload: {},
    ...(who ? { headers: { cookie: who.cookie } } : {}),
  });
const summary = (parcelId: string, token: string, who?: SignedIn) =>
  t.app.inject({
    method: 'GET',
    url: `/api/relay/${parcelId}`,
    query: { token },
    ...(who ? { headers: { cookie: who.cookie } } : {}),
  });
const confirm = (parcelId: string, payload: Record<string, unknown>, who?: SignedIn) =>
  t.app.inject({
    method: 'POST',
    url: `/api/parcels/${parcelId}/relay`,
    payload,
    ...(who ? { headers: { cookie: who.cookie } } : {}),
  });

/** A parcel runner A carries, and the relay link A shows. */
async function carriedWithLink() {
  const carrier = await signUp(t.app, { role: 'runner' });
  const parcel = await sendParcel(t.app, sender.cookie);
  await pickUp(t.app, carrier.cookie, parcel.id);
  const response = await requestLink(parcel.id, carrier);
  expect(response.statusCode).toBe(200);
  const link = response.json() as { url: string; expiresAt: string; pin: string };
  const token = new URL(link.url).searchParams.get('token') ?? '';
  return { carrier, parcel, link, token };
}

/** What a refused call must leave exactly as it was. */
const snapshot = async (parcelId: string) => ({
  parcel: await storedParcel(t.app, parcelId),
  events: await storedEvents(t.app, parcelId),
  custody: await readChain(t.store.db, parcelId),
});

const accountId = async (userName: string) =>
  (await t.store.db.selectFrom('accounts').select('id').where('user_name', '=', userName).executeTakeFirstOrThrow()).id;

describe('POST /api/parcels/:id/relay-token', () => {
  it('gives the holder a link to the next runner’s page, valid 15 minutes', async () => {
    const before = Date.now();
    const { parcel, link, token } = await carriedWithLink();
    const url = new URL(link.url);
    expect(`${url.origin}${url.pathname}`).toBe(`http://localhost${paths.runnerTakeOver}`);
    expect(Object.fromEntries(url.searchParams)).toEqual({ csomag: parcel.id, token });
    expect(Date.parse(link.expiresAt)).toBeGreaterThanOrEqual(before + HANDOVER_TOKEN_TTL_MS);
  });

  it('refuses another runner, a user, anonymous, and a parcel not in transit', async () => {
    const { parcel } = await carriedWithLink();
    const other = await signUp(t.app, { role: 'runner' });
    expect((await requestLink(parcel.id, other)).json().error.code).toBe('not_your_parcel');
    expect((await requestLink(parcel.id, sender)).statusCode).toBe(403);
    expect((await requestLink(parcel.id)).statusCode).toBe(401);
    const waiting = await sendParcel(t.app, sender.cookie);
    expect((await requestLink(waiting.id, other)).json().error.code).toBe('parcel_not_in_transit');
  });
});

describe('GET /api/relay/:id and POST /api/parcels/:id/relay', () => {
  it('shows the summary, then moves custody to the taker: runner, holder, custody event, timeline, one change', async () => {
    const { carrier, parcel, token } = await carriedWithLink();
    const taker = await signUp(t.app, { role: 'runner' });
    const shown = await summary(parcel.id, token, taker);
    expect(shown.statusCode).toBe(200);
    expect(shown.json()).toMatchObject({ id: parcel.id, runner: carrier.account.userName, status: 'in_transit' });
    const lastChange = await t.store.db
      .selectFrom('change_log')
      .select((eb) => eb.fn.max('id').as('id'))
      .executeTakeFirst();

    const place = { lat: 47.5106, lng: 19.0567 };
    const response = await confirm(parcel.id, { token, place }, taker);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ id: parcel.id, runner: taker.account.userName, status: 'in_transit' });

    const stored = await storedParcel(t.app, parcel.id);
    const takerId = await accountId(taker.account.userName);
    expect(stored).toMatchObject({ runner_id: takerId, holder_kind: 'runner', holder_id: takerId, custody_seq: 2 });
    const chain = await readChain(t.store.db, parcel.id);
    expect(chain.map((event) => event.kind)).toEqual(['created', 'picked_up', 'relayed']);
    expect(chain[2]).toMatchObject({
      from_kind: 'runner',
      from_id: await accountId(carrier.account.userName),
      to_kind: 'runner',
      to_id: takerId,
      lat: place.lat,
      lng: place.lng,
      how: 'runner_qr',
      confirmed_by: takerId,
    });
    expect(await verifyChain(t.store.db, parcel.id)).toMatchObject({ ok: true, events: 3 });
    const timeline = await storedEvents(t.app, parcel.id);
    expect(timeline.at(-1)).toMatchObject({ kind: 'relayed' });
    expect(JSON.parse(String(timeline.at(-1)?.data))).toEqual({
      from: carrier.account.userName,
      to: taker.account.userName,
      place,
      placeName: 'Budapest VI. kerület',
    });
    // One change message; it names the old runner as before, so their `me` list hears it leave.
    const changes = await t.store.db
      .selectFrom('change_log')
      .select(['id', 'change'])
      .where('id', '>', Number(lastChange?.id ?? 0))
      .execute();
    const mine = changes.map((row) => JSON.parse(String(row.change))).filter((c) => c.parcelId === parcel.id);
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({
      kind: 'relayed',
      runner: taker.account.userName,
      previous: { runner: carrier.account.userName },
    });
    // The old carrier's in-progress list lost it; the taker's has it.
    const carried = async (who: SignedIn) =>
      (await t.app.inject({ method: 'GET', url: '/api/me/assigned-parcels', headers: { cookie: who.cookie } })).json();
    const oldList = await carried(carrier);
    const newList = await carried(taker);
    const ids = (list: { items?: { id: string }[] } | { id: string }[]) =>
      (Array.isArray(list) ? list : (list.items ?? [])).map((item) => item.id);
    expect(ids(oldList)).not.toContain(parcel.id);
    expect(ids(newList)).toContain(parcel.id);
    // The public tracking page: the taker is the runner now, and the timeline tells the leg with
    // the place's name only (no coordinates leave the server through it).
    const tracking = await t.app.inject({ method: 'GET', url: `/api/tracking/${parcel.id}` });
    expect(tracking.statusCode).toBe(200);
    expect(tracking.json().runner).toBe(taker.account.userName);
    expect(tracking.json().events.at(-1)).toMatchObject({
      kind: 'relayed',
      relay: { from: carrier.account.userName, to: taker.account.userName, place: 'Budapest VI. kerület' },
    });
    expect(tracking.body).not.toContain('19.0567');
  });

  it('of 20 runners confirming the same link at once, exactly one becomes the holder; the rest are refused', async () => {
    const { parcel, token } = await carriedWithLink();
    const runners = await Promise.all(Array.from({ length: 20 }, () => signUp(t.app, { role: 'runner' })));
    const answers = await Promise.all(runners.map((runner) => confirm(parcel.id, { token }, runner)));
    const won = answers.filter((answer) => answer.statusCode === 200);
    expect(won).toHaveLength(1);
    for (const answer of answers.filter((a) => a.statusCode !== 200)) {
      expect(answer.statusCode).toBe(409);
      expect(answer.json().error).toEqual({ code: 'relay_link_used', message: messages.relayLinkUsed });
    }
    const winner = won[0]?.json().runner as string;
    const stored = await storedParcel(t.app, parcel.id);
    expect(stored.holder_id).toBe(await accountId(winner));
    const chain = await readChain(t.store.db, parcel.id);
    expect(chain.filter((event) => event.kind === 'relayed')).toHaveLength(1);
    expect((await storedEvents(t.app, parcel.id)).filter((event) => event.kind === 'relayed')).toHaveLength(1);
    expect(await verifyChain(t.store.db, parcel.id)).toMatchObject({ ok: true });
  });

  it('refuses a tampered, expired, replayed or other parcel’s link, and the carrier themself, changing nothing', async () => {
    const { carrier, parcel, token } = await carriedWithLink();
    const taker = await signUp(t.app, { role: 'runner' });
    const before = await snapshot(parcel.id);
    const refusedWith = async (payloadToken: string, who: SignedIn, code: string, parcelId = parcel.id) => {
      const shown = await summary(parcelId, payloadToken, who);
      const answer = await confirm(parcelId, { token: payloadToken }, who);
      expect(shown.json().error?.code).toBe(code);
      expect(answer.json().error?.code).toBe(code);
      expect(await snapshot(parcel.id)).toEqual(before);
    };
    // Tampered: another last character of the mac, and another seq in the head.
    const flipped = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
    await refusedWith(flipped, taker, 'relay_link_invalid');
    const [issuer = '', , expiry = '', mac = ''] = token.split('.');
    await refusedWith(`${issuer}.5.${expiry}.${mac}`, taker, 'relay_link_invalid');
    // Another parcel's link for this one.
    const other = await carriedWithLink();
    await refusedWith(other.token, taker, 'relay_link_invalid');
    // Expired: a genuine token signed 16 minutes ago.
    const key = relayKey(t.app.config.sessionSecret);
    const claims = { parcelId: parcel.id, issuerId: await accountId(carrier.account.userName), seq: 1 };
    const old = signRelayToken(key, claims, Date.now() - HANDOVER_TOKEN_TTL_MS - 60_000).token;
    await refusedWith(old, taker, 'relay_link_expired');
    // The carrier opening their own link.
    await refusedWith(token, carrier, 'relay_own_parcel');
    // A user, anonymous.
    expect((await confirm(parcel.id, { token }, sender)).statusCode).toBe(403);
    expect((await confirm(parcel.id, { token })).statusCode).toBe(401);
    expect((await summary(parcel.id, token)).statusCode).toBe(401);
    expect(await snapshot(parcel.id)).toEqual(before);
    // Bad input: a malformed token, a place that is no coordinate.
    const malformed = await confirm(parcel.id, { token: 'nope' }, taker);
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().error.message).toBeTruthy();
    expect((await confirm(parcel.id, { token, place: { lat: 200, lng: 19 } }, taker)).statusCode).toBe(400);
    expect(await snapshot(parcel.id)).toEqual(before);

    // Used once, then replayed: by the taker and by a third runner.
    expect((await confirm(parcel.id, { token }, taker)).statusCode).toBe(200);
    const after = await snapshot(parcel.id);
    const third = await signUp(t.app, { role: 'runner' });
    expect((await confirm(parcel.id, { token }, third)).json().error.code).toBe('relay_link_used');
    expect((await confirm(parcel.id, { token }, taker)).json().error.code).toBe('relay_link_used');
    expect((await summary(parcel.id, token, third)).json().error.code).toBe('relay_link_used');
    expect(await snapshot(parcel.id)).toEqual(after);
  });

  it('refuses a link whose issuer no longer holds the parcel (put back in the pool and picked up again)', async () => {
    const { carrier, parcel, token } = await carriedWithLink();
    const putBack = await t.app.inject({
      method: 'PATCH',
      url: `/api/parcels/${parcel.id}`,
      headers: { cookie: admin.cookie },
      payload: { status: 'waiting', reason: 'Nem ér oda' },
    });
    expect(putBack.statusCode).toBe(200);
    await pickUp(t.app, carrier.cookie, parcel.id);
    const before = await snapshot(parcel.id);
    const taker = await signUp(t.app, { role: 'runner' });
    expect((await confirm(parcel.id, { token }, taker)).json().error.code).toBe('relay_link_used');
    expect(await snapshot(parcel.id)).toEqual(before);
  });

  it('a hand-over or delivery by anyone but the holder is 403 and changes nothing', async () => {
    const { parcel } = await carriedWithLink();
    const other = await signUp(t.app, { role: 'runner' });
    const before = await snapshot(parcel.id);
    for (const url of [`/api/parcels/${parcel.id}/relay-token`, `/api/parcels/${parcel.id}/handover-token`]) {
      const answer = await t.app.inject({ method: 'POST', url, headers: { cookie: other.cookie }, payload: {} });
      expect(answer.statusCode).toBe(403);
    }
    const delivery = await t.app.inject({
      method: 'POST',
      url: `/api/parcels/${parcel.id}/deliver`,
      headers: { cookie: other.cookie },
      payload: { lat: 47.5, lng: 19.05, accuracy: 5 },
    });
    expect(delivery.statusCode).toBe(403);
    expect(await snapshot(parcel.id)).toEqual(before);
  });
});

describe('a relay hand-over with the code the carrier reads out (issue 28)', () => {
  it('moves custody to the runner who types it: recorded as by code, dead once used', async () => {
    const { carrier, parcel, link } = await carriedWithLink();
    expect(link.pin).toMatch(/^[0-9]{6}$/);
    // Asked again at the same leg: the same code (it is the leg's, not the link's).
    expect((await requestLink(parcel.id, carrier)).json().pin).toBe(link.pin);
    const taker = await signUp(t.app, { role: 'runner' });
    const taken = await confirm(parcel.id, { pin: link.pin }, taker);
    expect(taken.statusCode, taken.body).toBe(200);
    expect(taken.json()).toMatchObject({ id: parcel.id, runner: taker.account.userName });
    const takerId = await accountId(taker.account.userName);
    expect((await readChain(t.store.db, parcel.id)).at(-1)).toMatchObject({
      kind: 'relayed',
      from_id: await accountId(carrier.account.userName),
      to_id: takerId,
      how: 'runner_pin',
      confirmed_by: takerId,
    });
    expect(await verifyChain(t.store.db, parcel.id)).toMatchObject({ ok: true });
    // Used: the next leg has another code; the old one hands nothing over, not even back.
    const after = await snapshot(parcel.id);
    const again = await confirm(parcel.id, { pin: link.pin }, carrier);
    expect(again.statusCode).toBe(422);
    expect(again.json().error.code).toBe('handover_pin_wrong');
    expect(await snapshot(parcel.id)).toEqual(after);
    expect((await requestLink(parcel.id, taker)).json().pin).not.toBe(link.pin);
  });

  it('refuses a wrong code (saying how many tries are left), then locks the leg; the holder, a user and bad input; changing nothing', async () => {
    const { carrier, parcel, link } = await carriedWithLink();
    const taker = await signUp(t.app, { role: 'runner' });
    const before = await snapshot(parcel.id);
    const wrong = String((Number(link.pin) + 1) % 1_000_000).padStart(6, '0');
    expect((await confirm(parcel.id, { pin: link.pin }, carrier)).json().error.code).toBe('relay_own_parcel');
    expect((await confirm(parcel.id, { pin: link.pin }, sender)).statusCode).toBe(403);
    expect((await confirm(parcel.id, { pin: link.pin })).statusCode).toBe(401);
    for (const [payload, field] of [
      [{ pin: '12345' }, 'pin'],
      [{ pin: 'abcdef' }, 'pin'],
      [{}, 'token'],
      [{ pin: link.pin, token: 'a.b.c.d' }, 'token'],
    ] as const) {
      const bad = await confirm(parcel.id, payload, taker);
      expect(bad.statusCode, JSON.stringify(payload)).toBe(400);
      expect(bad.json().error.fields[field]).toBeTruthy();
    }
    const first = await confirm(parcel.id, { pin: wrong }, taker);
    expect(first.statusCode).toBe(422);
    expect(first.json().error).toEqual({ code: 'handover_pin_wrong', message: messages.handoverPinWrong(4) });
    for (let n = 0; n < 3; n++) await confirm(parcel.id, { pin: wrong }, taker);
    const locked = await confirm(parcel.id, { pin: wrong }, taker);
    expect(locked.json().error).toEqual({ code: 'handover_pin_locked', message: messages.handoverPinLocked });
    // Locked: the right code too, for this leg; the QR link still hands it over.
    expect((await confirm(parcel.id, { pin: link.pin }, taker)).json().error.code).toBe('handover_pin_locked');
    expect(await snapshot(parcel.id)).toEqual(before);
    const token = new URL(link.url).searchParams.get('token') ?? '';
    expect((await confirm(parcel.id, { token }, taker)).statusCode).toBe(200);
  });

  it('of 10 runners typing the right code at once, exactly one becomes the holder', async () => {
    const { parcel, link } = await carriedWithLink();
    const runners = await Promise.all(Array.from({ length: 10 }, () => signUp(t.app, { role: 'runner' })));
    const answers = await Promise.all(runners.map((runner) => confirm(parcel.id, { pin: link.pin }, runner)));
    expect(answers.filter((answer) => answer.statusCode === 200)).toHaveLength(1);
    for (const answer of answers.filter((a) => a.statusCode !== 200)) {
      expect(answer.statusCode).toBeGreaterThanOrEqual(400);
    }
    const chain = await readChain(t.store.db, parcel.id);
    expect(chain.filter((event) => event.kind === 'relayed')).toHaveLength(1);
    expect(await verifyChain(t.store.db, parcel.id)).toMatchObject({ ok: true });
  });
});

describe('POST /api/parcels/:id/custody-override', () => {
  it('lets the superadmin name the holder with a reason, recorded as an override', async () => {
    const { carrier, parcel } = await carriedWithLink();
    const next = await signUp(t.app, { role: 'runner' });
    const answer = await t.app.inject({
      method: 'POST',
      url: `/api/parcels/${parcel.id}/custody-override`,
      headers: { cookie: admin.cookie },
      payload: { runner: next.account.userName, reason: 'A futár átadta, de nem rögzítette' },
    });
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toMatchObject({ runner: next.account.userName });
    const chain = await readChain(t.store.db, parcel.id);
    expect(chain.at(-1)).toMatchObject({
      kind: 'override',
      from_id: await accountId(carrier.account.userName),
      to_id: await accountId(next.account.userName),
      how: 'admin',
      reason: 'A futár átadta, de nem rögzítette',
    });
    expect(await verifyChain(t.store.db, parcel.id)).toMatchObject({ ok: true });
    const view = await t.app.inject({
      method: 'GET',
      url: `/api/parcels/${parcel.id}/custody`,
      headers: { cookie: admin.cookie },
    });
    expect(view.statusCode).toBe(200);
    expect(view.json().firstBadSeq).toBeNull();
    expect(view.json().events.map((event: { kind: string }) => event.kind)).toEqual([
      'created',
      'picked_up',
      'override',
    ]);
  });

  it('refuses without a reason, a runner, or as anyone else, changing nothing', async () => {
    const { carrier, parcel } = await carriedWithLink();
    const before = await snapshot(parcel.id);
    const override = (who: SignedIn, payload: object) =>
      t.app.inject({
        method: 'POST',
        url: `/api/parcels/${parcel.id}/custody-override`,
        headers: { cookie: who.cookie },
        payload,
      });
    const noReason = await override(admin, { runner: carrier.account.userName, reason: ' ' });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json().error.fields.reason).toBe(messages.custodyOverrideReasonRequired);
    expect((await override(admin, { runner: sender.account.userName, reason: 'x' })).json().error.code).toBe(
      'assignee_not_runner',
    );
    expect((await override(admin, { runner: carrier.account.userName, reason: 'x' })).json().error.code).toBe(
      'custody_unchanged',
    );
    expect((await override(carrier, { runner: carrier.account.userName, reason: 'x' })).statusCode).toBe(403);
    expect(await snapshot(parcel.id)).toEqual(before);
  });
});

describe('a hand-over at a relay offer ("Továbbadnám")', () => {
  const meetingPoint = { lat: 47.5106, lng: 19.0567 };
  async function offered(carrier: SignedIn, parcelId: string, placeLabel?: string) {
    const from = new Date(Date.now() - 60_000).toISOString();
    const until = new Date(Date.now() + 3_600_000).toISOString();
    const response = await t.app.inject({
      method: 'POST',
      url: `/api/parcels/${parcelId}/relay-offer`,
      headers: { cookie: carrier.cookie },
      payload: { place: meetingPoint, ...(placeLabel ? { placeLabel } : {}), from, until },
    });
    expect(response.statusCode).toBe(201);
    return response.json() as { id: number };
  }
  const take = (offerId: number, who: SignedIn) =>
    t.app.inject({ method: 'POST', url: `/api/relay-offers/${offerId}/take`, headers: { cookie: who.cookie } });

  it('is named by the meeting point’s label on the tracking page, also when the taker sent no position', async () => {
    const { carrier, parcel, token } = await carriedWithLink();
    const offer = await offered(carrier, parcel.id, 'Nyugati pu.');
    const taker = await signUp(t.app, { role: 'runner' });
    expect((await take(offer.id, taker)).statusCode).toBe(200);
    expect((await confirm(parcel.id, { token }, taker)).statusCode).toBe(200);
    const tracking = (await t.app.inject({ method: 'GET', url: `/api/tracking/${parcel.id}` })).json();
    expect(tracking.events.at(-1).relay).toEqual({
      from: carrier.account.userName,
      to: taker.account.userName,
      place: 'Nyugati pu.',
    });
    // The custody event keeps only what was confirmed: no position was sent.
    expect((await readChain(t.store.db, parcel.id)).at(-1)).toMatchObject({ kind: 'relayed', lat: null, lng: null });
  });

  it('far from the meeting point, is named by the nearest settlement', async () => {
    const { carrier, parcel, token } = await carriedWithLink();
    await offered(carrier, parcel.id, 'Nyugati pu.');
    const taker = await signUp(t.app, { role: 'runner' });
    const szeged = { lat: 46.2551, lng: 20.1486 };
    expect((await confirm(parcel.id, { token, place: szeged }, taker)).statusCode).toBe(200);
    const tracking = (await t.app.inject({ method: 'GET', url: `/api/tracking/${parcel.id}` })).json();
    expect(tracking.events.at(-1).relay.place).toBe('Szeged');
  });

  it('reserved by one runner, refuses another runner’s confirmation and changes nothing', async () => {
    const { carrier, parcel, token } = await carriedWithLink();
    const offer = await offered(carrier, parcel.id);
    const reserving = await signUp(t.app, { role: 'runner' });
    const other = await signUp(t.app, { role: 'runner' });
    expect((await take(offer.id, reserving)).statusCode).toBe(200);
    const before = await snapshot(parcel.id);
    const refused = await confirm(parcel.id, { token }, other);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toMatchObject({
      code: 'relay_offer_reserved',
      message: messages.relayOfferReservedForOther,
    });
    expect(await snapshot(parcel.id)).toEqual(before);
    // The carrier withdraws the offer: now anyone with the link may take it over.
    const withdrawn = await t.app.inject({
      method: 'DELETE',
      url: `/api/parcels/${parcel.id}/relay-offer`,
      headers: { cookie: carrier.cookie },
    });
    expect(withdrawn.statusCode).toBe(204);
    expect((await confirm(parcel.id, { token }, other)).statusCode).toBe(200);
  });
});
