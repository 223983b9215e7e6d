import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { messages } from '@csomag/domain/messages';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signInSuperadmin, signUp, type TestApp } from '../../test/harness.ts';
import { CachedGeocoder } from './cached.ts';
import { FallbackGeocoder } from './geocoder.ts';
import { NominatimGeocoder } from './nominatim.ts';
import { OfflineGeocoder } from './offline.ts';

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

describe('Nominatim-compatible geocoder', () => {
  const nominatim = () => new NominatimGeocoder(fake.url, { userAgent: 'Csomagkuldo-teszt/1.0', timeoutMs: 300 });

  it('takes a town it found for a settlement, not a door', async () => {
    expect(await nominatim().geocode('Makó')).toMatchObject({
      label: 'Makó, Csongrád-Csanád',
      precision: 'settlement',
    });
  });

  it('asks /search for one Hungarian result as JSON, naming itself', async () => {
    const found = await nominatim().geocode('6720 Szeged, Kárász utca 5');
    expect(found).toEqual({
      lat: 46.2518,
      lng: 20.1471,
      label: 'Kárász utca 5, Szeged, Magyarország',
      source: 'nominatim',
      precision: 'street',
    });
    const request = fake.requests.at(-1);
    const url = new URL(request?.url ?? '', 'http://x');
    expect(url.pathname).toBe('/search');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      q: '6720 Szeged, Kárász utca 5',
      format: 'json',
      limit: '1',
      countrycodes: 'hu',
    });
    expect(request?.headers['user-agent']).toBe('Csomagkuldo-teszt/1.0');
  });

  it('answers null when nothing is found', async () => {
    expect(await nominatim().geocode('Sehol utca 1')).toBeNull();
  });

  it('gives up after its timeout and on a server error', async () => {
    await expect(nominatim().geocode('lassu utca 1')).rejects.toThrow();
    await expect(nominatim().geocode('hiba utca 1')).rejects.toThrow('503');
  });

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
    expect(row).toMatchObject({ lat: 46.2518, lng: 20.1471, source: 'nominatim' });
  });

  it('falls back to the offline gazetteer when the service is down or does not know the street', async () => {
    const warnings: unknown[] = [];
    const geocoder = new FallbackGeocoder(nominatim(), new OfflineGeocoder(), {
      warn: (o: unknown) => warnings.push(o),
    });
    expect(await geocoder.geocode('Debrecen, hiba utca 1')).toMatchObject({ label: 'Debrecen', source: 'offline' });
    expect(warnings).toHaveLength(1);
    expect(await geocoder.geocode('Debrecen, Nemlétező utca 1')).toMatchObject({
      label: 'Debrecen',
      source: 'offline',
      precision: 'settlement',
    });
  });
});

describe('GET /api/geocode', () => {
  const geocode = (q: string, cookie?: string) =>
    t.app.inject({ method: 'GET', url: '/api/geocode', query: { q }, ...(cookie ? { headers: { cookie } } : {}) });

  it('places an address for a signed-in person through the configured provider', async () => {
    const { cookie } = await signUp(t.app);
    const response = await geocode('6720 Szeged, Kárász utca 5', cookie);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      lat: 46.2518,
      lng: 20.1471,
      label: 'Kárász utca 5, Szeged, Magyarország',
      precision: 'street',
    });
  });

  it('serves runners and the superadmin too', async () => {
    const runner = await signUp(t.app, { role: 'runner' });
    const admin = await signInSuperadmin(t.app);
    expect((await geocode('Debrecen, Piac u. 20', runner.cookie)).statusCode).toBe(200);
    expect((await geocode('Debrecen, Piac u. 20', admin.cookie)).statusCode).toBe(200);
  });

  it('answers 422 with the original geocoder message when the address cannot be placed', async () => {
    const { cookie } = await signUp(t.app);
    const response = await geocode('Nincsilyen falu, Sehol utca 1', cookie);
    expect(response.statusCode).toBe(422);
    expect(response.json().error).toEqual({
      code: 'geocode_failed',
      message: messages.geocodeFailed,
      fields: { q: messages.geocodeFailed },
    });
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
