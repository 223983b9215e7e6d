import { messages } from '@csomag/domain/messages';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pickUp, storedEvents } from '../../test/delivery.ts';
import { echoesOf } from '../../test/echoes.ts';
import { createTestApp, type SignedIn, signInSuperadmin, signUp, type TestApp, testStore } from '../../test/harness.ts';
import { sendParcel } from '../../test/parcels.ts';
import { listenLocally, openEventStream, type SseStream } from '../../test/sse.ts';

/*
 * Relay offers live (issue 14, docs/decisions/0022): making, withdrawing and reserving one publish
 * exactly one `relay_offer` change through the change feed, heard on every runner's `parcels`
 * (on PostgreSQL through another instance too), never by the parcel's sender, and no timeline event.
 */

let t: TestApp;
let baseUrl: string;
/** Where the runners listen: on PostgreSQL another instance, which hears the change only through LISTEN. */
let otherUrl: string;
let heardAll: () => Promise<void>;
let sender: SignedIn;
const streams: SseStream[] = [];
beforeAll(async () => {
  t = await createTestApp();
  baseUrl = await listenLocally(t.app);
  otherUrl = testStore === 'postgres' ? await listenLocally(await t.addInstance()) : baseUrl;
  heardAll = echoesOf(t.app);
  sender = await signUp(t.app);
});
afterAll(async () => {
  for (const stream of streams) stream.close();
  await t.close();
});

const nyugati = { lat: 47.5106, lng: 19.0567 };
const inMinutes = (minutes: number) => new Date(Date.now() + minutes * 60_000).toISOString();
const offerBody = { place: nyugati, placeLabel: 'Nyugati pu.', from: inMinutes(0), until: inMinutes(120) };
const call = (who: SignedIn, method: 'POST' | 'DELETE', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: { cookie: who.cookie }, ...(payload ? { payload } : {}) });

async function subscribe(url: string, topics: string, cookie: string) {
  await heardAll();
  const stream = await openEventStream(url, topics, { cookie });
  streams.push(stream);
  expect(stream.status).toBe(200);
  return stream;
}

const changeLogSize = async () =>
  Number(
    (
      await t.store.db
        .selectFrom('change_log')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('relay offers live', () => {
  it('create, take and withdraw each publish one relay_offer to runners on parcels, none to the sender, no timeline event', async () => {
    const carrier = await signUp(t.app, { role: 'runner' });
    const other = await signUp(t.app, { role: 'runner' });
    const admin = await signInSuperadmin(t.app);
    const parcel = await sendParcel(t.app, sender.cookie);
    await pickUp(t.app, carrier.cookie, parcel.id);
    const eventsBefore = (await storedEvents(t.app, parcel.id)).length;

    const asOther = await subscribe(otherUrl, 'parcels', other.cookie);
    const asCarrier = await subscribe(otherUrl, 'parcels,me', carrier.cookie);
    const asAdmin = await subscribe(baseUrl, 'parcels', admin.cookie);
    const asSender = await subscribe(baseUrl, `me,parcel:${parcel.id}`, sender.cookie);
    const heard = { topic: 'parcels', kind: 'relay_offer', parcelId: parcel.id, status: 'in_transit' };
    const expectOneEach = async () => {
      for (const stream of [asOther, asCarrier, asAdmin]) {
        expect((await stream.next())?.data).toEqual(heard);
        expect(await stream.next(300)).toBeNull();
      }
      expect(await asSender.next(300)).toBeNull();
    };

    const logBefore = await changeLogSize();
    const created = await call(carrier, 'POST', `/api/parcels/${parcel.id}/relay-offer`, offerBody);
    expect(created.statusCode).toBe(201);
    await expectOneEach();
    expect(await changeLogSize()).toBe(logBefore + 1);

    const taken = await call(other, 'POST', `/api/relay-offers/${created.json().id}/take`);
    expect(taken.statusCode).toBe(200);
    await expectOneEach();
    // The carrier's list keeps their own offer once reserved, saying by whom (their card shows it).
    const listed = await t.app.inject({ method: 'GET', url: '/api/relay-offers', headers: { cookie: carrier.cookie } });
    expect(listed.json().items.find((item: { parcelId: string }) => item.parcelId === parcel.id)?.takenBy).toBe(
      other.account.userName,
    );

    const withdrawn = await call(carrier, 'DELETE', `/api/parcels/${parcel.id}/relay-offer`);
    expect(withdrawn.statusCode).toBe(204);
    await expectOneEach();
    expect(await changeLogSize()).toBe(logBefore + 3);

    // Offers are not parcel state changes: the timeline is as the pickup left it.
    expect(await storedEvents(t.app, parcel.id)).toHaveLength(eventsBefore);
  });

  it('publishes nothing for a refused offer, a refused take or a withdrawal of nothing', async () => {
    const carrier = await signUp(t.app, { role: 'runner' });
    const other = await signUp(t.app, { role: 'runner' });
    const parcel = await sendParcel(t.app, sender.cookie);
    await pickUp(t.app, carrier.cookie, parcel.id);
    const asOther = await subscribe(otherUrl, 'parcels', other.cookie);
    const logBefore = await changeLogSize();

    const outside = await call(carrier, 'POST', `/api/parcels/${parcel.id}/relay-offer`, {
      ...offerBody,
      place: { lat: 48.2082, lng: 16.0 },
    });
    expect(outside.statusCode).toBe(400);
    expect(outside.json().error.fields.place).toBe(messages.relayOfferPlaceOutsideHungary);
    expect((await call(other, 'POST', `/api/parcels/${parcel.id}/relay-offer`, offerBody)).statusCode).toBe(403);
    expect((await call(carrier, 'DELETE', `/api/parcels/${parcel.id}/relay-offer`)).statusCode).toBe(204);

    const offer = (await call(carrier, 'POST', `/api/parcels/${parcel.id}/relay-offer`, offerBody)).json();
    expect((await asOther.next())?.data).toMatchObject({ kind: 'relay_offer', parcelId: parcel.id });
    expect((await call(carrier, 'POST', `/api/relay-offers/${offer.id}/take`)).statusCode).toBe(403);
    expect((await call(other, 'POST', `/api/relay-offers/${offer.id}/take`)).statusCode).toBe(200);
    expect((await asOther.next())?.data).toMatchObject({ kind: 'relay_offer', parcelId: parcel.id });
    const third = await signUp(t.app, { role: 'runner' });
    const late = await call(third, 'POST', `/api/relay-offers/${offer.id}/take`);
    expect(late.statusCode).toBe(409);
    expect(late.json().error.message).toBe(messages.relayOfferUnavailable);
    expect(await asOther.next(300)).toBeNull();
    expect(await changeLogSize()).toBe(logBefore + 2);
    expect(
      await t.store.db.selectFrom('relay_offers').selectAll().where('parcel_id', '=', parcel.id).execute(),
    ).toHaveLength(1);
  });
});
