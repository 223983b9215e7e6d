import { messages } from '@csomag/domain/messages';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parcelRow } from '../../test/back-office.ts';
import { pickUp, storedEvents, storedParcel } from '../../test/delivery.ts';
import { createTestApp, type SignedIn, signInSuperadmin, signUp, type TestApp } from '../../test/harness.ts';
import { sendParcel } from '../../test/parcels.ts';
import { listenLocally, openEventStream, type SseStream } from '../../test/sse.ts';

/** The two ways back: the sender withdraws a waiting parcel, the carrier gives one back to the pool. */
let t: TestApp;
let admin: SignedIn;
let sender: SignedIn;
let otherUser: SignedIn;
let carrier: SignedIn;
let otherRunner: SignedIn;
const streams: SseStream[] = [];
beforeAll(async () => {
  t = await createTestApp();
  admin = await signInSuperadmin(t.app);
  sender = await signUp(t.app);
  otherUser = await signUp(t.app);
  carrier = await signUp(t.app, { role: 'runner' });
  otherRunner = await signUp(t.app, { role: 'runner' });
});
afterAll(async () => {
  for (const stream of streams) stream.close();
  await t.close();
});

const post = (url: string, cookie?: string, payload?: Record<string, unknown>) =>
  t.app.inject({
    method: 'POST',
    url,
    ...(payload ? { payload } : {}),
    ...(cookie ? { headers: { cookie } } : {}),
  });
const kinds = async (parcelId: string) => (await storedEvents(t.app, parcelId)).map((event) => event.kind);

describe('POST /api/parcels/:id/give-back', () => {
  const reason = 'Elromlott a biciklim, nem érek oda.';

  it('puts the carrier’s parcel back in the pool with the reason in its timeline, live for the runners', async () => {
    const parcel = await sendParcel(t.app, sender.cookie);
    await pickUp(t.app, carrier.cookie, parcel.id);
    const url = await listenLocally(t.app);
    const pool = await openEventStream(url, 'parcels', { cookie: otherRunner.cookie });
    streams.push(pool);

    const response = await post(`/api/parcels/${parcel.id}/give-back`, carrier.cookie, { reason });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ id: parcel.id, status: 'waiting', runner: null, pickedUpAt: null });
    expect(await storedParcel(t.app, parcel.id)).toMatchObject({ status: 'waiting', runner_id: null });
    const events = await storedEvents(t.app, parcel.id);
    expect(events.map((event) => event.kind)).toEqual(['created', 'picked_up', 'given_back']);
    expect(JSON.parse(String(events.at(-1)?.data))).toEqual({ reason });
    for (;;) {
      const message = await pool.next();
      if ((message?.data as { parcelId?: string } | undefined)?.parcelId !== parcel.id) continue;
      expect(message?.data).toMatchObject({ kind: 'given_back', status: 'waiting' });
      break;
    }
    // Anyone may take it again.
    expect((await pickUp(t.app, otherRunner.cookie, parcel.id)).runner).toBe(otherRunner.account.userName);
  });

  it('refuses another runner’s parcel (403), a waiting one (409), and the wrong roles, changing nothing', async () => {
    const parcel = await sendParcel(t.app, sender.cookie);
    const waiting = await post(`/api/parcels/${parcel.id}/give-back`, carrier.cookie, { reason });
    expect(waiting.statusCode).toBe(409);
    expect(waiting.json().error).toEqual({ code: 'parcel_not_in_transit', message: messages.parcelNotInTransit });

    await pickUp(t.app, carrier.cookie, parcel.id);
    const someoneElses = await post(`/api/parcels/${parcel.id}/give-back`, otherRunner.cookie, { reason });
    expect(someoneElses.statusCode).toBe(403);
    expect(someoneElses.json().error).toEqual({ code: 'not_your_parcel', message: messages.notYourParcel });
    for (const [cookie, status, code] of [
      [undefined, 401, 'sign_in_required'],
      [sender.cookie, 403, 'forbidden'],
      [admin.cookie, 403, 'forbidden'],
    ] as const) {
      const response = await post(`/api/parcels/${parcel.id}/give-back`, cookie, { reason });
      expect(response.statusCode).toBe(status);
      expect(response.json().error.code).toBe(code);
    }
    expect(await storedParcel(t.app, parcel.id)).toMatchObject({ status: 'in_transit' });
    expect(await kinds(parcel.id)).toEqual(['created', 'picked_up']);
  });

  it.each<[Record<string, unknown>, string]>([
    [{}, 'no reason'],
    [{ reason: '  ' }, 'a blank reason'],
    [{ reason: 'x'.repeat(501) }, 'a reason of 501 characters'],
  ])('refuses %j (%s) with 400 naming the reason, changing nothing', async (body) => {
    const parcel = await sendParcel(t.app, sender.cookie);
    await pickUp(t.app, carrier.cookie, parcel.id);
    const response = await post(`/api/parcels/${parcel.id}/give-back`, carrier.cookie, body);
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe('invalid_body');
    expect(Object.keys(response.json().error.fields)).toEqual(['reason']);
    expect(await storedParcel(t.app, parcel.id)).toMatchObject({ status: 'in_transit' });
  });
});

describe('POST /api/parcels/:id/cancel', () => {
  it('withdraws the sender’s waiting parcel from every list; its timeline ends with cancelled', async () => {
    const parcel = await sendParcel(t.app, sender.cookie);
    const response = await post(`/api/parcels/${parcel.id}/cancel`, sender.cookie);
    expect(response.statusCode).toBe(204);
    expect(await parcelRow(t.store, parcel.id)).toBeUndefined();
    expect(await kinds(parcel.id)).toEqual(['created', 'cancelled']);
    const sent = await t.app.inject({ url: '/api/me/sent-parcels?limit=200', headers: { cookie: sender.cookie } });
    expect(sent.json().items.map((p: { id: string }) => p.id)).not.toContain(parcel.id);
    const tracking = await t.app.inject({ url: `/api/tracking/${parcel.id}` });
    expect(tracking.statusCode).toBe(404);
    expect(tracking.json().error.code).toBe('parcel_not_found');
  });

  it('refuses once a runner has it (409), and for anyone but its sender, changing nothing', async () => {
    const parcel = await sendParcel(t.app, sender.cookie);
    for (const [cookie, status, code] of [
      [otherUser.cookie, 404, 'parcel_not_found'],
      [undefined, 401, 'sign_in_required'],
      [carrier.cookie, 403, 'forbidden'],
      [admin.cookie, 403, 'forbidden'],
    ] as const) {
      const response = await post(`/api/parcels/${parcel.id}/cancel`, cookie);
      expect(response.statusCode).toBe(status);
      expect(response.json().error.code).toBe(code);
    }
    await pickUp(t.app, carrier.cookie, parcel.id);
    const late = await post(`/api/parcels/${parcel.id}/cancel`, sender.cookie);
    expect(late.statusCode).toBe(409);
    expect(late.json().error).toEqual({ code: 'parcel_not_waiting', message: messages.cancelNotWaiting });
    expect(await storedParcel(t.app, parcel.id)).toMatchObject({ status: 'in_transit' });
    expect(await kinds(parcel.id)).toEqual(['created', 'picked_up']);
    const malformed = await post('/api/parcels/nem-azonosito/cancel', sender.cookie);
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().error.code).toBe('invalid_body');
  });
});
