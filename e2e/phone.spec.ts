import { randomInt } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { messages } from '@csomag/domain/messages';
import { paths } from '@csomag/domain/paths';
import type { Browser, Locator, Page } from '@playwright/test';
import {
  decodeQr,
  e2eAdmin,
  expect,
  fillAccountForm,
  newPerson,
  parcelFromNewSender,
  registerViaApi,
  runnerContext,
  sendParcelViaApi,
  signInViaApi,
  test,
} from './fixtures.ts';
import { baseURL } from './playwright.config.ts';

// What walking every screen on a phone found (390×844 unless a test says otherwise).
test.use({ viewport: { width: 390, height: 844 } });

type Who = 'visitor' | 'user' | 'runner' | 'superadmin';
// A page every signed-in role may open is walked as a runner's (the take-over page is theirs).
const whoByAccess: Record<string, Who> = {
  "'public'": 'visitor',
  USER: 'user',
  RUNNER: 'runner',
  ADMIN: 'superadmin',
  SIGNED_IN: 'runner',
};

/** SPEC §2.1's route table as web/src/routes.tsx writes it: each path and who may open it. */
const routesSource = readFileSync(new URL('../web/src/routes.tsx', import.meta.url), 'utf8');
const routeTable = [...routesSource.matchAll(/\{ path: paths\.(\w+), access: ('public'|\w+)/g)].map(
  ([, name = '', access = '']) => ({ path: String(paths[name as keyof typeof paths]), who: whoByAccess[access] }),
);

/** A context of its own client address, signed in as `who` (a visitor stays anonymous). */
async function contextAs(browser: Browser, who: Who, width: number) {
  const context = await browser.newContext({
    baseURL,
    viewport: { width, height: 844 },
    extraHTTPHeaders: { 'x-forwarded-for': `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}` },
  });
  const account =
    who === 'superadmin'
      ? await signInViaApi(context.request, e2eAdmin.email, e2eAdmin.password)
      : who === 'visitor'
        ? null
        : await registerViaApi(context.request, newPerson(who));
  return { context, account, page: await context.newPage() };
}

/** Waits for the page's heading and data, then tells how wide the document is against the window. */
async function widths(page: Page) {
  await expect(page.locator('main h1'), page.url()).toBeAttached();
  await expect(page.getByRole('status').filter({ hasText: 'Betöltés…' })).toHaveCount(0);
  return page.evaluate(async () => {
    await document.fonts.ready;
    return { document: document.documentElement.scrollWidth, window: window.innerWidth };
  });
}

/** The space between two boxes: how far apart they are side by side, or one above the other. */
async function gapBetween(a: Locator, b: Locator) {
  const [first, second] = await Promise.all([a.boundingBox(), b.boundingBox()]);
  if (!first || !second) throw new Error('not on screen');
  const [left, right] = first.x <= second.x ? [first, second] : [second, first];
  const [top, bottom] = first.y <= second.y ? [first, second] : [second, first];
  return Math.max(right.x - (left.x + left.width), bottom.y - (top.y + top.height));
}

test.describe('no screen scrolls sideways on a phone', () => {
  test('the route table is read whole', () => {
    // Every row of the table, SPEC's 29 at least, each with an access this file knows.
    expect(routeTable).toHaveLength(routesSource.match(/\{ path: /g)?.length ?? 0);
    expect(routeTable.length).toBeGreaterThanOrEqual(29);
    expect(routeTable.filter((route) => route.who === undefined || !route.path.startsWith('/'))).toEqual([]);
  });

  for (const width of [320, 390]) {
    test(`every route of SPEC §2.1 fits ${width} px`, async ({ browser }) => {
      test.slow();
      const people = {
        visitor: await contextAs(browser, 'visitor', width),
        user: await contextAs(browser, 'user', width),
        runner: await contextAs(browser, 'runner', width),
        superadmin: await contextAs(browser, 'superadmin', width),
      };
      // Lists with something in them: one parcel on its way with the runner, one waiting.
      const carried = await sendParcelViaApi(people.user.context.request, { category: 'Hosszú nevű kategória' });
      await sendParcelViaApi(people.user.context.request);
      const runnerRequest = people.runner.context.request;
      expect((await runnerRequest.post(`/api/parcels/${carried.id}/pickup`)).status()).toBe(200);
      const link = new URL((await (await runnerRequest.post(`/api/parcels/${carried.id}/handover-token`)).json()).url);
      // /FutarQr shows the parcel chosen on the in-progress list.
      await people.runner.page.goto('/FolyamatbanLevoCsomagok');
      await people.runner.page.getByRole('button', { name: 'Leadás QR kóddal' }).click();

      const overflowing: string[] = [];
      for (const { path, who = 'visitor' } of routeTable) {
        const { page } = people[who];
        // A user opens their own profile; the runner and the back office the runner's.
        const userName = people[who === 'user' ? 'user' : 'runner'].account?.userName ?? '';
        const url =
          path === '/Csomagatvetel'
            ? `${link.pathname}${link.search}`
            : path.replace(':packageId', carried.id).replace(':username', userName).replace(':runnerId', userName);
        await page.goto(url);
        const measured = await widths(page);
        if (measured.document > measured.window) overflowing.push(`${path}: ${measured.document} px`);
      }
      expect(overflowing).toEqual([]);
      for (const { context } of Object.values(people)) await context.close();
    });
  }

  test('the assign page fits a runner whose name is very long', async ({ browser }) => {
    // Its own pickup point, so the long-named runner standing there is the nearest one.
    const point = { lat: 46.07 + randomInt(1000) / 100_000, lng: 18.23 + randomInt(1000) / 100_000 };
    const parcel = await parcelFromNewSender(browser, {
      senderAddress: '7621 Pécs, Széchenyi tér 1',
      senderCoordinates: point,
    });
    const longName = 'Szentgyörgyvölgyi-Kiskunfélegyházi Magdolna Erzsébet Krisztina Alexandra Bernadett Tünde';
    const runner = await browser.newContext({ baseURL });
    await registerViaApi(
      runner.request,
      newPerson('runner', {
        name: longName,
        userName: `futar.${Date.now().toString(36)}${randomInt(1e6)}`.padEnd(32, 'x'),
      }),
    );
    const located = await runner.request.put('/api/runners/me/location', { data: { ...point, accuracy: 5 } });
    expect(located.status()).toBe(204);
    for (const width of [390, 320]) {
      const admin = await contextAs(browser, 'superadmin', width);
      await admin.page.goto('/SaCsomagFutarhozRendeles');
      await admin.page.getByLabel('Csomag', { exact: true }).selectOption(parcel.id);
      await expect(admin.page.getByLabel('Futár').locator('option', { hasText: longName })).toHaveCount(1);
      expect(await widths(admin.page)).toEqual({ document: width, window: width });
      await admin.context.close();
    }
    await runner.close();
  });
});

test.describe('each error shows once, beside its field, until its cause changes', () => {
  test('registration: a taken user name is said once, next to the field, and goes when the field is edited', async ({
    page,
    request,
  }) => {
    const taken = newPerson('user');
    await registerViaApi(request, taken);
    await page.goto('/FelhasznaloRegisztracio');
    await fillAccountForm(page, newPerson('user', { userName: taken.userName }));
    await page.getByRole('button', { name: 'Regisztráció' }).click();
    const message = page.getByText('Ez a felhasználónév már foglalt.');
    await expect(message).toHaveCount(1);
    await expect(page.getByLabel('Felhasználónév')).toHaveAccessibleDescription('Ez a felhasználónév már foglalt.');
    await page.getByLabel('Felhasználónév').fill(`${taken.userName}x`);
    await expect(message).toHaveCount(0);
  });

  test('admin create form: an unplaceable address is said once, and is gone once fixed and another error shows', async ({
    page,
    browser,
  }) => {
    const sender = await parcelFromNewSender(browser);
    await signInViaApi(page.request, e2eAdmin.email, e2eAdmin.password);
    await page.goto('/SaCsomagLetrehozas');
    await page.getByLabel('Feladó felhasználó').fill(sender.senderUser);
    await page.getByLabel('Feladási cím').fill('Nincsilyenfalva, Sehol utca 1');
    await page.getByLabel('Kiszállítási cím').fill('6720 Szeged, Kárász utca 5');
    await page.getByLabel('Kategória').fill('Irat');
    await page.getByLabel('Súly (gramm)').fill('100');
    await page.getByRole('button', { name: 'Létrehoz' }).click();
    const unplaceable = page.getByText(messages.settlementUnknown('Nincsilyenfalva'));
    await expect(unplaceable).toHaveCount(1);
    await expect(page.getByLabel('Feladási cím')).toHaveAccessibleDescription(
      messages.settlementUnknown('Nincsilyenfalva'),
    );

    await page.getByLabel('Feladási cím').fill('1052 Budapest, Váci utca 12');
    await page.getByLabel('Kategória').fill('');
    await page.getByRole('button', { name: 'Létrehoz' }).click();
    await expect(page.getByLabel('Kategória')).toHaveAccessibleDescription('Kötelező mező.');
    await expect(unplaceable).toHaveCount(0);
    await expect(page.getByRole('alert')).toHaveCount(0);
  });
});

test.describe('small things', () => {
  test('each menu fits one line in the desktop header at exactly 1024 px', async ({ browser }) => {
    for (const who of ['visitor', 'user', 'runner', 'superadmin'] as const) {
      const { context, page } = await contextAs(browser, who, 1024);
      await page.goto('/CsomagKovetes');
      const links = page.getByRole('banner').getByRole('navigation', { name: 'Főmenü' }).getByRole('link');
      // The page comes with the visitor's menu; a signed-in person's replaces it once the session is read.
      await expect(links.last()).toHaveText(who === 'visitor' ? 'Csomagkövetés' : 'Kijelentkezés');
      const tops = new Set(
        await Promise.all((await links.all()).map(async (link) => Math.round((await link.boundingBox())?.y ?? -1))),
      );
      expect(tops.size, `${who}'s menu`).toBe(1);
      await context.close();
    }
  });

  test('buttons side by side keep a gap', async ({ page, browser }) => {
    const parcel = await parcelFromNewSender(browser);
    await signInViaApi(page.request, e2eAdmin.email, e2eAdmin.password);
    const button = (name: string) => page.getByRole('main').getByRole('button', { name, exact: true });
    const link = (name: string) => page.getByRole('main').getByRole('link', { name, exact: true });

    await page.goto('/SaCsomagListazas');
    const filterLabel = page.getByRole('main').getByText('Státusz', { exact: true });
    expect(await gapBetween(link('Új csomag'), filterLabel)).toBeGreaterThanOrEqual(8);
    await page.goto(`/SaCsomagSzerkesztes/${parcel.id}`);
    expect(await gapBetween(button('Módosít'), button('Leadás'))).toBeGreaterThanOrEqual(8);
    expect(await gapBetween(button('Leadás'), link('Vissza'))).toBeGreaterThanOrEqual(8);
    await page.goto(`/SaCsomagTorles/${parcel.id}`);
    expect(await gapBetween(button('Törlés'), link('Vissza'))).toBeGreaterThanOrEqual(8);
  });

  test('serves /favicon.ico as an icon', async ({ request }) => {
    const response = await request.get('/favicon.ico', { headers: { accept: 'image/*' } });
    expect(response.status()).toBe(200);
    expect(response.headers()['content-type']).toMatch(/^image\/(x-icon|vnd\.microsoft\.icon)/);
    const ico = await response.body();
    // An ICO directory of one 32×32 image.
    expect([...ico.subarray(0, 8)]).toEqual([0, 0, 1, 0, 1, 0, 32, 32]);
  });

  test('asks for a parcel id when the tracking search is empty', async ({ page }) => {
    await page.goto('/CsomagKovetes');
    await page.getByRole('button', { name: 'Keresés' }).click();
    await expect(page.getByLabel('Csomagazonosító')).toHaveAccessibleDescription('Add meg a csomag azonosítóját.');
    await expect(page).toHaveURL('/CsomagKovetes');
    await page.getByLabel('Csomagazonosító').fill('A');
    await expect(page.getByText('Add meg a csomag azonosítóját.')).toHaveCount(0);
  });

  test('the QR page copies the handover link and shares it through the share sheet', async ({ browser }) => {
    const parcel = await parcelFromNewSender(browser);
    const runner = await runnerContext(browser);
    await runner.context.grantPermissions(['clipboard-read', 'clipboard-write']);
    // Chromium on Linux has no share sheet: stand one in that remembers what it was given.
    await runner.page.addInitScript(() => {
      Object.assign(navigator, {
        share: async (data: ShareData) => {
          Object.assign(window, { shared: data });
        },
      });
    });
    expect((await runner.context.request.post(`/api/parcels/${parcel.id}/pickup`)).status()).toBe(200);
    await runner.page.goto('/FolyamatbanLevoCsomagok');
    await runner.page.getByRole('button', { name: 'Leadás QR kóddal' }).click();
    const qr = runner.page.getByRole('img', { name: 'Átvételi QR kód' });
    await expect(qr).toBeVisible();
    // The code is drawn once the signed link has arrived: read it as a camera would, until it is there.
    let link = '';
    await expect(async () => {
      link = await decodeQr(qr);
    }).toPass();

    await runner.page.getByRole('button', { name: 'Link másolása' }).click();
    await expect(runner.page.getByText('A link a vágólapra került.')).toBeVisible();
    expect(await runner.page.evaluate(() => navigator.clipboard.readText())).toBe(link);
    await runner.page.getByRole('button', { name: 'Megosztás' }).click();
    await expect.poll(() => runner.page.evaluate(() => (window as { shared?: ShareData }).shared?.url)).toBe(link);
    await runner.context.close();
  });

  test('a QR link opened again after the handover says the parcel was handed over', async ({ page, browser }) => {
    const parcel = await parcelFromNewSender(browser);
    const runner = await runnerContext(browser);
    expect((await runner.context.request.post(`/api/parcels/${parcel.id}/pickup`)).status()).toBe(200);
    const link = (await (await runner.context.request.post(`/api/parcels/${parcel.id}/handover-token`)).json()).url;
    await page.goto(link);
    await page.getByRole('button', { name: 'Átvétel' }).click();
    await expect(page.getByText('Sikeres csomagleadás!').first()).toBeVisible();
    await page.reload();
    await expect(page.getByRole('alert')).toHaveText('Ezt a csomagot már átvették.');
    await runner.context.close();
  });

  test('offers no share button where the browser has no share sheet', async ({ browser }) => {
    const parcel = await parcelFromNewSender(browser);
    const runner = await runnerContext(browser);
    expect((await runner.context.request.post(`/api/parcels/${parcel.id}/pickup`)).status()).toBe(200);
    await runner.page.goto('/FolyamatbanLevoCsomagok');
    await runner.page.getByRole('button', { name: 'Leadás QR kóddal' }).click();
    await expect(runner.page.getByRole('button', { name: 'Link másolása' })).toBeVisible();
    await expect(runner.page.getByRole('button', { name: 'Megosztás' })).toHaveCount(0);
    await runner.context.close();
  });
});
