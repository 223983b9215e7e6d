import { messages } from '@csomag/domain/messages';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pickUp } from '../../test/delivery.ts';
import { createTestApp, type SignedIn, signInSuperadmin, signUp, type TestApp } from '../../test/harness.ts';
import { sendParcel } from '../../test/parcels.ts';
import { listenLocally, openEventStream, type SseStream } from '../../test/sse.ts';

let t: TestApp;
let admin: SignedIn;
let sender: SignedIn;
let baseUrl: string;
const streams: SseStream[] = [];
beforeAll(async () => {
  t = await createTestApp();
  baseUrl = await listenLocally(t.app);
  admin = await signInSuperadmin(t.app);
  sender = await signUp(t.app);
});
afterAll(async () => {
  for (const stream of streams) stream.close();
  await t.close();
});

const report = (payload: Record<string, unknown>, cookie?: string) =>
  t.app.inject({ method: 'PUT', url: '/api/runners/me/location', payload, ...(cookie ? { headers: { cookie } } : {}) });
const tracking = async (parcelId: string) =>
  (await t.app.inject({ method: 'GET', url: `/api/tracking/${parcelId}` })).json();
const storedPosition = (userName: string) =>
  t.store.db
    .selectFrom('accounts')
    .select(['last_lat', 'last_lng', 'last_accuracy', 'located_at'])
    .where('user_name', '=', userName)
    .executeTakeFirstOrThrow();
async function subscribe(topics: string, cookie?: string) {
  const stream = await openEventStream(baseUrl, topics, cookie ? { cookie } : {});
  streams.push(stream);
  expect(stream.status).toBe(200);
  return stream;
}

describe('PUT /api/runners/me/location', () => {
  it('stores where the runner is; the tracking page of a parcel they carry shows it', async () => {
    const runner = await signUp(t.app, { role: 'runner' });
    const parcel = await sendParcel(t.app, sender.cookie);
    await pickUp(t.app, runner.cookie, parcel.id);
    const before = new Date().toISOString();
    const response = await report({ lat: 47.4979, lng: 19.0402, accuracy: 12.5 }, runner.cookie);
    expect(response.statusCode).toBe(204);
    expect(response.body).toBe('');
    const stored = await storedPosition(runner.account.userName);
    expect(stored).toMatchObject({ last_lat: 47.4979, last_lng: 19.0402, last_accuracy: 12.5 });
    expect(stored.located_at && stored.located_at >= before).toBe(true);
    expect((await tracking(parcel.id)).runnerPosition).toEqual({ lat: 47.4979, lng: 19.0402, at: stored.located_at });
  });

  it('moves the runner on open tracking pages of what they carry, and on no list', async () => {
    const runner = await signUp(t.app, { role: 'runner' });
    const parcel = await sendParcel(t.app, sender.cookie);
    await pickUp(t.app, runner.cookie, parcel.id);
    const page = await subscribe(`parcel:${parcel.id}`);
    const senderLists = await subscribe('me', sender.cookie);
    const runnerLists = await subscribe('me', runner.cookie);
    const adminLists = await subscribe('parcels', admin.cookie);

    expect((await report({ lat: 47.5, lng: 19.05, accuracy: 8 }, runner.cookie)).statusCode).toBe(204);
    expect((await page.next())?.data).toEqual({
      topic: `parcel:${parcel.id}`,
      kind: 'runner_located',
      parcelId: parcel.id,
      status: 'in_transit',
    });
    for (const stream of [senderLists, runnerLists, adminLists]) expect(await stream.next(300)).toBeNull();
    expect(page.raw.join('\n')).not.toContain(runner.account.userName);
  });

  it('exposes a runner carrying nothing to nobody', async () => {
    const runner = await signUp(t.app, { role: 'runner' });
    const parcel = await sendParcel(t.app, sender.cookie);
    await pickUp(t.app, runner.cookie, parcel.id);
    await t.app.inject({ method: 'POST', url: `/api/parcels/${parcel.id}/deliver`, headers: { cookie: admin.cookie } });
    const page = await subscribe(`parcel:${parcel.id}`);
    const adminLists = await subscribe('parcels', admin.cookie);

    expect((await report({ lat: 46.9, lng: 18.1, accuracy: 5 }, runner.cookie)).statusCode).toBe(204);
    expect(await page.next(300)).toBeNull();
    expect(await adminLists.next(300)).toBeNull();
    expect(await tracking(parcel.id)).toMatchObject({ status: 'delivered', runner: null, runnerPosition: null });
  });

  it('takes a burst of reports from one phone without refusing any', async () => {
    const runner = await signUp(t.app, { role: 'runner' });
    const responses = await Promise.all(
      Array.from({ length: 30 }, (_, i) => report({ lat: 47 + i / 1000, lng: 19, accuracy: 10 }, runner.cookie)),
    );
    expect(responses.map((r) => r.statusCode)).toEqual(Array(30).fill(204));
  });

  it('refuses users and the superadmin (403), anonymous callers (401), storing nothing', async () => {
    const user = await signUp(t.app);
    for (const cookie of [user.cookie, admin.cookie]) {
      const response = await report({ lat: 47, lng: 19, accuracy: 1 }, cookie);
      expect(response.statusCode).toBe(403);
      expect(response.json().error).toEqual({ code: 'forbidden', message: messages.forbidden });
    }
    expect((await storedPosition(user.account.userName)).located_at).toBeNull();
    const anonymous = await report({ lat: 47, lng: 19, accuracy: 1 });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json().error.code).toBe('sign_in_required');
  });

  it.each([
    ['lat', -90.01, messages.invalidCoordinates],
    ['lat', undefined, messages.invalidCoordinates],
    ['lng', 180.01, messages.invalidCoordinates],
    ['lng', null, messages.invalidCoordinates],
    ['accuracy', -0.5, messages.invalidAccuracy(100_000)],
    ['accuracy', 1e6, messages.invalidAccuracy(100_000)],
    ['accuracy', '10', messages.invalidAccuracy(100_000)],
  ])('refuses a bad %s (%j) with 400 naming the field, storing nothing', async (field, value, message) => {
    const runner = await signUp(t.app, { role: 'runner' });
    const payload: Record<string, unknown> = { lat: 47, lng: 19, accuracy: 10, [field]: value };
    if (value === undefined) delete payload[field];
    const response = await report(payload, runner.cookie);
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toMatchObject({ code: 'invalid_body', fields: { [field]: message } });
    expect(await storedPosition(runner.account.userName)).toEqual({
      last_lat: null,
      last_lng: null,
      last_accuracy: null,
      located_at: null,
    });
  });
});
