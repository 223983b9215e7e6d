import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { NominatimGeocoder } from './nominatim.ts';
import { PhotonGeocoder } from './photon.ts';

/** What a fake service does with one request: answer JSON, answer raw text, or never answer. */
type Answer = { status?: number; json?: unknown; text?: string } | 'hang';

interface SeenRequest {
  path: string;
  params: URLSearchParams;
  headers: IncomingHttpHeaders;
}

/** A stand-in for a geocoding service on 127.0.0.1: the tests never reach the internet. */
interface FakeService {
  url: string;
  requests: SeenRequest[];
  answer: (request: SeenRequest) => Answer;
  close(): Promise<void>;
}

async function startFakeService(): Promise<FakeService> {
  const fake: FakeService = {
    url: '',
    requests: [],
    answer: () => ({ status: 404 }),
    close: async () => {},
  };
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const seen = { path: url.pathname, params: url.searchParams, headers: request.headers };
    fake.requests.push(seen);
    const answer = fake.answer(seen);
    if (answer === 'hang') return; // the client must give up by its timeout
    response.writeHead(answer.status ?? 200, { 'content-type': 'application/json' });
    response.end(answer.text ?? (answer.json === undefined ? '' : JSON.stringify(answer.json)));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  fake.close = async () => {
    server.closeAllConnections();
    server.close();
    await once(server, 'close');
  };
  return fake;
}

const userAgent = 'Csomagkuldo-test/1.0';
const bartok = { lat: 47.4785, lng: 19.0522 };

let fake: FakeService;
beforeAll(async () => {
  fake = await startFakeService();
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.requests.length = 0;
  fake.answer = () => ({ status: 404 });
});

const lastRequest = () => {
  const request = fake.requests.at(-1);
  if (!request) throw new Error('the geocoder sent no request');
  return request;
};

describe('NominatimGeocoder', () => {
  const nominatim = () => new NominatimGeocoder(fake.url, { userAgent, timeoutMs: 1000 });
  const answerWith = (json: unknown) => {
    fake.answer = () => ({ json });
  };

  it('asks /search for one Hungarian place with its address parts, naming itself', async () => {
    answerWith([]);
    await nominatim().geocode('Szeged, Kárász utca 5.');
    const { path, params, headers } = lastRequest();
    expect(path).toBe('/search');
    expect(Object.fromEntries(params)).toEqual({
      q: 'Szeged, Kárász utca 5.',
      format: 'jsonv2',
      limit: '1',
      countrycodes: 'hu',
      addressdetails: '1',
    });
    expect(headers['user-agent']).toBe(userAgent);
    expect(headers['accept-language']).toBe('hu');
  });

  it('places an address with a house number at its door, labelled the Hungarian way', async () => {
    answerWith([
      {
        lat: '47.4785',
        lon: '19.0522',
        category: 'building',
        type: 'yes',
        place_rank: 30,
        addresstype: 'building',
        name: '',
        display_name: '15, Bartók Béla út, Gellérthegy, XI. kerület, Budapest, 1114, Magyarország',
        address: { house_number: '15', road: 'Bartók Béla út', city: 'Budapest', postcode: '1114' },
      },
    ]);
    expect(await nominatim().geocode('Budapest, Bartók Béla út 15.')).toEqual({
      lat: 47.4785,
      lng: 19.0522,
      label: '1114 Budapest, Bartók Béla út 15.',
      source: 'nominatim',
      precision: 'door',
    });
  });

  it('places a street on the street', async () => {
    answerWith([
      {
        lat: '46.2530',
        lon: '20.1482',
        category: 'highway',
        type: 'pedestrian',
        place_rank: 26,
        addresstype: 'road',
        name: 'Kárász utca',
        display_name: 'Kárász utca, Belváros, Szeged, Magyarország',
        address: { road: 'Kárász utca', town: 'Szeged', postcode: '6720' },
      },
    ]);
    expect(await nominatim().geocode('Szeged, Kárász utca')).toMatchObject({
      label: 'Szeged, Kárász utca',
      precision: 'street',
    });
  });

  it('places a town at its settlement, named as such', async () => {
    answerWith([
      {
        lat: '46.2146',
        lon: '20.4786',
        category: 'boundary',
        type: 'administrative',
        place_rank: 16,
        addresstype: 'town',
        name: 'Makó',
        display_name: 'Makó, Makói járás, Csongrád-Csanád vármegye, Magyarország',
        address: { town: 'Makó', postcode: '6900' },
      },
    ]);
    expect(await nominatim().geocode('Makó')).toMatchObject({ label: 'Makó', precision: 'settlement' });
  });

  it('names a part of a settlement with its settlement', async () => {
    answerWith([
      {
        lat: '47.4742',
        lon: '19.0478',
        category: 'place',
        type: 'suburb',
        place_rank: 20,
        addresstype: 'suburb',
        name: 'Újbuda',
        display_name: 'Újbuda, Budapest, Magyarország',
        address: { suburb: 'Újbuda', city: 'Budapest' },
      },
    ]);
    expect(await nominatim().geocode('Újbuda')).toMatchObject({ label: 'Budapest, Újbuda', precision: 'settlement' });
  });

  it('places a station without a house number on its street, told by its name', async () => {
    answerWith([
      {
        lat: '47.5003',
        lon: '19.0839',
        category: 'railway',
        type: 'station',
        place_rank: 30,
        addresstype: 'railway',
        name: 'Keleti pályaudvar',
        display_name: 'Keleti pályaudvar, Kerepesi út, VIII. kerület, Budapest, 1087, Magyarország',
        address: { railway: 'Keleti pályaudvar', road: 'Kerepesi út', city: 'Budapest', postcode: '1087' },
      },
    ]);
    expect(await nominatim().geocode('Keleti pályaudvar')).toMatchObject({
      label: 'Keleti pályaudvar, Budapest',
      precision: 'street',
    });
  });

  it('places a shop with a house number at its door', async () => {
    answerWith([
      {
        lat: '46.2518',
        lon: '20.1471',
        category: 'shop',
        type: 'bakery',
        place_rank: 30,
        addresstype: 'shop',
        name: 'Pékség',
        display_name: 'Pékség, 5, Kárász utca, Szeged, 6720, Magyarország',
        address: { shop: 'Pékség', house_number: '5', road: 'Kárász utca', city: 'Szeged', postcode: '6720' },
      },
    ]);
    expect(await nominatim().geocode('Pékség Szeged')).toMatchObject({
      label: '6720 Szeged, Kárász utca 5.',
      precision: 'door',
    });
  });

  it('falls back to the display name when the address parts say too little', async () => {
    answerWith([{ lat: '47.1', lon: '19.2', display_name: 'Valahol, Magyarország', address: {} }]);
    expect(await nominatim().geocode('valahol')).toMatchObject({ label: 'Valahol, Magyarország' });
  });

  it('returns null when nothing is found', async () => {
    answerWith([]);
    expect(await nominatim().geocode('Nincsilyen utca 1.')).toBeNull();
  });

  it('names the door nearest a point, with how far it is', async () => {
    answerWith({
      lat: '47.4786',
      lon: '19.0523',
      category: 'place',
      type: 'house',
      place_rank: 30,
      addresstype: 'place',
      display_name: '15, Bartók Béla út, Budapest, 1114, Magyarország',
      address: { house_number: '15', road: 'Bartók Béla út', city: 'Budapest', postcode: '1114' },
    });
    const found = await nominatim().reverse(bartok);
    const { path, params } = lastRequest();
    expect(path).toBe('/reverse');
    expect(Object.fromEntries(params)).toEqual({
      format: 'jsonv2',
      lat: String(bartok.lat),
      lon: String(bartok.lng),
      zoom: '18',
      addressdetails: '1',
    });
    expect(found).toMatchObject({ label: '1114 Budapest, Bartók Béla út 15.', precision: 'door' });
    expect(found?.metres).toBeGreaterThan(5);
    expect(found?.metres).toBeLessThan(30);
  });

  it('names the street nearest a point when no door is near', async () => {
    answerWith({
      lat: '46.2530',
      lon: '20.1482',
      category: 'highway',
      type: 'residential',
      place_rank: 26,
      addresstype: 'road',
      name: 'Kárász utca',
      display_name: 'Kárász utca, Szeged, Magyarország',
      address: { road: 'Kárász utca', city: 'Szeged' },
    });
    expect(await nominatim().reverse({ lat: 46.253, lng: 20.1482 })).toEqual({
      label: 'Szeged, Kárász utca',
      precision: 'street',
      metres: 0,
    });
  });

  it('returns null when Nominatim knows nothing near the point', async () => {
    answerWith({ error: 'Unable to geocode' });
    expect(await nominatim().reverse(bartok)).toBeNull();
  });

  it('throws when the service answers an HTTP error', async () => {
    fake.answer = () => ({ status: 503 });
    await expect(nominatim().geocode('Makó')).rejects.toThrow(/503/);
    await expect(nominatim().reverse(bartok)).rejects.toThrow(/503/);
  });

  it('throws when the service does not answer in time', async () => {
    fake.answer = () => 'hang';
    const slow = new NominatimGeocoder(fake.url, { userAgent, timeoutMs: 50 });
    await expect(slow.geocode('Makó')).rejects.toThrow(/timeout|aborted/i);
  });

  it('throws on an answer that is not JSON, or not the JSON it expects', async () => {
    fake.answer = () => ({ text: '<html>Bad gateway' });
    await expect(nominatim().geocode('Makó')).rejects.toThrow();
    answerWith({ unexpected: true });
    await expect(nominatim().geocode('Makó')).rejects.toThrow();
  });
});

describe('PhotonGeocoder', () => {
  const photon = () => new PhotonGeocoder(fake.url, { userAgent, timeoutMs: 1000 });
  const feature = (lng: number, lat: number, properties: Record<string, string>) => ({
    type: 'Feature',
    geometry: { type: 'Point', coordinates: [lng, lat] },
    properties: { countrycode: 'HU', country: 'Magyarország', ...properties },
  });
  const answerWith = (...features: unknown[]) => {
    fake.answer = () => ({ json: { type: 'FeatureCollection', features } });
  };

  it('asks /api for one place, leaning towards Hungary and inside its box', async () => {
    answerWith();
    await photon().geocode('Szeged, Kárász utca 5.');
    const { path, params, headers } = lastRequest();
    expect(path).toBe('/api');
    expect(Object.fromEntries(params)).toEqual({
      q: 'Szeged, Kárász utca 5.',
      limit: '1',
      lang: 'default',
      lat: '47.16',
      lon: '19.5',
      bbox: '16.0,45.7,23.0,48.6',
    });
    expect(headers['user-agent']).toBe(userAgent);
  });

  it('places a house at its door, labelled the Hungarian way', async () => {
    answerWith(
      feature(19.0522, 47.4785, {
        osm_key: 'building',
        osm_value: 'yes',
        type: 'house',
        housenumber: '15',
        street: 'Bartók Béla út',
        city: 'Budapest',
        district: 'Gellérthegy',
        postcode: '1114',
      }),
    );
    expect(await photon().geocode('Budapest, Bartók Béla út 15.')).toEqual({
      lat: 47.4785,
      lng: 19.0522,
      label: '1114 Budapest, Bartók Béla út 15.',
      source: 'photon',
      precision: 'door',
    });
  });

  it('places a street on the street', async () => {
    answerWith(
      feature(20.1482, 46.253, {
        osm_key: 'highway',
        osm_value: 'pedestrian',
        type: 'street',
        name: 'Kárász utca',
        city: 'Szeged',
        postcode: '6720',
      }),
    );
    expect(await photon().geocode('Szeged, Kárász utca')).toMatchObject({
      label: 'Szeged, Kárász utca',
      precision: 'street',
    });
  });

  it('places a city at its settlement', async () => {
    answerWith(feature(20.4786, 46.2146, { osm_key: 'place', osm_value: 'town', type: 'city', name: 'Makó' }));
    expect(await photon().geocode('Makó')).toMatchObject({ label: 'Makó', precision: 'settlement' });
  });

  it('names a district with its city, at settlement precision', async () => {
    answerWith(
      feature(19.0478, 47.4742, {
        osm_key: 'place',
        osm_value: 'suburb',
        type: 'district',
        name: 'Újbuda',
        city: 'Budapest',
      }),
    );
    expect(await photon().geocode('Újbuda')).toMatchObject({ label: 'Budapest, Újbuda', precision: 'settlement' });
  });

  it('places a station on its street, told by its name', async () => {
    answerWith(
      feature(19.0839, 47.5003, {
        osm_key: 'railway',
        osm_value: 'station',
        type: 'other',
        name: 'Keleti pályaudvar',
        street: 'Kerepesi út',
        city: 'Budapest',
      }),
    );
    expect(await photon().geocode('Keleti pályaudvar')).toMatchObject({
      label: 'Keleti pályaudvar, Budapest',
      precision: 'street',
    });
  });

  it('does not take a named place of house rank without a number for a door', async () => {
    answerWith(
      feature(20.1475, 46.2525, {
        osm_key: 'amenity',
        osm_value: 'post_office',
        type: 'house',
        name: 'Szeged 1 posta',
        street: 'Széchenyi tér',
        city: 'Szeged',
      }),
    );
    expect(await photon().geocode('Szeged 1 posta')).toMatchObject({
      label: 'Szeged 1 posta, Szeged',
      precision: 'street',
    });
  });

  it('places a named place with a house number at its door', async () => {
    answerWith(
      feature(20.1471, 46.2518, {
        osm_key: 'shop',
        osm_value: 'bakery',
        type: 'house',
        name: 'Pékség',
        housenumber: '5',
        street: 'Kárász utca',
        city: 'Szeged',
        postcode: '6720',
      }),
    );
    expect(await photon().geocode('Pékség Szeged')).toMatchObject({
      label: '6720 Szeged, Kárász utca 5.',
      precision: 'door',
    });
  });

  it('returns null when nothing is found', async () => {
    answerWith();
    expect(await photon().geocode('Nincsilyen utca 1.')).toBeNull();
  });

  it('names the door nearest a point, with how far it is', async () => {
    answerWith(
      feature(19.0523, 47.4786, {
        osm_key: 'place',
        osm_value: 'house',
        type: 'house',
        housenumber: '15',
        street: 'Bartók Béla út',
        city: 'Budapest',
        postcode: '1114',
      }),
    );
    const found = await photon().reverse(bartok);
    const { path, params } = lastRequest();
    expect(path).toBe('/reverse');
    expect(Object.fromEntries(params)).toEqual({ lon: String(bartok.lng), lat: String(bartok.lat), limit: '1' });
    expect(found).toMatchObject({ label: '1114 Budapest, Bartók Béla út 15.', precision: 'door' });
    expect(found?.metres).toBeGreaterThan(5);
    expect(found?.metres).toBeLessThan(30);
  });

  it('names the settlement nearest a point in the fields', async () => {
    answerWith(feature(20.4786, 46.2146, { osm_key: 'place', osm_value: 'town', type: 'city', name: 'Makó' }));
    expect(await photon().reverse({ lat: 46.2146, lng: 20.4786 })).toEqual({
      label: 'Makó',
      precision: 'settlement',
      metres: 0,
    });
  });

  it('returns null when nothing is near the point', async () => {
    answerWith();
    expect(await photon().reverse(bartok)).toBeNull();
  });

  it('throws when the service answers an HTTP error', async () => {
    fake.answer = () => ({ status: 503 });
    await expect(photon().geocode('Makó')).rejects.toThrow(/503/);
    await expect(photon().reverse(bartok)).rejects.toThrow(/503/);
  });

  it('throws when the service does not answer in time', async () => {
    fake.answer = () => 'hang';
    const slow = new PhotonGeocoder(fake.url, { userAgent, timeoutMs: 50 });
    await expect(slow.reverse(bartok)).rejects.toThrow(/timeout|aborted/i);
  });

  it('throws on an answer that is not JSON, or not GeoJSON', async () => {
    fake.answer = () => ({ text: '{"features": [' });
    await expect(photon().geocode('Makó')).rejects.toThrow();
    fake.answer = () => ({ json: { features: [{ geometry: { coordinates: ['x'] }, properties: {} }] } });
    await expect(photon().geocode('Makó')).rejects.toThrow();
  });
});
