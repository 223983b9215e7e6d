import { messages } from '@csomag/domain/messages';
import type { Parcel } from '@csomag/domain/parcel';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountRow, eventsOf, expectNoSecrets, parcelRow } from '../../test/back-office.ts';
import { createTestApp, type SignedIn, signInSuperadmin, signUp, type TestApp } from '../../test/harness.ts';
import { sendParcel } from '../../test/parcels.ts';
import type { Geocoder } from '../geo/geocoder.ts';
import { PlacesGeocoder } from '../places/geocoder.ts';
import { PlaceStore } from '../places/store.ts';
import { claimParcel, deliverParcel } from './changes.ts';

/** The default geocoder on the test's store, with a hook that runs while an address is being placed (to stage races). */
let places: PlacesGeocoder | undefined;
let whileGeocoding: (() => Promise<void>) | undefined;
const geocoder: Geocoder = {
  async geocode(address) {
    await whileGeocoding?.();
    return places ? places.geocode(address) : null;
  },
  reverse: (point) => (places ? places.reverse(point) : Promise.resolve(null)),
};

let t: TestApp;
let admin: SignedIn;
let user: SignedIn;
let runner: SignedIn;
beforeAll(async () => {
  t = await createTestApp({}, { geocoder });
  places = new PlacesGeocoder(new PlaceStore(t.store.db));
  admin = await signInSuperadmin(t.app);
  user = await signUp(t.app);
  runner = await signUp(t.app, { role: 'runner' });
});
afterAll(() => t.close());

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
const call = (method: Method, url: string, cookie?: string, payload?: Record<string, unknown>) =>
  t.app.inject({ method, url, ...(cookie ? { headers: { cookie } } : {}), ...(payload ? { payload } : {}) });
const ids = (response: { json(): { items: Parcel[] } }) => response.json().items.map((p) => p.id);

/** Puts a parcel in a runner's hands through the same command the pickup route uses. */
async function pickUp(parcel: Parcel, who: SignedIn = runner) {
  const row = await accountRow(t.store, who.account.userName);
  return claimParcel(t.app.changeFeed, parcel.id, row, row, 'picked_up');
}

async function deliver(parcel: Parcel, who: SignedIn = runner) {
  const row = await accountRow(t.store, who.account.userName);
  await pickUp(parcel, who);
  return deliverParcel(t.app.changeFeed, parcel.id, row, { kind: 'delivered', runnerId: row.id });
}

/** Anonymous 401; a user (even the sender) and a runner (even the carrier) 403. */
async function expectOnlySuperadmin(method: Method, url: string, payload?: Record<string, unknown>) {
  const anonymous = await call(method, url, undefined, payload);
  expect(anonymous.statusCode).toBe(401);
  expect(anonymous.json().error.code).toBe('sign_in_required');
  for (const cookie of [user.cookie, runner.cookie]) {
    const response = await call(method, url, cookie, payload);
    expect(response.statusCode).toBe(403);
    expect(response.json().error.code).toBe('forbidden');
  }
}

describe('GET /api/parcels', () => {
  it('lists every sender’s parcels newest first, page by page', async () => {
    const sender = await signUp(t.app);
    const sent = [];
    for (let i = 0; i < 3; i++) sent.push(await sendParcel(t.app, sender.cookie));
    const first = await call('GET', '/api/parcels?limit=2', admin.cookie);
    expect(first.statusCode).toBe(200);
    // Nobody sent anything after these: they are the newest three.
    expect(ids(first)).toEqual([sent[2]?.id, sent[1]?.id]);
    expect(first.json().items[0]).toEqual({ ...sent[2], multiLeg: false });
    const second = await call('GET', `/api/parcels?limit=2&cursor=${first.json().nextCursor}`, admin.cookie);
    expect(ids(second)[0]).toBe(sent[0]?.id);
    expectNoSecrets(first.body);
  });

  it('filters by sender, status and runner, alone and together', async () => {
    const sender = await signUp(t.app);
    const carrier = await signUp(t.app, { role: 'runner' });
    const waiting = await sendParcel(t.app, sender.cookie);
    const moving = await sendParcel(t.app, sender.cookie);
    const done = await sendParcel(t.app, sender.cookie);
    await pickUp(moving, carrier);
    await deliver(done, carrier);
    const bySender = `sender=${sender.account.userName}`;
    expect(ids(await call('GET', `/api/parcels?${bySender}`, admin.cookie))).toEqual([done.id, moving.id, waiting.id]);
    expect(ids(await call('GET', `/api/parcels?${bySender}&status=waiting`, admin.cookie))).toEqual([waiting.id]);
    expect(ids(await call('GET', `/api/parcels?runner=${carrier.account.userName}`, admin.cookie))).toEqual([
      done.id,
      moving.id,
    ]);
    const carried = await call(
      'GET',
      `/api/parcels?runner=${carrier.account.userName}&status=in_transit`,
      admin.cookie,
    );
    expect(carried.json().items).toMatchObject([{ id: moving.id, runner: carrier.account.userName }]);
    const inTransit = await call('GET', '/api/parcels?status=in_transit&limit=200', admin.cookie);
    expect(ids(inTransit)).toContain(moving.id);
    expect(inTransit.json().items.every((p: Parcel) => p.status === 'in_transit')).toBe(true);

    // The same sender's parcel in another runner's hands, and the carrier's parcel from someone else.
    await pickUp(await sendParcel(t.app, sender.cookie), await signUp(t.app, { role: 'runner' }));
    await pickUp(await sendParcel(t.app, user.cookie), carrier);
    const both = `${bySender}&runner=${carrier.account.userName}`;
    expect(ids(await call('GET', `/api/parcels?${both}`, admin.cookie))).toEqual([done.id, moving.id]);
    const first = await call('GET', `/api/parcels?${both}&limit=1`, admin.cookie);
    const second = await call('GET', `/api/parcels?${both}&limit=1&cursor=${first.json().nextCursor}`, admin.cookie);
    expect([...ids(first), ...ids(second)]).toEqual([done.id, moving.id]);
    expect(second.json().nextCursor).toBeNull();
  });

  it('pages a filtered list with its cursor', async () => {
    const sender = await signUp(t.app);
    const sent = [];
    for (let i = 0; i < 3; i++) sent.push(await sendParcel(t.app, sender.cookie));
    const url = `/api/parcels?sender=${sender.account.userName}&status=waiting&limit=2`;
    const first = await call('GET', url, admin.cookie);
    const second = await call('GET', `${url}&cursor=${first.json().nextCursor}`, admin.cookie);
    expect([...ids(first), ...ids(second)]).toEqual([sent[2]?.id, sent[1]?.id, sent[0]?.id]);
    expect(second.json().nextCursor).toBeNull();
  });

  it('answers an empty page for user names nobody has', async () => {
    const response = await call('GET', '/api/parcels?runner=senki_sem_ez&sender=senki_sem_az', admin.cookie);
    expect(response.json()).toEqual({ items: [], nextCursor: null });
  });

  it('refuses anonymous callers (401), users and runners (403)', async () => {
    await expectOnlySuperadmin('GET', '/api/parcels');
  });

  it.each([
    ['status=leadott', 'status', 'invalid_body'],
    ['runner=ék', 'runner', 'invalid_body'],
    ['sender=a', 'sender', 'invalid_body'],
    ['limit=abc', 'limit', 'invalid_body'],
    ['cursor=xyz', 'cursor', 'invalid_cursor'],
  ])('refuses %s with 400 naming %s (%s)', async (query, field, code) => {
    const response = await call('GET', `/api/parcels?${query}`, admin.cookie);
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe(code);
    expect(Object.keys(response.json().error.fields)).toEqual([field]);
  });
});

describe('PATCH /api/parcels/:id', () => {
  it('edits category, weight and the receiver address, placing it again, and records it', async () => {
    const parcel = await sendParcel(t.app, user.cookie);
    const response = await call('PATCH', `/api/parcels/${parcel.id.toLowerCase()}`, admin.cookie, {
      category: 'Törékeny',
      weightGrams: 1200,
      receiverAddress: '1052 Budapest, Váci utca 1',
      senderAddress: parcel.senderAddress,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      ...parcel,
      category: 'Törékeny',
      weightGrams: 1200,
      receiverAddress: '1052 Budapest, Váci utca 1',
      receiverCoordinates: { lat: 47.4996, lng: 19.0512 },
    });
    expect((await parcelRow(t.store, parcel.id))?.receiver_key).toBe('budapest|5|vaci|utca|1');
    const events = await eventsOf(t.store, parcel.id);
    expect(events.map((e) => e.kind)).toEqual(['created', 'edited']);
    expect(JSON.parse(String(events[1]?.data))).toEqual({
      fields: ['category', 'weightGrams', 'receiverAddress', 'receiverCoordinates'],
    });
    const timeline = await call('GET', `/api/parcels/${parcel.id}`, user.cookie);
    expect(timeline.json().events.at(-1)).toMatchObject({ kind: 'edited', actor: admin.account.userName });
  });

  it('keeps coordinates given with an address instead of geocoding it', async () => {
    const parcel = await sendParcel(t.app, user.cookie);
    const response = await call('PATCH', `/api/parcels/${parcel.id}`, admin.cookie, {
      senderAddress: 'Tanya a határban',
      senderCoordinates: { lat: 46.9, lng: 19.7 },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      senderAddress: 'Tanya a határban',
      senderCoordinates: { lat: 46.9, lng: 19.7 },
      // Placed by hand in the back office.
      senderPrecision: 'manual',
    });
  });

  it('places a changed address even when the form sends the stored pin back with it', async () => {
    const parcel = await sendParcel(t.app, user.cookie);
    const response = await call('PATCH', `/api/parcels/${parcel.id}`, admin.cookie, {
      receiverAddress: '6720 Szeged, Kárász utca 9',
      receiverCoordinates: parcel.receiverCoordinates,
      senderCoordinates: parcel.senderCoordinates,
    });
    expect(response.json()).toMatchObject({
      receiverAddress: '6720 Szeged, Kárász utca 9',
      receiverCoordinates: { lat: 46.253, lng: 20.14824 },
      receiverPrecision: 'settlement',
      senderCoordinates: parcel.senderCoordinates,
    });
  });

  it('answers 422 naming the address it cannot place, and saves nothing', async () => {
    const parcel = await sendParcel(t.app, user.cookie);
    const response = await call('PATCH', `/api/parcels/${parcel.id}`, admin.cookie, {
      category: 'Nem mentődik',
      receiverAddress: 'Nincsilyen falu, Sehol utca 1',
    });
    expect(response.statusCode).toBe(422);
    expect(response.json().error).toEqual({
      code: 'settlement_unknown',
      message: messages.settlementUnknown('Nincsilyen falu'),
      fields: { receiverAddress: messages.settlementUnknown('Nincsilyen falu') },
    });
    expect((await call('GET', `/api/parcels/${parcel.id}`, admin.cookie)).json()).toMatchObject({
      category: parcel.category,
      receiverAddress: parcel.receiverAddress,
    });
    expect((await eventsOf(t.store, parcel.id)).map((e) => e.kind)).toEqual(['created']);
  });

  it('corrects a delivery back to waiting only with a reason: the runner and both times are cleared', async () => {
    const parcel = await sendParcel(t.app, user.cookie);
    await deliver(parcel);
    const unexplained = await call('PATCH', `/api/parcels/${parcel.id}`, admin.cookie, { status: 'waiting' });
    expect(unexplained.statusCode).toBe(422);
    expect(unexplained.json().error).toMatchObject({
      code: 'reason_required',
      fields: { reason: messages.statusChangeNeedsReason },
    });
    expect(await parcelRow(t.store, parcel.id)).toMatchObject({ status: 'delivered' });

    const reason = 'A címzett nem kapta meg, újra kell vinni.';
    const response = await call('PATCH', `/api/parcels/${parcel.id}`, admin.cookie, { status: 'waiting', reason });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ status: 'waiting', runner: null, pickedUpAt: null, deliveredAt: null });
    const events = await eventsOf(t.store, parcel.id);
    expect(events.at(-1)).toMatchObject({ kind: 'status_changed' });
    expect(JSON.parse(String(events.at(-1)?.data))).toEqual({ from: 'delivered', to: 'waiting', reason });
    const waiting = await call('GET', '/api/parcels/waiting?limit=200', runner.cookie);
    expect(ids(waiting)).toContain(parcel.id);
  });

  it('takes a parcel from its runner back to waiting only with a reason', async () => {
    const parcel = await sendParcel(t.app, user.cookie);
    await pickUp(parcel);
    const unexplained = await call('PATCH', `/api/parcels/${parcel.id}`, admin.cookie, { status: 'waiting' });
    expect(unexplained.statusCode).toBe(422);
    expect(unexplained.json().error.code).toBe('reason_required');
    expect(await parcelRow(t.store, parcel.id)).toMatchObject({ status: 'in_transit' });
    const response = await call('PATCH', `/api/parcels/${parcel.id}`, admin.cookie, {
      status: 'waiting',
      reason: 'A futár megbetegedett.',
    });
    expect(response.json()).toMatchObject({ status: 'waiting', runner: null });
    expect(ids(await call('GET', '/api/me/assigned-parcels?limit=200', runner.cookie))).not.toContain(parcel.id);
  });

  it('sets delivered with the time it happened; undoing it needs a reason and keeps the runner', async () => {
    const parcel = await sendParcel(t.app, user.cookie);
    await pickUp(parcel);
    const delivered = await call('PATCH', `/api/parcels/${parcel.id}`, admin.cookie, { status: 'delivered' });
    expect(delivered.json()).toMatchObject({ status: 'delivered', runner: runner.account.userName });
    expect(Date.parse(delivered.json().deliveredAt)).toBeGreaterThan(Date.now() - 60_000);
    const refused = await call('PATCH', `/api/parcels/${parcel.id}`, admin.cookie, { status: 'in_transit' });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().error.code).toBe('reason_required');
    expect(await parcelRow(t.store, parcel.id)).toMatchObject({ status: 'delivered' });
    const back = await call('PATCH', `/api/parcels/${parcel.id}`, admin.cookie, {
      status: 'in_transit',
      reason: 'Tévesen jelölték leadottnak.',
    });
    expect(back.json()).toMatchObject({ status: 'in_transit', runner: runner.account.userName, deliveredAt: null });
    expect(back.json().pickedUpAt).toBe(delivered.json().pickedUpAt);
  });

  it('refuses delivered for a waiting parcel (no runner carried it), saving nothing', async () => {
    const parcel = await sendParcel(t.app, user.cookie);
    const response = await call('PATCH', `/api/parcels/${parcel.id}`, admin.cookie, {
      status: 'delivered',
      reason: 'Csak úgy.',
    });
    expect(response.statusCode).toBe(409);
    expect(response.json().error).toMatchObject({
      code: 'parcel_needs_runner',
      message: messages.deliveredNeedsRunner,
    });
    expect(await parcelRow(t.store, parcel.id)).toMatchObject({ status: 'waiting', delivered_at: null });
    expect((await eventsOf(t.store, parcel.id)).map((e) => e.kind)).toEqual(['created']);
  });

  it.each([
    ['ab', 'too short'],
    ['x'.repeat(501), 'too long'],
  ])('refuses a reason that is %s (%s) with 400, changing nothing', async (reason) => {
    const parcel = await sendParcel(t.app, user.cookie);
    await pickUp(parcel);
    const response = await call('PATCH', `/api/parcels/${parcel.id}`, admin.cookie, { status: 'waiting', reason });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe('invalid_body');
    expect(response.json().error.fields).toEqual({ reason: messages.reasonInvalid });
    expect(await parcelRow(t.store, parcel.id)).toMatchObject({ status: 'in_transit' });
  });

  it('refuses in transit for a parcel without a runner (409: assign it instead), saving nothing', async () => {
    const parcel = await sendParcel(t.app, user.cookie);
    const response = await call('PATCH', `/api/parcels/${parcel.id}`, admin.cookie, {
      category: 'Nem mentődik',
      status: 'in_transit',
    });
    expect(response.statusCode).toBe(409);
    expect(response.json().error).toMatchObject({ code: 'parcel_needs_runner', message: messages.parcelNeedsRunner });
    expect(await parcelRow(t.store, parcel.id)).toMatchObject({ status: 'waiting', category: parcel.category });
  });

  it('saves nothing and records nothing when the form comes back unchanged', async () => {
    const parcel = await sendParcel(t.app, user.cookie);
    const response = await call('PATCH', `/api/parcels/${parcel.id}`, admin.cookie, {
      category: parcel.category,
      status: parcel.status,
      senderAddress: parcel.senderAddress,
      receiverAddress: parcel.receiverAddress,
    });
    expect(response.json()).toEqual(parcel);
    expect((await eventsOf(t.store, parcel.id)).map((e) => e.kind)).toEqual(['created']);
  });

  it('refuses (409) to overwrite a pickup that happened while the edit was being prepared', async () => {
    const parcel = await sendParcel(t.app, user.cookie);
    whileGeocoding = async () => {
      whileGeocoding = undefined;
      await pickUp(parcel);
    };
    const response = await call('PATCH', `/api/parcels/${parcel.id}`, admin.cookie, {
      status: 'waiting',
      receiverAddress: '6720 Szeged, Kárász utca 9',
    });
    expect(response.statusCode).toBe(409);
    expect(response.json().error).toEqual({
      code: 'parcel_changed_meanwhile',
      message: messages.parcelChangedMeanwhile,
    });
    expect(await parcelRow(t.store, parcel.id)).toMatchObject({
      status: 'in_transit',
      receiver_address: parcel.receiverAddress,
    });
  });

  it.each([
    [{ status: 'leadott' }, 'status'],
    [{ status: 'stolen' }, 'status'],
    [{ category: '' }, 'category'],
    [{ weightGrams: '12 font' }, 'weightGrams'],
    [{ weightGrams: '1,2345 kg' }, 'weightGrams'],
    [{ receiverAddress: '  ' }, 'receiverAddress'],
    [{ senderCoordinates: { lat: 91, lng: 19 } }, 'senderCoordinates.lat'],
  ])('refuses %j with 400 naming %s, saving nothing', async (payload, field) => {
    const parcel = await sendParcel(t.app, user.cookie);
    const response = await call('PATCH', `/api/parcels/${parcel.id}`, admin.cookie, { ...payload });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe('invalid_body');
    expect(Object.keys(response.json().error.fields)).toEqual([field]);
    expect((await call('GET', `/api/parcels/${parcel.id}`, admin.cookie)).json()).toMatchObject(parcel);
  });

  it('answers 404 for an unknown parcel and 400 naming id for a malformed one', async () => {
    const unknown = await call('PATCH', '/api/parcels/ZZZZZZZZZZ', admin.cookie, { category: 'X' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error).toEqual({ code: 'parcel_not_found', message: messages.parcelNotFound });
    const malformed = await call('PATCH', '/api/parcels/nem-azonosito', admin.cookie, { category: 'X' });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().error.code).toBe('invalid_body');
    expect(Object.keys(malformed.json().error.fields)).toEqual(['id']);
  });

  it('refuses anonymous callers (401), the sender and the runner (403), changing nothing', async () => {
    const parcel = await sendParcel(t.app, user.cookie);
    await pickUp(parcel);
    await expectOnlySuperadmin('PATCH', `/api/parcels/${parcel.id}`, { category: 'Betörés', status: 'waiting' });
    expect(await parcelRow(t.store, parcel.id)).toMatchObject({ category: parcel.category, status: 'in_transit' });
  });
});

describe('DELETE /api/parcels/:id', () => {
  it('deletes a parcel a runner carries only with a reason, from every list, keeping its timeline', async () => {
    const parcel = await sendParcel(t.app, user.cookie);
    await pickUp(parcel);
    const unexplained = await call('DELETE', `/api/parcels/${parcel.id}`, admin.cookie);
    expect(unexplained.statusCode).toBe(422);
    expect(unexplained.json().error).toMatchObject({
      code: 'reason_required',
      message: messages.deleteInTransitNeedsReason(runner.account.userName),
    });
    expect(await parcelRow(t.store, parcel.id)).toBeDefined();

    const reason = 'A feladó visszavonta, a futár visszaviszi.';
    const response = await call('DELETE', `/api/parcels/${parcel.id}`, admin.cookie, { reason });
    expect(response.statusCode).toBe(204);
    expect(await parcelRow(t.store, parcel.id)).toBeUndefined();
    const detail = await call('GET', `/api/parcels/${parcel.id}`, admin.cookie);
    expect(detail.statusCode).toBe(404);
    expect(detail.json().error.code).toBe('parcel_not_found');
    const tracking = await call('GET', `/api/tracking/${parcel.id}`);
    expect(tracking.statusCode).toBe(404);
    expect(tracking.json().error.code).toBe('parcel_not_found');
    expect(ids(await call('GET', '/api/me/sent-parcels?limit=200', user.cookie))).not.toContain(parcel.id);
    expect(ids(await call('GET', '/api/me/assigned-parcels?limit=200', runner.cookie))).not.toContain(parcel.id);
    const events = await eventsOf(t.store, parcel.id);
    expect(events.map((e) => e.kind)).toEqual(['created', 'picked_up', 'deleted']);
    expect(JSON.parse(String(events[2]?.data))).toEqual({
      status: 'in_transit',
      category: parcel.category,
      senderUser: user.account.userName,
      runner: runner.account.userName,
      reason,
    });
    const again = await call('DELETE', `/api/parcels/${parcel.id}`, admin.cookie);
    expect(again.statusCode).toBe(404);
    expect(again.json().error.code).toBe('parcel_not_found');
  });

  it('deletes a waiting parcel without a reason', async () => {
    const parcel = await sendParcel(t.app, user.cookie);
    expect((await call('DELETE', `/api/parcels/${parcel.id}`, admin.cookie)).statusCode).toBe(204);
    expect(await parcelRow(t.store, parcel.id)).toBeUndefined();
  });

  it('refuses anonymous callers (401), the sender and runners (403), deleting nothing', async () => {
    const parcel = await sendParcel(t.app, user.cookie);
    await expectOnlySuperadmin('DELETE', `/api/parcels/${parcel.id}`);
    expect(await parcelRow(t.store, parcel.id)).toBeDefined();
    const malformed = await call('DELETE', '/api/parcels/rossz', admin.cookie);
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().error.code).toBe('invalid_body');
    expect(Object.keys(malformed.json().error.fields)).toEqual(['id']);
  });
});

describe('POST /api/parcels/:id/assign', () => {
  it('gives a waiting parcel to the runner, recorded as the superadmin’s assignment', async () => {
    const parcel = await sendParcel(t.app, user.cookie);
    const response = await call('POST', `/api/parcels/${parcel.id}/assign`, admin.cookie, {
      runner: runner.account.userName.toUpperCase(),
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ id: parcel.id, status: 'in_transit', runner: runner.account.userName });
    expect(response.json().pickedUpAt).not.toBeNull();
    const events = await eventsOf(t.store, parcel.id);
    expect(events.at(-1)).toMatchObject({ kind: 'assigned' });
    expect(JSON.parse(String(events.at(-1)?.data))).toEqual({ runner: runner.account.userName });
    const carried = await call('GET', '/api/me/assigned-parcels?limit=200', runner.cookie);
    expect(ids(carried)).toContain(parcel.id);
  });

  it('refuses (409) a parcel a runner already has, overwriting nothing', async () => {
    const parcel = await sendParcel(t.app, user.cookie);
    await pickUp(parcel);
    const other = await signUp(t.app, { role: 'runner' });
    const response = await call('POST', `/api/parcels/${parcel.id}/assign`, admin.cookie, {
      runner: other.account.userName,
    });
    expect(response.statusCode).toBe(409);
    expect(response.json().error).toEqual({ code: 'parcel_taken', message: messages.parcelTaken });
    expect((await parcelRow(t.store, parcel.id))?.runner_id).toBe(
      (await accountRow(t.store, runner.account.userName)).id,
    );
  });

  it('refuses a delivered parcel (409) and an unknown one (404)', async () => {
    const parcel = await sendParcel(t.app, user.cookie);
    await deliver(parcel);
    const delivered = await call('POST', `/api/parcels/${parcel.id}/assign`, admin.cookie, {
      runner: runner.account.userName,
    });
    expect(delivered.statusCode).toBe(409);
    expect(delivered.json().error).toEqual({
      code: 'parcel_already_delivered',
      message: messages.parcelAlreadyDelivered,
    });
    const unknown = await call('POST', '/api/parcels/ZZZZZZZZZZ/assign', admin.cookie, {
      runner: runner.account.userName,
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error.code).toBe('parcel_not_found');
  });

  it.each([
    [{ runner: 'nincs_ilyen_futar' }, 'assignee_not_runner', messages.runnerNotFound],
    [{ runner: 'ék' }, 'invalid_body', undefined],
    [{}, 'invalid_body', messages.required],
  ])('refuses %j with 400 (%s) naming runner, changing nothing', async (payload, code, message) => {
    const parcel = await sendParcel(t.app, user.cookie);
    const response = await call('POST', `/api/parcels/${parcel.id}/assign`, admin.cookie, payload);
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe(code);
    expect(Object.keys(response.json().error.fields)).toEqual(['runner']);
    if (message) expect(response.json().error.fields.runner).toBe(message);
    expect((await parcelRow(t.store, parcel.id))?.status).toBe('waiting');
  });

  it('refuses to assign to an account that is not a runner', async () => {
    const parcel = await sendParcel(t.app, user.cookie);
    const response = await call('POST', `/api/parcels/${parcel.id}/assign`, admin.cookie, {
      runner: user.account.userName,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toEqual({
      code: 'assignee_not_runner',
      message: messages.runnerNotFound,
      fields: { runner: messages.runnerNotFound },
    });
  });

  it('refuses anonymous callers (401), users and runners (403), changing nothing', async () => {
    const parcel = await sendParcel(t.app, user.cookie);
    await expectOnlySuperadmin('POST', `/api/parcels/${parcel.id}/assign`, { runner: runner.account.userName });
    expect((await parcelRow(t.store, parcel.id))?.status).toBe('waiting');
  });

  it('gives the parcel to exactly one side when an assignment races a pickup', async () => {
    const racer = await signUp(t.app, { role: 'runner' });
    const racerRow = await accountRow(t.store, racer.account.userName);
    for (let round = 0; round < 5; round++) {
      const parcel = await sendParcel(t.app, user.cookie);
      const [assigned, pickedUp] = await Promise.allSettled([
        call('POST', `/api/parcels/${parcel.id}/assign`, admin.cookie, { runner: runner.account.userName }),
        claimParcel(t.app.changeFeed, parcel.id, racerRow, racerRow, 'picked_up'),
      ]);
      const assignWon = assigned.status === 'fulfilled' && assigned.value.statusCode === 200;
      const pickupWon = pickedUp.status === 'fulfilled';
      expect(assignWon !== pickupWon).toBe(true);
      if (!assignWon) {
        expect(assigned.status === 'fulfilled' && assigned.value.statusCode).toBe(409);
        expect(assigned.status === 'fulfilled' && assigned.value.json().error.code).toBe('parcel_taken');
      }
      const row = await parcelRow(t.store, parcel.id);
      const winner = assignWon ? (await accountRow(t.store, runner.account.userName)).id : racerRow.id;
      expect(row).toMatchObject({ status: 'in_transit', runner_id: winner });
      const claims = (await eventsOf(t.store, parcel.id)).filter((e) => e.kind !== 'created');
      expect(claims).toHaveLength(1);
    }
  });
});
