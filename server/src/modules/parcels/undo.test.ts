import { messages } from '@csomag/domain/messages';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parcelRow } from '../../test/back-office.ts';
import { pickUp, storedEvents, storedParcel } from '../../test/delivery.ts';
import { createTestApp, type SignedIn, signInSuperadmin, signUp, type TestApp } from '../../test/harness.ts';
import { sendParcel } from '../../test/parcels.ts';

/**
 * The sender withdraws a waiting parcel. (The carrier's way back is no longer to the pool: the
 * return to the sender, attempts/attempts.test.ts.)
 */
let t: TestApp;
let admin: SignedIn;
let sender: SignedIn;
let otherUser: SignedIn;
let carrier: SignedIn;
beforeAll(async () => {
  t = await createTestApp();
  admin = await signInSuperadmin(t.app);
  sender = await signUp(t.app);
  otherUser = await signUp(t.app);
  carrier = await signUp(t.app, { role: 'runner' });
});
afterAll(async () => {
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
