import { messages } from '@csomag/domain/messages';
import { RELAY_OFFER_MAX_HOURS } from '@csomag/domain/relay';
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

const nyugati = { lat: 47.5106, lng: 19.0567 };
const inMinutes = (minutes: number) => new Date(Date.now() + minutes * 60_000).toISOString();
const offerBody = (overrides: Record<string, unknown> = {}) => ({
  place: nyugati,
  placeLabel: 'Nyugati pu.',
  from: inMinutes(10),
  until: inMinutes(70),
  ...overrides,
});
const post = (who: SignedIn, url: string, payload: object = {}) =>
  t.app.inject({ method: 'POST', url, headers: { cookie: who.cookie }, payload });
const list = async (who: SignedIn) =>
  (await t.app.inject({ method: 'GET', url: '/api/relay-offers', headers: { cookie: who.cookie } })).json() as {
    items: { id: number; parcelId: string; takenBy: string | null; runner: string }[];
  };
const storedOffers = (parcelId: string) =>
  t.store.db.selectFrom('relay_offers').selectAll().where('parcel_id', '=', parcelId).execute();

async function carried() {
  const carrier = await signUp(t.app, { role: 'runner' });
  const parcel = await sendParcel(t.app, sender.cookie);
  await pickUp(t.app, carrier.cookie, parcel.id);
  return { carrier, parcel };
}

describe('relay offers', () => {
  it('the holder offers, a third runner sees it and reserves it; nobody else can; the relay ends it', async () => {
    const { carrier, parcel } = await carried();
    const created = await post(carrier, `/api/parcels/${parcel.id}/relay-offer`, offerBody());
    expect(created.statusCode).toBe(201);
    const offer = created.json();
    expect(offer).toMatchObject({
      parcelId: parcel.id,
      runner: carrier.account.userName,
      place: nyugati,
      placeLabel: 'Nyugati pu.',
      takenBy: null,
    });
    const third = await signUp(t.app, { role: 'runner' });
    const fourth = await signUp(t.app, { role: 'runner' });
    expect((await list(third)).items.map((item) => item.id)).toContain(offer.id);

    expect((await post(carrier, `/api/relay-offers/${offer.id}/take`)).json().error.code).toBe('relay_own_parcel');
    const answers = await Promise.all([third, fourth].map((who) => post(who, `/api/relay-offers/${offer.id}/take`)));
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
    const winner = answers[0]?.statusCode === 200 ? third : fourth;
    const loser = winner === third ? fourth : third;
    expect(answers.find((answer) => answer.statusCode === 409)?.json().error).toEqual({
      code: 'relay_offer_unavailable',
      message: messages.relayOfferUnavailable,
    });
    expect((await list(winner)).items.find((item) => item.id === offer.id)?.takenBy).toBe(winner.account.userName);
    expect((await list(loser)).items.map((item) => item.id)).not.toContain(offer.id);

    // The hand-over by QR: the offer is no longer open for anyone.
    const link = await post(carrier, `/api/parcels/${parcel.id}/relay-token`);
    const token = new URL(link.json().url).searchParams.get('token');
    expect((await post(winner, `/api/parcels/${parcel.id}/relay`, { token })).statusCode).toBe(200);
    expect((await list(winner)).items.map((item) => item.id)).not.toContain(offer.id);
    expect((await post(loser, `/api/relay-offers/${offer.id}/take`)).json().error.code).toBe('relay_offer_not_found');
  });

  it('refuses a meeting point outside Hungary or a window in the past with a Hungarian message, saving nothing', async () => {
    const { carrier, parcel } = await carried();
    const refused = async (body: object, field: string, message: string) => {
      const answer = await post(carrier, `/api/parcels/${parcel.id}/relay-offer`, body);
      expect(answer.statusCode).toBe(400);
      expect(answer.json().error.fields[field]).toBe(message);
    };
    await refused(
      offerBody({ place: { lat: 50.0755, lng: 14.4378 } }),
      'place',
      messages.relayOfferPlaceOutsideHungary,
    );
    await refused(
      offerBody({ from: inMinutes(-120), until: inMinutes(-60) }),
      'until',
      messages.relayOfferWindowInPast,
    );
    await refused(offerBody({ from: inMinutes(60), until: inMinutes(30) }), 'until', messages.relayOfferWindowOrder);
    await refused(
      offerBody({ until: inMinutes(10 + RELAY_OFFER_MAX_HOURS * 60 + 1) }),
      'until',
      messages.relayOfferWindowTooLong(RELAY_OFFER_MAX_HOURS),
    );
    await refused(offerBody({ from: 'holnap' }), 'from', messages.relayOfferTimeInvalid);
    expect(await storedOffers(parcel.id)).toEqual([]);
  });

  it('only the holder may offer; a new offer replaces the old; turning back to the sender ends it', async () => {
    const { carrier, parcel } = await carried();
    const other = await signUp(t.app, { role: 'runner' });
    expect((await post(other, `/api/parcels/${parcel.id}/relay-offer`, offerBody())).statusCode).toBe(403);
    expect((await post(sender, `/api/parcels/${parcel.id}/relay-offer`, offerBody())).statusCode).toBe(403);
    expect(await storedOffers(parcel.id)).toEqual([]);
    const first = (await post(carrier, `/api/parcels/${parcel.id}/relay-offer`, offerBody())).json();
    const second = (await post(carrier, `/api/parcels/${parcel.id}/relay-offer`, offerBody())).json();
    const open = (await list(other)).items.filter((item) => item.parcelId === parcel.id);
    expect(open.map((item) => item.id)).toEqual([second.id]);
    expect(first.id).not.toBe(second.id);
    // Its destination changed: the offer made for the old one is over (the runner may offer again).
    expect((await post(carrier, `/api/parcels/${parcel.id}/return`, { reason: 'Mégsem megyek arra' })).statusCode).toBe(
      200,
    );
    expect((await list(other)).items.map((item) => item.parcelId)).not.toContain(parcel.id);
  });
});
