import type { LiveChangeKind } from '@csomag/domain/live';
import type { ParcelEventKind } from '@csomag/domain/parcel';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FeedChange, isParcelChange } from '../../db/change-feed.ts';
import { northOf, pickUp } from '../../test/delivery.ts';
import { createTestApp, requestAs, type SignedIn, signInCast, signUp, type TestApp } from '../../test/harness.ts';
import { sendParcel } from '../../test/parcels.ts';

let t: TestApp;
let admin: SignedIn;
let sender: SignedIn;
let runner: SignedIn;
beforeAll(async () => {
  t = await createTestApp();
  ({ admin, sender, runner } = await signInCast(t.app));
});
afterAll(() => t.close());

const DOOR = { lat: 47.4979, lng: 19.0402 };
const SENDER_DOOR = { lat: 47.4971, lng: 19.0495 };

const lastLogId = async () =>
  Number(
    (
      await t.app.store.db
        .selectFrom('change_log')
        .select((eb) => eb.fn.max('id').as('id'))
        .executeTakeFirst()
    )?.id ?? 0,
  );

/** What one call wrote: the timeline events and the published messages, per parcel. */
async function effectsOf(call: () => Promise<LightMyRequestResponse>, expectedStatus: number) {
  const logFrom = await lastLogId();
  const eventsFrom = Number(
    (
      await t.app.store.db
        .selectFrom('parcel_events')
        .select((eb) => eb.fn.max('id').as('id'))
        .executeTakeFirst()
    )?.id ?? 0,
  );
  const response = await call();
  expect(response.statusCode, response.body).toBe(expectedStatus);
  const events = await t.app.store.db
    .selectFrom('parcel_events')
    .select(['parcel_id', 'kind'])
    .where('id', '>', eventsFrom)
    .orderBy('id')
    .execute();
  const published = await t.app.store.db
    .selectFrom('change_log')
    .select('change')
    .where('id', '>', logFrom)
    .orderBy('id')
    .execute();
  // Parcels' changes: an account's (the database's own, on PostgreSQL: migration 0027) are not this module's.
  const messages = published
    .map(({ change }) => (typeof change === 'string' ? JSON.parse(change) : change) as FeedChange)
    .filter(isParcelChange)
    .map((parsed) => ({ parcel_id: parsed.parcelId, kind: parsed.kind as LiveChangeKind }));
  return { events, messages, response };
}

const as = (who: SignedIn, method: 'POST' | 'PATCH' | 'PUT' | 'DELETE', url: string, payload?: object) => () =>
  requestAs(t.app, who, method, url, payload);

/** One call, one parcel: exactly one timeline event and one message, both of `kind`. */
async function expectOneChange(
  call: () => Promise<LightMyRequestResponse>,
  parcelId: string,
  kind: ParcelEventKind,
  status = 200,
) {
  const { events, messages } = await effectsOf(call, status);
  expect(events).toEqual([{ parcel_id: parcelId, kind }]);
  expect(messages).toEqual([{ parcel_id: parcelId, kind }]);
}

describe('the one write path (changes.ts)', () => {
  it('writes one timeline event and publishes one message for each kind of parcel change', async () => {
    const created = await effectsOf(as(sender, 'POST', '/api/parcels', parcelBody()), 201);
    const parcelId = created.response.json().id as string;
    expect(created.events).toEqual([{ parcel_id: parcelId, kind: 'created' }]);
    expect(created.messages).toEqual([{ parcel_id: parcelId, kind: 'created' }]);

    await expectOneChange(
      as(admin, 'POST', `/api/parcels/${parcelId}/assign`, { runner: runner.account.userName }),
      parcelId,
      'assigned',
    );
    const nearDoor = { ...northOf(DOOR, 3), accuracy: 5 };
    await expectOneChange(as(runner, 'POST', `/api/parcels/${parcelId}/deliver`, nearDoor), parcelId, 'delivered');
    await expectOneChange(
      as(admin, 'PATCH', `/api/parcels/${parcelId}`, { category: 'Átnevezve' }),
      parcelId,
      'edited',
    );
    // A status change with other edits is still one change: one event that names both.
    await expectOneChange(
      as(admin, 'PATCH', `/api/parcels/${parcelId}`, { status: 'waiting', category: 'Újra', reason: 'Tévedés volt' }),
      parcelId,
      'status_changed',
    );
    await expectOneChange(as(admin, 'DELETE', `/api/parcels/${parcelId}`), parcelId, 'deleted', 204);
  });

  it('does the same for a failed attempt, a new time and a neighbour asked, a return and its hand-over to the sender', async () => {
    const parcelId = (await sendParcel(t.app, sender.cookie, parcelBody())).id;
    // The sender asks on the receiver's behalf too (both may).
    const receiverOf = sender;
    await expectOneChange(as(runner, 'POST', `/api/parcels/${parcelId}/pickup`), parcelId, 'picked_up');
    const attempt = { reason: 'nobody_home', position: { ...northOf(DOOR, 3), accuracy: 5 } };
    await expectOneChange(as(runner, 'POST', `/api/parcels/${parcelId}/attempts`, attempt), parcelId, 'attempted', 201);
    const from = new Date(Date.now() + 3_600_000);
    const window = { from: from.toISOString(), until: new Date(from.getTime() + 3_600_000).toISOString() };
    await expectOneChange(
      as(sender, 'POST', `/api/parcels/${parcelId}/redelivery`, window),
      parcelId,
      'redelivery_requested',
    );
    await expectOneChange(
      as(receiverOf, 'POST', `/api/parcels/${parcelId}/neighbour-wish`, { name: 'Kis Ödön', door: '2/5' }),
      parcelId,
      'neighbour_requested',
    );
    await expectOneChange(
      as(runner, 'POST', `/api/parcels/${parcelId}/return`, { reason: 'A címzett elköltözött' }),
      parcelId,
      'return_started',
    );
    const atSender = { ...northOf(SENDER_DOOR, 2), accuracy: 5 };
    await expectOneChange(as(runner, 'POST', `/api/parcels/${parcelId}/deliver`, atSender), parcelId, 'returned');
  });

  it('does the same for the superadmin’s delivery, the QR handover and the sender’s cancel', async () => {
    const byAdmin = await sendParcel(t.app, sender.cookie, parcelBody());
    await pickUp(t.app, runner.cookie, byAdmin.id);
    await expectOneChange(as(admin, 'POST', `/api/parcels/${byAdmin.id}/deliver`, {}), byAdmin.id, 'delivered');

    const byQr = await sendParcel(t.app, sender.cookie, parcelBody());
    await pickUp(t.app, runner.cookie, byQr.id);
    const link = await as(runner, 'POST', `/api/parcels/${byQr.id}/handover-token`)();
    const token = new URL(link.json().url).searchParams.get('token');
    await expectOneChange(
      () =>
        t.app.inject({
          method: 'POST',
          url: `/api/parcels/${byQr.id}/handover`,
          payload: { token, futar: runner.account.userName, felado: sender.account.userName },
        }),
      byQr.id,
      'handed_over_qr',
    );

    const cancelled = await sendParcel(t.app, sender.cookie, parcelBody());
    await expectOneChange(as(sender, 'POST', `/api/parcels/${cancelled.id}/cancel`), cancelled.id, 'cancelled', 204);
  });

  it('announces a runner’s position once per carried parcel and writes no timeline event', async () => {
    const mover = await signUp(t.app, { role: 'runner' });
    const first = await sendParcel(t.app, sender.cookie, parcelBody());
    const second = await sendParcel(t.app, sender.cookie, parcelBody());
    await pickUp(t.app, mover.cookie, first.id);
    await pickUp(t.app, mover.cookie, second.id);
    const { events, messages } = await effectsOf(
      as(mover, 'PUT', '/api/runners/me/location', { lat: 47.5, lng: 19.05, accuracy: 12 }),
      204,
    );
    expect(events).toEqual([]);
    expect(messages).toHaveLength(2);
    expect(messages).toEqual(
      expect.arrayContaining([
        { parcel_id: first.id, kind: 'runner_located' },
        { parcel_id: second.id, kind: 'runner_located' },
      ]),
    );
  });

  it('gives each parcel a deleted runner carried one `edited` event and one message', async () => {
    const leaving = await signUp(t.app, { role: 'runner' });
    const delivered = await sendParcel(t.app, sender.cookie, parcelBody());
    await pickUp(t.app, leaving.cookie, delivered.id);
    await as(admin, 'POST', `/api/parcels/${delivered.id}/deliver`, {})();
    await expectOneChange(as(admin, 'DELETE', `/api/runners/${leaving.account.userName}`), delivered.id, 'edited', 204);
  });

  it('writes nothing and publishes nothing when a change is refused', async () => {
    const parcel = await sendParcel(t.app, sender.cookie, parcelBody());
    await pickUp(t.app, runner.cookie, parcel.id);
    const other = await signUp(t.app, { role: 'runner' });
    const { events, messages } = await effectsOf(as(other, 'POST', `/api/parcels/${parcel.id}/pickup`), 409);
    expect(events).toEqual([]);
    expect(messages).toEqual([]);
  });
});

function parcelBody() {
  return {
    senderAddress: 'Budapest, Deák Ferenc tér 1',
    receiverAddress: `Budapest, Váci utca ${Math.floor(Math.random() * 900) + 1}`,
    category: 'Könyv',
    weightGrams: 500,
    receiverCoordinates: DOOR,
    senderCoordinates: SENDER_DOOR,
  };
}
