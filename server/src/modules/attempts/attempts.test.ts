import { messages } from '@csomag/domain/messages';
import type { Parcel } from '@csomag/domain/parcel';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isParcelChange } from '../../db/change-feed.ts';
import { type Cast, carriedFor, requestsOf, signUpCast } from '../../test/cast.ts';
import { northOf, pickUp, storedEvents, storedParcel } from '../../test/delivery.ts';
import { createTestApp, requestAs, type SignedIn, signUp, type TestApp } from '../../test/harness.ts';
import { sendParcel } from '../../test/parcels.ts';
import { postPhoto, testPicture } from '../../test/photo.ts';
import { removeExpiredProofImages } from '../proofs/service.ts';
import { readChain, verifyChain } from '../relay/chain.ts';

/** When a delivery does not go to plan (issue 28): attempts, a new time, the return to the sender. */
let t: TestApp;
let cast: Cast;
let admin: SignedIn;
let sender: SignedIn;
let receiver: SignedIn;
let runner: SignedIn;
let otherRunner: SignedIn;
let otherUser: SignedIn;

const DOOR = { lat: 47.5295, lng: 21.6255 };
const SENDER_DOOR = { lat: 46.2535, lng: 20.1486 };
const atDoor = { ...northOf(DOOR, 3), accuracy: 5 };
const atSenderDoor = { ...northOf(SENDER_DOOR, 3), accuracy: 5 };

beforeAll(async () => {
  t = await createTestApp();
  cast = await signUpCast(t.app);
  ({ admin, sender, receiver, runner, otherRunner, otherUser } = cast);
});
afterAll(() => t.close());

/** A parcel to the receiver's door, from the sender's door: both ends known to the metre. */
const carried = () => carriedFor(t.app, cast, { receiverCoordinates: DOOR, senderCoordinates: SENDER_DOOR });
const { post, get } = requestsOf(() => t.app);
const attempt = (who: SignedIn | null, parcelId: string, body: object = {}) =>
  post(who, `/api/parcels/${parcelId}/attempts`, { reason: 'nobody_home', position: atDoor, ...body });
const hourFromNow = () => {
  const from = new Date(Date.now() + 3_600_000);
  return { from: from.toISOString(), until: new Date(from.getTime() + 2 * 3_600_000).toISOString() };
};
const custodyKinds = async (parcelId: string) => (await readChain(t.store.db, parcelId)).map((event) => event.kind);

/** What a refused call must leave: the parcel row and its attempts as they were. */
async function unchanged(parcelId: string, call: () => Promise<{ statusCode: number }>) {
  const before = await storedParcel(t.app, parcelId);
  const attemptsBefore = await t.store.db
    .selectFrom('delivery_attempts')
    .selectAll()
    .where('parcel_id', '=', parcelId)
    .execute();
  const response = await call();
  expect(await storedParcel(t.app, parcelId)).toEqual(before);
  expect(
    await t.store.db.selectFrom('delivery_attempts').selectAll().where('parcel_id', '=', parcelId).execute(),
  ).toEqual(attemptsBefore);
  return response;
}

describe('a failed attempt (Nem sikerült kézbesíteni)', () => {
  it('leaves the parcel with its runner, tells sender and receiver, and a new time leads to the delivery', async () => {
    const parcel = await carried();
    const response = await attempt(runner, parcel.id, { note: 'Senki nem nyitott ajtót' });
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json()).toMatchObject({
      attempt: 1,
      startedReturn: false,
      parcel: { id: parcel.id, status: 'in_transit', state: 'attempted', attempts: 1, runner: runner.account.userName },
    });
    // The holder did not change: a custody event from the runner to the runner, where they stood.
    const chain = await readChain(t.store.db, parcel.id);
    expect(chain.at(-1)).toMatchObject({ kind: 'attempted', reason: 'nobody_home', lat: atDoor.lat, lng: atDoor.lng });
    expect(chain.at(-1)?.from_id).toBe(chain.at(-1)?.to_id);
    expect(await storedParcel(t.app, parcel.id)).toMatchObject({ holder_kind: 'runner', status: 'in_transit' });

    for (const who of [sender, receiver, runner, admin]) {
      const list = await get(who, `/api/parcels/${parcel.id}/attempts`);
      expect(list.statusCode, who.account.userName).toBe(200);
      expect(list.json()).toEqual({
        returnAfter: 2,
        items: [
          expect.objectContaining({
            number: 1,
            reason: 'nobody_home',
            note: 'Senki nem nyitott ajtót',
            runner: runner.account.userName,
            photo: false,
            photoSha256: null,
            startedReturn: false,
          }),
        ],
      });
    }
    expect((await get(otherUser, `/api/parcels/${parcel.id}/attempts`)).statusCode).toBe(403);
    expect((await get(otherRunner, `/api/parcels/${parcel.id}/attempts`)).statusCode).toBe(403);
    expect((await get(null, `/api/parcels/${parcel.id}/attempts`)).statusCode).toBe(401);

    const tracking = (await get(null, `/api/tracking/${parcel.id}`)).json();
    expect(tracking).toMatchObject({ state: 'attempted', attempts: 1, redelivery: null });
    expect(tracking.events.map((event: { kind: string }) => event.kind)).toContain('attempted');

    const window = hourFromNow();
    const asked = await post(receiver, `/api/parcels/${parcel.id}/redelivery`, window);
    expect(asked.statusCode, asked.body).toBe(200);
    expect(asked.json()).toMatchObject({ state: 'attempted', redelivery: window });
    const mine = (await get(runner, '/api/me/assigned-parcels')).json();
    expect(mine.items.find((item: Parcel) => item.id === parcel.id)).toMatchObject({ redelivery: window });

    const delivered = await post(runner, `/api/parcels/${parcel.id}/deliver`, atDoor);
    expect(delivered.statusCode, delivered.body).toBe(200);
    expect(delivered.json()).toMatchObject({ status: 'delivered', state: 'delivered' });
    expect(await custodyKinds(parcel.id)).toEqual(['created', 'picked_up', 'attempted', 'delivered']);
    expect(await verifyChain(t.store.db, parcel.id)).toMatchObject({ ok: true });
  });

  it('turns the parcel back to its sender at the second failed attempt; it is delivered at the sender’s door, returned', async () => {
    const parcel = await carried();
    expect((await attempt(runner, parcel.id)).json()).toMatchObject({ attempt: 1, startedReturn: false });
    const second = await attempt(runner, parcel.id);
    expect(second.json()).toMatchObject({
      attempt: 2,
      startedReturn: true,
      parcel: { state: 'returning', attempts: 0, status: 'in_transit' },
    });
    // No new time once it turned back.
    const late = await unchanged(parcel.id, () =>
      post(receiver, `/api/parcels/${parcel.id}/redelivery`, hourFromNow()),
    );
    expect(late.statusCode).toBe(409);
    expect((late as unknown as { json: () => { error: unknown } }).json().error).toEqual({
      code: 'redelivery_not_now',
      message: messages.redeliveryNotNow,
    });
    // The receiver's door is no longer where it goes: 15 m of the sender's is.
    const atReceiver = await post(runner, `/api/parcels/${parcel.id}/deliver`, atDoor);
    expect(atReceiver.statusCode).toBe(422);
    expect(atReceiver.json().error.code).toBe('too_far');
    const back = await post(runner, `/api/parcels/${parcel.id}/deliver`, atSenderDoor);
    expect(back.statusCode, back.body).toBe(200);
    expect(back.json()).toMatchObject({ status: 'returned', state: 'returned' });
    const row = await storedParcel(t.app, parcel.id);
    expect(row).toMatchObject({ status: 'returned', holder_kind: 'sender' });
    const senderId = (
      await t.store.db
        .selectFrom('accounts')
        .select('id')
        .where('user_name', '=', sender.account.userName)
        .executeTakeFirstOrThrow()
    ).id;
    expect(row.holder_id).toBe(senderId);
    expect(await custodyKinds(parcel.id)).toEqual(['created', 'picked_up', 'attempted', 'attempted', 'returned']);
    expect(await verifyChain(t.store.db, parcel.id)).toMatchObject({ ok: true });
    expect((await storedEvents(t.app, parcel.id)).map((event) => event.kind)).toEqual([
      'created',
      'picked_up',
      'attempted',
      'attempted',
      'returned',
    ]);
    // Over: nothing more happens to it.
    const after = await attempt(runner, parcel.id, { position: atSenderDoor });
    expect(after.statusCode).toBe(409);
    expect(after.json().error).toEqual({ code: 'parcel_already_delivered', message: messages.returnedParcel });
    expect((await get(null, `/api/tracking/${parcel.id}`)).json()).toMatchObject({
      status: 'returned',
      state: 'returned',
    });
    const sentList = (await get(sender, '/api/me/sent-parcels?status=returned')).json();
    expect(sentList.items.map((item: Parcel) => item.id)).toContain(parcel.id);
  });

  it('turns a refused parcel back at once, and counts attempts at the sender’s door without turning again', async () => {
    const parcel = await carried();
    const refused = await attempt(runner, parcel.id, { reason: 'refused' });
    expect(refused.json()).toMatchObject({ attempt: 1, startedReturn: true, parcel: { state: 'returning' } });
    const atSender = await attempt(runner, parcel.id, { position: atSenderDoor });
    expect(atSender.json()).toMatchObject({
      attempt: 2,
      startedReturn: false,
      parcel: { state: 'returning', attempts: 1 },
    });
    const third = await attempt(runner, parcel.id, { position: atSenderDoor });
    expect(third.json()).toMatchObject({
      attempt: 3,
      startedReturn: false,
      parcel: { state: 'returning', attempts: 2 },
    });
  });

  it('takes the position as given when the door is not known (a street or a town only)', async () => {
    const parcel = await sendParcel(t.app, sender.cookie, { receiverAddress: receiver.account.address });
    await pickUp(t.app, runner.cookie, parcel.id);
    const far = await attempt(runner, parcel.id, { position: { lat: 47.1, lng: 19.1, accuracy: 500 } });
    expect(far.statusCode, far.body).toBe(201);
  });

  it('refuses the wrong people, a parcel not in transit and a position away from the door, changing nothing', async () => {
    const waiting = await sendParcel(t.app, sender.cookie, {
      receiverAddress: receiver.account.address,
      receiverCoordinates: DOOR,
    });
    const notYet = await unchanged(waiting.id, () => attempt(runner, waiting.id));
    expect(notYet.statusCode).toBe(409);
    const parcel = await carried();
    for (const [who, status, code] of [
      [otherRunner, 403, 'not_your_parcel'],
      [sender, 403, 'forbidden'],
      [admin, 403, 'forbidden'],
      [null, 401, 'sign_in_required'],
    ] as const) {
      const response = (await unchanged(parcel.id, () => attempt(who, parcel.id))) as Awaited<ReturnType<typeof post>>;
      expect(response.statusCode).toBe(status);
      expect(response.json().error.code).toBe(code);
    }
    const far = (await unchanged(parcel.id, () =>
      attempt(runner, parcel.id, { position: { ...northOf(DOOR, 200), accuracy: 5 } }),
    )) as Awaited<ReturnType<typeof post>>;
    expect(far.statusCode).toBe(422);
    expect(far.json().error).toEqual({ code: 'too_far', message: messages.attemptTooFar(200) });
    const blurry = (await unchanged(parcel.id, () =>
      attempt(runner, parcel.id, { position: { ...atDoor, accuracy: 80 } }),
    )) as Awaited<ReturnType<typeof post>>;
    expect(blurry.json().error.code).toBe('position_too_imprecise');
  });

  it.each<[Record<string, unknown>, string, string]>([
    [{ reason: undefined }, 'reason', messages.attemptReasonInvalid],
    [{ reason: 'elment' }, 'reason', messages.attemptReasonInvalid],
    [{ reason: 'other' }, 'note', messages.attemptNoteRequired],
    [{ reason: 'other', note: ' x ' }, 'note', messages.attemptNoteRequired],
    [{ note: 'x'.repeat(501) }, 'note', messages.attemptNoteTooLong],
    [{ position: undefined }, 'position', messages.invalidCoordinates],
  ])('refuses %j with 400 naming %s, in Hungarian, changing nothing', async (body, field, message) => {
    const parcel = await carried();
    const response = (await unchanged(parcel.id, () => attempt(runner, parcel.id, body))) as Awaited<
      ReturnType<typeof post>
    >;
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe('invalid_body');
    expect(Object.keys(response.json().error.fields)).toEqual([field]);
    if (field !== 'position') expect(response.json().error.fields[field]).toBe(message);
  });
});

describe('a new time (POST /api/parcels/:id/redelivery)', () => {
  it('is for the receiver or the sender after a failed attempt only', async () => {
    const parcel = await carried();
    const early = (await unchanged(parcel.id, () =>
      post(receiver, `/api/parcels/${parcel.id}/redelivery`, hourFromNow()),
    )) as Awaited<ReturnType<typeof post>>;
    expect(early.statusCode).toBe(409);
    expect(early.json().error.code).toBe('redelivery_not_now');
    await attempt(runner, parcel.id);
    for (const [who, status] of [
      [otherUser, 403],
      [runner, 403],
      [null, 401],
    ] as const) {
      const response = await unchanged(parcel.id, () =>
        post(who, `/api/parcels/${parcel.id}/redelivery`, hourFromNow()),
      );
      expect(response.statusCode).toBe(status);
    }
    expect((await post(sender, `/api/parcels/${parcel.id}/redelivery`, hourFromNow())).statusCode).toBe(200);
  });

  it.each<[string, () => { from: string; until: string }, string]>([
    [
      'in the past',
      () => ({
        from: new Date(Date.now() - 7_200_000).toISOString(),
        until: new Date(Date.now() - 3_600_000).toISOString(),
      }),
      messages.redeliveryWindowInPast,
    ],
    [
      'ending before it starts',
      () => {
        const w = hourFromNow();
        return { from: w.until, until: w.from };
      },
      messages.redeliveryWindowOrder,
    ],
    [
      'of ten minutes',
      () => {
        const from = Date.now() + 3_600_000;
        return { from: new Date(from).toISOString(), until: new Date(from + 600_000).toISOString() };
      },
      messages.redeliveryWindowTooShort(30),
    ],
    [
      'of a day',
      () => {
        const from = Date.now() + 3_600_000;
        return { from: new Date(from).toISOString(), until: new Date(from + 86_400_000).toISOString() };
      },
      messages.redeliveryWindowTooLong(12),
    ],
    [
      'a month ahead',
      () => {
        const from = Date.now() + 30 * 86_400_000;
        return { from: new Date(from).toISOString(), until: new Date(from + 3_600_000).toISOString() };
      },
      messages.redeliveryTooFarAhead(14),
    ],
  ])('refuses a window %s, in Hungarian, changing nothing', async (_, window, message) => {
    const parcel = await carried();
    await attempt(runner, parcel.id);
    const response = (await unchanged(parcel.id, () =>
      post(receiver, `/api/parcels/${parcel.id}/redelivery`, window()),
    )) as Awaited<ReturnType<typeof post>>;
    expect(response.statusCode).toBe(400);
    expect(Object.values(response.json().error.fields)).toEqual([message]);
  });
});

describe('a neighbour asked for (POST /api/parcels/:id/neighbour-wish)', () => {
  it('is shown to the carrier after a failed attempt; refused before one, and with no name', async () => {
    const parcel = await carried();
    const wish = { name: 'Tóth Anna', door: '1. emelet 3.' };
    const early = await unchanged(parcel.id, () => post(receiver, `/api/parcels/${parcel.id}/neighbour-wish`, wish));
    expect(early.statusCode).toBe(409);
    await attempt(runner, parcel.id);
    const bad = (await unchanged(parcel.id, () =>
      post(receiver, `/api/parcels/${parcel.id}/neighbour-wish`, { name: 'T', door: '' }),
    )) as Awaited<ReturnType<typeof post>>;
    expect(bad.json().error.fields).toEqual({
      name: messages.neighbourNameInvalid,
      door: messages.neighbourDoorInvalid,
    });
    expect((await post(otherUser, `/api/parcels/${parcel.id}/neighbour-wish`, wish)).statusCode).toBe(403);
    const asked = await post(receiver, `/api/parcels/${parcel.id}/neighbour-wish`, wish);
    expect(asked.statusCode, asked.body).toBe(200);
    const mine = (await get(runner, '/api/me/assigned-parcels')).json();
    expect(mine.items.find((item: Parcel) => item.id === parcel.id)).toMatchObject({ neighbourWish: wish });
    expect((await storedEvents(t.app, parcel.id)).at(-1)).toMatchObject({ kind: 'neighbour_requested' });
  });
});

describe("'Visszaadom' made honest: the return to the sender", () => {
  it('never puts a carried parcel back in the pool; the runner keeps it until the sender confirms by QR', async () => {
    const parcel = await carried();
    expect((await post(runner, `/api/parcels/${parcel.id}/give-back`, { reason: 'Mégsem' })).statusCode).toBe(404);
    const back = await post(runner, `/api/parcels/${parcel.id}/return`, { reason: 'Elromlott a biciklim' });
    expect(back.statusCode, back.body).toBe(200);
    expect(back.json()).toMatchObject({ status: 'in_transit', state: 'returning', runner: runner.account.userName });
    expect(await storedParcel(t.app, parcel.id)).toMatchObject({ holder_kind: 'runner', status: 'in_transit' });
    const pool = (await get(runner, '/api/parcels/waiting?limit=200')).json();
    expect(pool.items.map((item: Parcel) => item.id)).not.toContain(parcel.id);
    const again = await post(runner, `/api/parcels/${parcel.id}/return`, { reason: 'Még egyszer' });
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toEqual({ code: 'already_returning', message: messages.alreadyReturning });

    // The sender scans the runner's QR code: the parcel is back with them.
    const link = await post(runner, `/api/parcels/${parcel.id}/handover-token`);
    const query = new URL(link.json().url).searchParams;
    const confirmed = await t.app.inject({
      method: 'POST',
      url: `/api/parcels/${parcel.id}/handover`,
      headers: { cookie: sender.cookie },
      payload: { token: query.get('token'), futar: query.get('futar'), felado: query.get('felado') },
    });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(confirmed.json().status).toBe('returned');
    const chain = await readChain(t.store.db, parcel.id);
    expect(chain.map((event) => [event.kind, event.how])).toEqual([
      ['created', 'sender'],
      ['picked_up', 'runner'],
      ['return_started', 'runner'],
      ['returned', 'sender_qr'],
    ]);
    expect(chain[2]?.reason).toBe('Elromlott a biciklim');
  });

  it('is the carrier’s alone, with a reason, and not for a parcel nobody carries', async () => {
    const parcel = await carried();
    for (const [who, status] of [
      [otherRunner, 403],
      [sender, 403],
      [admin, 403],
      [null, 401],
    ] as const) {
      const response = await unchanged(parcel.id, () =>
        post(who, `/api/parcels/${parcel.id}/return`, { reason: 'Nem megy' }),
      );
      expect(response.statusCode).toBe(status);
    }
    const blank = (await unchanged(parcel.id, () =>
      post(runner, `/api/parcels/${parcel.id}/return`, { reason: ' ' }),
    )) as Awaited<ReturnType<typeof post>>;
    expect(blank.statusCode).toBe(400);
    expect(Object.keys(blank.json().error.fields)).toEqual(['reason']);
    const waiting = await sendParcel(t.app, sender.cookie);
    const response = await unchanged(waiting.id, () =>
      post(runner, `/api/parcels/${waiting.id}/return`, { reason: 'Nem megy' }),
    );
    expect(response.statusCode).toBe(409);
  });
});

describe('the back office and a return', () => {
  it('cannot reach or leave returned through the status field, nor call a returning parcel delivered', async () => {
    const parcel = await carried();
    await post(runner, `/api/parcels/${parcel.id}/return`, { reason: 'Nem találom a címet' });
    const patch = (status: string) =>
      t.app.inject({
        method: 'PATCH',
        url: `/api/parcels/${parcel.id}`,
        headers: { cookie: admin.cookie },
        payload: { status, reason: 'Javítás' },
      });
    for (const status of ['returned', 'delivered']) {
      const response = (await unchanged(parcel.id, () => patch(status))) as Awaited<ReturnType<typeof post>>;
      expect(response.statusCode, status).toBe(409);
      expect(response.json().error).toMatchObject({ code: 'status_own_flow' });
    }
    await post(runner, `/api/parcels/${parcel.id}/deliver`, atSenderDoor);
    const out = (await unchanged(parcel.id, () => patch('in_transit'))) as Awaited<ReturnType<typeof post>>;
    expect(out.statusCode).toBe(409);
    expect(out.json().error.fields.status).toBe(messages.backOfficeCannotLeaveReturned);
    const filtered = (await get(admin, '/api/parcels?status=returned&limit=200')).json();
    expect(filtered.items.map((item: Parcel) => item.id)).toContain(parcel.id);
  });
});

describe("a failed attempt's photo of the door", () => {
  const upload = async (who: SignedIn, parcelId: string, number: number, red = 200) =>
    postPhoto(t.app, who, `/api/parcels/${parcelId}/attempts/${number}/photo`, await testPicture({ red }));

  it('is told live, on the timeline, and by its hash: a photo taken again is a new one', async () => {
    const parcel = await carried();
    await attempt(runner, parcel.id);
    const heard: string[] = [];
    const stop = t.app.changeFeed.subscribe(({ change }) => {
      // Only the photos' changes: on PostgreSQL the attempt's own may still be on its way here.
      if (isParcelChange(change) && change.parcelId === parcel.id && change.kind === 'attempt_photo') {
        heard.push(change.kind);
      }
    });
    try {
      const first = await upload(runner, parcel.id, 1);
      expect(first.statusCode, first.body).toBe(201);
      const firstHash = first.json().items[0].photoSha256;
      expect(firstHash).toMatch(/^[0-9a-f]{64}$/);
      const again = await upload(runner, parcel.id, 1, 20);
      const secondHash = again.json().items[0].photoSha256;
      expect(secondHash).toMatch(/^[0-9a-f]{64}$/);
      expect(secondHash).not.toBe(firstHash);
      await expect.poll(() => heard).toEqual(['attempt_photo', 'attempt_photo']);
    } finally {
      stop();
    }
    const events = await storedEvents(t.app, parcel.id);
    expect(
      events.filter((event) => event.kind === 'attempt_photo').map((event) => JSON.parse(event.data ?? '{}')),
    ).toEqual([
      { attempt: 1, sha256: expect.any(String) },
      { attempt: 1, sha256: expect.any(String) },
    ]);
  });

  it('refuses a file over the limit and one that is not an image, in Hungarian, keeping no photo', async () => {
    const parcel = await carried();
    await attempt(runner, parcel.id);
    const raw = (data: Buffer) => postPhoto(t.app, runner, `/api/parcels/${parcel.id}/attempts/1/photo`, data);
    const big = await raw(Buffer.alloc(9 * 1024 * 1024, 0xff));
    expect(big.statusCode).toBe(413);
    expect(big.json().error).toMatchObject({ code: 'body_too_large', message: messages.proofTooLarge(8) });
    const text = await raw(Buffer.from('Ez csak szöveg, nem fénykép.\n'.repeat(20)));
    expect(text.statusCode).toBe(415);
    expect(text.json().error).toMatchObject({ code: 'unsupported_media_type', message: messages.proofNotImage });
    const row = await t.store.db
      .selectFrom('delivery_attempts')
      .select(['photo', 'photo_sha256'])
      .where('parcel_id', '=', parcel.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ photo: null, photo_sha256: null });
    expect((await storedEvents(t.app, parcel.id)).map((event) => event.kind)).not.toContain('attempt_photo');
  });

  it('is added by the runner who recorded it, seen by sender and receiver only, and goes with the retention', async () => {
    const parcel = await carried();
    await attempt(runner, parcel.id);
    expect((await upload(otherRunner, parcel.id, 1)).json().error.code).toBe('not_your_parcel');
    const missing = await upload(runner, parcel.id, 9);
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error).toEqual({ code: 'attempt_not_found', message: messages.attemptNotFound });
    const stored = await upload(runner, parcel.id, 1);
    expect(stored.statusCode, stored.body).toBe(201);
    expect(stored.json().items[0]).toMatchObject({ number: 1, photo: true });
    for (const who of [sender, receiver, admin]) {
      const image = await get(who, `/api/parcels/${parcel.id}/attempts/1/photo`);
      expect(image.statusCode).toBe(200);
      expect(image.headers['content-type']).toBe('image/jpeg');
      expect(image.headers['cache-control']).toBe('private, no-store');
    }
    for (const who of [runner, otherUser]) {
      expect((await get(who, `/api/parcels/${parcel.id}/attempts/1/photo`)).statusCode).toBe(404);
    }
    // Delivered long ago: the photo goes, the fact stays.
    await post(runner, `/api/parcels/${parcel.id}/deliver`, atDoor);
    const longAgo = new Date(Date.now() - 40 * 86_400_000).toISOString();
    await t.store.db.updateTable('parcels').set({ delivered_at: longAgo }).where('id', '=', parcel.id).execute();
    await t.store.db
      .updateTable('delivery_attempts')
      .set({ photo_at: longAgo })
      .where('parcel_id', '=', parcel.id)
      .execute();
    expect(await removeExpiredProofImages(t.store.db, 30)).toBeGreaterThanOrEqual(1);
    expect((await get(sender, `/api/parcels/${parcel.id}/attempts/1/photo`)).statusCode).toBe(404);
    expect((await get(sender, `/api/parcels/${parcel.id}/attempts`)).json().items[0]).toMatchObject({ photo: false });
  });
});

describe('RETURN_AFTER_ATTEMPTS', () => {
  it('turns a parcel back after as many failed attempts as the operator set', async () => {
    const one = await createTestApp({ RETURN_AFTER_ATTEMPTS: '1' });
    try {
      const s = await signUp(one.app);
      const r = await signUp(one.app, { role: 'runner' });
      const parcel = await sendParcel(one.app, s.cookie, { receiverCoordinates: DOOR });
      await pickUp(one.app, r.cookie, parcel.id);
      const response = await requestAs(one.app, r, 'POST', `/api/parcels/${parcel.id}/attempts`, {
        reason: 'nobody_home',
        position: atDoor,
      });
      expect(response.json()).toMatchObject({ attempt: 1, startedReturn: true, parcel: { state: 'returning' } });
    } finally {
      await one.close();
    }
  });
});

describe('leaving it with a neighbour (Szomszédnál hagyom)', () => {
  const neighbour = { name: 'Kovács Béla', door: '2. emelet 5.', confirmedName: 'kovács  béla', position: atDoor };
  const leave = (who: SignedIn | null, parcelId: string, body: object = {}) =>
    post(who, `/api/parcels/${parcelId}/neighbour`, { ...neighbour, ...body });

  it('moves custody to the neighbour, who gives the receiver the code it is collected with', async () => {
    const parcel = await carried();
    const left = await leave(runner, parcel.id);
    expect(left.statusCode, left.body).toBe(201);
    const { pin } = left.json();
    expect(pin).toMatch(/^[0-9]{6}$/);
    expect(left.json().parcel).toMatchObject({
      status: 'with_neighbour',
      state: 'with_neighbour',
      neighbour: { name: 'Kovács Béla', door: '2. emelet 5.' },
    });
    expect(await storedParcel(t.app, parcel.id)).toMatchObject({ holder_kind: 'neighbour', holder_id: null });
    expect((await readChain(t.store.db, parcel.id)).at(-1)).toMatchObject({
      kind: 'left_with_neighbour',
      to_kind: 'neighbour',
      how: 'neighbour_name',
      reason: 'Kovács Béla (2. emelet 5.)',
      confirmed_by: null,
    });
    // Off the runner's list; the receiver sees where it is; the public page does not name the neighbour.
    const mine = (await get(runner, '/api/me/assigned-parcels')).json();
    expect(mine.items.map((item: Parcel) => item.id)).not.toContain(parcel.id);
    const incoming = (await get(receiver, '/api/me/incoming-parcels?status=with_neighbour')).json();
    expect(incoming.items.find((item: Parcel) => item.id === parcel.id)).toMatchObject({
      neighbour: { name: 'Kovács Béla' },
    });
    const tracking = await get(null, `/api/tracking/${parcel.id}`);
    expect(tracking.json()).toMatchObject({ status: 'with_neighbour' });
    expect(tracking.body).not.toContain('Kovács');
    expect((await get(runner, `/api/parcels/${parcel.id}/neighbour-pin`)).json()).toEqual({ pin });
    expect((await get(otherRunner, `/api/parcels/${parcel.id}/neighbour-pin`)).statusCode).toBe(403);
    expect((await get(receiver, `/api/parcels/${parcel.id}/neighbour-pin`)).statusCode).toBe(403);

    // Only the receiver collects, only with the neighbour's code.
    expect((await post(sender, `/api/parcels/${parcel.id}/collect`, { pin })).statusCode).toBe(403);
    const wrongPin = String((Number(pin) + 1) % 1_000_000).padStart(6, '0');
    const wrong = await post(receiver, `/api/parcels/${parcel.id}/collect`, { pin: wrongPin });
    expect(wrong.json().error).toEqual({ code: 'handover_pin_wrong', message: messages.handoverPinWrong(4) });
    const collected = await post(receiver, `/api/parcels/${parcel.id}/collect`, { pin });
    expect(collected.statusCode, collected.body).toBe(200);
    expect(collected.json()).toMatchObject({ status: 'delivered', neighbour: { name: 'Kovács Béla' } });
    expect(await custodyKinds(parcel.id)).toEqual(['created', 'picked_up', 'left_with_neighbour', 'collected']);
    expect((await readChain(t.store.db, parcel.id)).at(-1)).toMatchObject({ how: 'receiver_pin', to_kind: 'receiver' });
    expect(await verifyChain(t.store.db, parcel.id)).toMatchObject({ ok: true });
    expect((await post(receiver, `/api/parcels/${parcel.id}/collect`, { pin })).statusCode).toBe(409);
  });

  it.each<[Record<string, unknown>, string, string]>([
    [{ name: ' ' }, 'name', messages.neighbourNameInvalid],
    [{ door: '' }, 'door', messages.neighbourDoorInvalid],
    [{ confirmedName: 'Nagy Éva' }, 'confirmedName', messages.neighbourConfirmMismatch],
    [{ confirmedName: undefined }, 'confirmedName', messages.neighbourConfirmMismatch],
  ])('refuses %j with 400 naming %s, in Hungarian, changing nothing', async (body, field, message) => {
    const parcel = await carried();
    const response = (await unchanged(parcel.id, () => leave(runner, parcel.id, body))) as Awaited<
      ReturnType<typeof post>
    >;
    expect(response.statusCode).toBe(400);
    expect(response.json().error.fields[field]).toBe(message);
  });

  it('is the carrier’s, at the door, and not for a parcel on its way back; the back office cannot set it', async () => {
    const parcel = await carried();
    for (const [who, status] of [
      [otherRunner, 403],
      [receiver, 403],
      [null, 401],
    ] as const) {
      expect((await unchanged(parcel.id, () => leave(who, parcel.id))).statusCode).toBe(status);
    }
    const far = (await unchanged(parcel.id, () =>
      leave(runner, parcel.id, { position: { ...northOf(DOOR, 150), accuracy: 5 } }),
    )) as Awaited<ReturnType<typeof post>>;
    expect(far.json().error.code).toBe('too_far');
    const patch = (await unchanged(parcel.id, () =>
      t.app.inject({
        method: 'PATCH',
        url: `/api/parcels/${parcel.id}`,
        headers: { cookie: admin.cookie },
        payload: { status: 'with_neighbour', reason: 'Javítás' },
      }),
    )) as Awaited<ReturnType<typeof post>>;
    expect(patch.json().error.code).toBe('status_own_flow');
    await post(runner, `/api/parcels/${parcel.id}/return`, { reason: 'Elköltözött' });
    const back = (await unchanged(parcel.id, () => leave(runner, parcel.id, { position: atSenderDoor }))) as Awaited<
      ReturnType<typeof post>
    >;
    expect(back.statusCode).toBe(409);
    expect(back.json().error.message).toBe(messages.neighbourNotForReturn);
  });
});
