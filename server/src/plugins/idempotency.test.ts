import { IDEMPOTENCY_KEY_TTL_MS } from '@csomag/domain/constants';
import { messages } from '@csomag/domain/messages';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isParcelChange } from '../db/change-feed.ts';
import { storedEvents, storedParcel } from '../test/delivery.ts';
import {
  buildRegistration,
  createTestApp,
  type SignedIn,
  signInSuperadmin,
  signUp,
  type TestApp,
} from '../test/harness.ts';
import { buildParcelBody, sendParcel } from '../test/parcels.ts';
import { pruneIdempotencyKeys, RESERVATION_ABANDONED_MS } from './idempotency.ts';

let t: TestApp;
let app: FastifyInstance;
let sender: SignedIn;
beforeAll(async () => {
  t = await createTestApp();
  app = t.app;
  sender = await signUp(app);
});
afterAll(() => t.close());

let keys = 0;
const newKey = () => `kulcs-${Date.now().toString(36)}-${++keys}`;

const post = (who: SignedIn, url: string, key: string | undefined, payload?: object) =>
  app.inject({
    method: 'POST',
    url,
    headers: { cookie: who.cookie, ...(key === undefined ? {} : { 'idempotency-key': key }) },
    ...(payload ? { payload } : {}),
  });
const pickUpWith = (runner: SignedIn, parcelId: string, key: string) =>
  post(runner, `/api/parcels/${parcelId}/pickup`, key);

/** Change messages committed about a parcel (the change log every instance and live stream reads). */
async function changesOf(parcelId: string) {
  const rows = await app.store.db
    .selectFrom('change_log')
    .select('change')
    .where('change', 'like', `%"parcelId":"${parcelId}"%`)
    // In commit order: without it PostgreSQL may answer a row its trigger rewrote last.
    .orderBy('id')
    .execute();
  return rows.map((row) => JSON.parse(row.change).kind as string);
}

const sentParcelsOf = (who: SignedIn) =>
  app.store.db
    .selectFrom('parcels')
    .innerJoin('accounts', 'accounts.id', 'parcels.sender_id')
    .select('parcels.id')
    .where('accounts.user_name', '=', who.account.userName)
    .execute();

const replayed = (response: LightMyRequestResponse) => response.headers['idempotent-replayed'];

describe('Idempotency-Key on a state-changing request', () => {
  it('applies a pickup once: the repeat gets the same answer, marked replayed, and changes nothing', async () => {
    const runner = await signUp(app, { role: 'runner' });
    const parcel = await sendParcel(app, sender.cookie);
    const key = newKey();
    const first = await pickUpWith(runner, parcel.id, key);
    expect(first.statusCode).toBe(200);
    expect(replayed(first)).toBeUndefined();
    const version = (await storedParcel(app, parcel.id)).version;

    const second = await pickUpWith(runner, parcel.id, key);
    expect(second.statusCode).toBe(200);
    expect(replayed(second)).toBe('true');
    expect(second.json()).toEqual(first.json());
    expect(second.json()).toMatchObject({ id: parcel.id, status: 'in_transit', runner: runner.account.userName });
    expect((await storedEvents(app, parcel.id)).map((event) => event.kind)).toEqual(['created', 'picked_up']);
    expect(await changesOf(parcel.id)).toEqual(['created', 'picked_up']);
    expect((await storedParcel(app, parcel.id)).version).toBe(version);

    // Without the key the same request is a new one, refused as the parcel now is.
    const plain = await post(runner, `/api/parcels/${parcel.id}/pickup`, undefined);
    expect(plain.statusCode).toBe(409);
  });

  it('writes the answer in the change’s own transaction: committed with the change, before the client has it', async () => {
    const runner = await signUp(app, { role: 'runner' });
    const parcel = await sendParcel(app, sender.cookie);
    const key = newKey();
    // Read right after the pickup commits, before the route has answered: what a repeat would get
    // had the process died at that moment.
    let atCommit: Promise<{ status: number | null; body: string | null } | undefined> | undefined;
    const stop = app.changeFeed.onCommit((changes) => {
      if (atCommit || !changes.some((change) => isParcelChange(change) && change.parcelId === parcel.id)) return;
      atCommit = app.store.db
        .selectFrom('idempotency_keys')
        .select(['status', 'body'])
        .where('key', '=', key)
        .executeTakeFirst();
    });
    try {
      const first = await pickUpWith(runner, parcel.id, key);
      expect(first.statusCode).toBe(200);
      expect(await atCommit).toEqual({ status: 200, body: first.body });
    } finally {
      stop();
    }
  });

  it('creates one parcel for a repeated create (201 again, same id) and replays a 204', async () => {
    const me = await signUp(app);
    const body = buildParcelBody();
    const key = newKey();
    const first = await post(me, '/api/parcels', key, body);
    const second = await post(me, '/api/parcels', key, { ...body });
    expect([first.statusCode, second.statusCode]).toEqual([201, 201]);
    expect(second.json()).toEqual(first.json());
    expect(replayed(second)).toBe('true');
    expect(await sentParcelsOf(me)).toHaveLength(1);

    const cancelKey = newKey();
    const cancelled = await post(me, `/api/parcels/${first.json().id}/cancel`, cancelKey);
    const again = await post(me, `/api/parcels/${first.json().id}/cancel`, cancelKey);
    expect([cancelled.statusCode, again.statusCode]).toEqual([204, 204]);
    expect(again.body).toBe('');
    expect(replayed(again)).toBe('true');
    expect(await changesOf(first.json().id)).toEqual(['created', 'cancelled']);
  });

  it('refuses the same key with another body or another parcel (422), changing nothing', async () => {
    const me = await signUp(app);
    const key = newKey();
    const body = buildParcelBody();
    expect((await post(me, '/api/parcels', key, body)).statusCode).toBe(201);
    const other = await post(me, '/api/parcels', key, { ...body, weightGrams: body.weightGrams + 1 });
    expect(other.statusCode).toBe(422);
    expect(other.json().error).toEqual({ code: 'idempotency_key_reused', message: messages.idempotencyKeyReused });
    expect(await sentParcelsOf(me)).toHaveLength(1);

    const runner = await signUp(app, { role: 'runner' });
    const [a, b] = [await sendParcel(app, sender.cookie), await sendParcel(app, sender.cookie)];
    const pickupKey = newKey();
    expect((await pickUpWith(runner, a.id, pickupKey)).statusCode).toBe(200);
    const elsewhere = await pickUpWith(runner, b.id, pickupKey);
    expect(elsewhere.statusCode).toBe(422);
    expect(elsewhere.json().error.code).toBe('idempotency_key_reused');
    expect((await storedParcel(app, b.id)).status).toBe('waiting');
    expect(await changesOf(b.id)).toEqual(['created']);
  });

  it('lets exactly one of several simultaneous requests with one key apply; the others wait (409) or get its answer', async () => {
    const runner = await signUp(app, { role: 'runner' });
    const parcel = await sendParcel(app, sender.cookie);
    const key = newKey();
    const responses = await Promise.all(Array.from({ length: 5 }, () => pickUpWith(runner, parcel.id, key)));
    const applied = responses.filter((response) => response.statusCode === 200 && !replayed(response));
    expect(applied).toHaveLength(1);
    for (const response of responses) {
      if (response.statusCode === 200) expect(response.json()).toEqual(applied[0]?.json());
      else {
        expect(response.statusCode).toBe(409);
        expect(response.json().error).toEqual({
          code: 'idempotency_key_in_flight',
          message: messages.idempotencyKeyInFlight,
        });
      }
    }
    expect((await storedEvents(app, parcel.id)).map((event) => event.kind)).toEqual(['created', 'picked_up']);
    expect(await changesOf(parcel.id)).toEqual(['created', 'picked_up']);
    // Once the first has answered, a repeat gets its answer.
    const later = await pickUpWith(runner, parcel.id, key);
    expect(later.statusCode).toBe(200);
    expect(replayed(later)).toBe('true');

    const me = await signUp(app);
    const body = buildParcelBody();
    const createKey = newKey();
    const creates = await Promise.all(Array.from({ length: 4 }, () => post(me, '/api/parcels', createKey, body)));
    expect(creates.filter((response) => response.statusCode === 201 && !replayed(response))).toHaveLength(1);
    expect(creates.every((response) => [201, 409].includes(response.statusCode))).toBe(true);
    expect(await sentParcelsOf(me)).toHaveLength(1);
  });

  it("keeps keys per account: another account's identical key is a request of its own", async () => {
    const [first, second] = [await signUp(app), await signUp(app)];
    const key = newKey();
    const body = buildParcelBody();
    const a = await post(first, '/api/parcels', key, body);
    const b = await post(second, '/api/parcels', key, body);
    expect([a.statusCode, b.statusCode]).toEqual([201, 201]);
    expect(replayed(b)).toBeUndefined();
    expect(b.json().id).not.toBe(a.json().id);
    expect(b.json().senderUser).toBe(second.account.userName);
    expect(await sentParcelsOf(first)).toHaveLength(1);
    expect(await sentParcelsOf(second)).toHaveLength(1);
  });

  it('stores no refusal: the same key asked again gets the answer as things are then', async () => {
    const [carrier, late] = [await signUp(app, { role: 'runner' }), await signUp(app, { role: 'runner' })];
    const parcel = await sendParcel(app, sender.cookie);
    expect((await pickUpWith(carrier, parcel.id, newKey())).statusCode).toBe(200);
    const key = newKey();
    const refused = await pickUpWith(late, parcel.id, key);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.code).toBe('parcel_taken');
    // The back office puts it back in the pool: the refused pickup may now succeed.
    const admin = await signInSuperadmin(app);
    const putBack = await app.inject({
      method: 'PATCH',
      url: `/api/parcels/${parcel.id}`,
      headers: { cookie: admin.cookie },
      payload: { status: 'waiting', reason: 'Defekt' },
    });
    expect(putBack.statusCode).toBe(200);
    const retried = await pickUpWith(late, parcel.id, key);
    expect(retried.statusCode).toBe(200);
    expect(replayed(retried)).toBeUndefined();
    expect(retried.json().runner).toBe(late.account.userName);
  });

  it('treats an expired key as new, and prunes expired keys', async () => {
    const me = await signUp(app);
    const key = newKey();
    const body = buildParcelBody();
    expect((await post(me, '/api/parcels', key, body)).statusCode).toBe(201);
    const expired = Date.now() - IDEMPOTENCY_KEY_TTL_MS - 1000;
    await app.store.db.updateTable('idempotency_keys').set({ created_ms: expired }).where('key', '=', key).execute();
    const again = await post(me, '/api/parcels', key, body);
    expect(again.statusCode).toBe(201);
    expect(replayed(again)).toBeUndefined();
    expect(await sentParcelsOf(me)).toHaveLength(2);

    const stale = newKey();
    expect((await post(me, '/api/parcels', stale, buildParcelBody())).statusCode).toBe(201);
    await app.store.db.updateTable('idempotency_keys').set({ created_ms: expired }).where('key', '=', stale).execute();
    await pruneIdempotencyKeys(app.store.db);
    const left = await app.store.db
      .selectFrom('idempotency_keys')
      .select('key')
      .where('key', 'in', [key, stale])
      .execute();
    expect(left.map((row) => row.key)).toEqual([key]);
  });

  it('holds a reserved key against every copy while its request runs, and frees one its dead request left', async () => {
    const me = await signUp(app);
    const key = newKey();
    const body = buildParcelBody();
    expect((await post(me, '/api/parcels', key, body)).statusCode).toBe(201);
    const row = () => app.store.db.updateTable('idempotency_keys').where('key', '=', key);
    // As a request still running leaves it: reserved, nothing committed under it yet.
    await row().set({ status: null, body: null, created_ms: Date.now() }).execute();
    const copy = await post(me, '/api/parcels', key, body);
    expect(copy.statusCode).toBe(409);
    expect(copy.json().error.code).toBe('idempotency_key_in_flight');
    expect(await sentParcelsOf(me)).toHaveLength(1);
    // As a request that died (a crash) before changing anything leaves it: taken over once that old.
    await row()
      .set({ created_ms: Date.now() - RESERVATION_ABANDONED_MS - 1000 })
      .execute();
    const again = await post(me, '/api/parcels', key, body);
    expect(again.statusCode).toBe(201);
    expect(replayed(again)).toBeUndefined();
    expect(await sentParcelsOf(me)).toHaveLength(2);
  });

  it('keeps a key taken, however old, once a change committed under it before its answer was stored', async () => {
    const me = await signUp(app);
    const key = newKey();
    const body = buildParcelBody();
    expect((await post(me, '/api/parcels', key, body)).statusCode).toBe(201);
    await app.store.db
      .updateTable('idempotency_keys')
      .set({ status: 0, body: null, created_ms: Date.now() - RESERVATION_ABANDONED_MS - 1000 })
      .where('key', '=', key)
      .execute();
    const copy = await post(me, '/api/parcels', key, body);
    expect(copy.json().error.code).toBe('idempotency_key_in_flight');
    expect(await sentParcelsOf(me)).toHaveLength(1);
  });

  it('frees the key of a request refused before any change', async () => {
    const me = await signUp(app);
    const key = newKey();
    const refused = await post(me, '/api/parcels', key, buildParcelBody({ weightGrams: -1 }));
    expect(refused.statusCode).toBe(400);
    expect(await app.store.db.selectFrom('idempotency_keys').select('key').where('key', '=', key).execute()).toEqual(
      [],
    );
  });

  it.each([
    ['empty', ''],
    ['longer than 255 characters', 'k'.repeat(256)],
    ['with a space', 'két szó'],
    ['not ASCII', 'kulcs-\u00e9'],
  ])('refuses a key that is %s (400) and changes nothing', async (_what, key) => {
    const runner = await signUp(app, { role: 'runner' });
    const parcel = await sendParcel(app, sender.cookie);
    const response = await pickUpWith(runner, parcel.id, key);
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toEqual({
      code: 'idempotency_key_invalid',
      message: messages.idempotencyKeyInvalid(255),
    });
    expect((await storedParcel(app, parcel.id)).status).toBe('waiting');
    expect(await changesOf(parcel.id)).toEqual(['created']);
  });

  it('takes the quoted form of the draft and the longest allowed key', async () => {
    const runner = await signUp(app, { role: 'runner' });
    const parcel = await sendParcel(app, sender.cookie);
    const key = `"${'k'.repeat(255)}"`;
    expect((await pickUpWith(runner, parcel.id, key)).statusCode).toBe(200);
    const again = await pickUpWith(runner, parcel.id, key.slice(1, -1));
    expect(again.statusCode).toBe(200);
    expect(replayed(again)).toBe('true');
  });

  it('ignores the key on sign-in and registration: each answer sets its own cookie', async () => {
    const registration = buildRegistration();
    const key = newKey();
    const registered = await app.inject({
      method: 'POST',
      url: '/api/auth/register',
      headers: { 'idempotency-key': key },
      payload: registration,
      remoteAddress: '10.250.0.1',
    });
    expect(registered.statusCode).toBe(201);
    const login = () =>
      app.inject({
        method: 'POST',
        url: '/api/auth/login',
        headers: { 'idempotency-key': key },
        payload: { email: registration.email, password: registration.password },
      });
    const [first, second] = [await login(), await login()];
    expect([first.statusCode, second.statusCode]).toEqual([200, 200]);
    expect(replayed(second)).toBeUndefined();
    const cookieOf = (response: LightMyRequestResponse) =>
      response.cookies.find((c) => c.name === 'csk_session')?.value;
    expect(cookieOf(second)).toBeDefined();
    expect(cookieOf(second)).not.toBe(cookieOf(first));
  });

  it('replays a back-office assignment without a second event', async () => {
    const admin = await signInSuperadmin(app);
    const runner = await signUp(app, { role: 'runner' });
    const parcel = await sendParcel(app, sender.cookie);
    const key = newKey();
    const assign = () => post(admin, `/api/parcels/${parcel.id}/assign`, key, { runner: runner.account.userName });
    const first = await assign();
    const second = await assign();
    expect([first.statusCode, second.statusCode]).toEqual([200, 200]);
    expect(replayed(second)).toBe('true');
    expect(await changesOf(parcel.id)).toEqual(['created', 'assigned']);
  });
});

describe('the OpenAPI document', () => {
  it('lists the Idempotency-Key header and its refusals on writes, not on sign-in', async () => {
    const paths = (await app.inject({ method: 'GET', url: '/api/docs/json' })).json().paths;
    const pickup = paths['/api/parcels/{id}/pickup'].post;
    expect(pickup.parameters).toEqual(
      expect.arrayContaining([expect.objectContaining({ in: 'header', name: 'idempotency-key', required: false })]),
    );
    const codes = (status: string) =>
      pickup.responses[status].content['application/json'].schema.properties.error.properties.code.enum;
    expect(codes('400')).toContain('idempotency_key_invalid');
    expect(codes('409')).toEqual(expect.arrayContaining(['parcel_taken', 'idempotency_key_in_flight']));
    expect(codes('422')).toEqual(['idempotency_key_reused']);
    const location = paths['/api/runners/me/location'].put;
    expect(location.parameters).toEqual(
      expect.arrayContaining([expect.objectContaining({ in: 'header', name: 'idempotency-key' })]),
    );
    const login = paths['/api/auth/login'].post;
    expect(JSON.stringify(login.parameters ?? [])).not.toContain('idempotency-key');
  });
});
