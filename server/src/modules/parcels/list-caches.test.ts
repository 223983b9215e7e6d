import type { Parcel } from '@csomag/domain/parcel';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { pickUp } from '../../test/delivery.ts';
import { echoesOf } from '../../test/echoes.ts';
import {
  createTestApp,
  requestAs,
  type SignedIn,
  signInSuperadmin,
  signUp,
  type TestApp,
  testStore,
} from '../../test/harness.ts';
import { sendParcel } from '../../test/parcels.ts';

let t: TestApp;
let echoesHeard: () => Promise<void>;
let admin: SignedIn;
let runner: SignedIn;
beforeAll(async () => {
  t = await createTestApp();
  admin = await signInSuperadmin(t.app);
  runner = await signUp(t.app, { role: 'runner' });
  echoesHeard = echoesOf(t.app);
});
afterAll(() => t.close());

let addresses = 0;
const uniqueAddress = () => `6720 Szeged, Dugonics tér ${Date.now() % 100000}/${++addresses}`;

const list = async (who: SignedIn, which: 'sent' | 'incoming', app: FastifyInstance = t.app) => {
  const response = await app.inject({
    method: 'GET',
    url: `/api/me/${which}-parcels`,
    headers: { cookie: who.cookie },
  });
  expect(response.statusCode).toBe(200);
  return (response.json() as { items: Parcel[] }).items;
};
const summary = (items: Parcel[]) => items.map((parcel) => [parcel.id, parcel.status, parcel.category]);

/** Changes the stored row behind the write path's back: only a kept list still shows the old one. */
const renameBehindTheScenes = (parcelId: string, category: string) =>
  t.app.store.db.updateTable('parcels').set({ category }).where('id', '=', parcelId).execute();

describe('the sent and incoming lists served from memory', () => {
  it('answer from memory while nothing in them changes', async () => {
    const sender = await signUp(t.app);
    const parcel = await sendParcel(t.app, sender.cookie);
    await echoesHeard();
    expect(summary(await list(sender, 'sent'))).toEqual([[parcel.id, 'waiting', parcel.category]]);
    await renameBehindTheScenes(parcel.id, 'Csak az adatbázisban');
    expect(summary(await list(sender, 'sent'))).toEqual([[parcel.id, 'waiting', parcel.category]]);
  });

  it('show every change at once to the sender and to the receivers before and after', async () => {
    const sender = await signUp(t.app);
    const first = await signUp(t.app, { address: uniqueAddress() });
    const second = await signUp(t.app, { address: uniqueAddress() });
    expect(await list(sender, 'sent')).toEqual([]);
    expect(await list(first, 'incoming')).toEqual([]);
    expect(await list(second, 'incoming')).toEqual([]);

    const parcel = await sendParcel(t.app, sender.cookie, { receiverAddress: first.account.address });
    expect(summary(await list(sender, 'sent'))).toEqual([[parcel.id, 'waiting', parcel.category]]);
    expect(summary(await list(first, 'incoming'))).toEqual([[parcel.id, 'waiting', parcel.category]]);

    await pickUp(t.app, runner.cookie, parcel.id);
    expect(summary(await list(sender, 'sent'))).toEqual([[parcel.id, 'in_transit', parcel.category]]);
    expect(summary(await list(first, 'incoming'))).toEqual([[parcel.id, 'in_transit', parcel.category]]);

    // The back office sends it to another address: it leaves one receiver's list for the other's.
    const edit = { category: 'Átirányítva', receiverAddress: second.account.address };
    expect((await requestAs(t.app, admin, 'PATCH', `/api/parcels/${parcel.id}`, edit)).statusCode).toBe(200);
    expect(await list(first, 'incoming')).toEqual([]);
    expect(summary(await list(second, 'incoming'))).toEqual([[parcel.id, 'in_transit', 'Átirányítva']]);
    expect(summary(await list(sender, 'sent'))).toEqual([[parcel.id, 'in_transit', 'Átirányítva']]);
  });

  it('show a parcel cancelled by its sender or deleted by the back office gone at once', async () => {
    const sender = await signUp(t.app);
    const receiver = await signUp(t.app, { address: uniqueAddress() });
    const cancelled = await sendParcel(t.app, sender.cookie, { receiverAddress: receiver.account.address });
    const deleted = await sendParcel(t.app, sender.cookie, { receiverAddress: receiver.account.address });
    expect(await list(sender, 'sent')).toHaveLength(2);
    expect(await list(receiver, 'incoming')).toHaveLength(2);

    expect((await requestAs(t.app, sender, 'POST', `/api/parcels/${cancelled.id}/cancel`)).statusCode).toBe(204);
    expect((await list(sender, 'sent')).map((p) => p.id)).toEqual([deleted.id]);
    expect((await list(receiver, 'incoming')).map((p) => p.id)).toEqual([deleted.id]);

    expect((await requestAs(t.app, admin, 'DELETE', `/api/parcels/${deleted.id}`)).statusCode).toBe(204);
    expect(await list(sender, 'sent')).toEqual([]);
    expect(await list(receiver, 'incoming')).toEqual([]);
  });

  it('keep each person’s list, filter and page apart', async () => {
    const one = await signUp(t.app);
    const other = await signUp(t.app);
    const mine = await sendParcel(t.app, one.cookie);
    const theirs = await sendParcel(t.app, other.cookie);
    await pickUp(t.app, runner.cookie, theirs.id);
    expect((await list(one, 'sent')).map((p) => p.id)).toEqual([mine.id]);
    expect((await list(other, 'sent')).map((p) => p.id)).toEqual([theirs.id]);
    const waiting = await t.app.inject({
      method: 'GET',
      url: '/api/me/sent-parcels?status=waiting',
      headers: { cookie: other.cookie },
    });
    expect(waiting.json().items).toEqual([]);
  });

  it.runIf(testStore === 'postgres')('show another instance’s change as soon as its live update goes out', async () => {
    const other = await t.addInstance();
    const sender = await signUp(t.app);
    const parcel = await sendParcel(t.app, sender.cookie);
    expect(summary(await list(sender, 'sent', other))).toEqual([[parcel.id, 'waiting', parcel.category]]);
    await pickUp(t.app, runner.cookie, parcel.id);
    await vi.waitFor(
      async () =>
        expect(summary(await list(sender, 'sent', other))).toEqual([[parcel.id, 'in_transit', parcel.category]]),
      { timeout: 5_000 },
    );
  });
});

describe('the waiting pool served from memory', () => {
  const waiting = async (query = '', app: FastifyInstance = t.app) => {
    const response = await app.inject({
      method: 'GET',
      url: `/api/parcels/waiting?limit=100${query}`,
      headers: { cookie: runner.cookie },
    });
    expect(response.statusCode).toBe(200);
    return (response.json() as { items: Parcel[] }).items;
  };
  const categoryIn = async (parcelId: string, query = '') =>
    (await waiting(query)).find((parcel) => parcel.id === parcelId)?.category;

  it('answers every runner from one read while nothing waiting changes', async () => {
    const sender = await signUp(t.app);
    const parcel = await sendParcel(t.app, sender.cookie);
    await echoesHeard();
    expect(await categoryIn(parcel.id)).toBe(parcel.category);
    await renameBehindTheScenes(parcel.id, 'Csak az adatbázisban');
    expect(await categoryIn(parcel.id)).toBe(parcel.category);
    // A runner moving changes nothing in the pool.
    const here = { lat: 47.51, lng: 19.06, accuracy: 12 };
    expect((await requestAs(t.app, runner, 'PUT', '/api/runners/me/location', here)).statusCode).toBe(204);
    expect(await categoryIn(parcel.id)).toBe(parcel.category);
  });

  it('shows a new parcel, an edit, a pickup and a return to the pool at once, nearest first too', async () => {
    const sender = await signUp(t.app);
    const near = '&near=47.4979,19.0402';
    await waiting();
    await waiting(near);
    const parcel = await sendParcel(t.app, sender.cookie);
    expect(await categoryIn(parcel.id)).toBe(parcel.category);
    expect(await categoryIn(parcel.id, near)).toBe(parcel.category);

    expect(
      (await requestAs(t.app, admin, 'PATCH', `/api/parcels/${parcel.id}`, { category: 'Új név' })).statusCode,
    ).toBe(200);
    expect(await categoryIn(parcel.id)).toBe('Új név');

    await pickUp(t.app, runner.cookie, parcel.id);
    expect(await categoryIn(parcel.id)).toBeUndefined();
    expect(await categoryIn(parcel.id, near)).toBeUndefined();

    // Back in the pool only by the back office's correction (a runner's way back is to the sender).
    const back = await requestAs(t.app, admin, 'PATCH', `/api/parcels/${parcel.id}`, {
      status: 'waiting',
      reason: 'Elromlott a futár biciklije',
    });
    expect(back.statusCode).toBe(200);
    expect(await categoryIn(parcel.id)).toBe('Új név');
  });

  it.runIf(testStore === 'postgres')(
    'shows another instance’s pickup as soon as its live update goes out',
    async () => {
      const other = await t.addInstance();
      const sender = await signUp(t.app);
      const parcel = await sendParcel(t.app, sender.cookie);
      expect((await waiting('', other)).map((p) => p.id)).toContain(parcel.id);
      await pickUp(t.app, runner.cookie, parcel.id);
      await vi.waitFor(async () => expect((await waiting('', other)).map((p) => p.id)).not.toContain(parcel.id), {
        timeout: 5_000,
      });
    },
  );
});
