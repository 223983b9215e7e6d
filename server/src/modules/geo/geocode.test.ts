import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { messages } from '@csomag/domain/messages';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signInSuperadmin, signUp, type TestApp } from '../../test/harness.ts';
import { settlementByKey } from '../places/settlements.ts';
import { CachedGeocoder } from './cached.ts';
import { NominatimGeocoder } from './nominatim.ts';

/** A stand-in for a Nominatim server on localhost: the tests never reach the internet. */
interface FakeNominatim {
  url: string;
  requests: IncomingMessage[];
  server: Server;
}

async function startFakeNominatim(): Promise<FakeNominatim> {
  const requests: IncomingMessage[] = [];
  const server = createServer((request, response) => {
    requests.push(request);
    const q = new URL(request.url ?? '/', 'http://x').searchParams.get('q') ?? '';
    if (q.includes('lassu')) return; // never answers: the client must time out
    if (q.includes('hiba')) {
      response.writeHead(503).end();
      return;
    }
    // Nominatim says what kind of place it found: a building is a door, a town is not.
    const results = q.includes('Kárász')
      ? [
          {
            lat: '46.2518',
            lon: '20.1471',
            display_name: 'Kárász utca 5, Szeged, Magyarország',
            addresstype: 'building',
          },
        ]
      : q.includes('Makó')
        ? [{ lat: '46.2146', lon: '20.4786', display_name: 'Makó, Csongrád-Csanád', addresstype: 'town' }]
        : [];
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(results));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/`, requests, server };
}

let fake: FakeNominatim;
let t: TestApp;
beforeAll(async () => {
  fake = await startFakeNominatim();
  t = await createTestApp({ GEOCODER: 'nominatim', GEOCODER_URL: fake.url });
});
afterAll(async () => {
  await t.close();
  fake.server.closeAllConnections();
  fake.server.close();
});

describe("an operator's Nominatim behind the national check", () => {
  const nominatim = () => new NominatimGeocoder(fake.url, { userAgent: 'Csomagkuldo-teszt/1.0', timeoutMs: 300 });

  it('caches what it found in geocode_cache, keyed by the normalised address', async () => {
    const cached = new CachedGeocoder(t.store.db, nominatim());
    const before = fake.requests.length;
    const first = await cached.geocode('6720 Szeged, Kárász utca 5. (cache)');
    const again = await cached.geocode('6720 szeged karasz utca 5 cache');
    expect(again).toEqual(first);
    expect(fake.requests.length).toBe(before + 1);
    const row = await t.store.db
      .selectFrom('geocode_cache')
      .selectAll()
      .where('query_key', '=', '6720 szeged karasz utca 5 cache')
      .executeTakeFirst();
    expect(row).toMatchObject({ lat: 46.2518, lng: 20.1471, source: 'nominatim', place_precision: 'door' });
  });

  it('falls back to the national list when the service is down or does not know the street', async () => {
    const { cookie } = await signUp(t.app);
    const debrecen = settlementByKey('debrecen')?.position;
    for (const q of ['Debrecen, hiba utca 1', 'Debrecen, Nemlétező utca 1']) {
      const response = await geocode(q, cookie);
      expect(response.statusCode, q).toBe(200);
      expect(response.json(), q).toEqual({ ...debrecen, label: 'Debrecen', precision: 'settlement' });
    }
  });

  it('refuses an address the national check refuses without asking the service', async () => {
    const { cookie } = await signUp(t.app);
    const before = fake.requests.length;
    const response = await geocode('6720 Budapest, Kárász utca 5', cookie);
    expect(response.statusCode).toBe(422);
    expect(response.json().error.code).toBe('postcode_mismatch');
    expect(fake.requests.length).toBe(before);
  });
});

const geocode = (q: string, cookie?: string) =>
  t.app.inject({ method: 'GET', url: '/api/geocode', query: { q }, ...(cookie ? { headers: { cookie } } : {}) });

describe('GET /api/geocode', () => {
  it('places an address for a signed-in person through the configured provider', async () => {
    const { cookie } = await signUp(t.app);
    const response = await geocode('6720 Szeged, Kárász utca 5', cookie);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ lat: 46.2518, lng: 20.1471, precision: 'door' });
  });

  it('serves runners and the superadmin too', async () => {
    const runner = await signUp(t.app, { role: 'runner' });
    const admin = await signInSuperadmin(t.app);
    expect((await geocode('Debrecen, Piac u. 20', runner.cookie)).statusCode).toBe(200);
    expect((await geocode('Debrecen, Piac u. 20', admin.cookie)).statusCode).toBe(200);
  });

  it('answers 422 in Hungarian when the address cannot be placed', async () => {
    const { cookie } = await signUp(t.app);
    const response = await geocode('Nincsilyen falu, Sehol utca 1', cookie);
    expect(response.statusCode).toBe(422);
    const message = messages.settlementUnknown('Nincsilyen falu');
    expect(response.json().error).toEqual({ code: 'settlement_unknown', message, fields: { q: message } });
  });

  it('refuses anonymous callers with 401', async () => {
    const response = await geocode('6720 Szeged, Kárász utca 5');
    expect(response.statusCode).toBe(401);
    expect(response.json().error).toEqual({ code: 'sign_in_required', message: messages.signInRequired });
  });

  it('refuses an empty query with 400 naming q', async () => {
    const { cookie } = await signUp(t.app);
    const response = await geocode('   ', cookie);
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe('invalid_body');
    expect(response.json().error.fields).toEqual({ q: messages.required });
  });
});
