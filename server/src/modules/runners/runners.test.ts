import { messages } from '@csomag/domain/messages';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountRow, eventsOf, expectNoSecrets, parcelRow, placeRunner } from '../../test/back-office.ts';
import {
  buildRegistration,
  createTestApp,
  type SignedIn,
  signInSuperadmin,
  signUp,
  type TestApp,
} from '../../test/harness.ts';
import { sendParcel } from '../../test/parcels.ts';
import { claimParcel, deliverParcel } from '../parcels/changes.ts';

let t: TestApp;
let admin: SignedIn;
let user: SignedIn;
let runner: SignedIn;
beforeAll(async () => {
  t = await createTestApp();
  admin = await signInSuperadmin(t.app);
  user = await signUp(t.app);
  runner = await signUp(t.app, { role: 'runner' });
});
afterAll(() => t.close());

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
const call = (method: Method, url: string, cookie?: string, payload?: Record<string, unknown>) =>
  t.app.inject({ method, url, ...(cookie ? { headers: { cookie } } : {}), ...(payload ? { payload } : {}) });
const signIn = (email: string, password: string) =>
  t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password } });
const me = (cookie: string) => t.app.inject({ method: 'GET', url: '/api/auth/me', headers: { cookie } });

let tagCounter = 0;
/** A word only this test's runners have in their names, so searches never see other tests' runners. */
const uniqueTag = () => `Tag${Date.now().toString(36)}x${++tagCounter}`;

async function runnersNamed(tag: string, names: string[]) {
  const made: SignedIn[] = [];
  for (const name of names) made.push(await signUp(t.app, { role: 'runner', name: `${name} ${tag}` }));
  return made;
}

async function allPages(url: string, cookie: string) {
  const pages: { userName: string; distanceMetres?: number | null }[][] = [];
  let cursor: string | null = null;
  do {
    const response = await call('GET', cursor ? `${url}&cursor=${encodeURIComponent(cursor)}` : url, cookie);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    pages.push(body.items);
    cursor = body.nextCursor;
  } while (cursor);
  return pages;
}

describe('GET /api/runners', () => {
  it('lists runners by name page by page, never users, never a password', async () => {
    const tag = uniqueTag();
    const [zeta, alfa, mike] = await runnersNamed(tag, ['Zeta', 'Alfa', 'Mike']);
    await signUp(t.app, { name: `Felhasználó ${tag}` });
    const pages = await allPages(`/api/runners?q=${tag}&limit=2`, admin.cookie);
    expect(pages.map((page) => page.map((r) => r.userName))).toEqual([
      [alfa?.account.userName, mike?.account.userName],
      [zeta?.account.userName],
    ]);
    const response = await call('GET', `/api/runners?q=${tag}`, admin.cookie);
    expect(response.json().items[0]).toEqual({ ...alfa?.account, rating: null, parcelsInTransit: 0 });
    expect(response.json().items[0]).toMatchObject({ role: 'runner', status: 'inactive' });
    expectNoSecrets(response.body, alfa?.password);
  });

  it('searches name case- and accent-insensitively, and user name in any case', async () => {
    const tag = uniqueTag();
    const [adam] = await runnersNamed(tag, ['Ádám Őrs']);
    const byName = await call(
      'GET',
      `/api/runners?q=${encodeURIComponent(`adam ors ${tag}`.toUpperCase())}`,
      admin.cookie,
    );
    expect(byName.json().items.map((r: { userName: string }) => r.userName)).toEqual([adam?.account.userName]);
    const byAccent = await call('GET', `/api/runners?q=${encodeURIComponent(`ádám őrs ${tag}`)}`, admin.cookie);
    expect(byAccent.json().items).toHaveLength(1);
    const byUserName = await call('GET', `/api/runners?q=${adam?.account.userName.toUpperCase()}`, admin.cookie);
    expect(byUserName.json().items.map((r: { userName: string }) => r.userName)).toEqual([adam?.account.userName]);
    // LIKE wildcards are plain characters in a search.
    expect((await call('GET', `/api/runners?q=${tag}%25_`, admin.cookie)).json().items).toEqual([]);
  });

  it('orders by distance from a parcel’s pickup point with near=, runners without a position last', async () => {
    const tag = uniqueTag();
    const [far, unknown, near, alsoUnknown] = await runnersNamed(tag, ['Bea', 'Cecil', 'Dóra', 'Aba']);
    const parcel = await sendParcel(t.app, user.cookie, { senderCoordinates: { lat: 47.4979, lng: 19.0402 } });
    await placeRunner(t.store, String(near?.account.userName), { lat: 47.5, lng: 19.05 });
    await placeRunner(t.store, String(far?.account.userName), { lat: 46.253, lng: 20.148 });
    const pages = await allPages(`/api/runners?q=${tag}&near=${parcel.id.toLowerCase()}&limit=1`, admin.cookie);
    const items = pages.flat();
    expect(items.map((r) => r.userName)).toEqual([
      near?.account.userName,
      far?.account.userName,
      alsoUnknown?.account.userName,
      unknown?.account.userName,
    ]);
    // Great-circle metres: about 800 m across Budapest, about 161 km to Szeged.
    expect(items[0]?.distanceMetres).toBeGreaterThan(700);
    expect(items[0]?.distanceMetres).toBeLessThan(900);
    expect(items[1]?.distanceMetres).toBeGreaterThan(155_000);
    expect(items[1]?.distanceMetres).toBeLessThan(165_000);
    expect(items[2]?.distanceMetres).toBeNull();
    expect(items[3]?.distanceMetres).toBeNull();
  });

  it('refuses anonymous callers (401), users and runners (403)', async () => {
    const anonymous = await call('GET', '/api/runners');
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json().error.code).toBe('sign_in_required');
    const asUser = await call('GET', '/api/runners', user.cookie);
    expect(asUser.statusCode).toBe(403);
    expect(asUser.json().error.code).toBe('forbidden');
    const refused = await call('GET', '/api/runners', runner.cookie);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toEqual({ code: 'forbidden', message: messages.forbidden });
  });

  it.each([
    ['limit=0', 'limit', 'invalid_body'],
    ['limit=201', 'limit', 'invalid_body'],
    ['near=nem-azonosito', 'near', 'invalid_body'],
    ['near=ZZZZZZZZZZ', 'near', 'near_parcel_not_found'],
    ['cursor=nem-cursor', 'cursor', 'invalid_cursor'],
    [`q=${'x'.repeat(101)}`, 'q', 'invalid_body'],
  ])('refuses %s with 400 naming %s (%s)', async (query, field, code) => {
    const response = await call('GET', `/api/runners?${query}`, admin.cookie);
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe(code);
    expect(Object.keys(response.json().error.fields)).toEqual([field]);
  });
});

describe('POST /api/runners', () => {
  it('registers an inactive runner who can sign in, leaving the superadmin signed in as themself', async () => {
    const body = buildRegistration({ email: 'Uj.Futar.Nagybetu@Example.hu' });
    const { role: _role, ...payload } = body;
    const response = await call('POST', '/api/runners', admin.cookie, payload);
    expect(response.statusCode).toBe(201);
    expect(response.json()).toEqual({
      account: {
        userName: body.userName,
        name: body.name,
        email: 'uj.futar.nagybetu@example.hu',
        emailVerified: false,
        pendingEmail: null,
        phoneNumber: body.phoneNumber,
        address: body.address,
        role: 'runner',
        status: 'inactive',
        standing: { state: 'approved', suspendedReason: null },
        language: null,
      },
    });
    expect(response.cookies).toHaveLength(0);
    expectNoSecrets(response.body, String(body.password));
    expect((await me(admin.cookie)).json().account.role).toBe('superadmin');
    const signedIn = await signIn('uj.futar.nagybetu@example.hu', String(body.password));
    expect(signedIn.json().account.role).toBe('runner');
  });

  it('ignores a role in the body: it is always a runner', async () => {
    const response = await call('POST', '/api/runners', admin.cookie, buildRegistration({ role: 'superadmin' }));
    expect(response.statusCode).toBe(201);
    expect(response.json().account.role).toBe('runner');
  });

  it('refuses a taken user name or email with 409 naming the field', async () => {
    const taken = await call(
      'POST',
      '/api/runners',
      admin.cookie,
      buildRegistration({ userName: runner.account.userName }),
    );
    expect(taken.statusCode).toBe(409);
    expect(taken.json().error.code).toBe('user_name_taken');
    expect(taken.json().error.fields).toEqual({ userName: messages.userNameTaken });
    const email = await call('POST', '/api/runners', admin.cookie, buildRegistration({ email: user.account.email }));
    expect(email.statusCode).toBe(409);
    expect(email.json().error.code).toBe('email_taken');
    expect(email.json().error.fields).toEqual({ email: messages.emailTaken });
  });

  it.each([
    ['name', ''],
    ['userName', 'ékezetes'],
    ['email', 'nem-email'],
    ['password', '12345'],
    ['phoneNumber', undefined],
    ['address', '  '],
  ])('refuses a bad %s with 400 naming it, and saves nothing', async (field, value) => {
    const body = buildRegistration({ [field]: value });
    const response = await call('POST', '/api/runners', admin.cookie, body);
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe('invalid_body');
    expect(Object.keys(response.json().error.fields)).toEqual([field]);
    const saved = await t.store.db
      .selectFrom('accounts')
      .select('id')
      .where('email', '=', String(body.email))
      .execute();
    expect(saved).toHaveLength(0);
  });

  it('refuses anonymous callers (401), users and runners (403), saving nothing', async () => {
    for (const [cookie, status, code] of [
      [undefined, 401, 'sign_in_required'],
      [user.cookie, 403, 'forbidden'],
      [runner.cookie, 403, 'forbidden'],
    ] as const) {
      const body = buildRegistration();
      const response = await call('POST', '/api/runners', cookie, body);
      expect(response.statusCode).toBe(status);
      expect(response.json().error.code).toBe(code);
      const saved = await t.store.db.selectFrom('accounts').select('id').where('email', '=', body.email).execute();
      expect(saved).toHaveLength(0);
    }
  });
});

describe('GET /api/runners/:userName', () => {
  it('shows a runner to themself and to the superadmin, without secrets', async () => {
    const own = await call('GET', `/api/runners/${runner.account.userName.toUpperCase()}`, runner.cookie);
    expect(own.statusCode).toBe(200);
    // With the back office's trust in them beside the account (issue 15).
    const trust = { approvedAt: expect.any(String), suspendedAt: null, suspendedReason: null, openReports: 0 };
    expect(own.json()).toEqual({ account: runner.account, trust });
    expectNoSecrets(own.body, runner.password);
    expect((await call('GET', `/api/runners/${runner.account.userName}`, admin.cookie)).json()).toEqual({
      account: runner.account,
      trust,
    });
  });

  it('refuses another runner and users (403, even for unknown names) and anonymous callers (401)', async () => {
    const other = await signUp(t.app, { role: 'runner' });
    for (const [url, cookie] of [
      [`/api/runners/${runner.account.userName}`, other.cookie],
      ['/api/runners/nincs_ilyen', other.cookie],
      [`/api/runners/${user.account.userName}`, user.cookie],
    ]) {
      const response = await call('GET', String(url), cookie);
      expect(response.statusCode).toBe(403);
      expect(response.json().error.code).toBe('forbidden');
    }
    const anonymous = await call('GET', `/api/runners/${runner.account.userName}`);
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json().error.code).toBe('sign_in_required');
  });

  it('answers the superadmin 404 for unknown names and for accounts that are not runners, 400 for a malformed name', async () => {
    for (const name of ['nincs_ilyen_futar', user.account.userName, admin.account.userName]) {
      const response = await call('GET', `/api/runners/${name}`, admin.cookie);
      expect(response.statusCode).toBe(404);
      expect(response.json().error).toEqual({ code: 'runner_not_found', message: messages.runnerNotFound });
    }
    const malformed = await call('GET', '/api/runners/ék', admin.cookie);
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().error.code).toBe('invalid_body');
    expect(Object.keys(malformed.json().error.fields)).toEqual(['userName']);
  });
});

describe('PATCH /api/runners/:userName', () => {
  it('lets a runner edit name, phone, address and password; the role and email stay', async () => {
    const own = await signUp(t.app, { role: 'runner' });
    const response = await call('PATCH', `/api/runners/${own.account.userName}`, own.cookie, {
      name: 'Új Futárnév',
      phoneNumber: '+36 70 555 1234',
      address: '4025 Debrecen, Piac utca 1',
      password: 'uj-futar-jelszo',
      email: own.account.email,
      userName: own.account.userName,
      role: 'superadmin',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().account).toEqual({
      ...own.account,
      name: 'Új Futárnév',
      phoneNumber: '+36 70 555 1234',
      address: '4025 Debrecen, Piac utca 1',
    });
    expectNoSecrets(response.body, 'uj-futar-jelszo');
    expect((await accountRow(t.store, own.account.userName)).role).toBe('runner');
    expect((await signIn(own.account.email, 'uj-futar-jelszo')).statusCode).toBe(200);
    expect((await me(own.cookie)).json().account.userName).toBe(own.account.userName);
  });

  it('lets the superadmin set a new password, which signs the runner out everywhere', async () => {
    const other = await signUp(t.app, { role: 'runner' });
    const response = await call('PATCH', `/api/runners/${other.account.userName}`, admin.cookie, {
      name: 'Admin Által Átírt',
      password: 'admin-adta-jelszo',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().account.name).toBe('Admin Által Átírt');
    expect((await me(other.cookie)).json().account).toBeNull();
    expect((await signIn(other.account.email, other.password)).statusCode).toBe(401);
    expect((await signIn(other.account.email, 'admin-adta-jelszo')).statusCode).toBe(200);
    expect((await me(admin.cookie)).json().account.role).toBe('superadmin');
  });

  it.each([
    ['email', 'mas.cim@example.hu', 'email_read_only', messages.emailReadOnlyForRunner],
    ['userName', 'mas_nev', 'user_name_read_only', messages.userNameReadOnly],
    ['name', '', 'invalid_body', messages.required],
    ['phoneNumber', '  ', 'invalid_body', messages.required],
    ['password', '123', 'invalid_body', messages.passwordMin],
  ])('refuses a changed or bad %s with 400 (%s) naming it, changing nothing', async (field, value, code, message) => {
    const own = await signUp(t.app, { role: 'runner' });
    const before = await accountRow(t.store, own.account.userName);
    const response = await call('PATCH', `/api/runners/${own.account.userName}`, admin.cookie, {
      address: '6720 Szeged, Kárász utca 1',
      [field]: value,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe(code);
    expect(response.json().error.fields).toEqual({ [field]: message });
    expect(await accountRow(t.store, own.account.userName)).toEqual(before);
  });

  it('refuses another runner and users (403), anonymous callers (401), changing nothing', async () => {
    const target = await signUp(t.app, { role: 'runner' });
    const other = await signUp(t.app, { role: 'runner' });
    const before = await accountRow(t.store, target.account.userName);
    for (const [cookie, status, code] of [
      [other.cookie, 403, 'forbidden'],
      [user.cookie, 403, 'forbidden'],
      [undefined, 401, 'sign_in_required'],
    ] as const) {
      const response = await call('PATCH', `/api/runners/${target.account.userName}`, cookie, { name: 'Betörő' });
      expect(response.statusCode).toBe(status);
      expect(response.json().error.code).toBe(code);
    }
    expect(await accountRow(t.store, target.account.userName)).toEqual(before);
  });

  it('does not edit users through the runner route (404 for the superadmin)', async () => {
    const response = await call('PATCH', `/api/runners/${user.account.userName}`, admin.cookie, { name: 'Nem futár' });
    expect(response.statusCode).toBe(404);
    expect(response.json().error.code).toBe('runner_not_found');
    expect((await accountRow(t.store, user.account.userName)).name).toBe(user.account.name);
  });
});

describe('DELETE /api/runners/:userName', () => {
  it('refuses while the runner carries parcels, naming them, and deletes nothing', async () => {
    const carrier = await signUp(t.app, { role: 'runner' });
    const carrierRow = await accountRow(t.store, carrier.account.userName);
    const parcels = [await sendParcel(t.app, user.cookie), await sendParcel(t.app, user.cookie)];
    for (const parcel of parcels) await claimParcel(t.app.changeFeed, parcel.id, carrierRow, carrierRow, 'picked_up');
    const response = await call('DELETE', `/api/runners/${carrier.account.userName}`, admin.cookie);
    expect(response.statusCode).toBe(409);
    expect(response.json().error.code).toBe('runner_carries_parcels');
    // Named oldest first: two parcels sent within one millisecond may come in either order.
    const ids = parcels.map((parcel) => parcel.id);
    expect([
      messages.runnerCarriesParcels(ids.join(', ')),
      messages.runnerCarriesParcels(ids.toReversed().join(', ')),
    ]).toContain(response.json().error.message);
    expect(await accountRow(t.store, carrier.account.userName)).toEqual(carrierRow);
    expect((await me(carrier.cookie)).json().account.userName).toBe(carrier.account.userName);
    for (const parcel of parcels) expect((await parcelRow(t.store, parcel.id))?.runner_id).toBe(carrierRow.id);
  });

  it('deletes a runner who carries nothing: sessions go, delivered parcels keep their history', async () => {
    const leaving = await signUp(t.app, { role: 'runner' });
    const leavingRow = await accountRow(t.store, leaving.account.userName);
    const parcel = await sendParcel(t.app, user.cookie);
    await claimParcel(t.app.changeFeed, parcel.id, leavingRow, leavingRow, 'picked_up');
    await deliverParcel(t.app.changeFeed, parcel.id, leavingRow, { kind: 'delivered', runnerId: leavingRow.id });

    const response = await call('DELETE', `/api/runners/${leaving.account.userName}`, admin.cookie);
    expect(response.statusCode).toBe(204);
    const gone = await call('GET', `/api/runners/${leaving.account.userName}`, admin.cookie);
    expect(gone.statusCode).toBe(404);
    expect(gone.json().error.code).toBe('runner_not_found');
    expect((await me(leaving.cookie)).json().account).toBeNull();
    expect((await signIn(leaving.account.email, leaving.password)).statusCode).toBe(401);

    const kept = await call('GET', `/api/parcels/${parcel.id}`, user.cookie);
    expect(kept.json()).toMatchObject({ status: 'delivered', runner: null });
    expect(kept.json().deliveredAt).not.toBeNull();
    const timeline = await eventsOf(t.store, parcel.id);
    expect(timeline.map((e) => e.kind)).toEqual(['created', 'picked_up', 'delivered', 'edited']);
    expect(timeline.at(-1)).toMatchObject({ actor_id: (await accountRow(t.store, admin.account.userName)).id });
    expect(JSON.parse(String(timeline.at(-1)?.data))).toEqual({ runnerDeleted: leaving.account.userName });
    // The runner's own entries no longer point at an account id a newcomer could inherit.
    expect(timeline.filter((e) => e.actor_id === leavingRow.id)).toEqual([]);
  });

  it('answers 404 for unknown names and accounts that are not runners, deleting nothing', async () => {
    const unknown = await call('DELETE', '/api/runners/nincs_ilyen_futar', admin.cookie);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error.code).toBe('runner_not_found');
    const response = await call('DELETE', `/api/runners/${user.account.userName}`, admin.cookie);
    expect(response.statusCode).toBe(404);
    expect(response.json().error).toEqual({ code: 'runner_not_found', message: messages.runnerNotFound });
    expect((await me(user.cookie)).json().account.userName).toBe(user.account.userName);
  });

  it('refuses anonymous callers (401), users and runners — even themselves — (403)', async () => {
    const target = await signUp(t.app, { role: 'runner' });
    for (const [cookie, status, code] of [
      [undefined, 401, 'sign_in_required'],
      [user.cookie, 403, 'forbidden'],
      [runner.cookie, 403, 'forbidden'],
      [target.cookie, 403, 'forbidden'],
    ] as const) {
      const response = await call('DELETE', `/api/runners/${target.account.userName}`, cookie);
      expect(response.statusCode).toBe(status);
      expect(response.json().error.code).toBe(code);
    }
    expect((await me(target.cookie)).json().account.userName).toBe(target.account.userName);
  });
});
