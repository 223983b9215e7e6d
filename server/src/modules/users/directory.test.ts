import { HUNGARIAN_ACCENT_FOLDS } from '@csomag/domain/address';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoSecrets } from '../../test/back-office.ts';
import { createTestApp, type SignedIn, signInSuperadmin, signUp, type TestApp } from '../../test/harness.ts';

let t: TestApp;
let admin: SignedIn;
beforeAll(async () => {
  t = await createTestApp();
  admin = await signInSuperadmin(t.app);
});
afterAll(() => t.close());

const get = (url: string, cookie?: string) =>
  t.app.inject({ method: 'GET', url, ...(cookie ? { headers: { cookie } } : {}) });
const names = (response: { json(): { items: { userName: string }[] } }) => response.json().items.map((a) => a.userName);

describe('GET /api/users', () => {
  it('finds accounts of one role by name or user name, page by page, without secrets', async () => {
    const tag = `Kereso${Date.now().toString(36)}`;
    const bea = await signUp(t.app, { name: `Bea ${tag}` });
    const anna = await signUp(t.app, { name: `Ánna ${tag}` });
    const cili = await signUp(t.app, { name: `Cili ${tag}` });
    await signUp(t.app, { role: 'runner', name: `Futár ${tag}` });

    const first = await get(`/api/users?role=user&q=${tag}&limit=2`, admin.cookie);
    expect(first.statusCode).toBe(200);
    expect(names(first)).toEqual([bea.account.userName, cili.account.userName]);
    const second = await get(`/api/users?role=user&q=${tag}&limit=2&cursor=${first.json().nextCursor}`, admin.cookie);
    // Binary order on both stores: an accented capital sorts after Z.
    expect(names(second)).toEqual([anna.account.userName]);
    expect(second.json().nextCursor).toBeNull();
    expect(first.json().items[0]).toEqual(bea.account);
    expectNoSecrets(first.body, bea.password);

    expect(names(await get(`/api/users?q=${tag}&limit=10`, admin.cookie))).toHaveLength(4);
    const byUserName = await get(`/api/users?role=user&q=${anna.account.userName.toUpperCase()}`, admin.cookie);
    expect(names(byUserName)).toEqual([anna.account.userName]);
    expect(names(await get(`/api/users?role=user&q=anna%20${tag}`, admin.cookie))).toEqual([anna.account.userName]);
  });

  it('finds every accented letter by its plain one, in short and long searches alike', async () => {
    const tag = `Betuk${Date.now().toString(36)}`;
    const accented = HUNGARIAN_ACCENT_FOLDS.map(([from]) => from).join('');
    const plain = HUNGARIAN_ACCENT_FOLDS.map(([, to]) => to).join('');
    const account = await signUp(t.app, { name: `${tag} x${accented}x` });
    const found = async (q: string) =>
      names(await get(`/api/users?q=${encodeURIComponent(q)}&limit=200`, admin.cookie));

    expect(await found(`x${plain}x`)).toEqual([account.account.userName]);
    expect(await found(`${tag} X${accented.toLowerCase()}`)).toEqual([account.account.userName]);
    // Each letter alone, and within a longer text: shorter searches than three letters are read another way.
    for (const [from, to] of HUNGARIAN_ACCENT_FOLDS) {
      const at = accented.indexOf(from);
      expect(await found(to)).toContain(account.account.userName);
      expect(await found(`${plain.slice(Math.max(0, at - 1), at)}${to}${plain.slice(at + 1, at + 2)}`)).toContain(
        account.account.userName,
      );
    }
  });

  it('finds an account by its new name after an edit, and a deleted runner no more', async () => {
    const tag = `Uj${Date.now().toString(36)}`;
    const user = await signUp(t.app, { name: `Régi Név ${tag}` });
    const runner = await signUp(t.app, { role: 'runner', name: `Futó ${tag}` });
    const found = async (q: string) => names(await get(`/api/users?q=${encodeURIComponent(q)}`, admin.cookie));
    expect(await found(`regi nev ${tag}`)).toEqual([user.account.userName]);

    const renamed = await t.app.inject({
      method: 'PATCH',
      url: `/api/users/${user.account.userName}`,
      payload: { name: `Új Név ${tag}` },
      headers: { cookie: admin.cookie },
    });
    expect(renamed.statusCode).toBe(200);
    expect(await found(`regi nev ${tag}`)).toEqual([]);
    expect(await found(`uj nev ${tag}`)).toEqual([user.account.userName]);

    expect(await found(`futo ${tag}`)).toEqual([runner.account.userName]);
    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `/api/runners/${runner.account.userName}`,
      headers: { cookie: admin.cookie },
    });
    expect(deleted.statusCode).toBe(204);
    expect(await found(`futo ${tag}`)).toEqual([]);
  });

  it('takes quotes, wildcards and other signs in a search as plain characters', async () => {
    const tag = `Jel${Date.now().toString(36)}`;
    const quoted = await signUp(t.app, { name: `Kovács "Kócos" ${tag}` });
    const percent = await signUp(t.app, { name: `Száz%_os ${tag}` });
    const found = async (q: string) => names(await get(`/api/users?q=${encodeURIComponent(q)}`, admin.cookie));

    expect(await found(`"kocos" ${tag}`)).toEqual([quoted.account.userName]);
    expect(await found(`s "k`)).toEqual([quoted.account.userName]);
    expect(await found(`%_os ${tag}`)).toEqual([percent.account.userName]);
    expect(await found(`z%_o`)).toEqual([percent.account.userName]);
    expect(await found(`${tag}%`)).toEqual([]);
    expect(await found(`kocos ${tag}`)).toEqual([]);
  });

  it('refuses anonymous callers (401), users and runners (403)', async () => {
    const user = await signUp(t.app);
    const runner = await signUp(t.app, { role: 'runner' });
    for (const [cookie, status, code] of [
      [undefined, 401, 'sign_in_required'],
      [user.cookie, 403, 'forbidden'],
      [runner.cookie, 403, 'forbidden'],
    ] as const) {
      const response = await get('/api/users?role=user', cookie);
      expect(response.statusCode).toBe(status);
      expect(response.json().error.code).toBe(code);
    }
  });

  it.each([
    ['role=admin', 'role', 'invalid_body'],
    ['limit=500', 'limit', 'invalid_body'],
    ['cursor=nem-cursor', 'cursor', 'invalid_cursor'],
  ])('refuses %s with 400 naming %s (%s)', async (query, field, code) => {
    const response = await get(`/api/users?${query}`, admin.cookie);
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe(code);
    expect(Object.keys(response.json().error.fields)).toEqual([field]);
  });
});
