import { messages } from '@csomag/domain/messages';
import { parcelCreateBodySchema, parcelIdSchema } from '@csomag/domain/parcel';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type SignedIn, signInSuperadmin, signUp, type TestApp } from '../../test/harness.ts';
import { buildParcelBody, putInTransit, sendParcel } from '../../test/parcels.ts';
import { schemaMessage } from '../../test/schema-message.ts';

let t: TestApp;
let admin: SignedIn;
beforeAll(async () => {
  t = await createTestApp();
  admin = await signInSuperadmin(t.app);
});
afterAll(() => t.close());

const post = (payload: Record<string, unknown>, cookie?: string) =>
  t.app.inject({ method: 'POST', url: '/api/parcels', payload, ...(cookie ? { headers: { cookie } } : {}) });
const get = (url: string, cookie?: string) =>
  t.app.inject({ method: 'GET', url, ...(cookie ? { headers: { cookie } } : {}) });

/** Parcels stored with this category: categories are unique per test, so this never counts globally. */
const storedWithCategory = async (category: unknown) =>
  (await t.store.db.selectFrom('parcels').select('id').where('category', '=', String(category)).execute()).length;

/** The list order: newest first, id breaking ties between parcels created in the same millisecond. */
const newestFirst = (parcels: { id: string; createdAt: string }[]) =>
  [...parcels].sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.id.localeCompare(a.id)).map((p) => p.id);

/** A unique address in Szeged: whoever registers with it is the only one it is "incoming" for. */
let addressCounter = 0;
const uniqueAddress = () => `6720 Szeged, Tisza Lajos körút ${Date.now() % 100000}/${++addressCounter}`;

describe('POST /api/parcels', () => {
  it('sends a waiting parcel as the signed-in user, placing both addresses offline', async () => {
    const sender = await signUp(t.app);
    const body = buildParcelBody({ receiverAddress: '1052 Budapest, Váci utca 12' });
    const response = await post(body, sender.cookie);
    expect(response.statusCode).toBe(201);
    const parcel = response.json();
    expect(parcel).toEqual({
      id: expect.stringMatching(/^[0-9A-HJKMNP-TV-Z]{10}$/),
      status: 'waiting',
      category: body.category,
      weightGrams: 850,
      senderUser: sender.account.userName,
      runner: null,
      senderAddress: '6720 Szeged, Kárász utca 5',
      receiverAddress: '1052 Budapest, Váci utca 12',
      senderCoordinates: { lat: 46.253, lng: 20.14824 },
      receiverCoordinates: { lat: 47.4996, lng: 19.0512 },
      // The gazetteer knows towns and Budapest districts, not doors.
      senderPrecision: 'settlement',
      receiverPrecision: 'settlement',
      photoRequired: false,
      state: 'waiting',
      attempts: 0,
      redelivery: null,
      neighbour: null,
      neighbourWish: null,
      dropPoint: null,
      createdAt: expect.any(String),
      pickedUpAt: null,
      deliveredAt: null,
    });
    const row = await t.store.db
      .selectFrom('parcels')
      .selectAll()
      .where('id', '=', parcel.id)
      .executeTakeFirstOrThrow();
    expect(row.receiver_key).toBe('budapest|5|vaci|utca|12');
    const events = await t.store.db
      .selectFrom('parcel_events')
      .selectAll()
      .where('parcel_id', '=', parcel.id)
      .execute();
    expect(events).toMatchObject([{ kind: 'created', at: parcel.createdAt }]);
  });

  it('keeps the pins the sender placed instead of geocoding', async () => {
    const sender = await signUp(t.app);
    const response = await post(
      buildParcelBody({
        senderAddress: 'Egy tanya a határban',
        senderCoordinates: { lat: 46.5, lng: 20.5 },
        receiverCoordinates: { lat: 47.1, lng: 19.2 },
      }),
      sender.cookie,
    );
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({
      senderCoordinates: { lat: 46.5, lng: 20.5 },
      receiverCoordinates: { lat: 47.1, lng: 19.2 },
    });
  });

  it('answers 422 in Hungarian naming the address it cannot place, and saves nothing', async () => {
    const sender = await signUp(t.app);
    const body = buildParcelBody({ receiverAddress: 'Nincsilyen falu, Sehol utca 1' });
    const response = await post(body, sender.cookie);
    expect(response.statusCode).toBe(422);
    const message = messages.settlementUnknown('Nincsilyen falu');
    expect(response.json().error).toEqual({
      code: 'settlement_unknown',
      message,
      fields: { receiverAddress: message },
    });
    expect(await storedWithCategory(body.category)).toBe(0);
  });

  it('lets the superadmin send for a user named in senderUser', async () => {
    const sender = await signUp(t.app);
    const parcel = await sendParcel(t.app, admin.cookie, { senderUser: sender.account.userName.toUpperCase() });
    expect(parcel.senderUser).toBe(sender.account.userName);
    const mine = await get('/api/me/sent-parcels', sender.cookie);
    expect(mine.json().items.map((p: { id: string }) => p.id)).toContain(parcel.id);
  });

  it.each([
    ['missing', undefined, 'sender_required', messages.senderUserRequired],
    ['unknown', 'nincs_ilyen_felhasznalo', 'sender_not_found', messages.accountNotFound],
  ])('refuses a superadmin parcel with a %s senderUser (400), saving nothing', async (_, senderUser, code, message) => {
    const body = buildParcelBody(senderUser ? { senderUser } : {});
    const response = await post(body, admin.cookie);
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toMatchObject({ code, fields: { senderUser: message } });
    expect(await storedWithCategory(body.category)).toBe(0);
  });

  it('refuses a runner or a superadmin as the sender of a parcel', async () => {
    const runner = await signUp(t.app, { role: 'runner' });
    const otherAdmin = await signInSuperadmin(t.app);
    for (const senderUser of [runner.account.userName, otherAdmin.account.userName]) {
      const response = await post(buildParcelBody({ senderUser }), admin.cookie);
      expect(response.statusCode).toBe(400);
      expect(response.json().error).toEqual({
        code: 'sender_not_user',
        message: messages.senderUserNotUser,
        fields: { senderUser: messages.senderUserNotUser },
      });
    }
  });

  it('refuses a user sending in someone else’s name, but accepts their own name', async () => {
    const sender = await signUp(t.app);
    const other = await signUp(t.app);
    const body = buildParcelBody({ senderUser: other.account.userName });
    const refused = await post(body, sender.cookie);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error).toEqual({
      code: 'sender_not_self',
      message: messages.senderUserNotSelf,
      fields: { senderUser: messages.senderUserNotSelf },
    });
    expect(await storedWithCategory(body.category)).toBe(0);
    const own = await post(buildParcelBody({ senderUser: sender.account.userName }), sender.cookie);
    expect(own.statusCode).toBe(201);
  });

  it('refuses anonymous callers (401) and runners (403), saving nothing', async () => {
    const runner = await signUp(t.app, { role: 'runner' });
    const body = buildParcelBody();
    const anonymous = await post(body);
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json().error).toEqual({ code: 'sign_in_required', message: messages.signInRequired });
    const asRunner = await post(body, runner.cookie);
    expect(asRunner.statusCode).toBe(403);
    expect(asRunner.json().error).toEqual({ code: 'forbidden', message: messages.forbidden });
    expect(await storedWithCategory(body.category)).toBe(0);
  });

  it.each([
    ['weightGrams', 0, messages.weightInvalid],
    ['weightGrams', -5, messages.weightInvalid],
    ['weightGrams', 1.5, messages.weightInvalid],
    ['weightGrams', '850 font', messages.weightUnreadable],
    ['weightGrams', '1,5', messages.weightNeedsUnit],
    ['weightGrams', 50_001, messages.weightTooHeavy(50_000)],
    ['category', '  ', messages.required],
    ['senderAddress', undefined, messages.required],
    ['receiverAddress', 'x'.repeat(201), schemaMessage(parcelCreateBodySchema.shape.receiverAddress, 'x'.repeat(201))],
    ['senderCoordinates', { lat: 91, lng: 19 }, messages.invalidCoordinates],
  ])('refuses a bad %s (%j) with 400 naming the field, saving nothing', async (field, value, message) => {
    const sender = await signUp(t.app);
    const body = buildParcelBody({ [field]: value });
    const response = await post(body, sender.cookie);
    expect(response.statusCode).toBe(400);
    const fieldName = field === 'senderCoordinates' ? 'senderCoordinates.lat' : field;
    expect(response.json().error).toMatchObject({ code: 'invalid_body', fields: { [fieldName]: message } });
    expect(await storedWithCategory(body.category)).toBe(0);
  });

  it('allows 120 parcels per account per minute, then answers 429 in Hungarian; others are unaffected', async () => {
    const busy = await signUp(t.app);
    const pins = { senderCoordinates: { lat: 47.5, lng: 19.05 }, receiverCoordinates: { lat: 47.4, lng: 19.1 } };
    for (let i = 0; i < 120; i++) {
      const response = await post(buildParcelBody(pins), busy.cookie);
      expect(response.statusCode).toBe(201);
    }
    const body = buildParcelBody(pins);
    const limited = await post(body, busy.cookie);
    expect(limited.statusCode).toBe(429);
    expect(limited.json().error).toEqual({ code: 'rate_limited', message: messages.tooManyRequests });
    expect(await storedWithCategory(body.category)).toBe(0);
    const other = await signUp(t.app);
    expect((await post(buildParcelBody(pins), other.cookie)).statusCode).toBe(201);
  });
});

describe('GET /api/me/sent-parcels', () => {
  it('lists only my parcels, newest first, page by page with an opaque cursor', async () => {
    const sender = await signUp(t.app);
    const other = await signUp(t.app);
    const sent = [];
    for (let i = 0; i < 5; i++) sent.push(await sendParcel(t.app, sender.cookie));
    await sendParcel(t.app, other.cookie);

    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const url: string = `/api/me/sent-parcels?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
      const response = await get(url, sender.cookie);
      expect(response.statusCode).toBe(200);
      const page = response.json();
      expect(page.items.length).toBeLessThanOrEqual(2);
      seen.push(...page.items.map((p: { id: string }) => p.id));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual(newestFirst(sent));
  });

  it('filters by status', async () => {
    const sender = await signUp(t.app);
    const runner = await signUp(t.app, { role: 'runner' });
    const waiting = await sendParcel(t.app, sender.cookie);
    const moving = await sendParcel(t.app, sender.cookie);
    await putInTransit(t.app, moving.id, runner.account.userName);
    const inTransit = (await get('/api/me/sent-parcels?status=in_transit', sender.cookie)).json();
    expect(inTransit.items.map((p: { id: string }) => p.id)).toEqual([moving.id]);
    expect(inTransit.items[0].runner).toBe(runner.account.userName);
    const stillWaiting = (await get('/api/me/sent-parcels?status=waiting', sender.cookie)).json();
    expect(stillWaiting.items.map((p: { id: string }) => p.id)).toEqual([waiting.id]);
  });

  it.each([
    ['status=elveszett', 'status', 'invalid_body', messages.invalidStatus],
    ['limit=0', 'limit', 'invalid_body', messages.invalidLimit(200)],
    ['limit=201', 'limit', 'invalid_body', messages.invalidLimit(200)],
    ['cursor=nem-a-mienk', 'cursor', 'invalid_cursor', messages.invalidCursor],
  ])('refuses ?%s with 400 naming the field %s (%s)', async (query, field, code, message) => {
    const sender = await signUp(t.app);
    const response = await get(`/api/me/sent-parcels?${query}`, sender.cookie);
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe(code);
    expect(response.json().error.fields).toEqual({ [field]: message });
  });

  it('refuses anonymous callers (401), runners and the superadmin (403)', async () => {
    const runner = await signUp(t.app, { role: 'runner' });
    expect((await get('/api/me/sent-parcels')).statusCode).toBe(401);
    expect((await get('/api/me/sent-parcels', runner.cookie)).statusCode).toBe(403);
    expect((await get('/api/me/sent-parcels', admin.cookie)).statusCode).toBe(403);
  });
});

describe('GET /api/me/incoming-parcels', () => {
  it('lists parcels addressed to my address however it was typed, and not others', async () => {
    const address = uniqueAddress();
    const receiver = await signUp(t.app, { address });
    const sender = await signUp(t.app);
    const typedDifferently = address.toUpperCase().replace('Tisza', 'TISZA,').replace('körút', 'korut.');
    const toMe = await sendParcel(t.app, sender.cookie, { receiverAddress: typedDifferently });
    const toSomeoneElse = await sendParcel(t.app, sender.cookie, { receiverAddress: uniqueAddress() });
    const response = await get('/api/me/incoming-parcels', receiver.cookie);
    expect(response.statusCode).toBe(200);
    const ids = response.json().items.map((p: { id: string }) => p.id);
    expect(ids).toEqual([toMe.id]);
    expect(ids).not.toContain(toSomeoneElse.id);
    expect(response.json().nextCursor).toBeNull();
  });

  it('pages with a cursor', async () => {
    const address = uniqueAddress();
    const receiver = await signUp(t.app, { address });
    const sender = await signUp(t.app);
    const sent = [];
    for (let i = 0; i < 3; i++) sent.push(await sendParcel(t.app, sender.cookie, { receiverAddress: address }));
    const first = (await get('/api/me/incoming-parcels?limit=2', receiver.cookie)).json();
    expect(first.items).toHaveLength(2);
    const second = (await get(`/api/me/incoming-parcels?limit=2&cursor=${first.nextCursor}`, receiver.cookie)).json();
    expect([...first.items, ...second.items].map((p: { id: string }) => p.id)).toEqual(newestFirst(sent));
    expect(second.nextCursor).toBeNull();
  });

  it('refuses anonymous callers (401), runners and the superadmin (403)', async () => {
    const runner = await signUp(t.app, { role: 'runner' });
    expect((await get('/api/me/incoming-parcels')).statusCode).toBe(401);
    expect((await get('/api/me/incoming-parcels', runner.cookie)).statusCode).toBe(403);
    expect((await get('/api/me/incoming-parcels', admin.cookie)).statusCode).toBe(403);
  });

  it('refuses a bad limit with 400 naming the field', async () => {
    const user = await signUp(t.app);
    const response = await get('/api/me/incoming-parcels?limit=abc', user.cookie);
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe('invalid_body');
    expect(Object.keys(response.json().error.fields)).toEqual(['limit']);
  });
});

describe('GET /api/parcels/:id', () => {
  it('shows the sender the full parcel with its timeline', async () => {
    const sender = await signUp(t.app);
    const parcel = await sendParcel(t.app, sender.cookie);
    const response = await get(`/api/parcels/${parcel.id}`, sender.cookie);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      ...parcel,
      version: 1,
      events: [{ at: parcel.createdAt, kind: 'created', actor: sender.account.userName }],
      contacts: null,
    });
  });

  it('shows it to its runner and to the superadmin, with the id in any case', async () => {
    const sender = await signUp(t.app);
    const runner = await signUp(t.app, { role: 'runner' });
    const parcel = await sendParcel(t.app, sender.cookie);
    await putInTransit(t.app, parcel.id, runner.account.userName);
    const asRunner = await get(`/api/parcels/${parcel.id.toLowerCase()}`, runner.cookie);
    expect(asRunner.statusCode).toBe(200);
    expect(asRunner.json()).toMatchObject({ status: 'in_transit', runner: runner.account.userName });
    expect(asRunner.json().events.map((e: { kind: string }) => e.kind)).toEqual(['created', 'picked_up']);
    expect((await get(`/api/parcels/${parcel.id}`, admin.cookie)).statusCode).toBe(200);
  });

  it('gives the carrier and the superadmin whom to call, and nobody else', async () => {
    const sender = await signUp(t.app);
    const runner = await signUp(t.app, { role: 'runner' });
    const otherRunner = await signUp(t.app, { role: 'runner' });
    const parcel = await sendParcel(t.app, sender.cookie, {
      recipientName: 'Kiss Anna',
      recipientPhone: '+36 30 123 4567',
    });
    const contacts = {
      recipientName: 'Kiss Anna',
      recipientPhone: '+36 30 123 4567',
      senderName: sender.account.name,
      senderPhone: sender.account.phoneNumber,
    };
    await putInTransit(t.app, parcel.id, runner.account.userName);
    expect((await get(`/api/parcels/${parcel.id}`, runner.cookie)).json().contacts).toEqual(contacts);
    expect((await get(`/api/parcels/${parcel.id}`, admin.cookie)).json().contacts).toEqual(contacts);
    const carried = await get('/api/me/assigned-parcels', runner.cookie);
    expect(carried.json().items.find((p: { id: string }) => p.id === parcel.id).contacts).toEqual(contacts);

    // Never on the public page, the waiting pool, another runner's list or the sender's lists.
    for (const [url, cookie] of [
      [`/api/tracking/${parcel.id}`, undefined],
      ['/api/me/sent-parcels', sender.cookie],
      ['/api/me/assigned-parcels', otherRunner.cookie],
      ['/api/parcels/waiting?limit=200', otherRunner.cookie],
    ] as const) {
      const body = (await get(url, cookie)).body;
      expect(body, url).not.toContain('123 4567');
      expect(body, url).not.toContain('Kiss Anna');
      expect(body, url).not.toContain(sender.account.phoneNumber);
    }
    expect((await get(`/api/parcels/${parcel.id}`, otherRunner.cookie)).statusCode).toBe(403);
  });

  it.each([
    ['x'.repeat(200), 'a phone of 200 characters'],
    ['hívj fel', 'letters'],
    ['12', 'too short'],
  ])('refuses a recipient phone of %s (%s) with 400, saving nothing', async (recipientPhone) => {
    const sender = await signUp(t.app);
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/parcels',
      headers: { cookie: sender.cookie },
      payload: buildParcelBody({ recipientPhone }),
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe('invalid_body');
    expect(response.json().error.fields).toEqual({ recipientPhone: messages.recipientPhoneInvalid });
    const sent = await get('/api/me/sent-parcels', sender.cookie);
    expect(sent.json().items).toEqual([]);
  });

  it('refuses another user and another runner (403), anonymous callers (401)', async () => {
    const sender = await signUp(t.app);
    const stranger = await signUp(t.app);
    const otherRunner = await signUp(t.app, { role: 'runner' });
    const parcel = await sendParcel(t.app, sender.cookie);
    const asStranger = await get(`/api/parcels/${parcel.id}`, stranger.cookie);
    expect(asStranger.statusCode).toBe(403);
    expect(asStranger.json().error).toEqual({ code: 'forbidden', message: messages.forbidden });
    expect(asStranger.body).not.toContain(parcel.receiverAddress);
    const asOtherRunner = await get(`/api/parcels/${parcel.id}`, otherRunner.cookie);
    expect(asOtherRunner.statusCode).toBe(403);
    expect(asOtherRunner.json().error.code).toBe('forbidden');
    const anonymous = await get(`/api/parcels/${parcel.id}`);
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json().error.code).toBe('sign_in_required');
  });

  it('answers 404 in Hungarian for an unknown id and 400 naming id for a malformed one', async () => {
    const user = await signUp(t.app);
    const unknown = await get('/api/parcels/0000000000', user.cookie);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error).toEqual({ code: 'parcel_not_found', message: messages.parcelNotFound });
    const malformed = await get('/api/parcels/nem-azonosito', user.cookie);
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().error.code).toBe('invalid_body');
    expect(malformed.json().error.fields).toEqual({ id: schemaMessage(parcelIdSchema, 'nem-azonosito') });
  });
});

describe('GET /api/tracking/:id', () => {
  it('shows anyone the public view of a waiting parcel: points, times, no addresses or contacts', async () => {
    const sender = await signUp(t.app);
    const parcel = await sendParcel(t.app, sender.cookie);
    const response = await get(`/api/tracking/${parcel.id}`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      id: parcel.id,
      status: 'waiting',
      category: parcel.category,
      weightGrams: 850,
      senderUser: sender.account.userName,
      runner: null,
      createdAt: parcel.createdAt,
      pickedUpAt: null,
      deliveredAt: null,
      pickup: parcel.senderCoordinates,
      destination: parcel.receiverCoordinates,
      pickupPrecision: parcel.senderPrecision,
      destinationPrecision: parcel.receiverPrecision,
      runnerPosition: null,
      runnerRating: null,
      events: [{ at: parcel.createdAt, kind: 'created' }],
      state: 'waiting',
      attempts: 0,
      redelivery: null,
      dropPoint: null,
    });
    for (const secret of [
      parcel.senderAddress,
      parcel.receiverAddress,
      sender.account.email,
      sender.account.phoneNumber,
    ]) {
      expect(response.body).not.toContain(secret);
    }
  });

  it('shows the runner and where they are while the parcel is in transit', async () => {
    const sender = await signUp(t.app);
    const runner = await signUp(t.app, { role: 'runner' });
    const parcel = await sendParcel(t.app, sender.cookie);
    const { at } = await putInTransit(t.app, parcel.id, runner.account.userName);
    const view = (await get(`/api/tracking/${parcel.id.toLowerCase()}`)).json();
    expect(view).toMatchObject({
      status: 'in_transit',
      runner: runner.account.userName,
      pickedUpAt: at,
      runnerPosition: { lat: 47.5, lng: 19.05, at },
    });
    expect(view.events.map((e: { kind: string }) => e.kind)).toEqual(['created', 'picked_up']);
    expect(JSON.stringify(view)).not.toContain(runner.account.email);
  });

  it('hides the runner and their position once delivered', async () => {
    const sender = await signUp(t.app);
    const runner = await signUp(t.app, { role: 'runner' });
    const parcel = await sendParcel(t.app, sender.cookie);
    await putInTransit(t.app, parcel.id, runner.account.userName);
    await t.store.db
      .updateTable('parcels')
      .set({ status: 'delivered', delivered_at: new Date().toISOString() })
      .where('id', '=', parcel.id)
      .execute();
    const view = (await get(`/api/tracking/${parcel.id}`)).json();
    expect(view).toMatchObject({ status: 'delivered', runner: null, runnerPosition: null });
  });

  it.each(['0000000000', 'nem-azonosito', 'x'.repeat(80)])('answers 404 in Hungarian for %s', async (id) => {
    const response = await get(`/api/tracking/${id}`);
    expect(response.statusCode).toBe(404);
    expect(response.json().error).toEqual({ code: 'parcel_not_found', message: messages.parcelNotFound });
  });
});
