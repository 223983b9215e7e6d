import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { LANGUAGE_COOKIE } from '@csomag/domain/language';
import { messages } from '@csomag/domain/messages';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/harness.ts';
import { listenLocally, openEventStream } from '../test/sse.ts';

/** A web build as `npm run build -w web` leaves it, beside a file that must never be served. */
function writeFixtureBuild() {
  const base = mkdtempSync(join(tmpdir(), 'csomag-web-'));
  const dist = join(base, 'dist');
  const write = (path: string, content: string | Buffer, { precompressed = false } = {}) => {
    mkdirSync(join(dist, path, '..'), { recursive: true });
    writeFileSync(join(dist, path), content);
    if (!precompressed) return;
    writeFileSync(join(dist, `${path}.br`), brotliCompressSync(content));
    writeFileSync(join(dist, `${path}.gz`), gzipSync(content));
  };
  writeFileSync(join(base, 'secret.txt'), 'OUTSIDE-THE-BUILD');
  const script = Buffer.from(
    Array.from({ length: 400 }, (_, i) => `export const label${i} = 'Csomag ${i} úton van';\n`).join(''),
  );
  write('index.html', '<!doctype html><title>SPA shell</title>', { precompressed: true });
  write('pages/en/shell.html', '<!doctype html><title>SPA shell in English</title>', { precompressed: true });
  write('pages/index.html', '<!doctype html><title>Prerendered home</title>', { precompressed: true });
  write('pages/en/index.html', '<!doctype html><title>Prerendered home in English</title>', { precompressed: true });
  write('pages/tracking.html', '<!doctype html><title>Prerendered tracking frame</title>', { precompressed: true });
  write(
    'prerendered.json',
    JSON.stringify({
      shell: { hu: 'index.html', en: 'pages/en/shell.html' },
      pages: {
        '/': { hu: 'pages/index.html', en: 'pages/en/index.html' },
        // A page not rendered in English: the Hungarian one is sent.
        '/CsomagKovetes/:packageId': { hu: 'pages/tracking.html' },
      },
    }),
  );
  write('assets/app-abc123.js', script, { precompressed: true });
  write('assets/app-abc123.js.map', '{"version":3}');
  write('favicon.svg', '<svg xmlns="http://www.w3.org/2000/svg"/>');
  write('sw.js', `self.addEventListener('fetch', () => {}); // ${'precache '.repeat(200)}`, { precompressed: true });
  write('manifest.webmanifest', JSON.stringify({ name: 'Csomag', start_url: '/' }));
  return { base, dist, script };
}

const fixture = writeFixtureBuild();
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ WEB_DIST: fixture.dist });
});
afterAll(async () => {
  await t.close();
  rmSync(fixture.base, { recursive: true, force: true });
});

const get = (url: string, headers: Record<string, string> = {}, remoteAddress?: string) =>
  t.app.inject({ method: 'GET', url, headers, ...(remoteAddress ? { remoteAddress } : {}) });

const IMMUTABLE = 'public, max-age=31536000, immutable';

function decoded(response: LightMyRequestResponse): Buffer {
  const encoding = response.headers['content-encoding'];
  if (encoding === 'br') return brotliDecompressSync(response.rawPayload);
  if (encoding === 'gzip') return gunzipSync(response.rawPayload);
  return response.rawPayload;
}

describe('hashed assets', () => {
  it.each([
    ['br', 'br'],
    ['gzip, deflate', 'gzip'],
    ['gzip, deflate, br', 'br'],
    [undefined, undefined],
  ])('answers Accept-Encoding %s with %s, cached for a year', async (acceptEncoding, encoding) => {
    const response = await get('/assets/app-abc123.js', acceptEncoding ? { 'accept-encoding': acceptEncoding } : {});
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBe(encoding);
    expect(response.headers['content-type']).toMatch(/javascript/);
    expect(response.headers['cache-control']).toBe(IMMUTABLE);
    expect(response.headers.vary).toBe('accept-encoding');
    expect(decoded(response).equals(fixture.script)).toBe(true);
    if (encoding) expect(response.rawPayload.length).toBeLessThan(fixture.script.length / 2);
  });

  it('answers an unknown asset with a JSON 404, never with the SPA page', async () => {
    const response = await get('/assets/nope.js');
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ error: { code: 'not_found', message: messages.notFound } });
  });

  it('never serves the compressed siblings or source maps by their own names', async () => {
    for (const url of ['/assets/app-abc123.js.br', '/assets/app-abc123.js.gz', '/assets/app-abc123.js.map']) {
      expect((await get(url)).statusCode).toBe(404);
    }
  });
});

describe('pages', () => {
  it('answers a path with its prerendered page (a pattern matching one segment) and any other with the SPA shell, both revalidated', async () => {
    for (const [url, title] of [
      ['/', 'Prerendered home'],
      ['/?utm=qr', 'Prerendered home'],
      ['/SaTerkep', 'SPA shell'],
      ['/CsomagKovetes', 'SPA shell'],
      ['/CsomagKovetes/A1B2C3D4E5', 'Prerendered tracking frame'],
      ['/CsomagKovetes/A1B2C3D4E5/more', 'SPA shell'],
      ['/csomagkovetes/A1B2C3D4E5', 'SPA shell'],
    ] as const) {
      const response = await get(url, { 'accept-encoding': 'br' });
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(response.headers['content-encoding']).toBe('br');
      expect(response.headers['cache-control']).toBe('no-cache');
      expect(response.headers.vary).toBe('accept-encoding, accept-language, cookie');
      expect(response.headers.etag).toBeTruthy();
      expect(decoded(response).toString()).toContain(title);

      const again = await get(url, { 'accept-encoding': 'br', 'if-none-match': String(response.headers.etag) });
      expect(again.statusCode, url).toBe(304);
      expect(again.body).toBe('');
    }
  });

  it('sends a page in the language chosen with the switch (its cookie), else the one the browser prefers, else Hungarian', async () => {
    const cases: [string, Record<string, string>, string][] = [
      ['/', {}, 'Prerendered home</title>'],
      ['/', { 'accept-language': 'en-GB,en;q=0.9' }, 'Prerendered home in English'],
      ['/', { 'accept-language': 'de-DE,hu;q=0.5,en;q=0.4' }, 'Prerendered home</title>'],
      ['/', { 'accept-language': 'en-GB', cookie: `${LANGUAGE_COOKIE}=hu` }, 'Prerendered home</title>'],
      ['/', { cookie: `other=1; ${LANGUAGE_COOKIE}=en` }, 'Prerendered home in English'],
      ['/', { cookie: `${LANGUAGE_COOKIE}=xx`, 'accept-language': 'en' }, 'Prerendered home in English'],
      ['/SaTerkep', { cookie: `${LANGUAGE_COOKIE}=en` }, 'SPA shell in English'],
      ['/SaTerkep', { 'accept-language': 'hu-HU' }, 'SPA shell</title>'],
      ['/CsomagKovetes/A1B2C3D4E5', { cookie: `${LANGUAGE_COOKIE}=en` }, 'Prerendered tracking frame'],
    ];
    for (const [url, headers, title] of cases) {
      const response = await get(url, headers);
      expect(response.statusCode, url).toBe(200);
      expect(response.body, `${url} ${JSON.stringify(headers)}`).toContain(title);
    }
  });

  it("names the tracking page's data in its answer, so the browser asks for both at once", async () => {
    const tracking = await get('/CsomagKovetes/A1B2C3D4E5');
    expect(tracking.headers.link).toBe('</api/tracking/A1B2C3D4E5>; rel=preload; as=fetch; crossorigin');
    // Not for what is not a parcel's id (the page says so itself), nor for another page.
    for (const url of ['/CsomagKovetes/a1b2c3d4e5', '/CsomagKovetes/A1B2C3D4E', '/CsomagKovetes', '/']) {
      expect((await get(url)).headers.link, url).toBeUndefined();
    }
  });

  it('answers HEAD / like GET /, without a body', async () => {
    const response = await t.app.inject({ method: 'HEAD', url: '/' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.body).toBe('');
  });

  it('revalidates the other root files, which keep their fixed names', async () => {
    const response = await get('/favicon.svg');
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(response.headers['last-modified']).toBeTruthy();
  });

  it('serves the service worker and the app manifest from the root, revalidated, never cached as immutable', async () => {
    const worker = await get('/sw.js', { 'accept-encoding': 'br' });
    expect(worker.statusCode).toBe(200);
    expect(worker.headers['content-type']).toMatch(/^(?:application|text)\/javascript/);
    expect(worker.headers['cache-control']).toBe('no-cache');
    expect(worker.headers['content-encoding']).toBe('br');
    expect(decoded(worker).toString()).toContain("self.addEventListener('fetch'");
    const manifest = await get('/manifest.webmanifest');
    expect(manifest.statusCode).toBe(200);
    expect(manifest.headers['content-type']).toMatch(/^application\/manifest\+json/);
    expect(manifest.headers['cache-control']).toBe('no-cache');
    expect(manifest.json()).toMatchObject({ start_url: '/' });
  });

  it('gives a browser navigation the page, but an image or script it does not have a JSON 404', async () => {
    const navigation = await get('/FelhasznaloProfil/anna.kovacs', {
      accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
    });
    expect(navigation.statusCode).toBe(200);
    expect(navigation.body).toContain('SPA shell');
    for (const [url, accept] of [
      ['/tiles/11/1135/715.png', 'image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8'],
      ['/favicon.ico', 'image/avif,image/webp,image/*,*/*;q=0.8'],
      ['/old-worker.js', 'application/javascript'],
    ] as const) {
      const response = await get(url, { accept });
      expect(response.statusCode, url).toBe(404);
      expect(response.json().error.code).toBe('not_found');
    }
  });

  it('leaves unknown /api paths and other methods a JSON 404', async () => {
    for (const response of [await get('/api/nope'), await t.app.inject({ method: 'POST', url: '/SaTerkep' })]) {
      expect(response.statusCode).toBe(404);
      expect(response.json().error.code).toBe('not_found');
    }
  });
});

describe('API compression', () => {
  it('compresses a JSON response above 1 KiB with brotli or gzip', async () => {
    const plain = await get('/api/docs/json');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.length).toBeGreaterThan(1024);
    for (const encoding of ['br', 'gzip']) {
      const response = await get('/api/docs/json', { 'accept-encoding': encoding });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-encoding']).toBe(encoding);
      expect(response.headers.vary).toBe('accept-encoding');
      expect(JSON.parse(decoded(response).toString())).toEqual(plain.json());
    }
  });

  it('sends a small JSON response as it is', async () => {
    const response = await get('/api/health', { 'accept-encoding': 'br, gzip' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(response.json().status).toBe('ok');
  });

  it('never compresses a live-update stream, so each message leaves at once', async () => {
    const stream = await openEventStream(await listenLocally(t.app), 'parcel:ABCDEFGHJK', {
      'accept-encoding': 'br, gzip',
    });
    try {
      expect(stream.status).toBe(200);
      expect(stream.headers['content-type']).toBe('text/event-stream; charset=utf-8');
      expect(stream.headers['content-encoding']).toBeUndefined();
      expect(stream.raw[0]).toMatch(/^retry: /);
    } finally {
      stream.close();
    }
  });
});

describe('rate limits', () => {
  it('never counts the web build against a client, but still limits its API requests', async () => {
    const ip = '10.77.0.1';
    const urls = ['/assets/app-abc123.js', '/', '/SaTerkep', '/favicon.svg', '/assets/nope.js'];
    for (let i = 0; i < 700; i++) {
      const url = urls[i % urls.length] ?? '/';
      expect((await get(url, {}, ip)).statusCode).not.toBe(429);
    }
    const first = await get('/api/config', {}, ip);
    expect(first.headers['x-ratelimit-remaining']).toBe('599');
    for (let i = 1; i < 600; i++) expect((await get('/api/config', {}, ip)).statusCode).toBe(200);
    expect((await get('/api/config', {}, ip)).statusCode).toBe(429);
    expect((await get('/api/nope', {}, ip)).statusCode).toBe(429);
    // The router, not a prefix test on the URL, decides what is API.
    expect((await get('/%61pi/config', {}, ip)).statusCode).toBe(429);
    expect((await get('/SaTerkep', {}, ip)).statusCode).toBe(200);
  });
});

describe('bad input', () => {
  const longAcceptEncoding = { 'accept-encoding': `${'x'.repeat(10 * 1024)}, gzip` };
  const hugeRange = { range: 'bytes=99999999-' };
  it.each([
    ['/assets/..%2f..%2fpackage.json', '', {}],
    ['/assets/..%2f..%2fsecret.txt', '', {}],
    ['/assets/%2e%2e/%2e%2e/server/package.json', '', {}],
    ['/assets/%2e%2e/%2e%2e/secret.txt', '', {}],
    ['/assets/x%00.js', '', {}],
    ['/..%2f..%2fetc/passwd', '', {}],
    ['/..%2fsecret.txt', '', {}],
    ['/assets/%E0%A4%A', '', {}],
    ['/%E0%A4%A', '', {}],
    ['/assets/app-abc123.js', 'a 10 KiB Accept-Encoding', longAcceptEncoding],
    ['/', 'a 10 KiB Accept-Encoding', longAcceptEncoding],
    ['/assets/app-abc123.js', 'a range past its end', hugeRange],
    ['/assets/app-abc123.js', 'a range past its end, brotli', { ...hugeRange, 'accept-encoding': 'br' }],
  ])('answers GET %s %s without a 5xx or anything outside the build', async (url, _, headers) => {
    const response = await get(url, headers as Record<string, string>);
    expect(response.statusCode).toBeLessThan(500);
    expect(response.body).not.toMatch(/OUTSIDE-THE-BUILD|@csomag\/server|root:/);
  });
});

describe('a malformed URL escape', () => {
  it.each(['/api/parcels/%E0%A4%A', '/%E0%A4%A'])('answers %s with 400 in the API error shape', async (url) => {
    const response = await get(url);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ error: { code: 'invalid_body', message: messages.badRequestUrl } });
  });
});
