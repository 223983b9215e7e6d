import { distanceMetres } from '@csomag/domain/geo';
import { messages } from '@csomag/domain/messages';
import { type Parcel, parcelIdSchema } from '@csomag/domain/parcel';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountRow, insertParcels } from '../../test/back-office.ts';
import { northOf, pickUp, storedEvents, storedParcel } from '../../test/delivery.ts';
import { createTestApp, type SignedIn, signInSuperadmin, signUp, type TestApp } from '../../test/harness.ts';
import { sendParcel } from '../../test/parcels.ts';
import { schemaMessage } from '../../test/schema-message.ts';
import { listenLocally, openEventStream, type SseStream } from '../../test/sse.ts';
import { readChain } from '../relay/chain.ts';

let t: TestApp;
let admin: SignedIn;
let sender: SignedIn;
beforeAll(async () => {
  t = await createTestApp();
  admin = await signInSuperadmin(t.app);
  sender = await signUp(t.app);
});
afterAll(() => t.close());

const call = (method: 'GET' | 'POST' | 'PATCH', url: string, cookie?: string, payload?: unknown) =>
  t.app.inject({
    method,
    url,
    ...(payload !== undefined ? { payload: payload as Record<string, unknown> } : {}),
    ...(cookie ? { headers: { cookie } } : {}),
  });
const accountId = async (userName: string) =>
  (await t.store.db.selectFrom('accounts').select('id').where('user_name', '=', userName).executeTakeFirstOrThrow()).id;
const ids = (page: { items: { id: string }[] }) => page.items.map((p) => p.id);
/** The sender placed the destination pin at the door (Debrecen, Piac utca): a runner may deliver there by position. */
const atTheDoor = (overrides: Record<string, unknown> = {}) => ({
  receiverCoordinates: { lat: 47.5295, lng: 21.6255 },
  ...overrides,
});

/** Every page of a list, following nextCursor. */
async function allPages(url: string, cookie: string, limit: number): Promise<string[]> {
  const seen: string[] = [];
  let cursor: string | null = null;
  do {
    const query = `limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`;
    const response = await call('GET', `${url}${url.includes('?') ? '&' : '?'}${query}`, cookie);
    expect(response.statusCode).toBe(200);
    const page = response.json();
    expect(page.items.length).toBeLessThanOrEqual(limit);
    seen.push(...ids(page));
    cursor = page.nextCursor;
  } while (cursor);
  return seen;
}

describe('GET /api/parcels/waiting', () => {
  it('lists waiting parcels the longest waiting first, page by page, without those already taken', async () => {
    const runner = await signUp(t.app, { role: 'runner' });
    const sent: Parcel[] = [];
    for (let i = 0; i < 5; i++) sent.push(await sendParcel(t.app, sender.cookie, atTheDoor()));
    const taken = sent[2] as Parcel;
    await pickUp(t.app, runner.cookie, taken.id);

    const seen = await allPages('/api/parcels/waiting', runner.cookie, 2);
    const mine = seen.filter((id) => sent.some((p) => p.id === id));
    const expected = sent
      .filter((p) => p.id !== taken.id)
      .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id))
      .map((p) => p.id);
    expect(mine).toEqual(expected);
    expect(new Set(seen).size).toBe(seen.length);
  });

  it('shows each parcel with both ends, category, weight and creation time', async () => {
    const runner = await signUp(t.app, { role: 'runner' });
    const parcel = await sendParcel(t.app, sender.cookie, atTheDoor());
    const seen = (await call('GET', '/api/parcels/waiting?limit=200', runner.cookie)).json();
    expect(seen.items.find((p: Parcel) => p.id === parcel.id)).toEqual(parcel);
  });

  it('is open to the superadmin; refuses users (403) and anonymous callers (401)', async () => {
    const user = await signUp(t.app);
    expect((await call('GET', '/api/parcels/waiting', admin.cookie)).statusCode).toBe(200);
    const refused = await call('GET', '/api/parcels/waiting', user.cookie);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.code).toBe('forbidden');
    const anonymous = await call('GET', '/api/parcels/waiting');
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json().error).toEqual({ code: 'sign_in_required', message: messages.signInRequired });
  });

  it('lists only the parcels picked up inside a map view when one is given', async () => {
    const runner = await signUp(t.app, { role: 'runner' });
    // Two pickups in Sopron, one in Debrecen, far apart.
    const inside = await sendParcel(
      t.app,
      sender.cookie,
      atTheDoor({ senderCoordinates: { lat: 47.6817, lng: 16.5845 } }),
    );
    const alsoInside = await sendParcel(
      t.app,
      sender.cookie,
      atTheDoor({ senderCoordinates: { lat: 47.69, lng: 16.6 } }),
    );
    const outside = await sendParcel(
      t.app,
      sender.cookie,
      atTheDoor({ senderCoordinates: { lat: 47.5316, lng: 21.6273 } }),
    );
    const view = 'south=47.6&west=16.5&north=47.75&east=16.7';
    const page = (await call('GET', `/api/parcels/waiting?limit=200&${view}`, runner.cookie)).json();
    expect(ids(page)).toEqual(expect.arrayContaining([inside.id, alsoInside.id]));
    expect(ids(page)).not.toContain(outside.id);
    for (const parcel of page.items as Parcel[]) {
      expect(parcel.senderCoordinates.lat).toBeGreaterThanOrEqual(47.6);
      expect(parcel.senderCoordinates.lng).toBeLessThanOrEqual(16.7);
    }
  });

  it('pages a view oldest first, each parcel once, among older and newer parcels elsewhere', async () => {
    const runner = await signUp(t.app, { role: 'runner' });
    const from = await accountRow(t.store, sender.account.userName);
    /** Waiting parcels picked up at `at`, created on the given days (older than anything the other tests send). */
    const waitingSince = async (at: { lat: number; lng: number }, days: string[]) => {
      const ids = await insertParcels(
        t.store,
        from,
        days.map(() => at),
      );
      for (const [i, id] of ids.entries()) {
        await t.store.db
          .updateTable('parcels')
          .set({ created_at: `${days[i]}T08:00:00.000Z` })
          .where('id', '=', id)
          .execute();
      }
      return ids;
    };
    // A view whose parcels are the oldest of the whole pool.
    const oldest = await waitingSince({ lat: 46.18, lng: 18.95 }, [
      '2001-01-05',
      '2001-01-01',
      '2001-01-03',
      '2001-01-02',
      '2001-01-06',
      '2001-01-04',
    ]);
    // Then parcels elsewhere, older than a second view's.
    const days = Array.from({ length: 40 }, (_, i) => `2001-06-${String((i % 28) + 1).padStart(2, '0')}`);
    await waitingSince({ lat: 46.9, lng: 17.9 }, days);
    const newer = await waitingSince({ lat: 46.45, lng: 16.95 }, ['2002-02-03', '2002-02-01', '2002-02-02']);

    const pages = (view: string) => allPages(`/api/parcels/waiting?${view}`, runner.cookie, 2);
    const byAge = [1, 3, 2, 5, 0, 4].map((i) => oldest[i]);
    expect(await pages('south=46.1&west=18.9&north=46.2&east=19')).toEqual(byAge);
    expect(await pages('south=46.4&west=16.9&north=46.5&east=17')).toEqual([newer[1], newer[2], newer[0]]);
  });

  it.each([
    ['south=47&west=16&north=48', 'south', messages.incompleteBounds],
    ['south=48&west=16&north=47&east=17', 'north', messages.invalidBounds],
    ['south=47&west=16&north=48&east=181', 'east', messages.invalidCoordinates],
  ])('refuses the view ?%s with 400 naming the field', async (query, field, message) => {
    const runner = await signUp(t.app, { role: 'runner' });
    const response = await call('GET', `/api/parcels/waiting?${query}`, runner.cookie);
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe('invalid_body');
    expect(response.json().error.fields).toEqual({ [field]: message });
  });

  it.each([
    ['limit=0', 'limit', 'invalid_body', messages.invalidLimit(200)],
    ['limit=201', 'limit', 'invalid_body', messages.invalidLimit(200)],
    ['cursor=nem-a-mienk', 'cursor', 'invalid_cursor', messages.invalidCursor],
  ])('refuses ?%s with 400 naming the field %s (%s)', async (query, field, code, message) => {
    const runner = await signUp(t.app, { role: 'runner' });
    const response = await call('GET', `/api/parcels/waiting?${query}`, runner.cookie);
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe(code);
    expect(response.json().error.fields).toEqual({ [field]: message });
  });
});

describe('GET /api/parcels/waiting?near=&settlement=', () => {
  // A corner of the country no other test sends from: these parcels are the nearest to it.
  const here = { lat: 45.85, lng: 17.6 };
  const around = (metresNorth: number, metresEast: number) => ({
    lat: here.lat + metresNorth / 111_195,
    lng: here.lng + metresEast / (111_195 * Math.cos((here.lat * Math.PI) / 180)),
  });

  it('lists the nearest pickup first, each with its distance in metres', async () => {
    const runner = await signUp(t.app, { role: 'runner' });
    const far = await sendParcel(t.app, sender.cookie, atTheDoor({ senderCoordinates: around(0, 3000) }));
    const near = await sendParcel(t.app, sender.cookie, atTheDoor({ senderCoordinates: around(300, 0) }));
    const middle = await sendParcel(t.app, sender.cookie, atTheDoor({ senderCoordinates: around(-1200, 0) }));
    const response = await call('GET', `/api/parcels/waiting?limit=3&near=${here.lat},${here.lng}`, runner.cookie);
    expect(response.statusCode).toBe(200);
    const page = response.json();
    expect(ids(page)).toEqual([near.id, middle.id, far.id]);
    for (const parcel of [near, middle, far]) {
      const item = page.items.find((p: Parcel) => p.id === parcel.id);
      expect(item).toEqual({
        ...parcel,
        distanceMetres: Math.round(distanceMetres(here, parcel.senderCoordinates)),
      });
    }
    expect(page.items.map((p: { distanceMetres: number }) => p.distanceMetres)).toEqual([300, 1200, 3000]);
  });

  it('pages through the nearest first with a stable cursor, ties in id order, each parcel once', async () => {
    const runner = await signUp(t.app, { role: 'runner' });
    const sent: Parcel[] = [];
    // Two pairs at the same spot: the cursor's id breaks the tie.
    for (const metres of [5000, 4000, 4000, 4500, 4500, 6000]) {
      sent.push(await sendParcel(t.app, sender.cookie, atTheDoor({ senderCoordinates: around(0, -metres) })));
    }
    const seen = await allPages(`/api/parcels/waiting?near=${here.lat},${here.lng}`, runner.cookie, 2);
    const expected = sent
      .map((p) => ({ id: p.id, metres: distanceMetres(here, p.senderCoordinates) }))
      .sort((a, b) => a.metres - b.metres || a.id.localeCompare(b.id))
      .map((p) => p.id);
    expect(seen.filter((id) => expected.includes(id))).toEqual(expected);
    expect(new Set(seen).size).toBe(seen.length);
  });

  it('puts a pickup straight ahead before nearer-looking ones off to the side, on every page', async () => {
    const runner = await signUp(t.app, { role: 'runner' });
    // Another corner of the country, so the other tests' parcels are all farther.
    const spot = { lat: 48.0, lng: 22.6 };
    const from = (metresNorth: number, metresEast: number) => ({
      lat: spot.lat + metresNorth / 111_195,
      lng: spot.lng + metresEast / (111_195 * Math.cos((spot.lat * Math.PI) / 180)),
    });
    // Two pickups 2.1 km north and 2.1 km east (~3 km away) and one 2.4 km due north: the first
    // two lie inside a square around the runner that the nearest one is just outside of.
    const aside = await sendParcel(t.app, sender.cookie, atTheDoor({ senderCoordinates: from(2100, 2100) }));
    const further = await sendParcel(t.app, sender.cookie, atTheDoor({ senderCoordinates: from(2100, 2110) }));
    const ahead = await sendParcel(t.app, sender.cookie, atTheDoor({ senderCoordinates: from(2400, 0) }));
    const url = `/api/parcels/waiting?near=${spot.lat},${spot.lng}`;

    const first = (await call('GET', `${url}&limit=1`, runner.cookie)).json();
    expect(ids(first)).toEqual([ahead.id]);
    expect(first.items[0].distanceMetres).toBe(2400);
    expect((await allPages(url, runner.cookie, 1)).slice(0, 3)).toEqual([ahead.id, aside.id, further.id]);
  });

  it('filters by the settlement of the pickup address, whatever the case and accents', async () => {
    const runner = await signUp(t.app, { role: 'runner' });
    const szeged = await sendParcel(t.app, sender.cookie, atTheDoor({ senderAddress: '6720 Szeged, Kárász utca 5' }));
    const pecs = await sendParcel(t.app, sender.cookie, atTheDoor({ senderAddress: '7621 Pécs, Király utca 1' }));
    const listed = async (query: string) =>
      ids((await call('GET', `/api/parcels/waiting?limit=200&${query}`, runner.cookie)).json());

    expect(await listed('settlement=szeged')).toContain(szeged.id);
    expect(await listed('settlement=szeged')).not.toContain(pecs.id);
    expect(await listed('settlement=pecs')).toContain(pecs.id);
    expect(await listed('settlement=pecs')).not.toContain(szeged.id);
    expect(await listed(`settlement=${encodeURIComponent('PÉCS')}`)).toContain(pecs.id);
    expect(await listed(`settlement=${encodeURIComponent('Pécs')}&near=46.07,18.23`)).toEqual([pecs.id]);
    // An empty filter is no filter.
    expect(await listed('settlement=')).toEqual(expect.arrayContaining([szeged.id, pecs.id]));
  });

  it('keeps the plain list without distances when no position is given', async () => {
    const runner = await signUp(t.app, { role: 'runner' });
    const page = (await call('GET', '/api/parcels/waiting?limit=200', runner.cookie)).json();
    for (const item of page.items) expect(item).not.toHaveProperty('distanceMetres');
  });

  it.each(['near=abc', 'near=47.5', 'near=91,19', 'near=47.5,19,3', 'near='])(
    'refuses ?%s with 400 naming only near',
    async (query) => {
      const runner = await signUp(t.app, { role: 'runner' });
      const response = await call('GET', `/api/parcels/waiting?${query}&settlement=Szeged`, runner.cookie);
      expect(response.statusCode).toBe(400);
      expect(response.json().error.code).toBe('invalid_body');
      expect(response.json().error.fields).toEqual({ near: messages.invalidNear });
    },
  );

  it('refuses a cursor of the longest-waiting order in the nearest-first order', async () => {
    const runner = await signUp(t.app, { role: 'runner' });
    await sendParcel(t.app, sender.cookie, atTheDoor());
    await sendParcel(t.app, sender.cookie, atTheDoor());
    const { nextCursor } = (await call('GET', '/api/parcels/waiting?limit=1', runner.cookie)).json();
    const response = await call('GET', `/api/parcels/waiting?near=47.5,19&cursor=${nextCursor}`, runner.cookie);
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe('invalid_cursor');
    expect(response.json().error.fields).toEqual({ cursor: messages.invalidCursor });
  });

  it('refuses users (403) and anonymous callers (401) with a position, too', async () => {
    const user = await signUp(t.app);
    expect((await call('GET', '/api/parcels/waiting?near=47.5,19', user.cookie)).statusCode).toBe(403);
    expect((await call('GET', '/api/parcels/waiting?near=47.5,19')).statusCode).toBe(401);
  });
});

describe('GET /api/me/assigned-parcels', () => {
  it('lists only the parcels I carry, in the order I picked them up, page by page', async () => {
    const runner = await signUp(t.app, { role: 'runner' });
    const other = await signUp(t.app, { role: 'runner' });
    const carried: string[] = [];
    for (let i = 0; i < 3; i++) {
      const parcel = await sendParcel(t.app, sender.cookie, atTheDoor());
      await pickUp(t.app, runner.cookie, parcel.id);
      carried.push(parcel.id);
    }
    const othersParcel = await sendParcel(t.app, sender.cookie, atTheDoor());
    await pickUp(t.app, other.cookie, othersParcel.id);
    await sendParcel(t.app, sender.cookie, atTheDoor());
    const delivered = await sendParcel(t.app, sender.cookie, atTheDoor());
    await pickUp(t.app, runner.cookie, delivered.id);
    const at = { ...delivered.receiverCoordinates, accuracy: 5 };
    const done = await call('POST', `/api/parcels/${delivered.id}/deliver`, runner.cookie, at);
    expect(done.statusCode).toBe(200);

    expect(await allPages('/api/me/assigned-parcels', runner.cookie, 2)).toEqual(carried);
    const page = (await call('GET', '/api/me/assigned-parcels', runner.cookie)).json();
    expect(page.items[0]).toMatchObject({ status: 'in_transit', runner: runner.account.userName });
  });

  it('refuses users and the superadmin (403), anonymous callers (401)', async () => {
    const user = await signUp(t.app);
    expect((await call('GET', '/api/me/assigned-parcels', user.cookie)).statusCode).toBe(403);
    expect((await call('GET', '/api/me/assigned-parcels', admin.cookie)).statusCode).toBe(403);
    expect((await call('GET', '/api/me/assigned-parcels')).statusCode).toBe(401);
  });

  it('refuses a bad limit with 400 naming the field', async () => {
    const runner = await signUp(t.app, { role: 'runner' });
    const response = await call('GET', '/api/me/assigned-parcels?limit=abc', runner.cookie);
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe('invalid_body');
    expect(Object.keys(response.json().error.fields)).toEqual(['limit']);
  });
});

describe('POST /api/parcels/:id/pickup', () => {
  it('gives a waiting parcel to the runner and records who picked it up', async () => {
    const runner = await signUp(t.app, { role: 'runner' });
    const parcel = await sendParcel(t.app, sender.cookie, atTheDoor());
    const response = await call('POST', `/api/parcels/${parcel.id.toLowerCase()}/pickup`, runner.cookie, {});
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      ...parcel,
      status: 'in_transit',
      state: 'in_transit',
      runner: runner.account.userName,
      pickedUpAt: expect.any(String),
    });
    const events = await storedEvents(t.app, parcel.id);
    expect(events.map((e) => e.kind)).toEqual(['created', 'picked_up']);
    expect(events[1]?.actor_id).toBe(await accountId(runner.account.userName));
  });

  it('gives the parcel to exactly one of 50 runners picking it up at once', async () => {
    const runners = await Promise.all(Array.from({ length: 50 }, () => signUp(t.app, { role: 'runner' })));
    const parcel = await sendParcel(t.app, sender.cookie, atTheDoor());
    const responses = await Promise.all(
      runners.map((runner) => call('POST', `/api/parcels/${parcel.id}/pickup`, runner.cookie)),
    );
    const won = responses.filter((r) => r.statusCode === 200);
    const lost = responses.filter((r) => r.statusCode === 409);
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(49);
    for (const response of lost) {
      expect(response.json().error).toEqual({ code: 'parcel_taken', message: messages.parcelTaken });
    }
    const winner = runners[responses.indexOf(won[0] as (typeof responses)[number])] as SignedIn;
    expect(won[0]?.json().runner).toBe(winner.account.userName);
    const row = await storedParcel(t.app, parcel.id);
    expect(row).toMatchObject({ status: 'in_transit', runner_id: await accountId(winner.account.userName) });
    const pickups = (await storedEvents(t.app, parcel.id)).filter((e) => e.kind === 'picked_up');
    expect(pickups).toHaveLength(1);
    expect(pickups[0]?.actor_id).toBe(row.runner_id);
  });

  it('answers 409 for a parcel already delivered, 404 for an unknown one, 400 for a malformed id', async () => {
    const runner = await signUp(t.app, { role: 'runner' });
    const parcel = await sendParcel(t.app, sender.cookie, atTheDoor());
    await pickUp(t.app, runner.cookie, parcel.id);
    await call('POST', `/api/parcels/${parcel.id}/deliver`, admin.cookie);
    const delivered = await call('POST', `/api/parcels/${parcel.id}/pickup`, runner.cookie);
    expect(delivered.statusCode).toBe(409);
    expect(delivered.json().error).toEqual({
      code: 'parcel_already_delivered',
      message: messages.parcelAlreadyDelivered,
    });
    const unknown = await call('POST', '/api/parcels/0000000000/pickup', runner.cookie);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error).toEqual({ code: 'parcel_not_found', message: messages.parcelNotFound });
    const malformed = await call('POST', '/api/parcels/nem-azonosito/pickup', runner.cookie);
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().error.code).toBe('invalid_body');
    expect(malformed.json().error.fields).toEqual({ id: schemaMessage(parcelIdSchema, 'nem-azonosito') });
  });

  it('refuses users and the superadmin (403) and anonymous callers (401), leaving the parcel waiting', async () => {
    const user = await signUp(t.app);
    const parcel = await sendParcel(t.app, sender.cookie, atTheDoor());
    for (const cookie of [user.cookie, sender.cookie, admin.cookie]) {
      const response = await call('POST', `/api/parcels/${parcel.id}/pickup`, cookie);
      expect(response.statusCode).toBe(403);
      expect(response.json().error).toEqual({ code: 'forbidden', message: messages.forbidden });
    }
    expect((await call('POST', `/api/parcels/${parcel.id}/pickup`)).statusCode).toBe(401);
    expect(await storedParcel(t.app, parcel.id)).toMatchObject({ status: 'waiting', runner_id: null });
    expect((await storedEvents(t.app, parcel.id)).map((e) => e.kind)).toEqual(['created']);
  });
});

describe('POST /api/parcels/:id/deliver', () => {
  async function carried() {
    const runner = await signUp(t.app, { role: 'runner' });
    const parcel = await sendParcel(t.app, sender.cookie, atTheDoor());
    await pickUp(t.app, runner.cookie, parcel.id);
    return { runner, parcel };
  }
  const deliver = (parcelId: string, cookie?: string, payload?: unknown) =>
    call('POST', `/api/parcels/${parcelId}/deliver`, cookie, payload);

  it('refuses delivery by position where only the town of the destination is known, pointing to the QR handover', async () => {
    const runner = await signUp(t.app, { role: 'runner' });
    // Placed by the offline gazetteer: Debrecen's centre, not the door.
    const parcel = await sendParcel(t.app, sender.cookie);
    expect(parcel.receiverPrecision).toBe('settlement');
    await pickUp(t.app, runner.cookie, parcel.id);
    const response = await deliver(parcel.id, runner.cookie, { ...parcel.receiverCoordinates, accuracy: 1 });
    expect(response.statusCode).toBe(422);
    expect(response.json().error).toEqual({ code: 'destination_imprecise', message: messages.destinationImprecise });
    expect(await storedParcel(t.app, parcel.id)).toMatchObject({ status: 'in_transit' });
    // The back office may still close it.
    expect((await deliver(parcel.id, admin.cookie, {})).statusCode).toBe(200);
  });

  it('records a pin the sender placed as manual and an address placed by the gazetteer as settlement', async () => {
    const parcel = await sendParcel(t.app, sender.cookie, atTheDoor());
    expect(parcel).toMatchObject({ senderPrecision: 'settlement', receiverPrecision: 'manual' });
    const confirmed = await sendParcel(t.app, sender.cookie, atTheDoor({ receiverPrecision: 'street' }));
    expect(confirmed.receiverPrecision).toBe('street');
  });

  it('delivers when the runner is within 15 m of the receiver, recording where in the custody chain', async () => {
    const { runner, parcel } = await carried();
    const position = northOf(parcel.receiverCoordinates, 12);
    const response = await deliver(parcel.id, runner.cookie, { ...position, accuracy: 0 });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      id: parcel.id,
      status: 'delivered',
      runner: runner.account.userName,
      deliveredAt: expect.any(String),
    });
    const events = await storedEvents(t.app, parcel.id);
    expect(events.at(-1)).toEqual({
      kind: 'delivered',
      actor_id: await accountId(runner.account.userName),
      data: JSON.stringify({ distanceMetres: 12, accuracyMetres: 0 }),
    });
    const custody = await readChain(t.store.db, parcel.id);
    expect(custody.at(-1)).toMatchObject({ kind: 'delivered', to_kind: 'receiver', how: 'runner', ...position });
  });

  it('counts the accuracy in the runner’s favour: 28 m away ± 20 m is close enough', async () => {
    const { runner, parcel } = await carried();
    const response = await deliver(parcel.id, runner.cookie, {
      ...northOf(parcel.receiverCoordinates, 28),
      accuracy: 20,
    });
    expect(response.statusCode).toBe(200);
  });

  it('refuses a runner too far away with 422 naming the distance, leaving the parcel in transit', async () => {
    const { runner, parcel } = await carried();
    const response = await deliver(parcel.id, runner.cookie, {
      ...northOf(parcel.receiverCoordinates, 30),
      accuracy: 10,
    });
    expect(response.statusCode).toBe(422);
    expect(response.json().error).toEqual({ code: 'too_far', message: messages.tooFar(30) });
    expect(await storedParcel(t.app, parcel.id)).toMatchObject({ status: 'in_transit', delivered_at: null });
    expect((await storedEvents(t.app, parcel.id)).map((e) => e.kind)).toEqual(['created', 'picked_up']);
  });

  it('refuses another runner (403), even standing at the door', async () => {
    const { parcel } = await carried();
    const other = await signUp(t.app, { role: 'runner' });
    const response = await deliver(parcel.id, other.cookie, { ...parcel.receiverCoordinates, accuracy: 1 });
    expect(response.statusCode).toBe(403);
    expect(response.json().error).toEqual({ code: 'not_your_parcel', message: messages.notYourParcel });
    expect(await storedParcel(t.app, parcel.id)).toMatchObject({ status: 'in_transit' });
  });

  it('answers 409 for a waiting or an already delivered parcel, 404 for an unknown one', async () => {
    const runner = await signUp(t.app, { role: 'runner' });
    const waiting = await sendParcel(t.app, sender.cookie, atTheDoor());
    const at = { ...waiting.receiverCoordinates, accuracy: 1 };
    const notYet = await deliver(waiting.id, runner.cookie, at);
    expect(notYet.statusCode).toBe(409);
    expect(notYet.json().error).toEqual({ code: 'parcel_not_in_transit', message: messages.parcelNotInTransit });
    const notYetByAdmin = await deliver(waiting.id, admin.cookie);
    expect(notYetByAdmin.statusCode).toBe(409);
    expect(notYetByAdmin.json().error.code).toBe('parcel_not_in_transit');
    expect(await storedParcel(t.app, waiting.id)).toMatchObject({ status: 'waiting' });

    const { runner: carrier, parcel } = await carried();
    const there = { ...parcel.receiverCoordinates, accuracy: 1 };
    expect((await deliver(parcel.id, carrier.cookie, there)).statusCode).toBe(200);
    const again = await deliver(parcel.id, carrier.cookie, there);
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toEqual({ code: 'parcel_already_delivered', message: messages.parcelAlreadyDelivered });
    const unknown = await deliver('0000000000', carrier.cookie, there);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error.code).toBe('parcel_not_found');
  });

  it.each([
    ['no body', undefined],
    ['an empty body', {}],
  ])('lets the superadmin deliver with %s, anywhere', async (_, payload) => {
    const { parcel } = await carried();
    const response = await deliver(parcel.id, admin.cookie, payload);
    expect(response.statusCode).toBe(200);
    expect(response.json().status).toBe('delivered');
    const last = (await storedEvents(t.app, parcel.id)).at(-1);
    expect(last).toMatchObject({ kind: 'delivered', actor_id: await accountId(admin.account.userName) });
  });

  it('refuses users, the sender (403) and anonymous callers (401), leaving the parcel in transit', async () => {
    const { parcel } = await carried();
    const at = { ...parcel.receiverCoordinates, accuracy: 1 };
    const user = await signUp(t.app);
    expect((await deliver(parcel.id, user.cookie, at)).statusCode).toBe(403);
    expect((await deliver(parcel.id, sender.cookie, at)).statusCode).toBe(403);
    expect((await deliver(parcel.id, undefined, at)).statusCode).toBe(401);
    expect(await storedParcel(t.app, parcel.id)).toMatchObject({ status: 'in_transit' });
  });

  it.each([
    ['lat', 91, 'invalid_body', messages.invalidCoordinates],
    ['lat', '47.5', 'invalid_body', messages.invalidCoordinates],
    ['lng', -180.5, 'invalid_body', messages.invalidCoordinates],
    ['accuracy', -1, 'invalid_body', messages.invalidAccuracy(100_000)],
    ['accuracy', 100_001, 'invalid_body', messages.invalidAccuracy(100_000)],
    ['accuracy', undefined, 'position_required', messages.required],
    ['lat', undefined, 'position_required', messages.required],
  ])(
    'refuses a bad %s (%j) with 400 (%s) naming the field, delivering nothing',
    async (field, value, code, message) => {
      const { runner, parcel } = await carried();
      const body: Record<string, unknown> = { ...parcel.receiverCoordinates, accuracy: 1, [field]: value };
      if (value === undefined) delete body[field];
      const response = await deliver(parcel.id, runner.cookie, body);
      expect(response.statusCode).toBe(400);
      expect(response.json().error).toMatchObject({ code, fields: { [field]: message } });
      expect(await storedParcel(t.app, parcel.id)).toMatchObject({ status: 'in_transit' });
    },
  );

  it('refuses a runner sending no position at all, naming all three fields', async () => {
    const { runner, parcel } = await carried();
    const response = await deliver(parcel.id, runner.cookie, {});
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toEqual({
      code: 'position_required',
      message: messages.positionRequired,
      fields: { lat: messages.required, lng: messages.required, accuracy: messages.required },
    });
  });
});

describe('live updates of pickups and deliveries', () => {
  let baseUrl: string;
  const streams: SseStream[] = [];
  beforeAll(async () => {
    baseUrl = await listenLocally(t.app);
  });
  afterAll(() => {
    for (const stream of streams) stream.close();
  });
  async function subscribe(topics: string, cookie: string) {
    const stream = await openEventStream(baseUrl, topics, { cookie });
    streams.push(stream);
    expect(stream.status).toBe(200);
    return stream;
  }
  /** The next message about this parcel (other tests' parcels may pass by on shared topics). */
  async function nextAbout(stream: SseStream, parcelId: string) {
    for (;;) {
      const message = await stream.next();
      if (!message) return null;
      if ((message.data as { parcelId: string }).parcelId === parcelId) return message.data;
    }
  }

  it('tells other runners on parcels that a waiting parcel was taken, and sender and runner on me', async () => {
    const lone = await signUp(t.app);
    const parcel = await sendParcel(t.app, lone.cookie, atTheDoor());
    const runner = await signUp(t.app, { role: 'runner' });
    const watcher = await signUp(t.app, { role: 'runner' });
    const pool = await subscribe('parcels', watcher.cookie);
    const runnerMe = await subscribe('me', runner.cookie);
    const senderMe = await subscribe('me', lone.cookie);

    await pickUp(t.app, runner.cookie, parcel.id);
    const pickedUp = { kind: 'picked_up', parcelId: parcel.id, status: 'in_transit' };
    expect(await nextAbout(pool, parcel.id)).toEqual({ topic: 'parcels', ...pickedUp });
    expect(await nextAbout(runnerMe, parcel.id)).toEqual({ topic: 'me', ...pickedUp });
    expect(await nextAbout(senderMe, parcel.id)).toEqual({ topic: 'me', ...pickedUp });

    const done = await call('POST', `/api/parcels/${parcel.id}/deliver`, runner.cookie, {
      ...parcel.receiverCoordinates,
      accuracy: 3,
    });
    expect(done.statusCode).toBe(200);
    const delivered = { kind: 'delivered', parcelId: parcel.id, status: 'delivered' };
    expect(await nextAbout(runnerMe, parcel.id)).toEqual({ topic: 'me', ...delivered });
    expect(await nextAbout(senderMe, parcel.id)).toEqual({ topic: 'me', ...delivered });
    // Leaving a runner's hands is not a change of the waiting pool.
    expect(await pool.next(300)).toBeNull();
  });
});

describe('runner profile through PATCH /api/users/:userName', () => {
  it('never turns a runner into a user, whatever the form sends, and keeps the email read-only', async () => {
    const runner = await signUp(t.app, { role: 'runner' });
    // SPEC §3: the original's runner profile save sent role 'user'.
    const saved = await call('PATCH', `/api/users/${runner.account.userName}`, runner.cookie, {
      name: 'Futó Ferenc',
      phoneNumber: '+36 70 123 4567',
      address: '6720 Szeged, Kárász utca 1',
      email: runner.account.email,
      role: 'user',
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.json().account).toMatchObject({ name: 'Futó Ferenc', role: 'runner', email: runner.account.email });
    const changedEmail = await call('PATCH', `/api/users/${runner.account.userName}`, runner.cookie, {
      email: `uj.${runner.account.email}`,
    });
    expect(changedEmail.statusCode).toBe(400);
    expect(changedEmail.json().error.code).toBe('email_read_only');
    expect(changedEmail.json().error.fields).toEqual({ email: messages.emailReadOnlyForRunner });
    const row = await t.store.db
      .selectFrom('accounts')
      .select(['role', 'email'])
      .where('user_name', '=', runner.account.userName)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ role: 'runner', email: runner.account.email });
    // Still a runner where it matters: picking up parcels.
    const parcel = await sendParcel(t.app, sender.cookie, atTheDoor());
    expect((await call('POST', `/api/parcels/${parcel.id}/pickup`, runner.cookie)).statusCode).toBe(200);
  });
});
