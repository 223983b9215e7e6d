import { OPENING_DAYS } from '@csomag/domain/drop-points';
import { messages } from '@csomag/domain/messages';
import type { Parcel } from '@csomag/domain/parcel';
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
import { northOf, pickUp, storedParcel } from '../../test/delivery.ts';
import { createTestApp, type SignedIn, signUp, type TestApp } from '../../test/harness.ts';
import { sendParcel } from '../../test/parcels.ts';
import { readChain, verifyChain } from '../relay/chain.ts';
import { returnUncollectedParcels } from './deadline.ts';

/** Drop points (issue 28): the back office's partner places, a parcel left there, collected with a code. */
let t: TestApp;
let cast: Cast;
let admin: SignedIn;
let sender: SignedIn;
let receiver: SignedIn;
let runner: SignedIn;
let staff: SignedIn;
let otherUser: SignedIn;
let otherRunner: SignedIn;

const DOOR = DEBRECEN_DOOR;
const SHOP = DEBRECEN_SHOP;

beforeAll(async () => {
  t = await createTestApp();
  cast = await signUpCast(t.app);
  ({ admin, sender, receiver, runner, otherRunner, otherUser } = cast);
  staff = await signUp(t.app);
});
afterAll(() => t.close());

const { post, get } = requestsOf(() => t.app);
const pointBody = (overrides: Record<string, unknown> = {}) => dropPointBody(staff.account.userName, overrides);
const countPoints = async () =>
  Number(
    (
      await t.store.db
        .selectFrom('drop_points')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

async function attempted(): Promise<Parcel> {
  const parcel = await carriedFor(t.app, cast, { receiverCoordinates: DOOR });
  const attempt = await post(runner, `/api/parcels/${parcel.id}/attempts`, {
    reason: 'nobody_home',
    position: { ...northOf(DOOR, 2), accuracy: 5 },
  });
  expect(attempt.statusCode, attempt.body).toBe(201);
  return parcel;
}

describe('the back office’s drop points', () => {
  it('creates one with its staff; anyone lists the active ones, signed in or not, never their staff', async () => {
    const created = await post(admin, '/api/drop-points', pointBody());
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toMatchObject({
      name: 'Sarki trafik',
      kind: 'shop',
      location: SHOP,
      openNow: true,
      active: true,
      staff: [staff.account.userName],
    });
    for (const who of [runner, otherUser, admin, null]) {
      const list = await get(who, '/api/drop-points');
      expect(list.statusCode).toBe(200);
      const listed = list.json().items.find((point: { id: number }) => point.id === created.json().id);
      expect(listed).toMatchObject({ name: 'Sarki trafik' });
      expect(listed).not.toHaveProperty('staff');
    }
    expect((await get(null, '/api/me/drop-points')).statusCode).toBe(401);
    expect((await get(staff, '/api/me/drop-points')).json().items.map((p: { id: number }) => p.id)).toEqual([
      created.json().id,
    ]);
    const hidden = await t.app.inject({
      method: 'PUT',
      url: `/api/drop-points/${created.json().id}`,
      headers: { cookie: admin.cookie },
      payload: pointBody({ active: false, staff: [] }),
    });
    expect(hidden.json()).toMatchObject({ active: false, staff: [] });
    expect((await get(runner, '/api/drop-points')).json().items.map((p: { id: number }) => p.id)).not.toContain(
      created.json().id,
    );
    expect((await get(admin, '/api/admin/drop-points')).json().items.map((p: { id: number }) => p.id)).toContain(
      created.json().id,
    );
  });

  it.each<[string, Record<string, unknown>, string, string]>([
    ['a point outside Hungary', { location: { lat: 48.2, lng: 16.37 } }, 'location', messages.dropPointOutsideHungary],
    [
      'opening hours that do not parse',
      { openingHours: 'hétköznap reggeltől estig' },
      'openingHours',
      messages.openingHoursInvalid,
    ],
    ['no name', { name: ' ' }, 'name', messages.dropPointNameInvalid],
    ['an unknown kind', { kind: 'bolt' }, 'kind', messages.dropPointKindInvalid],
  ])('refuses %s in Hungarian, saving nothing', async (_, overrides, field, message) => {
    const before = await countPoints();
    const response = await post(admin, '/api/drop-points', pointBody(overrides));
    expect(response.statusCode).toBe(400);
    expect(response.json().error.fields[field]).toBe(message);
    expect(await countPoints()).toBe(before);
  });

  it('refuses staff that is no user account, and anyone but the back office, saving nothing', async () => {
    const before = await countPoints();
    for (const name of ['nincs_ilyen_fiok', runner.account.userName]) {
      const response = await post(admin, '/api/drop-points', pointBody({ staff: [name] }));
      expect(response.statusCode).toBe(404);
      expect(response.json().error.fields.staff).toBe(messages.dropPointStaffUnknown(name));
    }
    for (const [who, status] of [
      [staff, 403],
      [runner, 403],
      [null, 401],
    ] as const) {
      expect((await post(who, '/api/drop-points', pointBody())).statusCode).toBe(status);
    }
    expect(await countPoints()).toBe(before);
  });
});

describe('a parcel collected at a drop point', () => {
  it('goes there at the receiver’s choice, is left with the staff’s code and collected with the receiver’s', async () => {
    const point = (await post(admin, '/api/drop-points', pointBody({ name: 'Piac trafik' }))).json();
    const parcel = await attempted();
    const chosen = await post(receiver, `/api/parcels/${parcel.id}/drop-point`, { dropPointId: point.id });
    expect(chosen.statusCode, chosen.body).toBe(200);
    expect(chosen.json()).toMatchObject({
      dropPoint: { id: point.id, name: 'Piac trafik' },
      receiverCoordinates: SHOP,
      state: 'attempted',
    });
    // Nothing for the receiver to show yet: the drop point takes it first.
    expect((await get(receiver, `/api/parcels/${parcel.id}/handover-pin`)).statusCode).toBe(409);
    expect((await get(otherUser, `/api/drop-points/${point.id}/parcels`)).statusCode).toBe(403);
    const expected = (await get(staff, `/api/drop-points/${point.id}/parcels`)).json();
    const coming = expected.items.find((item: { id: string }) => item.id === parcel.id);
    expect(coming).toMatchObject({ status: 'in_transit', dropOffPin: expect.stringMatching(/^[0-9]{6}$/) });

    const wrong = String((Number(coming.dropOffPin) + 1) % 1_000_000).padStart(6, '0');
    expect((await post(runner, `/api/parcels/${parcel.id}/pin-handover`, { pin: wrong })).statusCode).toBe(422);
    const left = await post(runner, `/api/parcels/${parcel.id}/pin-handover`, { pin: coming.dropOffPin });
    expect(left.statusCode, left.body).toBe(200);
    expect(left.json()).toMatchObject({ status: 'at_drop_point', state: 'at_drop_point' });
    expect(await storedParcel(t.app, parcel.id)).toMatchObject({ holder_kind: 'drop_point', holder_id: point.id });
    const waiting = (await get(staff, `/api/drop-points/${point.id}/parcels`)).json();
    expect(waiting.items.find((item: { id: string }) => item.id === parcel.id)).toMatchObject({
      status: 'at_drop_point',
      dropOffPin: null,
      since: expect.any(String),
    });

    const { pin } = (await get(receiver, `/api/parcels/${parcel.id}/handover-pin`)).json();
    for (const who of [otherUser, runner, receiver]) {
      expect((await post(who, `/api/parcels/${parcel.id}/release`, { pin })).statusCode).toBe(403);
    }
    const released = await post(staff, `/api/parcels/${parcel.id}/release`, { pin });
    expect(released.statusCode, released.body).toBe(200);
    expect(released.json()).toMatchObject({ status: 'delivered' });
    const chain = await readChain(t.store.db, parcel.id);
    expect(chain.map((event) => event.kind)).toEqual(['created', 'picked_up', 'attempted', 'dropped_off', 'collected']);
    expect(chain.at(-1)).toMatchObject({ from_kind: 'drop_point', to_kind: 'receiver', how: 'receiver_pin' });
    expect(await verifyChain(t.store.db, parcel.id)).toMatchObject({ ok: true });
    // The back office's chain names the place, not an account with the same id.
    const custody = (await get(admin, `/api/parcels/${parcel.id}/custody`)).json();
    expect(custody.events[3].to).toEqual({ kind: 'drop_point', userName: 'Piac trafik' });
  });

  it('is given out only while the place is open, and only for the receiver’s code', async () => {
    const today = new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/Budapest', weekday: 'short' }).format(
      new Date(),
    );
    const todayIndex = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'].indexOf(today);
    const otherDay = OPENING_DAYS[(todayIndex + 3) % 7];
    const point = (await post(admin, '/api/drop-points', pointBody({ openingHours: `${otherDay} 8:00-18:00` }))).json();
    expect(point.openNow).toBe(false);
    const parcel = await attempted();
    await post(runner, `/api/parcels/${parcel.id}/drop-point`, { dropPointId: point.id });
    const coming = (await get(staff, `/api/drop-points/${point.id}/parcels`)).json().items[0];
    expect((await post(runner, `/api/parcels/${parcel.id}/pin-handover`, { pin: coming.dropOffPin })).statusCode).toBe(
      200,
    );
    const { pin } = (await get(receiver, `/api/parcels/${parcel.id}/handover-pin`)).json();
    const before = await storedParcel(t.app, parcel.id);
    const closed = await post(staff, `/api/parcels/${parcel.id}/release`, { pin });
    expect(closed.statusCode).toBe(409);
    expect(closed.json().error).toEqual({ code: 'drop_point_closed', message: messages.dropPointClosed });
    expect(await storedParcel(t.app, parcel.id)).toEqual(before);
  });

  it('becomes its sender’s to collect there once its receiver let the days pass', async () => {
    const point = (await post(admin, '/api/drop-points', pointBody())).json();
    const parcel = await attempted();
    await post(receiver, `/api/parcels/${parcel.id}/drop-point`, { dropPointId: point.id });
    const coming = (await get(staff, `/api/drop-points/${point.id}/parcels`))
      .json()
      .items.find((item: { id: string }) => item.id === parcel.id);
    await post(runner, `/api/parcels/${parcel.id}/pin-handover`, { pin: coming.dropOffPin });
    // Not yet: nothing turns.
    expect(await returnUncollectedParcels(t.store.db, t.app.changeFeed, 7)).toBe(0);
    const eightDaysAgo = new Date(Date.now() - 8 * 86_400_000).toISOString();
    await t.store.db
      .updateTable('parcels')
      .set({ at_drop_point_since: eightDaysAgo })
      .where('id', '=', parcel.id)
      .execute();
    expect(await returnUncollectedParcels(t.store.db, t.app.changeFeed, 7)).toBeGreaterThanOrEqual(1);
    expect(await storedParcel(t.app, parcel.id)).toMatchObject({ status: 'at_drop_point', returning: 1 });
    expect((await readChain(t.store.db, parcel.id)).at(-1)).toMatchObject({
      kind: 'return_started',
      how: 'deadline',
      confirmed_by: null,
    });
    // A second sweep finds it turned already.
    expect(await returnUncollectedParcels(t.store.db, t.app.changeFeed, 7)).toBe(0);
    expect((await get(receiver, `/api/parcels/${parcel.id}/handover-pin`)).statusCode).toBe(403);
    const senders = (await get(sender, `/api/parcels/${parcel.id}/handover-pin`)).json();
    expect(senders.for).toBe('sender');
    const back = await post(staff, `/api/parcels/${parcel.id}/release`, { pin: senders.pin });
    expect(back.json()).toMatchObject({ status: 'returned' });
    expect((await readChain(t.store.db, parcel.id)).at(-1)).toMatchObject({
      kind: 'returned',
      from_kind: 'drop_point',
      to_kind: 'sender',
      how: 'sender_pin',
    });
    expect(await verifyChain(t.store.db, parcel.id)).toMatchObject({ ok: true });
  });

  it('goes back to its sender’s door with a runner who takes it there with the staff’s code', async () => {
    const point = (await post(admin, '/api/drop-points', pointBody({ name: 'Visszaút trafik' }))).json();
    const parcel = await attempted();
    await post(receiver, `/api/parcels/${parcel.id}/drop-point`, { dropPointId: point.id });
    const coming = (await get(staff, `/api/drop-points/${point.id}/parcels`))
      .json()
      .items.find((item: { id: string }) => item.id === parcel.id);
    expect(coming.returnPin).toBeNull();
    await post(runner, `/api/parcels/${parcel.id}/pin-handover`, { pin: coming.dropOffPin });
    const returns = () => get(otherRunner, '/api/drop-point-returns');
    const listed = async () => (await returns()).json().items.map((item: { id: string }) => item.id);
    expect(await listed()).not.toContain(parcel.id);
    await t.store.db
      .updateTable('parcels')
      .set({ at_drop_point_since: new Date(Date.now() - 8 * 86_400_000).toISOString() })
      .where('id', '=', parcel.id)
      .execute();
    await returnUncollectedParcels(t.store.db, t.app.changeFeed, 7);

    const listing = (await returns()).json().items.find((item: { id: string }) => item.id === parcel.id);
    expect(listing).toMatchObject({
      dropPoint: { id: point.id, name: 'Visszaút trafik', location: SHOP },
      senderAddress: parcel.senderAddress,
      senderLocation: parcel.senderCoordinates,
    });
    for (const who of [sender, staff, admin]) {
      expect((await get(who, '/api/drop-point-returns')).statusCode).toBe(403);
    }
    const waiting = (await get(staff, `/api/drop-points/${point.id}/parcels`))
      .json()
      .items.find((item: { id: string }) => item.id === parcel.id);
    expect(waiting).toMatchObject({ returning: true, returnPin: expect.stringMatching(/^[0-9]{6}$/) });

    const before = await storedParcel(t.app, parcel.id);
    const wrong = String((Number(waiting.returnPin) + 1) % 1_000_000).padStart(6, '0');
    const refused = await post(otherRunner, `/api/parcels/${parcel.id}/take-from-drop-point`, { pin: wrong });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().error.code).toBe('handover_pin_wrong');
    // The sender's own code is theirs to collect it with, not a runner's to take it.
    const senders = (await get(sender, `/api/parcels/${parcel.id}/handover-pin`)).json();
    expect(
      (await post(otherRunner, `/api/parcels/${parcel.id}/take-from-drop-point`, { pin: senders.pin })).statusCode,
    ).toBe(422);
    expect(
      (await post(sender, `/api/parcels/${parcel.id}/take-from-drop-point`, { pin: waiting.returnPin })).statusCode,
    ).toBe(403);
    expect(await storedParcel(t.app, parcel.id)).toEqual(before);

    const taken = await post(otherRunner, `/api/parcels/${parcel.id}/take-from-drop-point`, { pin: waiting.returnPin });
    expect(taken.statusCode, taken.body).toBe(200);
    expect(taken.json()).toMatchObject({
      status: 'in_transit',
      state: 'returning',
      runner: otherRunner.account.userName,
    });
    const carried = await storedParcel(t.app, parcel.id);
    expect(carried).toMatchObject({ holder_kind: 'runner', holder_id: carried?.runner_id, drop_point_id: point.id });
    expect((await readChain(t.store.db, parcel.id)).at(-1)).toMatchObject({
      kind: 'picked_up',
      from_kind: 'drop_point',
      from_id: point.id,
      to_kind: 'runner',
      how: 'drop_point_pin',
    });
    expect(await listed()).not.toContain(parcel.id);
    const again = await post(runner, `/api/parcels/${parcel.id}/take-from-drop-point`, { pin: waiting.returnPin });
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toBe(messages.dropPointReturnNotWaiting);
    expect(
      (await get(staff, `/api/drop-points/${point.id}/parcels`)).json().items.map((item: { id: string }) => item.id),
    ).not.toContain(parcel.id);

    // At the sender's door, as any return.
    const code = (await get(sender, `/api/parcels/${parcel.id}/handover-pin`)).json();
    expect(code.for).toBe('sender');
    const home = await post(otherRunner, `/api/parcels/${parcel.id}/pin-handover`, { pin: code.pin });
    expect(home.statusCode, home.body).toBe(200);
    expect(home.json()).toMatchObject({ status: 'returned' });
    expect(await storedParcel(t.app, parcel.id)).toMatchObject({
      holder_kind: 'sender',
      holder_id: carried?.sender_id,
    });
    expect(await verifyChain(t.store.db, parcel.id)).toMatchObject({ ok: true });
  });

  it('goes back to its sender when its receiver refuses it at the counter, said by its staff only', async () => {
    const point = (await post(admin, '/api/drop-points', pointBody())).json();
    const parcel = await attempted();
    await post(receiver, `/api/parcels/${parcel.id}/drop-point`, { dropPointId: point.id });
    const url = `/api/parcels/${parcel.id}/refused-at-drop-point`;
    // Not there yet: nothing to refuse.
    const early = await post(staff, url);
    expect(early.statusCode).toBe(409);
    expect(early.json().error.message).toBe(messages.refusedAtDropPointNotNow);
    const coming = (await get(staff, `/api/drop-points/${point.id}/parcels`))
      .json()
      .items.find((item: { id: string }) => item.id === parcel.id);
    await post(runner, `/api/parcels/${parcel.id}/pin-handover`, { pin: coming.dropOffPin });
    const before = await storedParcel(t.app, parcel.id);
    for (const who of [receiver, otherUser, runner, sender]) expect((await post(who, url)).statusCode).toBe(403);
    expect(await storedParcel(t.app, parcel.id)).toEqual(before);

    const refused = await post(staff, url);
    expect(refused.statusCode, refused.body).toBe(200);
    expect(refused.json()).toMatchObject({ status: 'at_drop_point', state: 'at_drop_point' });
    expect(await storedParcel(t.app, parcel.id)).toMatchObject({ returning: 1, holder_kind: 'drop_point' });
    expect((await readChain(t.store.db, parcel.id)).at(-1)).toMatchObject({
      kind: 'return_started',
      how: 'drop_point_staff',
      from_kind: 'drop_point',
      to_kind: 'drop_point',
    });
    expect((await post(staff, url)).statusCode).toBe(409);
    expect((await get(otherRunner, '/api/drop-point-returns')).json().items.map((i: { id: string }) => i.id)).toContain(
      parcel.id,
    );
    expect((await get(sender, `/api/parcels/${parcel.id}/handover-pin`)).json().for).toBe('sender');
    expect(await verifyChain(t.store.db, parcel.id)).toMatchObject({ ok: true });
  });

  it('may be chosen at send time; such a parcel is handed to the staff, not left at the door by position', async () => {
    const point = (await post(admin, '/api/drop-points', pointBody())).json();
    const missing = await post(sender, '/api/parcels', {
      senderAddress: '6720 Szeged, Kárász utca 5',
      receiverAddress: receiver.account.address,
      category: 'Könyv',
      weightGrams: 400,
      dropPointId: 999999,
    });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error.fields.dropPointId).toBe(messages.dropPointNotFound);
    const parcel = await sendParcel(t.app, sender.cookie, {
      receiverAddress: receiver.account.address,
      dropPointId: point.id,
    });
    expect(parcel).toMatchObject({
      dropPoint: { id: point.id },
      receiverCoordinates: SHOP,
      receiverPrecision: 'manual',
    });
    // Its public tracking page names the place (a partner shop, not the receiver's address).
    const tracking = (await get(null, `/api/tracking/${parcel.id}`)).json();
    expect(tracking.dropPoint).toEqual({ id: point.id, name: 'Sarki trafik', address: '4025 Debrecen, Piac utca 20' });
    // The receiver still sees it as theirs.
    const incoming = (await get(receiver, '/api/me/incoming-parcels')).json();
    expect(incoming.items.map((item: Parcel) => item.id)).toContain(parcel.id);
    await pickUp(t.app, runner.cookie, parcel.id);
    const byPosition = await post(runner, `/api/parcels/${parcel.id}/deliver`, { ...northOf(SHOP, 2), accuracy: 5 });
    expect(byPosition.statusCode).toBe(409);
    expect(byPosition.json().error).toEqual({ code: 'drop_point_needs_code', message: messages.dropPointNeedsCode });
  });

  it('may be chosen by the carrier any time, by the receiver only after a failed attempt', async () => {
    const point = (await post(admin, '/api/drop-points', pointBody())).json();
    const parcel = await sendParcel(t.app, sender.cookie, { receiverAddress: receiver.account.address });
    await pickUp(t.app, runner.cookie, parcel.id);
    const early = await post(receiver, `/api/parcels/${parcel.id}/drop-point`, { dropPointId: point.id });
    expect(early.statusCode).toBe(409);
    expect(early.json().error.message).toBe(messages.dropPointNotNow);
    expect((await post(otherUser, `/api/parcels/${parcel.id}/drop-point`, { dropPointId: point.id })).statusCode).toBe(
      403,
    );
    const missing = await post(runner, `/api/parcels/${parcel.id}/drop-point`, { dropPointId: 999999 });
    expect(missing.statusCode).toBe(404);
    const byRunner = await post(runner, `/api/parcels/${parcel.id}/drop-point`, { dropPointId: point.id });
    expect(byRunner.statusCode, byRunner.body).toBe(200);
    expect(byRunner.json().dropPoint).toMatchObject({ id: point.id });
  });
});
