import type { Coordinates } from '@csomag/domain/parcel';
import type { TripMatchesResponse, TripRelayOffer } from '@csomag/domain/trip-api';
import { relayCloserKm } from '@csomag/domain/trips';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pickUp } from '../../test/delivery.ts';
import { createTestApp, type SignedIn, signUp, type TestApp } from '../../test/harness.ts';
import { sendParcel } from '../../test/parcels.ts';

/**
 * Relay offers among a trip's matches (issue 14 item 3): open offers the trip passes that bring
 * the parcel closer to its destination, through the API on a real database.
 */

let t: TestApp;
let sender: SignedIn;
let runner: SignedIn;
beforeAll(async () => {
  t = await createTestApp();
  sender = await signUp(t.app);
  runner = await signUp(t.app, { role: 'runner' });
});
afterAll(() => t.close());

// A trip across Budapest, west to east along one parallel (~9 km, ~47 minutes by bike).
const FROM = { lat: 47.4979, lng: 19.0 };
const TO = { lat: 47.4979, lng: 19.12 };
const trip = (overrides: Record<string, unknown> = {}) => ({ from: FROM, to: TO, mode: 'bike', ...overrides });
/** ~20 minutes by bike from the start, on the way. */
const ON_THE_WAY = { lat: 47.4979, lng: 19.05 };
/** East of the trip's end: the trip brings a parcel going there ~5 km closer. */
const EAST = { lat: 47.4979, lng: 19.3 };
const WEST = { lat: 47.4979, lng: 18.9 };

const inMinutes = (minutes: number) => new Date(Date.now() + minutes * 60_000).toISOString();
const post = (who: SignedIn, url: string, payload: object = {}) =>
  t.app.inject({ method: 'POST', url, headers: { cookie: who.cookie }, payload });

/** A carrier picks up a parcel going to `destination` and offers it at `place`. */
async function offered(
  place: Coordinates,
  destination: Coordinates,
  window = { from: inMinutes(0), until: inMinutes(120) },
) {
  const carrier = await signUp(t.app, { role: 'runner' });
  const parcel = await sendParcel(t.app, sender.cookie, {
    senderAddress: '1052 Budapest, Váci utca 12',
    receiverAddress: '2100 Gödöllő, Szabadság tér 1',
    senderCoordinates: FROM,
    receiverCoordinates: destination,
  });
  await pickUp(t.app, carrier.cookie, parcel.id);
  const created = await post(carrier, `/api/parcels/${parcel.id}/relay-offer`, {
    place,
    placeLabel: 'Keleti pu.',
    ...window,
  });
  expect(created.statusCode, created.body).toBe(201);
  return { carrier, parcel, offer: created.json() as { id: number } };
}

async function relayOffers(who: SignedIn, body: Record<string, unknown> = trip()) {
  const response = await post(who, '/api/trips/matches', body);
  expect(response.statusCode, response.body).toBe(200);
  return (response.json() as TripMatchesResponse).relayOffers;
}
const ids = (offers: TripRelayOffer[]) => offers.map((offer) => offer.id);

describe('relay offers among trip matches', () => {
  it('answers an offer on the way that gets the parcel closer, with its +minutes and km closer', async () => {
    const { carrier, parcel, offer } = await offered(ON_THE_WAY, EAST);
    const found = (await relayOffers(runner)).find((item) => item.id === offer.id);
    expect(found).toMatchObject({
      id: offer.id,
      parcelId: parcel.id,
      runner: carrier.account.userName,
      place: ON_THE_WAY,
      placeLabel: 'Keleti pu.',
      destination: EAST,
      takenBy: null,
      addedMinutes: 0,
    });
    const closer = relayCloserKm(ON_THE_WAY, TO, EAST);
    expect(found?.closerKm).toBeCloseTo(closer, 0);
    expect(found?.closerKm).toBeGreaterThan(4);
  });

  it('leaves out an offer the trip takes away from its destination', async () => {
    const { offer } = await offered(ON_THE_WAY, WEST);
    expect(ids(await relayOffers(runner))).not.toContain(offer.id);
  });

  it('leaves out an offer off the route (4 km north of it), unless the runner allows the detour', async () => {
    const { offer } = await offered({ lat: 47.534, lng: 19.06 }, EAST);
    expect(ids(await relayOffers(runner))).not.toContain(offer.id);
    const generous = (await relayOffers(runner, trip({ maxDetourMinutes: 60 }))).find((item) => item.id === offer.id);
    expect(generous?.addedMinutes).toBeGreaterThan(10);
  });

  it('leaves out an offer whose window ends before the runner gets there', async () => {
    // The meeting point is ~39 minutes away by bike; the window closes in 10.
    const { offer } = await offered({ lat: 47.4979, lng: 19.1 }, EAST, { from: inMinutes(-30), until: inMinutes(10) });
    expect(ids(await relayOffers(runner))).not.toContain(offer.id);
  });

  it('takes the departure into account: a later start misses a window, waiting for one counts as minutes', async () => {
    const { offer } = await offered(ON_THE_WAY, EAST, { from: inMinutes(0), until: inMinutes(60) });
    expect(ids(await relayOffers(runner, trip({ departure: inMinutes(20) })))).toContain(offer.id);
    expect(ids(await relayOffers(runner, trip({ departure: inMinutes(50) })))).not.toContain(offer.id);
    // Opens in an hour: leaving now, the runner would wait ~40 minutes; leaving in 40, hardly.
    const later = await offered(ON_THE_WAY, EAST, { from: inMinutes(60), until: inMinutes(180) });
    expect(ids(await relayOffers(runner))).not.toContain(later.offer.id);
    const waiting = (await relayOffers(runner, trip({ departure: inMinutes(40), maxDetourMinutes: 10 }))).find(
      (item) => item.id === later.offer.id,
    );
    expect(waiting?.addedMinutes).toBeLessThanOrEqual(10);
  });

  it("leaves out the runner's own offer", async () => {
    const parcel = await sendParcel(t.app, sender.cookie, {
      senderCoordinates: FROM,
      receiverCoordinates: EAST,
      senderAddress: '1052 Budapest, Váci utca 12',
      receiverAddress: '2100 Gödöllő, Szabadság tér 1',
    });
    const mine = await signUp(t.app, { role: 'runner' });
    await pickUp(t.app, mine.cookie, parcel.id);
    const created = await post(mine, `/api/parcels/${parcel.id}/relay-offer`, {
      place: ON_THE_WAY,
      from: inMinutes(0),
      until: inMinutes(120),
    });
    expect(created.statusCode).toBe(201);
    expect(ids(await relayOffers(mine))).not.toContain(created.json().id);
    expect(ids(await relayOffers(runner))).toContain(created.json().id);
  });

  it('leaves out an offer reserved by another runner, keeps one this runner reserved', async () => {
    const other = await signUp(t.app, { role: 'runner' });
    const theirs = await offered(ON_THE_WAY, EAST);
    expect((await post(other, `/api/relay-offers/${theirs.offer.id}/take`)).statusCode).toBe(200);
    const mine = await offered(ON_THE_WAY, EAST);
    expect((await post(runner, `/api/relay-offers/${mine.offer.id}/take`)).statusCode).toBe(200);
    const found = await relayOffers(runner);
    expect(ids(found)).not.toContain(theirs.offer.id);
    expect(found.find((item) => item.id === mine.offer.id)?.takenBy).toBe(runner.account.userName);
    expect(ids(await relayOffers(other))).toContain(theirs.offer.id);
  });

  it('leaves out an offer ended because the parcel was handed over', async () => {
    const { carrier, parcel, offer } = await offered(ON_THE_WAY, EAST);
    expect(ids(await relayOffers(runner))).toContain(offer.id);
    const next = await signUp(t.app, { role: 'runner' });
    const link = await post(carrier, `/api/parcels/${parcel.id}/relay-token`);
    const token = new URL(link.json().url).searchParams.get('token');
    expect((await post(next, `/api/parcels/${parcel.id}/relay`, { token })).statusCode).toBe(200);
    expect(ids(await relayOffers(runner))).not.toContain(offer.id);
  });

  it('leaves out a withdrawn offer', async () => {
    const { carrier, parcel, offer } = await offered(ON_THE_WAY, EAST);
    const withdrawn = await t.app.inject({
      method: 'DELETE',
      url: `/api/parcels/${parcel.id}/relay-offer`,
      headers: { cookie: carrier.cookie },
    });
    expect(withdrawn.statusCode).toBe(204);
    expect(ids(await relayOffers(runner))).not.toContain(offer.id);
  });

  it('ranks by added minutes, then the most kilometres closer', async () => {
    // Delivered just short of the trip's end: ~2 km closer, against ~5 km for one going further east.
    const near = await offered(ON_THE_WAY, { lat: 47.4979, lng: 19.1 });
    const far = await offered(ON_THE_WAY, EAST);
    const aside = await offered({ lat: 47.51, lng: 19.06 }, EAST);
    const found = (await relayOffers(runner)).filter((item) =>
      [near.offer.id, far.offer.id, aside.offer.id].includes(item.id),
    );
    expect(ids(found)).toEqual([far.offer.id, near.offer.id, aside.offer.id]);
    expect(found[2]?.addedMinutes).toBeGreaterThan(0);
  });

  it('answers no offers to a trip in the wrong direction, and the route still refuses non-runners', async () => {
    const { offer } = await offered(ON_THE_WAY, EAST);
    expect(ids(await relayOffers(runner, trip({ from: TO, to: FROM })))).not.toContain(offer.id);
    expect((await post(sender, '/api/trips/matches', trip())).statusCode).toBe(403);
    const stranger = await t.app.inject({ method: 'POST', url: '/api/trips/matches', payload: trip() });
    expect(stranger.statusCode).toBe(401);
  });
});
