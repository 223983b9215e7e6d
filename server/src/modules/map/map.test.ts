import { MAP_MARKER_LIMIT } from '@csomag/domain/admin';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountRow, insertParcels } from '../../test/back-office.ts';
import { createTestApp, type SignedIn, signInSuperadmin, signUp, type TestApp, testStore } from '../../test/harness.ts';
import { sendParcel } from '../../test/parcels.ts';
import { claimParcel } from '../parcels/changes.ts';
import { foldMapDeltas } from './fold.ts';

let t: TestApp;
let admin: SignedIn;
let user: SignedIn;
let runner: SignedIn;
beforeAll(async () => {
  t = await createTestApp();
  admin = await signInSuperadmin(t.app);
  user = await signUp(t.app);
  runner = await signUp(t.app, { role: 'runner' });
});
afterAll(() => t.close());

const get = (url: string, cookie?: string) =>
  t.app.inject({ method: 'GET', url, ...(cookie ? { headers: { cookie } } : {}) });

/** A one-degree box of its own for each test, far from where other tests send parcels. */
let boxCounter = 0;
function ownBox() {
  boxCounter += 1;
  const south = -30 - 2 * boxCounter;
  const west = -40 - 2 * boxCounter;
  return { south, west, north: south + 1, east: west + 1 };
}
const mapUrl = (box: ReturnType<typeof ownBox>, zoom: number, extra = '') =>
  `/api/map/parcels?south=${box.south}&west=${box.west}&north=${box.north}&east=${box.east}&zoom=${zoom}${extra}`;

describe('GET /api/map/parcels', () => {
  it('shows the few parcels in view as markers with what the popups need', async () => {
    // Sent through the API, so in Hungary (the other tests write their parcels straight to the store, far away).
    const box = { south: 46.2, west: 20.5, north: 47.2, east: 21.5 };
    const inside = await sendParcel(t.app, user.cookie, {
      senderCoordinates: { lat: box.south + 0.5, lng: box.west + 0.5 },
      receiverCoordinates: { lat: 47.1, lng: 19.2 },
    });
    const carried = await sendParcel(t.app, user.cookie, {
      senderCoordinates: { lat: box.south + 0.25, lng: box.west + 0.75 },
    });
    await sendParcel(t.app, user.cookie, { senderCoordinates: { lat: box.north + 0.01, lng: box.west + 0.5 } });
    const runnerRow = await accountRow(t.store, runner.account.userName);
    await claimParcel(t.app.changeFeed, carried.id, runnerRow, runnerRow, 'picked_up');

    const response = await get(mapUrl(box, 12), admin.cookie);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.mode).toBe('markers');
    expect(body.total).toBe(2);
    const byId = Object.fromEntries(body.markers.map((m: { id: string }) => [m.id, m]));
    expect(byId[inside.id]).toEqual({
      id: inside.id,
      status: 'waiting',
      pickup: { lat: box.south + 0.5, lng: box.west + 0.5 },
      destination: { lat: 47.1, lng: 19.2 },
      receiverAddress: inside.receiverAddress,
      senderUser: user.account.userName,
      runner: null,
    });
    expect(byId[carried.id]).toMatchObject({ status: 'in_transit', runner: runner.account.userName });

    const waitingOnly = (await get(mapUrl(box, 12, '&status=waiting'), admin.cookie)).json();
    expect(waitingOnly.markers.map((m: { id: string }) => m.id)).toEqual([inside.id]);
  });

  it('counts many parcels in view as clusters on a grid, never sending the parcels', async () => {
    const box = ownBox();
    const sender = await accountRow(t.store, user.account.userName);
    const count = MAP_MARKER_LIMIT + 100;
    // Spread over the box on a 25 × 24 lattice.
    const points = Array.from({ length: count }, (_, i) => ({
      lat: box.south + 0.02 + (i % 25) * 0.038,
      lng: box.west + 0.02 + Math.floor(i / 25) * 0.04,
    }));
    await insertParcels(t.store, sender, points);

    const response = await get(mapUrl(box, 8), admin.cookie);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.mode).toBe('clusters');
    expect(body.total).toBe(count);
    expect(body.markers).toBeUndefined();
    expect(body.clusters.reduce((sum: number, c: { count: number }) => sum + c.count, 0)).toBe(count);
    expect(body.clusters.length).toBeGreaterThan(1);
    expect(body.clusters.length).toBeLessThanOrEqual(64 * 64);
    for (const cluster of body.clusters) {
      expect(cluster.lat).toBeGreaterThanOrEqual(box.south);
      expect(cluster.lat).toBeLessThanOrEqual(box.north);
      expect(cluster.lng).toBeGreaterThanOrEqual(box.west);
      expect(cluster.lng).toBeLessThanOrEqual(box.east);
    }
    // At zoom 8 a cell is a quarter of a 256-pixel tile: 360 / 256 / 4 degrees.
    expect(body.cell).toEqual({ lat: 360 / 256 / 4, lng: 360 / 256 / 4 });

    // The same cells as grouping the points by hand, negative coordinates included.
    const scale = 2 ** 8 / 90;
    const expected = new Map<string, number>();
    for (const p of points) {
      const key = `${Math.floor(p.lat * scale)},${Math.floor(p.lng * scale)}`;
      expected.set(key, (expected.get(key) ?? 0) + 1);
    }
    const got = new Map<string, number>(
      body.clusters.map((c: { lat: number; lng: number; count: number }) => [
        `${Math.floor(c.lat * scale)},${Math.floor(c.lng * scale)}`,
        c.count,
      ]),
    );
    expect(got).toEqual(expected);

    // Closer in, fewer parcels are in view and they come as markers again.
    const corner = { south: box.south, west: box.west, north: box.south + 0.09, east: box.west + 0.09 };
    const zoomedIn = (await get(mapUrl(corner, 14), admin.cookie)).json();
    expect(zoomedIn).toMatchObject({ mode: 'markers', total: 4 });
  });

  it('caps the grid however far out the zoom and the box disagree', async () => {
    const box = ownBox();
    const sender = await accountRow(t.store, user.account.userName);
    const points = Array.from({ length: MAP_MARKER_LIMIT + 1 }, (_, i) => ({
      lat: box.south + (i % 30) / 31,
      lng: box.west + Math.floor(i / 30) / 31,
    }));
    await insertParcels(t.store, sender, points, 'delivered');
    const body = (await get(mapUrl(box, 22), admin.cookie)).json();
    expect(body.mode).toBe('clusters');
    // Zoom 22 asks for 2-metre cells; a one-degree box gets the 64-a-side grid's power of two instead.
    expect(body.cell.lng).toBe(90 / 2 ** 12);
    expect(body.cell.lng).toBeGreaterThanOrEqual(1 / 64);
    expect(body.clusters.length).toBeLessThanOrEqual(64 * 64);
    expect((await get(mapUrl(box, 22, '&status=waiting'), admin.cookie)).json()).toEqual({
      mode: 'markers',
      total: 0,
      markers: [],
    });
  });

  it('groups the parcels themselves when the view is finer than the kept counts', async () => {
    const box = ownBox();
    const sender = await accountRow(t.store, user.account.userName);
    const street = { south: box.south, west: box.west, north: box.south + 0.01, east: box.west + 0.01 };
    const points = Array.from({ length: MAP_MARKER_LIMIT + 20 }, (_, i) => ({
      lat: street.south + 0.0002 + (i % 26) * 0.00037,
      lng: street.west + 0.0002 + Math.floor(i / 26) * 0.00045,
    }));
    await insertParcels(t.store, sender, points);
    const body = (await get(mapUrl(street, 17), admin.cookie)).json();
    expect(body).toMatchObject({ mode: 'clusters', total: points.length, cell: { lng: 90 / 2 ** 17 } });
    expect(body.clusters.reduce((sum: number, c: { count: number }) => sum + c.count, 0)).toBe(points.length);
  });

  it('keeps the cluster counts right through edits, status changes, moves and deletions', async () => {
    const box = ownBox();
    const sender = await accountRow(t.store, user.account.userName);
    const points = Array.from({ length: MAP_MARKER_LIMIT + 10 }, (_, i) => ({
      lat: box.south + 0.05 + (i % 20) * 0.045,
      lng: box.west + 0.05 + Math.floor(i / 20) * 0.035,
    }));
    const [first = '', second = '', third = '', fourth = ''] = await insertParcels(t.store, sender, points);
    const waiting = async () => (await get(mapUrl(box, 8, '&status=waiting'), admin.cookie)).json();
    expect(await waiting()).toMatchObject({ mode: 'clusters', total: points.length });

    const patch = (id: string, payload: Record<string, unknown>) =>
      t.app.inject({ method: 'PATCH', url: `/api/parcels/${id}`, headers: { cookie: admin.cookie }, payload });
    const assigned = await t.app.inject({
      method: 'POST',
      url: `/api/parcels/${first}/assign`,
      headers: { cookie: admin.cookie },
      payload: { runner: runner.account.userName },
    });
    expect(assigned.statusCode).toBe(200);
    expect((await patch(first, { status: 'delivered' })).statusCode).toBe(200);
    expect((await patch(second, { senderCoordinates: { lat: 47.5, lng: 19.05 } })).statusCode).toBe(200);
    expect((await patch(third, { category: 'Csak a kategória' })).statusCode).toBe(200);
    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `/api/parcels/${fourth}`,
      headers: { cookie: admin.cookie },
    });
    expect(deleted.statusCode).toBe(204);

    expect(await waiting()).toMatchObject({ mode: 'clusters', total: points.length - 3 });
    const delivered = (await get(mapUrl(box, 8, '&status=delivered'), admin.cookie)).json();
    expect(delivered).toMatchObject({ mode: 'markers', total: 1, markers: [{ id: first, status: 'delivered' }] });
    expect((await get(mapUrl(box, 8), admin.cookie)).json().total).toBe(points.length - 2);
  });

  it('keeps counts equal to a recount of the parcels, on every kept level', async () => {
    const box = ownBox();
    const sender = await accountRow(t.store, user.account.userName);
    const points = Array.from({ length: 120 }, (_, i) => ({
      lat: box.south + ((i * 37) % 100) / 101,
      lng: box.west + ((i * 53) % 100) / 101,
    }));
    const ids = await insertParcels(t.store, sender, points);
    const { db } = t.store;
    // Straight SQL, as any writer might: the triggers keep up whoever writes.
    await db.updateTable('parcels').set({ status: 'in_transit' }).where('id', 'in', ids.slice(0, 30)).execute();
    await db.updateTable('parcels').set({ status: 'delivered' }).where('id', 'in', ids.slice(10, 20)).execute();
    await db
      .updateTable('parcels')
      .set((eb) => ({ sender_lat: eb('sender_lat', '+', 0.3) }))
      .where('id', 'in', ids.slice(40, 60))
      .execute();
    await db.deleteFrom('parcels').where('id', 'in', ids.slice(60, 75)).execute();
    await db.updateTable('parcels').set({ category: 'Semmi köze a térképhez' }).where('id', 'in', ids).execute();

    const recounted = async () => {
      const parcels = await db
        .selectFrom('parcels')
        .select(['sender_lat', 'sender_lng', 'status'])
        .where('id', 'in', ids)
        .execute();
      return [9, 12, 15].map((level) => {
        const scale = 2 ** level / 90;
        const recount = new Map<string, number>();
        for (const p of parcels) {
          const key = `${Math.floor(p.sender_lat * scale)},${Math.floor(p.sender_lng * scale)},${p.status}`;
          recount.set(key, (recount.get(key) ?? 0) + 1);
        }
        return recount;
      });
    };
    const kept = (cells: 'cells' | 'cells and deltas') =>
      Promise.all(
        [9, 12, 15].map(async (level) => {
          const scale = 2 ** level / 90;
          const [top, bottom] = [Math.floor((box.north + 0.3) * scale), Math.floor(box.south * scale)];
          const [left, right] = [Math.floor(box.west * scale), Math.floor(box.east * scale)];
          const from =
            cells === 'cells'
              ? sql`parcel_map_cells`
              : sql`(select * from parcel_map_cells union all select * from parcel_map_cell_deltas) as kept`;
          const { rows } = await sql<{ cell_y: number; cell_x: number; status: string; parcels: number }>`
            select cell_y, cell_x, status, sum(parcels) as parcels from ${from}
            where level = ${level} and cell_y between ${bottom} and ${top} and cell_x between ${left} and ${right}
            group by cell_y, cell_x, status having sum(parcels) <> 0`.execute(db);
          return new Map(rows.map((k) => [`${k.cell_y},${k.cell_x},${k.status}`, Number(k.parcels)]));
        }),
      );
    if (t.store.dialect === 'postgres') {
      // The map reads the cells with the deltas not yet folded; a fold moves them into the cells.
      expect(await kept('cells and deltas')).toEqual(await recounted());
      await foldMapDeltas(db);
    }
    expect(await kept('cells')).toEqual(await recounted());
  });

  it.runIf(testStore === 'postgres')(
    'folds the map deltas from two instances at once, counting each once',
    async () => {
      const box = ownBox();
      const sender = await accountRow(t.store, user.account.userName);
      const points = Array.from({ length: 40 }, (_, i) => ({ lat: box.south + i / 50, lng: box.west + i / 50 }));
      const ids = await insertParcels(t.store, sender, points);
      const { db } = t.store;
      await db.updateTable('parcels').set({ status: 'in_transit' }).where('id', 'in', ids.slice(0, 25)).execute();
      const other = await t.addInstance();
      await Promise.all([foldMapDeltas(db), foldMapDeltas(other.store.db), foldMapDeltas(db)]);
      const { rows: deltas } = await sql<{ n: string }>`select count(*) as n from parcel_map_cell_deltas`.execute(db);
      expect(Number(deltas[0]?.n)).toBe(0);
      const { rows } = await sql<{ status: string; parcels: string }>`
      select status, sum(parcels) as parcels from parcel_map_cells
      where level = 9 and cell_y between ${Math.floor(box.south * (512 / 90))} and ${Math.floor(box.north * (512 / 90))}
        and cell_x between ${Math.floor(box.west * (512 / 90))} and ${Math.floor(box.east * (512 / 90))}
      group by status having sum(parcels) <> 0 order by status`.execute(db);
      expect(rows.map((row) => [row.status, Number(row.parcels)])).toEqual([
        ['in_transit', 25],
        ['waiting', 15],
      ]);
      const map = (await get(mapUrl(box, 8), admin.cookie)).json();
      expect(map.total).toBe(40);
    },
  );

  it('refuses anonymous callers (401), users and runners (403)', async () => {
    const url = mapUrl(ownBox(), 8);
    for (const [cookie, status, code] of [
      [undefined, 401, 'sign_in_required'],
      [user.cookie, 403, 'forbidden'],
      [runner.cookie, 403, 'forbidden'],
    ] as const) {
      const response = await get(url, cookie);
      expect(response.statusCode).toBe(status);
      expect(response.json().error.code).toBe(code);
    }
  });

  it.each([
    ['south=47&west=16&north=46&east=23&zoom=8', 'north'],
    ['south=45&west=23&north=49&east=16&zoom=8', 'east'],
    ['south=-91&west=16&north=49&east=23&zoom=8', 'south'],
    ['south=45&west=16&north=49&east=181&zoom=8', 'east'],
    ['south=45&west=észak&north=49&east=23&zoom=8', 'west'],
    ['south=45&west=16&north=49&east=23&zoom=23', 'zoom'],
    ['south=45&west=16&north=49&east=23&zoom=7.5', 'zoom'],
    ['south=45&west=16&north=49&east=23', 'zoom'],
    ['south=45&west=16&north=49&zoom=8', 'east'],
    ['south=45&west=16&north=49&east=23&zoom=8&status=leadott', 'status'],
  ])('refuses %s with 400 naming %s', async (query, field) => {
    const response = await get(`/api/map/parcels?${query}`, admin.cookie);
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe('invalid_body');
    expect(Object.keys(response.json().error.fields)).toEqual([field]);
  });
});
