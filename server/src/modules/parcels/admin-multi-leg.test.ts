import type { AdminParcel } from '@csomag/domain/admin';
import { messages } from '@csomag/domain/messages';
import type { Parcel } from '@csomag/domain/parcel';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pickUp } from '../../test/delivery.ts';
import { createTestApp, type SignedIn, signInSuperadmin, signUp, type TestApp } from '../../test/harness.ts';
import { sendParcel } from '../../test/parcels.ts';

/** The back office's 'többszakaszos' filter (issue 14): parcels handed from runner to runner. */

let t: TestApp;
let admin: SignedIn;
let first: SignedIn;
let second: SignedIn;
beforeAll(async () => {
  t = await createTestApp();
  admin = await signInSuperadmin(t.app);
  first = await signUp(t.app, { role: 'runner' });
  second = await signUp(t.app, { role: 'runner' });
});
afterAll(() => t.close());

const call = (method: 'GET' | 'POST' | 'PATCH', url: string, who?: SignedIn, payload?: Record<string, unknown>) =>
  t.app.inject({ method, url, ...(who ? { headers: { cookie: who.cookie } } : {}), ...(payload ? { payload } : {}) });

async function list(query: string, who: SignedIn = admin) {
  const response = await call('GET', `/api/parcels?${query}`, who);
  expect(response.statusCode).toBe(200);
  return response.json() as { items: AdminParcel[]; nextCursor: string | null };
}

const ids = (page: { items: AdminParcel[] }) => page.items.map((parcel) => parcel.id);

/** A parcel `first` picked up and handed to `second` through the relay link, as the runners do. */
async function relayed(sender: SignedIn): Promise<Parcel> {
  const parcel = await sendParcel(t.app, sender.cookie);
  await pickUp(t.app, first.cookie, parcel.id);
  const link = await call('POST', `/api/parcels/${parcel.id}/relay-token`, first, {});
  expect(link.statusCode).toBe(200);
  const token = new URL(link.json().url).searchParams.get('token');
  const taken = await call('POST', `/api/parcels/${parcel.id}/relay`, second, { token });
  expect(taken.statusCode).toBe(200);
  return taken.json();
}

/** A parcel `first` picked up whose holder the superadmin then corrected to `second`. */
async function overridden(sender: SignedIn): Promise<Parcel> {
  const parcel = await sendParcel(t.app, sender.cookie);
  await pickUp(t.app, first.cookie, parcel.id);
  const response = await call('POST', `/api/parcels/${parcel.id}/custody-override`, admin, {
    runner: second.account.userName,
    reason: 'Átadták egymásnak, de nem rögzítették.',
  });
  expect(response.statusCode).toBe(200);
  return response.json();
}

describe('GET /api/parcels?multiLeg=true', () => {
  it('keeps only parcels handed from runner to runner (relay or override), newest first, marked multi-leg', async () => {
    const sender = await signUp(t.app);
    const waiting = await sendParcel(t.app, sender.cookie);
    const carried = await sendParcel(t.app, sender.cookie);
    await pickUp(t.app, first.cookie, carried.id);
    const byRelay = await relayed(sender);
    const byOverride = await overridden(sender);

    const mine = await list(`sender=${sender.account.userName}&multiLeg=true`);
    expect(ids(mine)).toEqual([byOverride.id, byRelay.id]);
    expect(mine.items.every((parcel) => parcel.multiLeg)).toBe(true);
    expect(mine.items[0]).toMatchObject({ runner: second.account.userName, status: 'in_transit' });
    // Without the sender filter too (other tests' parcels may be among them).
    const everyone = ids(await list('multiLeg=true&limit=100'));
    expect(everyone).toEqual(expect.arrayContaining([byOverride.id, byRelay.id]));
    expect(everyone).not.toContain(waiting.id);
    expect(everyone).not.toContain(carried.id);

    // The unfiltered list (and multiLeg=false, which is no filter) shows every parcel with its mark.
    for (const query of ['', '&multiLeg=false']) {
      const all = await list(`sender=${sender.account.userName}${query}`);
      expect(all.items.map((parcel) => [parcel.id, parcel.multiLeg])).toEqual([
        [byOverride.id, true],
        [byRelay.id, true],
        [carried.id, false],
        [waiting.id, false],
      ]);
    }
  });

  it('pages the multi-leg parcels with the cursor, like every other filter', async () => {
    const sender = await signUp(t.app);
    const parcels = [await relayed(sender), await overridden(sender), await relayed(sender)];
    await sendParcel(t.app, sender.cookie);
    const url = `sender=${sender.account.userName}&multiLeg=true&limit=2`;
    const one = await list(url);
    expect(one.nextCursor).not.toBeNull();
    const two = await list(`${url}&cursor=${one.nextCursor}`);
    expect([...ids(one), ...ids(two)]).toEqual(parcels.map((parcel) => parcel.id).reverse());
    expect(two.nextCursor).toBeNull();

    // Across every sender too: no parcel twice, none single-leg, newest first.
    const seen: AdminParcel[] = [];
    let cursor: string | null = null;
    do {
      const page = await list(`multiLeg=true&limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      seen.push(...page.items);
      cursor = page.nextCursor;
    } while (cursor);
    expect(new Set(seen.map((parcel) => parcel.id)).size).toBe(seen.length);
    expect(seen.every((parcel) => parcel.multiLeg)).toBe(true);
    expect(seen.map((parcel) => parcel.id)).toEqual(expect.arrayContaining(parcels.map((parcel) => parcel.id)));
    const times = seen.map((parcel) => parcel.createdAt);
    expect(times).toEqual([...times].sort().reverse());
  });

  it('combines with status, runner and sender', async () => {
    const sender = await signUp(t.app);
    const onTheWay = await relayed(sender);
    const delivered = await relayed(sender);
    const handedOver = await call('PATCH', `/api/parcels/${delivered.id}`, admin, { status: 'delivered' });
    expect(handedOver.statusCode).toBe(200);
    const single = await sendParcel(t.app, sender.cookie);
    await pickUp(t.app, second.cookie, single.id);

    const who = `sender=${sender.account.userName}`;
    expect(ids(await list(`${who}&multiLeg=true&status=in_transit`))).toEqual([onTheWay.id]);
    expect(ids(await list(`${who}&multiLeg=true&status=delivered`))).toEqual([delivered.id]);
    expect(ids(await list(`${who}&multiLeg=true&status=waiting`))).toEqual([]);
    expect(ids(await list(`${who}&multiLeg=true&runner=${second.account.userName}`))).toEqual([
      delivered.id,
      onTheWay.id,
    ]);
    // The first runner carried them too, but holds none of them now.
    expect(ids(await list(`${who}&multiLeg=true&runner=${first.account.userName}`))).toEqual([]);
    expect(ids(await list(`${who}&status=in_transit`))).toEqual([single.id, onTheWay.id]);
    expect(ids(await list(`status=in_transit&multiLeg=true&limit=100`))).not.toContain(single.id);
  });

  it('is the superadmin’s only: anonymous 401, users and runners (even the carriers) 403', async () => {
    const user = await signUp(t.app);
    await relayed(user);
    const anonymous = await call('GET', '/api/parcels?multiLeg=true');
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json().error.code).toBe('sign_in_required');
    for (const who of [user, first, second]) {
      const response = await call('GET', '/api/parcels?multiLeg=true', who);
      expect(response.statusCode).toBe(403);
      expect(response.json().error.code).toBe('forbidden');
    }
  });

  it.each(['igen', '1', 'TRUE', ''])(
    'refuses multiLeg=%s with 400 and a Hungarian message beside it',
    async (value) => {
      const response = await call('GET', `/api/parcels?multiLeg=${value}`, admin);
      expect(response.statusCode).toBe(400);
      expect(response.json().error).toMatchObject({
        code: 'invalid_body',
        fields: { multiLeg: messages.multiLegFilterInvalid },
      });
    },
  );
});
