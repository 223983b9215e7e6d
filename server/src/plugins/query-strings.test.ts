import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type SignedIn, signInSuperadmin, signUp, type TestApp } from '../test/harness.ts';
import { sendParcel } from '../test/parcels.ts';
import { listenLocally } from '../test/sse.ts';

/**
 * Issue 32: no query string of any GET route answers 5xx, whatever its parameters hold — text in
 * any script, control characters, lone surrogates, bytes that are not UTF-8, a parameter twice —
 * for anyone who calls it. The routes and their parameters come from the OpenAPI document, so a
 * route added later is covered without touching this file.
 */

let t: TestApp;
let callers: (SignedIn | undefined)[];
let base: string;
let parcelId: string;

interface GetRoute {
  path: string;
  query: string[];
  params: string[];
}
let routes: GetRoute[];

beforeAll(async () => {
  // Behind a proxy, so each request can come from its own address: thousands of them here would
  // meet the 600-a-minute limit of one client.
  t = await createTestApp({ TRUST_PROXY: '1' });
  const admin = await signInSuperadmin(t.app);
  const user = await signUp(t.app);
  const runner = await signUp(t.app, { role: 'runner' });
  callers = [undefined, user, runner, admin];
  parcelId = (await sendParcel(t.app, user.cookie)).id;
  base = await listenLocally(t.app);
  const document = t.app.swagger() as {
    paths: Record<string, { get?: { parameters?: { in: string; name: string }[] } }>;
  };
  routes = Object.entries(document.paths).flatMap(([path, operations]) => {
    const parameters = operations.get?.parameters;
    if (!operations.get) return [];
    return [
      {
        path,
        query: (parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name),
        params: (parameters ?? []).filter((p) => p.in === 'path').map((p) => p.name),
      },
    ];
  });
});
afterAll(() => t.close());

const hex = (byte: number) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;

/** UTF-16 code units as WTF-8 escapes: a lone surrogate comes out as the three bytes no UTF-8 decoder takes. */
function wtf8(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const code = text.codePointAt(i) ?? 0;
    if (code > 0xffff) i++;
    const bytes =
      code < 0x80
        ? [code]
        : code < 0x800
          ? [0xc0 | (code >> 6), 0x80 | (code & 63)]
          : code < 0x10000
            ? [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 63), 0x80 | (code & 63)]
            : [0xf0 | (code >> 18), 0x80 | ((code >> 12) & 63), 0x80 | ((code >> 6) & 63), 0x80 | (code & 63)];
    out += bytes.map(hex).join('');
  }
  return out;
}

/** Values a scanner tries first: every parameter of every route gets each of them before the random ones. */
const HOSTILE = [
  '%00',
  'abc%00def',
  'ab%00',
  '%01',
  '%',
  '%%',
  '%G1',
  '%ED%A0%80',
  '%FF',
  '-1',
  '1e309',
  'NaN',
  '0x10',
  '[]',
];

/** A parameter's value as it travels in a URL. */
const encodedValue = fc.oneof(
  fc.string({ unit: 'binary' }).map(encodeURIComponent),
  // Few characters, often those that mean something to a store or a query language.
  fc
    .string({
      unit: fc.constantFrom('a', 'É', ' ', '\u0000', '\u0001', '\u001b', '"', '*', '%', '_', '\\', ':', '(', '😀'),
    })
    .map(encodeURIComponent),
  fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code)) }).map(wtf8),
  fc.uint8Array({ maxLength: 12 }).map((bytes) => [...bytes].map(hex).join('')),
  // Typed straight into the address bar: printable ASCII as it is, %, + and all.
  fc.string({ unit: 'grapheme-ascii' }).map((text) => text.replace(/[#&\s]/g, '')),
  fc.constantFrom(...HOSTILE),
  fc.integer().map(String),
);

/** One parameter's value, now and then beside others, the path's own parameter or the same one twice. */
const request = fc.record({
  value: encodedValue,
  others: fc.array(fc.tuple(fc.nat(), encodedValue), { maxLength: 2 }),
  pathValue: fc.oneof({ arbitrary: fc.constant(undefined), weight: 4 }, { arbitrary: encodedValue, weight: 1 }),
  repeat: fc.boolean(),
});

let requests = 0;

async function answer(url: string, caller: SignedIn | undefined) {
  // A real socket: a stream that opens (GET /api/events) answers with its headers and never ends.
  const abort = new AbortController();
  const response = await fetch(`${base}${url}`, {
    headers: {
      'x-forwarded-for': `10.${(++requests >> 16) & 255}.${(requests >> 8) & 255}.${requests & 255}`,
      ...(caller ? { cookie: caller.cookie } : {}),
    },
    redirect: 'manual',
    signal: abort.signal,
  });
  const body = response.headers.get('content-type')?.startsWith('application/json') ? await response.text() : '';
  abort.abort();
  return { status: response.status, body };
}

describe('every GET route’s query string', () => {
  it('lists the API’s GET routes with their parameters', () => {
    expect(routes.map((r) => r.path)).toEqual(expect.arrayContaining(['/api/users', '/api/runners', '/api/events']));
    expect(routes.find((r) => r.path === '/api/users')?.query).toContain('q');
  });

  it('answers arbitrary parameters with a success or a refusal that explains itself, never a 5xx', async () => {
    // Every parameter of every route for every caller, so each gets its share of the runs: a value
    // reaches the store only when the route's other parameters are valid, as they are when absent.
    for (const route of routes) {
      for (const name of route.query.length > 0 ? route.query : ['q']) {
        for (const caller of callers) await checkParameter(route, name, caller);
      }
    }
  });
});

type Request = typeof request extends fc.Arbitrary<infer R> ? R : never;

async function checkParameter(route: GetRoute, name: string, caller: SignedIn | undefined) {
  await fc.assert(
    fc.asyncProperty(request, async ({ value, others, pathValue, repeat }) => {
      const path = route.path.replace(/\{(\w+)\}/g, (_all, name: string) =>
        pathValue !== undefined && name === route.params[0] ? pathValue : name === 'id' ? parcelId : 'valaki',
      );
      const names = route.query.length > 0 ? route.query : ['q'];
      const pairs = [`${name}=${value}`, ...others.map(([n, other]) => `${names[n % names.length]}=${other}`)];
      if (repeat) pairs.push(pairs[0] as string);
      const url = `${path}?${pairs.join('&')}`;
      const { status, body } = await answer(url, caller);
      expect(status, url).toBeLessThan(500);
      if (status >= 400 && body) expect(JSON.parse(body).error.message, url).toMatch(/\S/);
    }),
    {
      numRuns: 12,
      examples: HOSTILE.map((value): [Request] => [{ value, others: [], pathValue: undefined, repeat: false }]),
    },
  );
}
