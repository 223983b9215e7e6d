import { OCCURRED_AT_MAX_AGE_MS } from '@csomag/domain/constants';
import { messages } from '@csomag/domain/messages';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pickUp, storedEvents, storedParcel } from '../../test/delivery.ts';
import { createTestApp, requestAs, type SignedIn, signUp, type TestApp } from '../../test/harness.ts';
import { buildParcelBody, sendParcel } from '../../test/parcels.ts';

let t: TestApp;
let sender: SignedIn;
let runner: SignedIn;
beforeAll(async () => {
  t = await createTestApp();
  sender = await signUp(t.app);
  runner = await signUp(t.app, { role: 'runner' });
});
afterAll(() => t.close());

const HOUR = 3_600_000;
const ago = (ms: number) => new Date(Date.now() - ms).toISOString();
const detail = async (who: SignedIn, parcelId: string) =>
  (await t.app.inject({ method: 'GET', url: `/api/parcels/${parcelId}`, headers: { cookie: who.cookie } })).json();
const tracking = async (parcelId: string) =>
  (await t.app.inject({ method: 'GET', url: `/api/tracking/${parcelId}` })).json();

/** A parcel whose door is known exactly (a pin), so a runner standing there may deliver it. */
const DOOR = { lat: 47.5316, lng: 21.6273 };
const sendToDoor = () => sendParcel(t.app, sender.cookie, { receiverCoordinates: DOOR });

describe('occurredAt: when the runner says it happened', () => {
  it('keeps the time of a pickup sent later beside the time the server got it, and shows it on the timeline', async () => {
    const parcel = await sendToDoor();
    // Sent with an offset: kept as UTC, like every time the server writes.
    const local = new Date(Date.now() - 2 * HOUR);
    const withOffset = `${new Date(local.getTime() + 2 * HOUR).toISOString().slice(0, 19)}+02:00`;
    const response = await requestAs(t.app, runner, 'POST', `/api/parcels/${parcel.id}/pickup`, {
      occurredAt: withOffset,
    });
    expect(response.statusCode).toBe(200);
    const occurredAt = new Date(withOffset).toISOString();
    const pickedUp = (await detail(runner, parcel.id)).events.find(
      (event: { kind: string }) => event.kind === 'picked_up',
    );
    expect(pickedUp.occurredAt).toBe(occurredAt);
    expect(pickedUp.at > occurredAt).toBe(true);
    expect((await tracking(parcel.id)).events).toEqual([
      { at: expect.any(String), kind: 'created' },
      { at: pickedUp.at, kind: 'picked_up', occurredAt },
    ]);
  });

  it('keeps it for a delivery and a parcel created later; absent means at the server’s time', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/parcels',
      headers: { cookie: sender.cookie },
      payload: buildParcelBody({ receiverCoordinates: DOOR, occurredAt: ago(HOUR) }),
    });
    expect(created.statusCode).toBe(201);
    const parcelId = created.json().id;
    await pickUp(t.app, runner.cookie, parcelId);
    const deliveredAt = ago(60_000);
    const delivered = await requestAs(t.app, runner, 'POST', `/api/parcels/${parcelId}/deliver`, {
      ...DOOR,
      accuracy: 5,
      occurredAt: deliveredAt,
    });
    expect(delivered.statusCode).toBe(200);
    const events = (await detail(sender, parcelId)).events;
    expect(events.map((event: { kind: string }) => event.kind)).toEqual(['created', 'picked_up', 'delivered']);
    expect(events[0].occurredAt).toBeDefined();
    expect(events[1]).not.toHaveProperty('occurredAt');
    expect(events[2].occurredAt).toBe(deliveredAt);
  });

  it('takes a phone clock a minute ahead (skew)', async () => {
    const parcel = await sendToDoor();
    const ahead = new Date(Date.now() + 60_000).toISOString();
    const response = await requestAs(t.app, runner, 'POST', `/api/parcels/${parcel.id}/pickup`, { occurredAt: ahead });
    expect(response.statusCode).toBe(200);
  });

  it.each([
    ['in the future', () => new Date(Date.now() + 10 * 60_000).toISOString(), messages.occurredAtInFuture],
    ['73 hours back', () => ago(73 * HOUR), messages.occurredAtTooOld(OCCURRED_AT_MAX_AGE_MS / HOUR)],
    ['without an offset', () => '2025-05-01T10:15:00', messages.occurredAtInvalid],
    ['garbage', () => 'tegnap délután', messages.occurredAtInvalid],
    ['a number', () => Date.now(), messages.occurredAtInvalid],
  ])('refuses a pickup with occurredAt %s (400) and changes nothing', async (_what, value, message) => {
    const parcel = await sendToDoor();
    const response = await requestAs(t.app, runner, 'POST', `/api/parcels/${parcel.id}/pickup`, {
      occurredAt: value(),
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toMatchObject({ code: 'invalid_body', fields: { occurredAt: message } });
    expect((await storedParcel(t.app, parcel.id)).status).toBe('waiting');
    expect((await storedEvents(t.app, parcel.id)).map((event) => event.kind)).toEqual(['created']);
  });

  it('refuses a delivery, a handover and a parcel created with occurredAt out of bounds', async () => {
    const parcel = await sendToDoor();
    await pickUp(t.app, runner.cookie, parcel.id);
    const tooOld = ago(73 * HOUR);
    const deliver = await requestAs(t.app, runner, 'POST', `/api/parcels/${parcel.id}/deliver`, {
      ...DOOR,
      accuracy: 5,
      occurredAt: tooOld,
    });
    expect(deliver.statusCode).toBe(400);
    expect(deliver.json().error.fields.occurredAt).toBe(messages.occurredAtTooOld(72));
    expect((await storedParcel(t.app, parcel.id)).status).toBe('in_transit');

    const handover = await t.app.inject({
      method: 'POST',
      url: `/api/parcels/${parcel.id}/handover`,
      payload: { token: `0.${'A'.repeat(43)}`, futar: 'futar1', felado: 'felado1', occurredAt: 'x' },
    });
    expect(handover.statusCode).toBe(400);
    expect(handover.json().error.fields.occurredAt).toBe(messages.occurredAtInvalid);

    const before = (await storedEvents(t.app, parcel.id)).length;
    const create = await t.app.inject({
      method: 'POST',
      url: '/api/parcels',
      headers: { cookie: sender.cookie },
      payload: buildParcelBody({ occurredAt: new Date(Date.now() + HOUR).toISOString() }),
    });
    expect(create.statusCode).toBe(400);
    expect(create.json().error.fields.occurredAt).toBe(messages.occurredAtInFuture);
    expect((await storedEvents(t.app, parcel.id)).length).toBe(before);
  });
});
