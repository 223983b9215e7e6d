import { RECEIVER_LINK_HEADER } from '@csomag/domain/mail';
import { messages } from '@csomag/domain/messages';
import type { Parcel } from '@csomag/domain/parcel';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Cast,
  carriedFor,
  DEBRECEN_DOOR,
  DEBRECEN_SHOP,
  dropPointBody,
  requestsOf,
  signUpCast,
} from '../../test/cast.ts';
import { northOf, storedEvents, storedParcel } from '../../test/delivery.ts';
import { createTestApp, type SignedIn, signUp, type TestApp } from '../../test/harness.ts';
import { postPhoto, testPicture } from '../../test/photo.ts';
import { readChain, verifyChain } from '../relay/chain.ts';
import { mailKeys, receiverLinkToken } from './parcel-mail.ts';

/**
 * The receiver without an account chooses after a failed attempt (issues 28 and 29): the link in
 * their mail lets them read the attempts and the photo of the door, ask for a new time, a
 * neighbour or a drop point, and collect the parcel from the neighbour — for that parcel alone,
 * and nothing else.
 */
let t: TestApp;
let cast: Cast;
let staff: SignedIn;
let dropPointId: number;

const DOOR = DEBRECEN_DOOR;
const SHOP = DEBRECEN_SHOP;
const atDoor = { ...northOf(DOOR, 3), accuracy: 5 };

beforeAll(async () => {
  t = await createTestApp();
  cast = await signUpCast(t.app);
  staff = await signUp(t.app);
  const point = await post(cast.admin, '/api/drop-points', dropPointBody(staff.account.userName));
  dropPointId = point.json().id;
});
afterAll(() => t.close());

const { post, get } = requestsOf(() => t.app);
let counter = 0;

/** A parcel whose sender typed its receiver's email, carried and tried once at the door; with the receiver's link key. */
async function attemptedWithLink(): Promise<{ parcel: Parcel; key: string }> {
  counter += 1;
  const email = `linkes${counter}.${Date.now().toString(36)}@example.hu`;
  const parcel = await carriedFor(t.app, cast, { receiverCoordinates: DOOR, receiverEmail: email });
  const attempt = await post(cast.runner, `/api/parcels/${parcel.id}/attempts`, {
    reason: 'nobody_home',
    position: atDoor,
  });
  expect(attempt.statusCode, attempt.body).toBe(201);
  return { parcel, key: receiverLinkToken(mailKeys(t.app.config.sessionSecret), parcel.id, email) };
}

/** A request as the receiver by their link: no cookie, the key in its header. */
const byLink = (key: string, method: 'GET' | 'POST', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: { [RECEIVER_LINK_HEADER]: key }, ...(payload ? { payload } : {}) });

const hourFromNow = () => {
  const from = new Date(Date.now() + 3_600_000);
  return { from: from.toISOString(), until: new Date(from.getTime() + 2 * 3_600_000).toISOString() };
};

/** What a refused call must leave: the parcel row and its timeline as they were. */
async function unchanged(parcelId: string, call: () => Promise<LightMyRequestResponse>) {
  const before = await storedParcel(t.app, parcelId);
  const events = await storedEvents(t.app, parcelId);
  const response = await call();
  expect(await storedParcel(t.app, parcelId)).toEqual(before);
  expect(await storedEvents(t.app, parcelId)).toEqual(events);
  return response;
}

describe('the receiver by the link in their mail', () => {
  it('reads the failed attempts and the photo of the door', async () => {
    const { parcel, key } = await attemptedWithLink();
    const list = await byLink(key, 'GET', `/api/parcels/${parcel.id}/attempts`);
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().items).toMatchObject([{ number: 1, reason: 'nobody_home', photo: false }]);

    const uploaded = await postPhoto(
      t.app,
      cast.runner,
      `/api/parcels/${parcel.id}/attempts/1/photo`,
      await testPicture({ red: 0 }),
    );
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    const image = await byLink(key, 'GET', `/api/parcels/${parcel.id}/attempts/1/photo`);
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/jpeg');
  });

  it('asks for a new time and a neighbour: recorded as the receiver by link, the runner sees them', async () => {
    const { parcel, key } = await attemptedWithLink();
    const window = hourFromNow();
    const asked = await byLink(key, 'POST', `/api/parcels/${parcel.id}/redelivery`, window);
    expect(asked.statusCode, asked.body).toBe(200);
    expect(asked.json()).toMatchObject({ state: 'attempted', redelivery: window });
    const wish = { name: 'Kovács Béla', door: '2. emelet 5.' };
    const neighbour = await byLink(key, 'POST', `/api/parcels/${parcel.id}/neighbour-wish`, wish);
    expect(neighbour.statusCode, neighbour.body).toBe(200);
    const mine = (await get(cast.runner, '/api/me/assigned-parcels')).json();
    expect(mine.items.find((item: Parcel) => item.id === parcel.id)).toMatchObject({
      redelivery: window,
      neighbourWish: wish,
    });
    // On the timeline with no account as its actor: the receiver has none.
    const events = await storedEvents(t.app, parcel.id);
    expect(events.slice(-2)).toMatchObject([
      { kind: 'redelivery_requested', actor_id: null },
      { kind: 'neighbour_requested', actor_id: null },
    ]);
    // Bad input by link: a Hungarian 400, nothing changed.
    const bad = await unchanged(parcel.id, () =>
      byLink(key, 'POST', `/api/parcels/${parcel.id}/neighbour-wish`, { name: ' ', door: '1' }),
    );
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.fields.name).toBe(messages.neighbourNameInvalid);
  });

  it('chooses a drop point from the public list; the parcel goes there, not to the door', async () => {
    const { parcel, key } = await attemptedWithLink();
    const points = await get(null, '/api/drop-points');
    expect(points.json().items.map((point: { id: number }) => point.id)).toContain(dropPointId);
    const chosen = await byLink(key, 'POST', `/api/parcels/${parcel.id}/drop-point`, { dropPointId });
    expect(chosen.statusCode, chosen.body).toBe(200);
    expect(chosen.json()).toMatchObject({ dropPoint: { id: dropPointId, name: 'Sarki trafik' } });
    expect(await storedParcel(t.app, parcel.id)).toMatchObject({
      drop_point_id: dropPointId,
      receiver_lat: SHOP.lat,
      receiver_lng: SHOP.lng,
      status: 'in_transit',
      holder_kind: 'runner',
    });
    const staffView = (await get(staff, `/api/drop-points/${dropPointId}/parcels`)).json();
    expect(JSON.stringify(staffView)).toContain(parcel.id);
    // The receiver's code for the counter, by the same link, once it is there (its own test: drop-points).
    expect((await byLink(key, 'GET', `/api/parcels/${parcel.id}/receiver-code`)).statusCode).toBe(409);
  });

  it('collects it from the neighbour with the code on the notice: custody to the receiver, the chain intact', async () => {
    const { parcel, key } = await attemptedWithLink();
    const left = await post(cast.runner, `/api/parcels/${parcel.id}/neighbour`, {
      name: 'Kovács Béla',
      door: '2. emelet 5.',
      confirmedName: 'Kovács Béla',
      position: atDoor,
    });
    expect(left.statusCode, left.body).toBe(201);
    const { pin } = left.json();
    const wrongPin = String((Number(pin) + 1) % 1_000_000).padStart(6, '0');
    const wrong = await unchanged(parcel.id, () =>
      byLink(key, 'POST', `/api/parcels/${parcel.id}/collect`, { pin: wrongPin }),
    );
    expect(wrong.json().error).toEqual({ code: 'handover_pin_wrong', message: messages.handoverPinWrong(4) });
    const collected = await byLink(key, 'POST', `/api/parcels/${parcel.id}/collect`, { pin });
    expect(collected.statusCode, collected.body).toBe(200);
    expect(collected.json()).toMatchObject({ status: 'delivered' });
    expect((await readChain(t.store.db, parcel.id)).at(-1)).toMatchObject({
      kind: 'collected',
      to_kind: 'receiver',
      how: 'receiver_pin',
      confirmed_by: null,
    });
    expect(await verifyChain(t.store.db, parcel.id)).toMatchObject({ ok: true });
  });

  it('refuses a wrong key, another parcel’s key and an unknown parcel alike, changing nothing', async () => {
    const { parcel, key } = await attemptedWithLink();
    const other = await attemptedWithLink();
    const tampered = `${key.slice(0, -1)}${key.endsWith('A') ? 'B' : 'A'}`;
    const window = hourFromNow();
    for (const [id, bad] of [
      [parcel.id, tampered],
      [parcel.id, other.key],
      [parcel.id, ''],
      [parcel.id, `${key}${'x'.repeat(300)}`],
      ['0000000000', key],
    ] as const) {
      for (const [method, path, body] of [
        ['GET', 'attempts', undefined],
        ['GET', 'attempts/1/photo', undefined],
        ['POST', 'redelivery', window],
        ['POST', 'neighbour-wish', { name: 'Kovács Béla', door: '5' }],
        ['POST', 'drop-point', { dropPointId }],
        ['POST', 'collect', { pin: '123456' }],
      ] as const) {
        const url = `/api/parcels/${id}/${path}`;
        const refused =
          id === parcel.id
            ? await unchanged(parcel.id, () => byLink(bad, method, url, body))
            : await byLink(bad, method, url, body);
        expect(refused.statusCode, `${method} ${path}`).toBe(403);
        expect(refused.json().error).toMatchObject({
          code: 'receiver_link_invalid',
          message: messages.receiverLinkInvalid,
        });
      }
    }
  });

  it('opens nothing else: the carrier’s, the sender’s and the back office’s routes still want their account', async () => {
    const { parcel, key } = await attemptedWithLink();
    for (const [method, path, body] of [
      ['POST', `parcels/${parcel.id}/return`, { reason: 'Nem találom a címet' }],
      ['POST', `parcels/${parcel.id}/attempts`, { reason: 'nobody_home', position: atDoor }],
      ['POST', `parcels/${parcel.id}/not-received`, { reason: 'Nem jött meg' }],
      ['GET', `parcels/${parcel.id}`, undefined],
      ['GET', `parcels/${parcel.id}/handover-pin`, undefined],
      ['GET', `parcels/${parcel.id}/proofs`, undefined],
    ] as const) {
      const response = await unchanged(parcel.id, () => byLink(key, method, `/api/${path}`, body));
      expect(response.statusCode, `${method} ${path}`).toBe(401);
    }
    // And with a link, a signed-in stranger is still only the receiver by link: theirs to read, not more.
    const strangerWithLink = await t.app.inject({
      method: 'GET',
      url: `/api/parcels/${parcel.id}/attempts`,
      headers: { cookie: cast.otherUser.cookie, [RECEIVER_LINK_HEADER]: key },
    });
    expect(strangerWithLink.statusCode).toBe(200);
    expect((await get(cast.otherUser, `/api/parcels/${parcel.id}/attempts`)).statusCode).toBe(403);
  });

  it('is refused once the parcel turns back: the way home is the sender’s', async () => {
    const { parcel, key } = await attemptedWithLink();
    const turned = await post(cast.runner, `/api/parcels/${parcel.id}/return`, { reason: 'Senki nem veszi át' });
    expect(turned.statusCode, turned.body).toBe(200);
    const late = await unchanged(parcel.id, () =>
      byLink(key, 'POST', `/api/parcels/${parcel.id}/redelivery`, hourFromNow()),
    );
    expect(late.statusCode).toBe(409);
    expect(late.json().error).toMatchObject({ code: 'redelivery_not_now', message: messages.redeliveryNotNow });
    const noPoint = await unchanged(parcel.id, () =>
      byLink(key, 'POST', `/api/parcels/${parcel.id}/drop-point`, { dropPointId }),
    );
    expect(noPoint.statusCode).toBe(409);
  });
});
