import { searchKey } from '@csomag/domain/address';
import { ERROR_STATUS } from '@csomag/domain/errors';
import { messages } from '@csomag/domain/messages';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type SignedIn, signInSuperadmin, signUp, type TestApp } from '../../test/harness.ts';

/**
 * Issue 32: whatever a person types into a search is searched for as text, on both stores — the
 * FTS5 phrase (SQLite), the LIKE pattern (short searches, both) and pg_trgm (PostgreSQL) alike.
 */

let t: TestApp;
let admin: SignedIn;
/** Every account in this file's fresh database: what a search must find is computed from them. */
const everyone: { userName: string; name: string; role: string }[] = [];

/** The query languages' operators and quotes (FTS5, LIKE, pg_trgm, tsquery), and text beyond ASCII. */
const OPERATORS = [
  '"',
  '""',
  'a"b',
  '*',
  '-x',
  '^a',
  'a:b',
  '(a',
  'a)',
  'NEAR(a b)',
  'a AND b',
  'OR',
  'NOT x',
  '\\',
  '%',
  '_',
  "'",
  '😀',
  'Ő😀ű',
];

beforeAll(async () => {
  t = await createTestApp();
  admin = await signInSuperadmin(t.app);
  everyone.push({ userName: admin.account.userName, name: admin.account.name, role: 'superadmin' });
  for (const [index, text] of OPERATORS.entries()) {
    for (const role of ['user', 'runner'] as const) {
      const { account } = await signUp(t.app, { role, name: `Keres ${text} Elek ${index}` });
      everyone.push({ userName: account.userName, name: account.name, role });
    }
  }
});
afterAll(() => t.close());

const ROUTES = [
  { url: '/api/users', role: undefined },
  { url: '/api/runners', role: 'runner' },
] as const;

/** The accounts a search for `q` must list: folded name or user name containing the folded, trimmed text. */
function expectedMatches(q: string, role: string | undefined) {
  const needle = searchKey(q.trim());
  return everyone
    .filter((a) => role === undefined || a.role === role)
    .filter((a) => searchKey(a.name).includes(needle) || a.userName.toLowerCase().includes(needle))
    .map((a) => a.userName)
    .sort();
}

const search = (url: string, rawQuery: string) =>
  t.app.inject({ method: 'GET', url: `${url}?limit=200&q=${rawQuery}`, headers: { cookie: admin.cookie } });

describe.each(ROUTES)('GET $url?q=', ({ url, role }) => {
  it.each(OPERATORS)('finds exactly the names containing %j, as text', async (text) => {
    const response = await search(url, encodeURIComponent(text));
    expect(response.statusCode).toBe(200);
    const found = response
      .json()
      .items.map((a: { userName: string }) => a.userName)
      .sort();
    expect(found).toEqual(expectedMatches(text, role));
    // Each operator is in at least one name of this list, so the search has something to find.
    expect(found.length).toBeGreaterThan(0);
  });

  it('finds a name by the whole of it, operators included', async () => {
    for (const account of everyone.filter((a) => role === undefined || a.role === role)) {
      const response = await search(url, encodeURIComponent(account.name));
      expect(
        response.json().items.map((a: { userName: string }) => a.userName),
        account.name,
      ).toContain(account.userName);
    }
  });

  it('answers a short search (under a trigram) by the same rule', async () => {
    for (const text of ['a', 'el', 'ŐŰ', '"a']) {
      const response = await search(url, encodeURIComponent(text));
      expect(response.statusCode).toBe(200);
      expect(
        response
          .json()
          .items.map((a: { userName: string }) => a.userName)
          .sort(),
      ).toEqual(expectedMatches(text, role));
    }
  });

  it.each([
    ['NUL alone', '%00'],
    ['NUL inside', 'abc%00def'],
    ['NUL at the end', 'ab%00'],
    ['another C0 byte', 'a%01b'],
    ['an escape byte', '%1B%5B2J'],
    ['DEL', 'ab%7Fc'],
    ['a C1 control', 'ab%C2%85c'],
    ['a lone surrogate (CESU-8)', 'ab%ED%A0%80c'],
    ['a byte that is not UTF-8', 'ab%FFc'],
    ['a cut-off UTF-8 sequence', 'ab%F0%9F'],
  ])('refuses %s with a Hungarian 400 and lists nothing', async (_what, raw) => {
    const response = await search(url, raw);
    expect(response.statusCode).toBe(ERROR_STATUS.invalid_query_text);
    expect(response.json().error).toMatchObject({ code: 'invalid_query_text', message: messages.invalidQueryText });
    expect(response.json().items).toBeUndefined();
  });

  it('refuses a search over 100 characters with its message', async () => {
    const response = await search(url, 'a'.repeat(1000));
    expect(response.statusCode).toBe(400);
    expect(response.json().error.fields.q).toBe(messages.searchTooLong);
  });
});
