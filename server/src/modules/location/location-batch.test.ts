import { LOCATION_BATCH_MAX_POINTS } from '@csomag/domain/constants';
import { messages } from '@csomag/domain/messages';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pickUp } from '../../test/delivery.ts';
import { createTestApp, type SignedIn, signUp, type TestApp } from '../../test/harness.ts';
import { sendParcel } from '../../test/parcels.ts';

let t: TestApp;
let sender: SignedIn;
beforeAll(async () => {
  t = await createTestApp();
  sender = await signUp(t.app);
});
afterAll(() => t.close());

const report = (runner: SignedIn, payload: unknown, headers: Record<string, string> = {}) =>
  t.app.inject({
    method: 'PUT',
    url: '/api/runners/me/location',
    headers: { cookie: runner.cookie, ...headers },
    payload: payload as object,
  });
const storedPosition = (runner: SignedIn) =>
  t.store.db
    .selectFrom('accounts')
    .select(['last_lat', 'last_lng', 'last_accuracy', 'located_at'])
    .where('user_name', '=', runner.account.userName)
    .executeTakeFirstOrThrow();
/** The live position messages announced for a parcel (what tracking pages are sent). */
const locatedMessages = async (parcelId: string) =>
  (
    await t.store.db
      .selectFrom('change_log')
      .select('change')
      .where('change', 'like', `%"parcelId":"${parcelId}"%`)
      .execute()
  ).filter((row) => JSON.parse(row.change).kind === 'runner_located').length;

const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();

/** A runner carrying a parcel, so their position is announced on its tracking page. */
async function carryingRunner() {
  const runner = await signUp(t.app, { role: 'runner' });
  const parcel = await sendParcel(t.app, sender.cookie);
  await pickUp(t.app, runner.cookie, parcel.id);
  return { runner, parcelId: parcel.id };
}

describe('PUT /api/runners/me/location with a batch of points recorded offline', () => {
  it('moves the runner to the newest point only, however the batch is ordered, with one live update', async () => {
    const { runner, parcelId } = await carryingRunner();
    const points = [
      { lat: 47.51, lng: 19.01, accuracy: 10, occurredAt: minutesAgo(20) },
      { lat: 47.53, lng: 19.03, accuracy: 7, occurredAt: minutesAgo(2) },
      { lat: 47.52, lng: 19.02, accuracy: 12, occurredAt: minutesAgo(10) },
    ];
    const response = await report(runner, { points });
    expect(response.statusCode).toBe(204);
    expect(await storedPosition(runner)).toEqual({
      last_lat: 47.53,
      last_lng: 19.03,
      last_accuracy: 7,
      located_at: points[1]?.occurredAt,
    });
    expect(await locatedMessages(parcelId)).toBe(1);
    const view = (await t.app.inject({ method: 'GET', url: `/api/tracking/${parcelId}` })).json();
    expect(view.runnerPosition).toEqual({ lat: 47.53, lng: 19.03, at: points[1]?.occurredAt });
  });

  it('never moves the runner back: a batch older than the stored position changes nothing and announces nothing', async () => {
    const { runner, parcelId } = await carryingRunner();
    expect((await report(runner, { lat: 47.6, lng: 19.1, accuracy: 5 })).statusCode).toBe(204);
    const now = await storedPosition(runner);
    const late = await report(runner, {
      points: [
        { lat: 47.4, lng: 18.9, accuracy: 5, occurredAt: minutesAgo(30) },
        { lat: 47.41, lng: 18.91, accuracy: 5, occurredAt: minutesAgo(25) },
      ],
    });
    expect(late.statusCode).toBe(204);
    expect(await storedPosition(runner)).toEqual(now);
    expect(await locatedMessages(parcelId)).toBe(1);
    // A single position sent later with its time is no different.
    expect((await report(runner, { lat: 47.42, lng: 18.92, accuracy: 5, occurredAt: minutesAgo(5) })).statusCode).toBe(
      204,
    );
    expect(await storedPosition(runner)).toEqual(now);
  });

  it('takes a point a phone clock puts slightly ahead as now, so the next live position still moves the runner', async () => {
    const { runner } = await carryingRunner();
    const ahead = new Date(Date.now() + 60_000).toISOString();
    expect(
      (await report(runner, { points: [{ lat: 47.7, lng: 19.2, accuracy: 5, occurredAt: ahead }] })).statusCode,
    ).toBe(204);
    expect(String((await storedPosition(runner)).located_at) < ahead).toBe(true);
    expect((await report(runner, { lat: 47.71, lng: 19.21, accuracy: 5 })).statusCode).toBe(204);
    expect(await storedPosition(runner)).toMatchObject({ last_lat: 47.71, last_lng: 19.21 });
  });

  it('replays a batch sent twice with one Idempotency-Key without announcing it again', async () => {
    const { runner, parcelId } = await carryingRunner();
    const batch = { points: [{ lat: 47.55, lng: 19.05, accuracy: 5, occurredAt: minutesAgo(1) }] };
    const headers = { 'idempotency-key': `helyzet-${Date.now()}` };
    const first = await report(runner, batch, headers);
    const second = await report(runner, batch, headers);
    expect([first.statusCode, second.statusCode]).toEqual([204, 204]);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(await locatedMessages(parcelId)).toBe(1);
  });

  const point = { lat: 47.5, lng: 19.0, accuracy: 5, occurredAt: minutesAgo(1) };
  it.each([
    ['an empty batch', { points: [] }, 'points', messages.locationBatchEmpty],
    [
      'too many points',
      { points: Array.from({ length: LOCATION_BATCH_MAX_POINTS + 1 }, () => point) },
      'points',
      messages.locationBatchTooLarge(LOCATION_BATCH_MAX_POINTS),
    ],
    [
      'a point without its time',
      { points: [point, { lat: 47.5, lng: 19, accuracy: 5 }] },
      'points.1.occurredAt',
      messages.locationPointTimeRequired,
    ],
    [
      'a point in the future',
      { points: [{ ...point, occurredAt: new Date(Date.now() + 3_600_000).toISOString() }] },
      'points.0.occurredAt',
      messages.occurredAtInFuture,
    ],
    ['a point off the globe', { points: [{ ...point, lat: 91 }] }, 'points.0.lat', undefined],
    ['a batch and a position at once', { ...point, points: [point] }, 'points', messages.locationBatchOrSingle],
    ['points that are no list', { points: 'sok' }, 'points', messages.locationBatchInvalid],
  ])('refuses %s (400) and changes nothing', async (_what, payload, field, message) => {
    const { runner, parcelId } = await carryingRunner();
    const before = await storedPosition(runner);
    const response = await report(runner, payload);
    expect(response.statusCode).toBe(400);
    const error = response.json().error;
    expect(error.code).toBe('invalid_body');
    expect(Object.keys(error.fields)).toContain(field);
    if (message) expect(error.fields[field]).toBe(message);
    expect(await storedPosition(runner)).toEqual(before);
    expect(await locatedMessages(parcelId)).toBe(0);
  });

  it('keeps accepting one position as before', async () => {
    const { runner } = await carryingRunner();
    const response = await report(runner, { lat: 47.4979, lng: 19.0402, accuracy: 12.5 });
    expect(response.statusCode).toBe(204);
    expect(await storedPosition(runner)).toMatchObject({ last_lat: 47.4979, last_lng: 19.0402, last_accuracy: 12.5 });
  });
});
