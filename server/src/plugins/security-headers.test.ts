import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/harness.ts';

/** What helmet and our directives say on every response, whatever the transport. */
const BASE_CSP =
  "default-src 'self';base-uri 'self';font-src 'self' https: data:;form-action 'self';frame-ancestors 'self';" +
  "img-src 'self' data: blob: https://tile.openstreetmap.org;object-src 'none';script-src 'self';" +
  "script-src-attr 'none';style-src 'self' 'unsafe-inline';connect-src 'self'";
const HTTPS_CSP = `${BASE_CSP};upgrade-insecure-requests`;
const HSTS = 'max-age=31536000; includeSubDomains';

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

async function headersOf(env: Record<string, string>, headers: Record<string, string> = {}) {
  t = await createTestApp(env);
  const response = await t.app.inject({ method: 'GET', url: '/api/health', headers });
  expect(response.statusCode).toBe(200);
  return { csp: response.headers['content-security-policy'], hsts: response.headers['strict-transport-security'] };
}

describe('headers that only make sense over HTTPS', () => {
  it('are left out over plain HTTP, so a phone at http://<lan-ip>:3000 loads its assets', async () => {
    expect(await headersOf({})).toEqual({ csp: BASE_CSP, hsts: undefined });
  });

  it('are left out when anyone but a trusted proxy claims https', async () => {
    expect(await headersOf({}, { 'x-forwarded-proto': 'https' })).toEqual({ csp: BASE_CSP, hsts: undefined });
  });

  it('are sent when the trusted proxy says the request came over https', async () => {
    expect(await headersOf({ TRUST_PROXY: '1' }, { 'x-forwarded-proto': 'https' })).toEqual({
      csp: HTTPS_CSP,
      hsts: HSTS,
    });
  });

  it('are left out when the trusted proxy says the request came over http', async () => {
    expect(await headersOf({ TRUST_PROXY: '1' }, { 'x-forwarded-proto': 'http' })).toEqual({
      csp: BASE_CSP,
      hsts: undefined,
    });
  });

  it('are always sent when the public URL is https', async () => {
    expect(await headersOf({ PUBLIC_URL: 'https://csomag.example.hu' })).toEqual({ csp: HTTPS_CSP, hsts: HSTS });
  });

  it('are left out when the public URL is plain http', async () => {
    expect(await headersOf({ PUBLIC_URL: 'http://192.168.1.20:3000' })).toEqual({ csp: BASE_CSP, hsts: undefined });
  });
});

describe('helmet’s other headers', () => {
  it('are on every response, worked out once from helmet itself', async () => {
    t = await createTestApp();
    for (const url of ['/api/health', '/api/no-such-route']) {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.headers, url).toMatchObject({
        'x-content-type-options': 'nosniff',
        'x-frame-options': 'SAMEORIGIN',
        'referrer-policy': 'no-referrer',
        'cross-origin-opener-policy': 'same-origin',
        'cross-origin-resource-policy': 'same-origin',
        'origin-agent-cluster': '?1',
        'x-dns-prefetch-control': 'off',
        'x-download-options': 'noopen',
        'x-permitted-cross-domain-policies': 'none',
        'x-xss-protection': '0',
        'content-security-policy': BASE_CSP,
      });
    }
  });
});
