import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { messages } from '@csomag/domain/messages';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type SignedIn, signUp, type TestApp } from '../../test/harness.ts';
import { placeNameNear } from './geocoder.ts';
import { writeOsmXml } from './osm/write-osm.ts';
import { settlementByKey } from './settlements.ts';
import { importPlaces } from './store.ts';

/**
 * Where things are (issue 25), on both stores: a small OpenStreetMap extract written here (a few
 * Budapest doors, a street without numbers, a station, a village the national list has no point
 * for), imported as an operator would, and every answer through the API.
 */
const BARTOK_15 = { lat: 47.47886, lng: 19.05043 };
const DOHANY_20 = { lat: 47.49593, lng: 19.06105 };
const KELETI = { lat: 47.50046, lng: 19.08386 };
const HOLLOKO = { lat: 47.99719, lng: 19.59355 };
const HOLLOKO_82 = { lat: 47.99641, lng: 19.5883 };

const address = (city: string, postcode: string, street: string, housenumber: string) => ({
  'addr:city': city,
  'addr:postcode': postcode,
  'addr:street': street,
  'addr:housenumber': housenumber,
});

const extract = {
  nodes: [
    { id: 1, ...BARTOK_15, tags: address('Budapest', '1114', 'Bartók Béla út', '15') },
    { id: 2, lat: 47.47912, lng: 19.05101, tags: address('Budapest', '1114', 'Bartók Béla út', '17') },
    // Dohány utca 20 is a building: its corners, then the way with the address.
    { id: 10, lat: DOHANY_20.lat - 0.0001, lng: DOHANY_20.lng - 0.0001, tags: {} },
    { id: 11, lat: DOHANY_20.lat - 0.0001, lng: DOHANY_20.lng + 0.0001, tags: {} },
    { id: 12, lat: DOHANY_20.lat + 0.0001, lng: DOHANY_20.lng + 0.0001, tags: {} },
    { id: 13, lat: DOHANY_20.lat + 0.0001, lng: DOHANY_20.lng - 0.0001, tags: {} },
    // Fehérvári út: a street with no house numbers in the extract.
    { id: 20, lat: 47.4701, lng: 19.0459, tags: {} },
    { id: 21, lat: 47.4651, lng: 19.0431, tags: {} },
    { id: 22, lat: 47.4601, lng: 19.0401, tags: {} },
    { id: 30, ...KELETI, tags: { railway: 'station', name: 'Budapest-Keleti', public_transport: 'station' } },
    { id: 40, ...HOLLOKO, tags: { place: 'village', name: 'Hollókő' } },
    { id: 50, lat: 47.4979, lng: 19.0402, tags: { place: 'city', name: 'Budapest' } },
    { id: 41, ...HOLLOKO_82, tags: address('Hollókő', '3176', 'Kossuth út', '82') },
  ],
  ways: [
    {
      id: 100,
      refs: [10, 11, 12, 13, 10],
      tags: { building: 'yes', ...address('Budapest', '1074', 'Dohány utca', '20') },
    },
    { id: 101, refs: [20, 21, 22], tags: { highway: 'primary', name: 'Fehérvári út' } },
  ],
};

let t: TestApp;
let user: SignedIn;
let folder: string;
beforeAll(async () => {
  t = await createTestApp();
  user = await signUp(t.app);
  folder = mkdtempSync(join(tmpdir(), 'csomag-places-'));
  const file = join(folder, 'budapest.osm');
  writeOsmXml(file, extract);
  await importPlaces(t.store.db, file);
});
afterAll(() => t.close());

const geocode = (q: string, cookie = user.cookie) =>
  t.app.inject({ method: 'GET', url: '/api/geocode', query: { q }, headers: { cookie } });
const reverse = (point: { lat: number; lng: number }, cookie = user.cookie) =>
  t.app.inject({
    method: 'GET',
    url: '/api/geocode/reverse',
    query: { lat: String(point.lat), lng: String(point.lng) },
    headers: { cookie },
  });

/** A parcel sent by the test's user (a book of 500 g unless the body says otherwise). */
const send = (body: Record<string, unknown>) =>
  t.app.inject({
    method: 'POST',
    url: '/api/parcels',
    headers: { cookie: user.cookie },
    payload: { category: 'Könyv', weightGrams: 500, ...body },
  });

describe('forward geocoding from the import', () => {
  it.each([
    '1114 Budapest, Bartók Béla út 15.',
    'Bartók Béla út 15., Budapest, 1114',
    '1114 budapest bartok bela ut 15',
    'Budapest XI. kerület, Bartók Béla út 15',
    'Bp. XI., Bartók Béla út 15',
  ])('places %s at its door', async (q) => {
    const response = await geocode(q);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ ...BARTOK_15, label: '1114 Budapest, Bartók Béla út 15.', precision: 'door' });
  });

  it('places a building by its outline, whatever the street type is written as', async () => {
    const response = await geocode('Budapest VII., Dohány u. 20');
    expect(response.json()).toMatchObject({ precision: 'door', label: '1074 Budapest, Dohány utca 20.' });
    expect(response.json().lat).toBeCloseTo(DOHANY_20.lat, 5);
    expect(response.json().lng).toBeCloseTo(DOHANY_20.lng, 5);
  });

  it('places a street the extract has no numbers for on the street, and says so', async () => {
    for (const q of ['Budapest, Fehérvári út', '1117 Budapest, Fehérvári út 300']) {
      const response = await geocode(q);
      expect(response.statusCode).toBe(200);
      // The middle of the street: its middle node.
      expect(response.json()).toEqual({
        lat: 47.4651,
        lng: 19.0431,
        label: 'Budapest, Fehérvári út',
        precision: 'street',
      });
    }
  });

  it('finds a station however its name is written', async () => {
    for (const q of ['Budapest, Keleti pályaudvar', 'Budapest Keleti pu.', 'Budapest, Keleti']) {
      const response = await geocode(q);
      expect(response.statusCode, q).toBe(200);
      expect(response.json(), q).toMatchObject({ ...KELETI, precision: 'street' });
    }
  });

  it('places a village the national list has no point for from the import, and its doors', async () => {
    expect(settlementByKey('holloko')?.position).toBeNull();
    expect((await geocode('3176 Hollókő')).json()).toEqual({ ...HOLLOKO, label: 'Hollókő', precision: 'settlement' });
    expect((await geocode('Hollókő, Kossuth út 82.')).json()).toEqual({
      ...HOLLOKO_82,
      label: '3176 Hollókő, Kossuth út 82.',
      precision: 'door',
    });
  });

  it('places an unknown street at its Budapest district centre, said as such', async () => {
    const response = await geocode('1114 Budapest, Nemlétező utca 3');
    expect(response.json()).toMatchObject({ label: 'Budapest XI. kerület', precision: 'settlement' });
  });

  it('places a settlement not in the import from the national list', async () => {
    const szeged = settlementByKey('szeged')?.position;
    expect((await geocode('6720 Szeged, Kárász utca 5')).json()).toEqual({
      ...szeged,
      label: 'Szeged',
      precision: 'settlement',
    });
  });
});

describe('the national check, before any geocoder', () => {
  const refused = async (q: string, code: string, message: string) => {
    const response = await geocode(q);
    expect(response.statusCode, q).toBe(422);
    expect(response.json().error, q).toEqual({ code, message, fields: { q: message } });
  };

  it('refuses a postal code that does not exist', () =>
    refused('1999 Budapest, Váci utca 1', 'postcode_unknown', messages.postcodeUnknown('1999')));

  it('refuses a postal code of another settlement, naming whose it is', () =>
    refused(
      '6720 Budapest, Váci utca 1',
      'postcode_mismatch',
      messages.postcodeMismatch('6720', 'Budapest', 'Szeged'),
    ));

  it('suggests the right spelling of a settlement', () =>
    refused('Debrecn, Piac utca 20', 'settlement_unknown', messages.settlementSuggestion('Debrecn', 'Debrecen')));

  it('refuses a settlement nobody has heard of', () =>
    refused('Xqzwvt, Fő utca 1', 'settlement_unknown', messages.settlementUnknown('Xqzwvt')));

  it('asks for the pin of a real village whose position no data gives', async () => {
    const unplaced = settlementByKey('zsennye');
    expect(unplaced?.position).toBeNull();
    await refused('9766 Zsennye, Fő utca 1', 'settlement_unplaced', messages.settlementUnplaced('Zsennye'));
  });

  it('refuses what is no address at all', () => refused('!!!', 'address_unparsable', messages.addressUnparsable));
});

describe('reverse geocoding', () => {
  it('names the nearest address, at the door when the point is there', async () => {
    const response = await reverse({ lat: BARTOK_15.lat + 0.00005, lng: BARTOK_15.lng });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ label: '1114 Budapest, Bartók Béla út 15.', precision: 'door', metres: 6 });
  });

  it('names a station', async () => {
    const response = await reverse({ lat: KELETI.lat + 0.0003, lng: KELETI.lng });
    expect(response.json()).toMatchObject({ label: 'Budapest-Keleti', precision: 'street' });
  });

  it('names the settlement where the import knows nothing near', async () => {
    const szeged = settlementByKey('szeged')?.position ?? { lat: 0, lng: 0 };
    const response = await reverse({ lat: szeged.lat + 0.001, lng: szeged.lng });
    expect(response.json()).toMatchObject({ label: 'Szeged', precision: 'settlement' });
  });

  it('is for signed-in people, with coordinates', async () => {
    const anonymous = await t.app.inject({ method: 'GET', url: '/api/geocode/reverse?lat=47.5&lng=19.05' });
    expect(anonymous.statusCode).toBe(401);
    const bad = await t.app.inject({
      method: 'GET',
      url: '/api/geocode/reverse?lat=abc&lng=19.05',
      headers: { cookie: user.cookie },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.fields).toEqual({ lat: messages.invalidCoordinates });
  });
});

describe("a place's name for the public timeline", () => {
  it('names the street, never the house number, a station by its name, else the settlement', async () => {
    expect(await placeNameNear(t.store.db, { lat: BARTOK_15.lat + 0.00005, lng: BARTOK_15.lng })).toBe(
      'Budapest, Bartók Béla út',
    );
    expect(await placeNameNear(t.store.db, { lat: KELETI.lat + 0.0003, lng: KELETI.lng })).toBe('Budapest-Keleti');
    const szeged = settlementByKey('szeged')?.position ?? { lat: 0, lng: 0 };
    expect(await placeNameNear(t.store.db, szeged)).toBe('Szeged');
  });
});

describe('importing', () => {
  it('refuses a malformed file and keeps the places in use', async () => {
    const broken = join(folder, 'broken.osm');
    writeFileSync(broken, '<?xml version="1.0"?><osm version="0.6"><node id="1" lat="47.5" lon="19.0"><tag k="a"');
    await expect(importPlaces(t.store.db, broken)).rejects.toThrow();
    expect((await geocode('1114 Budapest, Bartók Béla út 15.')).json().precision).toBe('door');
    const imports = await t.store.db.selectFrom('place_imports').select('status').execute();
    expect(imports.map((row) => row.status)).toEqual(['active']);
  });

  it('replaces the previous import whole', async () => {
    const file = join(folder, 'smaller.osm');
    writeOsmXml(file, { nodes: extract.nodes.filter((node) => node.id !== 1), ways: [] });
    const { counts } = await importPlaces(t.store.db, file);
    expect(counts).toMatchObject({ address: 2, street: 0, station: 1, settlement: 2 });
    // Bartók Béla út 15 is gone: its street is still known from number 17.
    expect((await geocode('1114 Budapest, Bartók Béla út 15.')).json().precision).toBe('street');
    const imports = await t.store.db.selectFrom('place_imports').select('status').execute();
    expect(imports.map((row) => row.status)).toEqual(['active']);
    await importPlaces(t.store.db, join(folder, 'budapest.osm'));
  });
});

describe('parcels placed honestly', () => {
  const count = async () =>
    Number(
      (
        await t.store.db
          .selectFrom('parcels')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirst()
      )?.n,
    );

  it('records each end at the precision it was placed', async () => {
    const response = await send({
      senderAddress: 'Budapest, Fehérvári út',
      receiverAddress: '1074 Budapest, Dohány utca 20.',
    });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({ senderPrecision: 'street', receiverPrecision: 'door' });
    const tracking = await t.app.inject({ method: 'GET', url: `/api/tracking/${response.json().id}` });
    expect(tracking.json()).toMatchObject({ pickupPrecision: 'street', destinationPrecision: 'door' });
  });

  it('refuses a pin outside Hungary and saves nothing', async () => {
    const before = await count();
    const response = await send({
      senderAddress: '1114 Budapest, Bartók Béla út 15.',
      receiverAddress: 'Bécs, Stephansplatz 1',
      receiverCoordinates: { lat: 48.2085, lng: 16.3731 },
    });
    expect(response.statusCode).toBe(422);
    expect(response.json().error).toEqual({
      code: 'outside_hungary',
      message: messages.outsideHungary,
      fields: { receiverAddress: messages.outsideHungary },
    });
    expect(await count()).toBe(before);
  });

  it('refuses a postal code of another settlement even under a pin, naming the field', async () => {
    const before = await count();
    const response = await send({
      senderAddress: '6720 Budapest, Váci utca 1',
      senderCoordinates: { lat: 47.4935, lng: 19.0532 },
      receiverAddress: '9766 Zsennye, Fő utca 1',
    });
    expect(response.statusCode).toBe(422);
    const mismatch = messages.postcodeMismatch('6720', 'Budapest', 'Szeged');
    expect(response.json().error.code).toBe('postcode_mismatch');
    // Both ends fail: each field says why.
    expect(response.json().error.fields).toEqual({
      senderAddress: mismatch,
      receiverAddress: messages.settlementUnplaced('Zsennye'),
    });
    expect(await count()).toBe(before);
  });

  it('takes a village pinned by hand', async () => {
    const response = await send({
      senderAddress: '1114 Budapest, Bartók Béla út 15.',
      receiverAddress: '9766 Zsennye, Fő utca 1',
      receiverCoordinates: { lat: 46.9117, lng: 16.8194 },
    });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({ receiverPrecision: 'manual', senderPrecision: 'door' });
  });
});

describe('receivers matched as people write addresses', () => {
  it('finds a parcel to "1074 Budapest, Dohány utca 20." for "Budapest VII., Dohány u. 20"', async () => {
    const receiver = await signUp(t.app, { address: 'Budapest VII., Dohány u. 20' });
    const stranger = await signUp(t.app, { address: 'Budapest VII., Dohány u. 22' });
    const sent = await send({
      category: 'Levél',
      weightGrams: 20,
      senderAddress: '1114 Budapest, Bartók Béla út 15.',
      receiverAddress: '1074 Budapest, Dohány utca 20.',
    });
    expect(sent.statusCode).toBe(201);
    const incoming = (cookie: string) =>
      t.app.inject({ method: 'GET', url: '/api/me/incoming-parcels', headers: { cookie } });
    const ids = (await incoming(receiver.cookie)).json().items.map((parcel: { id: string }) => parcel.id);
    expect(ids).toContain(sent.json().id);
    expect((await incoming(stranger.cookie)).json().items).toEqual([]);
  });

  it('matches by the door when both are placed there, even without the district', async () => {
    const receiver = await signUp(t.app, { address: 'Budapest, Dohány u. 20.' });
    const sent = await send({
      category: 'Levél',
      weightGrams: 20,
      senderAddress: '1114 Budapest, Bartók Béla út 15.',
      receiverAddress: '1074 Budapest, Dohány utca 20.',
      // The pin the form left where the address was placed.
      receiverCoordinates: DOHANY_20,
      receiverPrecision: 'door',
    });
    expect(sent.statusCode).toBe(201);
    const incoming = await t.app.inject({
      method: 'GET',
      url: '/api/me/incoming-parcels',
      headers: { cookie: receiver.cookie },
    });
    expect(incoming.json().items.map((parcel: { id: string }) => parcel.id)).toContain(sent.json().id);
  });
});

describe('15 m that means 15 m', () => {
  it('delivers by position only with a fix of ±30 m or better, and records the accuracy', async () => {
    const runner = await signUp(t.app, { role: 'runner' });
    const sent = await send({
      category: 'Csomag',
      weightGrams: 900,
      senderAddress: 'Budapest, Fehérvári út',
      receiverAddress: '1114 Budapest, Bartók Béla út 15.',
    });
    const id = sent.json().id;
    const runnerCall = (url: string, payload?: object) =>
      t.app.inject({ method: 'POST', url, headers: { cookie: runner.cookie }, ...(payload ? { payload } : {}) });
    expect((await runnerCall(`/api/parcels/${id}/pickup`)).statusCode).toBe(200);
    const north = (metres: number) => ({ lat: BARTOK_15.lat + metres / 111_195, lng: BARTOK_15.lng });

    // 200 m away ±190 m: distance − accuracy is under 15, but the fix says nothing about the door.
    const vague = await runnerCall(`/api/parcels/${id}/deliver`, { ...north(200), accuracy: 190 });
    expect(vague.statusCode).toBe(422);
    expect(vague.json().error).toEqual({
      code: 'position_too_imprecise',
      message: messages.positionTooImprecise(190, 30),
    });
    const justOver = await runnerCall(`/api/parcels/${id}/deliver`, { ...north(0), accuracy: 31 });
    expect(justOver.json().error.code).toBe('position_too_imprecise');
    expect((await t.app.inject({ method: 'GET', url: `/api/tracking/${id}` })).json().status).toBe('in_transit');

    const good = await runnerCall(`/api/parcels/${id}/deliver`, { ...north(10), accuracy: 30 });
    expect(good.statusCode).toBe(200);
    const event = await t.store.db
      .selectFrom('parcel_events')
      .select('data')
      .where('parcel_id', '=', id)
      .where('kind', '=', 'delivered')
      .executeTakeFirstOrThrow();
    expect(JSON.parse(event.data ?? '{}')).toMatchObject({ distanceMetres: 10, accuracyMetres: 30 });
  });
});
