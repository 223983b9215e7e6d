import { connect } from 'node:net';
import { PassThrough } from 'node:stream';
import { messages } from '@csomag/domain/messages';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type SignedIn, signUp, type TestApp } from '../test/harness.ts';
import { buildParcelBody, sendParcel } from '../test/parcels.ts';
import { listenLocally } from '../test/sse.ts';

let t: TestApp;
let sender: SignedIn;
beforeAll(async () => {
  t = await createTestApp({ PUBLIC_URL: 'https://csomag.example.hu' });
  sender = await signUp(t.app);
});
afterAll(() => t.close());

const parcelCount = async () =>
  Number(
    (
      await t.store.db
        .selectFrom('parcels')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('where a state-changing request comes from', () => {
  it.each([
    [{ origin: 'https://evil.example' }],
    [{ origin: 'https://rossz.csomag.example.hu' }],
    [{ origin: 'null' }],
    [{ 'sec-fetch-site': 'cross-site' }],
    // A sibling subdomain: SameSite=Lax lets the cookie through, this check does not.
    [{ 'sec-fetch-site': 'same-site', origin: 'https://csomag.example.hu' }],
  ])('refuses %o with 403 and changes nothing', async (headers) => {
    const before = await parcelCount();
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/parcels',
      headers: { cookie: sender.cookie, ...headers },
      payload: buildParcelBody(),
    });
    expect(response.statusCode).toBe(403);
    expect(response.json().error).toEqual({ code: 'cross_origin', message: messages.crossOrigin });
    expect(await parcelCount()).toBe(before);
  });

  it('refuses a profile edit and a pickup from another site', async () => {
    const runner = await signUp(t.app, { role: 'runner' });
    const parcel = await sendParcel(t.app, sender.cookie);
    const evil = { origin: 'https://evil.example', cookie: runner.cookie };
    const edit = await t.app.inject({
      method: 'PATCH',
      url: `/api/users/${runner.account.userName}`,
      headers: evil,
      payload: { name: 'Feltört Név' },
    });
    const pickup = await t.app.inject({ method: 'POST', url: `/api/parcels/${parcel.id}/pickup`, headers: evil });
    expect([edit.statusCode, pickup.statusCode]).toEqual([403, 403]);
    expect([edit.json().error.code, pickup.json().error.code]).toEqual(['cross_origin', 'cross_origin']);
    const me = await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: { cookie: runner.cookie } });
    expect(me.json().account.name).toBe(runner.account.name);
    const detail = await t.app.inject({ method: 'GET', url: `/api/tracking/${parcel.id}` });
    expect(detail.json().status).toBe('waiting');
  });

  it.each([
    ['the public URL', { origin: 'https://csomag.example.hu', 'sec-fetch-site': 'same-origin' }],
    ['the address it was served on', { origin: 'http://192.168.1.20:3000', host: '192.168.1.20:3000' }],
    ['a client without a browser', {}],
    ['a bookmark or typed address', { 'sec-fetch-site': 'none' }],
  ])('accepts a request from %s', async (_from, headers) => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/parcels',
      headers: { cookie: sender.cookie, ...headers },
      payload: buildParcelBody(),
    });
    expect(response.statusCode).toBe(201);
  });

  it('lets anyone read: GET is not state-changing', async () => {
    const parcel = await sendParcel(t.app, sender.cookie);
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/tracking/${parcel.id}`,
      headers: { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
    });
    expect(response.statusCode).toBe(200);
  });
});

describe('request bodies', () => {
  it('refuses a body that is not valid UTF-8 with 400 and stores nothing', async () => {
    const before = await parcelCount();
    const json = JSON.stringify(buildParcelBody({ senderAddress: '1052 Budapest, VXci utca 12' }));
    const bytes = Buffer.from(json, 'utf8');
    // A Latin-1 "á" (0xE1) where UTF-8 needs two bytes.
    bytes[bytes.indexOf('VXci') + 1] = 0xe1;
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/parcels',
      headers: { cookie: sender.cookie, 'content-type': 'application/json' },
      payload: bytes,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toEqual({ code: 'invalid_encoding', message: messages.invalidEncoding });
    expect(await parcelCount()).toBe(before);
  });

  it('still parses valid UTF-8 with accents, and still refuses prototype poisoning', async () => {
    const created = await sendParcel(t.app, sender.cookie, { senderAddress: '1052 Budapest, Váci utca 12' });
    expect(created.senderAddress).toBe('1052 Budapest, Váci utca 12');
    const poisoned = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"email":"a@b.hu","password":"x","__proto__":{"admin":true}}',
    });
    expect(poisoned.statusCode).toBe(400);
    expect(poisoned.json().error.code).toBe('invalid_body');
  });

  it.each([
    ['a NUL in an address', { senderAddress: '1052 Budapest, Váci\u0000 utca 12' }, 'senderAddress'],
    ['an escape byte in the category', { category: 'Könyv\u001b[2J' }, 'category'],
    ['a lone surrogate in the category', { category: 'Könyv \ud800' }, 'category'],
    ['a C1 control in a nested point', { receiverCoordinates: { lat: 47.5, lng: 19.05, '\u0085': 1 } }, '_'],
  ])('refuses %s with 400 beside its field and stores nothing', async (_what, fields, field) => {
    const before = await parcelCount();
    // JSON.stringify writes a control character or a lone surrogate as a \u escape, as a client would.
    const payload = JSON.stringify({ ...buildParcelBody(), ...fields });
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/parcels',
      headers: { cookie: sender.cookie, 'content-type': 'application/json' },
      payload,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toEqual({
      code: 'invalid_body',
      message: messages.invalidBody,
      fields: { [field]: messages.invalidText },
    });
    expect(await parcelCount()).toBe(before);
  });

  it('keeps tabs and line breaks, which people do type', async () => {
    const created = await sendParcel(t.app, sender.cookie, { category: 'Könyv\tés füzet' });
    expect(created.category).toBe('Könyv\tés füzet');
  });
});

describe('query strings', () => {
  it.each([
    ['a NUL', '/api/parcels/waiting?settlement=Buda%00pest'],
    ['bytes that are not UTF-8', '/api/me/sent-parcels?cursor=%C3%28'],
    ['a lone surrogate', '/api/geocode?q=V%ED%A0%80ci'],
  ])('refuses %s in any API query string with a Hungarian 400', async (_what, url) => {
    const response = await t.app.inject({ method: 'GET', url, headers: { cookie: sender.cookie } });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toEqual({ code: 'invalid_query_text', message: messages.invalidQueryText });
  });

  it('reads a % that starts no escape as itself, and leaves pages’ query strings to the page', async () => {
    const percent = await t.app.inject({
      method: 'GET',
      url: '/api/geocode?q=100%',
      headers: { cookie: sender.cookie },
    });
    expect(percent.statusCode).not.toBe(400);
    const page = await t.app.inject({ method: 'GET', url: '/CsomagKovetes?x=%00' });
    expect(page.json().error?.code).not.toBe('invalid_query_text');
  });
});

describe('request ids', () => {
  it('answers every request with an X-Request-Id, a fresh one per request', async () => {
    const first = await t.app.inject({ method: 'GET', url: '/api/health' });
    const second = await t.app.inject({ method: 'GET', url: '/api/health', headers: { 'x-request-id': 'kivulrol-1' } });
    expect(first.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(second.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(second.headers['x-request-id']).not.toBe(first.headers['x-request-id']);
  });

  it('keeps the id the proxy in front gave, when the proxy is trusted and the id looks like one', async () => {
    const proxied = await createTestApp({ TRUST_PROXY: '1' });
    try {
      const kept = await proxied.app.inject({
        method: 'GET',
        url: '/api/health',
        headers: { 'x-request-id': 'lb-42.a' },
      });
      expect(kept.headers['x-request-id']).toBe('lb-42.a');
      const odd = await proxied.app.inject({
        method: 'GET',
        url: '/api/health',
        headers: { 'x-request-id': 'nem jó\nazonosító' },
      });
      expect(odd.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    } finally {
      await proxied.close();
    }
  });

  it('follows a pickup from its request to the live notifications it causes', async () => {
    let logged = '';
    const logStream = new PassThrough().on('data', (chunk) => {
      logged += chunk.toString();
    });
    const logging = await createTestApp({ LOG_LEVEL: 'info' }, { logStream });
    try {
      const runner = await signUp(logging.app, { role: 'runner' });
      const owner = await signUp(logging.app);
      const parcel = await sendParcel(logging.app, owner.cookie);
      const pickup = await logging.app.inject({
        method: 'POST',
        url: `/api/parcels/${parcel.id}/pickup`,
        headers: { cookie: runner.cookie },
      });
      expect(pickup.statusCode).toBe(200);
      const requestId = pickup.headers['x-request-id'];
      const linesOfRequest = () =>
        logged
          .trim()
          .split('\n')
          .map((line) => JSON.parse(line))
          .filter((line) => line.reqId === requestId);
      // On PostgreSQL the change comes back through NOTIFY, a moment after the answer.
      for (let i = 0; i < 100 && !linesOfRequest().some((line) => line.msg === 'change sent to live streams'); i++) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      const lines = linesOfRequest();
      // One line for the request itself, written with its answer; the service's own line; one for the change it caused.
      expect(lines.map((line) => line.msg).sort()).toEqual([
        'change sent to live streams',
        'parcel picked up',
        'request completed',
      ]);
      expect(lines.find((line) => line.msg === 'request completed')).toMatchObject({
        method: 'POST',
        url: `/api/parcels/${parcel.id}/pickup`,
        status: 200,
        ms: expect.any(Number),
      });
      expect(lines.find((line) => line.msg === 'change sent to live streams')).toMatchObject({
        parcelId: parcel.id,
        kind: 'picked_up',
      });
    } finally {
      await logging.close();
    }
  });
});

describe('slow clients', () => {
  it('closes a connection whose headers do not arrive in time', async () => {
    const slow = await createTestApp({ HEADERS_TIMEOUT: '0.3', REQUEST_TIMEOUT: '0.3' });
    try {
      const url = new URL(await listenLocally(slow.app));
      const socket = connect(Number(url.port), url.hostname);
      let answer = '';
      socket.on('data', (chunk) => {
        answer += chunk.toString();
      });
      socket.write('GET /api/health HTTP/1.1\r\nHost: localhost\r\n');
      // …and the blank line that ends the headers never comes.
      await new Promise((resolve) => socket.on('close', resolve));
      expect(answer).toMatch(/^HTTP\/1\.1 408/);
    } finally {
      await slow.close();
    }
  });
});
