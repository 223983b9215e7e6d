import type { TrackingView } from '@csomag/domain/parcel';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { northOf, pickUp } from '../../test/delivery.ts';
import { echoesOf } from '../../test/echoes.ts';
import { createTestApp, requestAs, type SignedIn, signInCast, type TestApp, testStore } from '../../test/harness.ts';
import { sendParcel } from '../../test/parcels.ts';
import { getTrackingView } from './service.ts';
import { TrackingCache } from './tracking-cache.ts';

let t: TestApp;
let echoesHeard: () => Promise<void>;
let admin: SignedIn;
let sender: SignedIn;
let runner: SignedIn;
beforeAll(async () => {
  t = await createTestApp();
  ({ admin, sender, runner } = await signInCast(t.app));
  echoesHeard = echoesOf(t.app);
});

afterAll(() => t.close());

const DOOR = { lat: 47.4979, lng: 19.0402 };

const track = async (parcelId: string, app: FastifyInstance = t.app) => {
  const response = await app.inject({ method: 'GET', url: `/api/tracking/${parcelId}` });
  return { status: response.statusCode, view: response.json() as TrackingView };
};

/** Changes the stored row behind the write path's back: only a cached view still shows the old one. */
const renameBehindTheScenes = (parcelId: string, category: string) =>
  t.app.store.db.updateTable('parcels').set({ category }).where('id', '=', parcelId).execute();

const as = (who: SignedIn, method: 'POST' | 'PATCH' | 'PUT' | 'DELETE', url: string, payload?: object) =>
  requestAs(t.app, who, method, url, payload);

describe('the tracking view served from memory', () => {
  it('answers from memory while the parcel does not change', async () => {
    const parcel = await sendParcel(t.app, sender.cookie);
    await echoesHeard();
    expect((await track(parcel.id)).view.category).toBe(parcel.category);
    await renameBehindTheScenes(parcel.id, 'Csak az adatbázisban');
    expect((await track(parcel.id)).view.category).toBe(parcel.category);
  });

  it('shows every change at once: pickup, position, edit, delivery, deletion', async () => {
    const parcel = await sendParcel(t.app, sender.cookie, { receiverCoordinates: DOOR });
    await track(parcel.id);

    await pickUp(t.app, runner.cookie, parcel.id);
    expect((await track(parcel.id)).view).toMatchObject({ status: 'in_transit', runner: runner.account.userName });

    const here = { lat: 47.51, lng: 19.06, accuracy: 12 };
    expect((await as(runner, 'PUT', '/api/runners/me/location', here)).statusCode).toBe(204);
    expect((await track(parcel.id)).view.runnerPosition).toMatchObject({ lat: here.lat, lng: here.lng });

    expect((await as(admin, 'PATCH', `/api/parcels/${parcel.id}`, { category: 'Átnevezett' })).statusCode).toBe(200);
    expect((await track(parcel.id)).view.category).toBe('Átnevezett');

    const atDoor = { ...northOf(DOOR, 2), accuracy: 5 };
    expect((await as(runner, 'POST', `/api/parcels/${parcel.id}/deliver`, atDoor)).statusCode).toBe(200);
    expect((await track(parcel.id)).view.status).toBe('delivered');

    expect((await as(admin, 'DELETE', `/api/parcels/${parcel.id}`)).statusCode).toBe(204);
    expect((await track(parcel.id)).status).toBe(404);
  });

  it('does not keep a view read while its parcel changed, and keeps the next one', async () => {
    const parcel = await sendParcel(t.app, sender.cookie);
    await echoesHeard();
    const gates: Array<() => void> = [];
    const cache = new TrackingCache(t.app.changeFeed, async (id) => {
      const view = await getTrackingView(t.app.store.db, id);
      await new Promise<void>((resolve) => gates.push(resolve));
      return view;
    });
    const racing = cache.get(parcel.id);
    await vi.waitFor(() => expect(gates).toHaveLength(1));
    // A change committed, through the real feed, while the read was under way.
    await t.app.changeFeed.transaction(async (_trx, publish) => {
      await publish({
        kind: 'edited',
        parcelId: parcel.id,
        status: 'waiting',
        runner: null,
        senderUser: sender.account.userName,
        receiverKey: parcel.id,
        previous: null,
      });
    });
    await echoesHeard();
    gates[0]?.();
    expect((await racing)?.category).toBe(parcel.category);

    await renameBehindTheScenes(parcel.id, 'Frissen olvasva');
    const again = cache.get(parcel.id);
    await vi.waitFor(() => expect(gates).toHaveLength(2)); // read again: the raced view was not kept
    gates[1]?.();
    expect((await again)?.category).toBe('Frissen olvasva');
    // Nothing changed during that read: it is kept, and the next answer needs no read.
    expect((await cache.get(parcel.id))?.category).toBe('Frissen olvasva');
    expect(gates).toHaveLength(2);
  });

  it.runIf(testStore === 'postgres')(
    'shows another instance’s change as soon as its live update goes out',
    async () => {
      const other = await t.addInstance();
      const parcel = await sendParcel(t.app, sender.cookie);
      expect((await track(parcel.id, other)).view.status).toBe('waiting');
      await pickUp(t.app, runner.cookie, parcel.id);
      await vi.waitFor(async () => expect((await track(parcel.id, other)).view.status).toBe('in_transit'), {
        timeout: 5_000,
      });
    },
  );
});
