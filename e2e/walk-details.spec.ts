import { formatTimestamp } from '@csomag/domain/format';
import { messages } from '@csomag/domain/messages';
import type { Locator, Page } from '@playwright/test';
import {
  budapestToSzeged,
  e2eAdmin,
  expect,
  expectAccessible,
  newPerson,
  registerViaApi,
  runnerContext,
  sendParcelViaApi,
  signInViaApi,
  test,
} from './fixtures.ts';
import { baseURL } from './playwright.config.ts';

// Issue 27, "found on a phone, second walk": small gaps and cosmetics (items 10 and 11).
test.use({ viewport: { width: 390, height: 844 } });

const card = (page: Page, parcelId: string) => page.getByRole('article', { name: `Csomag ${parcelId}` });

/**
 * What does not fit in `boxes`: a word broken over two lines ('Felad/ott'), or text wider than its
 * box. Each word is measured with a Range: a whole word has its rectangles on one line.
 */
function misfits(boxes: Locator) {
  return boxes.evaluateAll((elements) =>
    elements.flatMap((element) => {
      const found: string[] = [];
      const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        for (const word of (node.textContent ?? '').matchAll(/\S+/g)) {
          const range = document.createRange();
          range.setStart(node, word.index);
          range.setEnd(node, word.index + word[0].length);
          const lines = new Set([...range.getClientRects()].map((rect) => Math.round(rect.top)));
          if (lines.size > 1) found.push(`'${word[0]}' is broken`);
        }
      }
      if (element.scrollWidth > element.clientWidth + 1) found.push(`'${element.textContent}' overflows its box`);
      return found;
    }),
  );
}

/** The distinct lines the boxes of `items` start on. */
async function linesOf(items: Locator) {
  const tops = await items.evaluateAll((elements) =>
    elements.map((element) => Math.round(element.getBoundingClientRect().top)),
  );
  return new Set(tops).size;
}

test.describe('the tracking link of a sent parcel', () => {
  test("'Megosztás' hands the link to the phone's share sheet", async ({ page }) => {
    await registerViaApi(page.request, newPerson('user'));
    const parcel = await sendParcelViaApi(page.request);
    await page.addInitScript(() => {
      Object.assign(navigator, {
        share: async (data: ShareData) => {
          Object.assign(window, { shared: data });
        },
      });
    });
    await page.goto('/FeladottCsomagok');
    await card(page, parcel.id).getByRole('button', { name: 'Megosztás' }).click();
    await expect
      .poll(() => page.evaluate(() => (window as { shared?: ShareData }).shared?.url))
      .toBe(`${baseURL}/CsomagKovetes/${parcel.id}`);
  });

  test('without a share sheet it is copied, and said so only once the copy succeeded', async ({ page, context }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await registerViaApi(page.request, newPerson('user'));
    const parcel = await sendParcelViaApi(page.request);
    await page.goto('/FeladottCsomagok');
    const mine = card(page, parcel.id);
    await expect(mine.getByRole('button', { name: 'Megosztás' })).toHaveCount(0);
    await mine.getByRole('button', { name: 'Követési link másolása' }).click();
    await expect(page.getByText('A követési link a vágólapra került.')).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${baseURL}/CsomagKovetes/${parcel.id}`);
    await expectAccessible(page);
  });

  test('a copy that fails is said as a failure, never as copied', async ({ page }) => {
    await registerViaApi(page.request, newPerson('user'));
    const parcel = await sendParcelViaApi(page.request);
    await page.addInitScript(() => {
      Object.defineProperty(navigator, 'clipboard', {
        value: { writeText: () => Promise.reject(new DOMException('denied', 'NotAllowedError')) },
      });
    });
    await page.goto('/FeladottCsomagok');
    await card(page, parcel.id).getByRole('button', { name: 'Követési link másolása' }).click();
    await expect(page.getByText('Nem sikerült a vágólapra másolni.')).toBeVisible();
    await expect(page.getByText('A követési link a vágólapra került.')).toHaveCount(0);
  });
});

test('a saved trip lists where it goes from and to, not only its label', async ({ browser }) => {
  const runner = await runnerContext(browser);
  const label = `Hétvégi út ${Date.now() % 100_000}`;
  const saved = await runner.context.request.post('/api/me/trips', {
    data: {
      label,
      from: { lat: 47.4925, lng: 19.0513 },
      to: { lat: 46.253, lng: 20.1482 },
      mode: 'transit',
      weekdays: [6, 7],
      time: '09:15',
    },
  });
  expect(saved.status(), await saved.text()).toBe(201);
  await runner.page.goto('/FutarUtvonal');
  const trip = runner.page.getByRole('region', { name: 'Mentett útvonalaim' }).getByRole('article', { name: label });
  await expect(trip).toContainText(/Budapest [IVX]+\. kerület → Szeged/);
  await runner.context.close();
});

test("a report's own page has no 'Részletek' link to itself; the list has one per report", async ({
  page,
  browser,
}) => {
  const sender = await browser.newContext({ baseURL });
  await registerViaApi(sender.request, newPerson('user'));
  const parcel = await sendParcelViaApi(sender.request);
  const runner = await runnerContext(browser);
  expect((await runner.context.request.post(`/api/parcels/${parcel.id}/pickup`)).status()).toBe(200);
  await signInViaApi(page.request, e2eAdmin.email, e2eAdmin.password);
  expect((await page.request.post(`/api/parcels/${parcel.id}/deliver`, { data: {} })).status()).toBe(200);
  const reported = await sender.request.post(`/api/parcels/${parcel.id}/not-received`, {
    data: { description: 'Nem kaptam meg.' },
  });
  expect(reported.status(), await reported.text()).toBe(201);
  const report = (await reported.json()) as { id: number };

  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/SaBejelentesek');
  const listed = page.getByRole('article', { name: `Bejelentés #${report.id}` });
  await expect(listed.getByRole('link', { name: 'Részletek' })).toHaveAttribute('href', `/SaBejelentes/${report.id}`);
  await listed.getByRole('link', { name: 'Részletek' }).click();
  await expect(page).toHaveURL(`/SaBejelentes/${report.id}`);
  await expect(page.getByRole('main').getByText('Nem kaptam meg.')).toBeVisible();
  await expect(page.getByRole('main').getByRole('link', { name: 'Részletek' })).toHaveCount(0);
  await sender.close();
  await runner.context.close();
});

test.describe('cosmetics', () => {
  test('tab labels and the sort label keep their words whole at 390 px', async ({ browser }) => {
    const user = await browser.newContext({ baseURL, viewport: { width: 390, height: 844 } });
    await registerViaApi(user.request, newPerson('user'));
    const userPage = await user.newPage();
    await userPage.goto('/FelhasznaloDashboard');
    await expect(userPage.getByRole('tab')).toHaveText(['Nekem címzett', 'Feladott', 'Hasznos tudnivalók']);
    expect(await misfits(userPage.getByRole('tab'))).toEqual([]);

    const runner = await runnerContext(browser);
    await runner.page.setViewportSize({ width: 390, height: 844 });
    await runner.page.goto('/FutarDashboard');
    await expect(runner.page.getByRole('tab')).toHaveCount(3);
    expect(await misfits(runner.page.getByRole('tab'))).toEqual([]);
    await runner.page.getByRole('tab', { name: 'Felvételre vár' }).click();
    await expect(runner.page.getByText('Rendezés', { exact: true })).toBeVisible();
    expect(await misfits(runner.page.locator('.field.inline > label'))).toEqual([]);

    const admin = await browser.newContext({ baseURL, viewport: { width: 390, height: 844 } });
    await signInViaApi(admin.request, e2eAdmin.email, e2eAdmin.password);
    const adminPage = await admin.newPage();
    await adminPage.goto('/SaBejelentesek');
    await expect(adminPage.getByRole('tab')).toHaveCount(2);
    expect(await misfits(adminPage.getByRole('tab'))).toEqual([]);
    for (const context of [user, runner.context, admin]) await context.close();
  });

  test('the timeline says when a step was sent later only when it was, in words that read naturally', async ({
    page,
  }) => {
    await registerViaApi(page.request, newPerson('user'));
    const send = async (occurredAt: string, key: string) => {
      const response = await page.request.post('/api/parcels', {
        data: { ...budapestToSzeged, occurredAt },
        headers: { 'idempotency-key': key },
      });
      expect(response.status(), await response.text()).toBe(201);
      return (await response.json()) as { id: string };
    };
    const tag = `${Date.now()}-${Math.random().toString(36).slice(2)}`;
    // Sent at once (the outbox stamps every action): just 'Feladva'.
    const atOnce = await send(new Date(Date.now() - 1_000).toISOString(), `at-once-${tag}`);
    await page.goto(`/CsomagKovetes/${atOnce.id}`);
    const created = page.locator('.timeline li').first();
    await expect(created).toContainText('Feladva');
    await expect(created).not.toContainText('(');
    await expect(created).not.toContainText('elküldve');

    // Kept offline for ten minutes: the server's time is said beside it.
    const later = await send(new Date(Date.now() - 10 * 60_000).toISOString(), `later-${tag}`);
    const events = (await (await page.request.get(`/api/tracking/${later.id}`)).json()).events as { at: string }[];
    await page.goto(`/CsomagKovetes/${later.id}`);
    await expect(page.locator('.timeline li').first()).toContainText(
      `Feladva ${messages.eventReceivedAt(formatTimestamp(events[0]?.at ?? ''))}`,
    );
    await expect(page.locator('.timeline li').first()).not.toContainText('beérkezett');
  });

  test("the profile's notification switches are one per line", async ({ page }) => {
    const person = newPerson('user');
    await registerViaApi(page.request, person);
    await page.goto(`/FelhasznaloProfil/${person.userName}`);
    const switches = page.getByRole('group', { name: 'Miről kérsz értesítést?' }).getByRole('switch');
    await expect(switches).toHaveCount(13);
    expect(await linesOf(switches)).toBe(13);
  });

  test('the back-office menu fits one line at 1280 px, and on every wider desktop', async ({ page }) => {
    await signInViaApi(page.request, e2eAdmin.email, e2eAdmin.password);
    for (const width of [1280, 1366, 1440, 1920]) {
      await page.setViewportSize({ width, height: 800 });
      await page.goto('/SaCsomagListazas');
      const links = page.getByRole('banner').getByRole('navigation', { name: 'Főmenü' }).getByRole('link');
      await expect(links.last()).toHaveText('Kijelentkezés');
      expect(await linesOf(links), `${width} px`).toBe(1);
      // The brand's name is shown beside it from 1280 px.
      await expect(page.getByRole('banner').getByText('Csomagküldő', { exact: true })).toBeVisible();
    }
  });

  test("the receiver who confirmed a QR reads that they received the parcel, beside SPEC's toast", async ({
    page,
    browser,
  }) => {
    const sender = await browser.newContext({ baseURL });
    await registerViaApi(sender.request, newPerson('user'));
    const parcel = await sendParcelViaApi(sender.request);
    const runner = await runnerContext(browser);
    expect((await runner.context.request.post(`/api/parcels/${parcel.id}/pickup`)).status()).toBe(200);
    const link = (await (await runner.context.request.post(`/api/parcels/${parcel.id}/handover-token`)).json())
      .url as string;
    await page.goto(link);
    await page.getByRole('button', { name: 'Átvétel' }).click();
    await expect(
      page.getByRole('status').filter({ hasText: `Átvetted a(z) ${parcel.id} azonosítójú csomagot.` }),
    ).toBeVisible();
    await expect(page.locator('.Toastify').getByText('Sikeres csomagleadás!')).toBeVisible();
    await sender.close();
    await runner.context.close();
  });

  test('senders read their proof as checked; only the back office reads its SHA-256', async ({ page, browser }) => {
    const senderContext = await browser.newContext({ baseURL });
    await registerViaApi(senderContext.request, newPerson('user'));
    const parcel = await sendParcelViaApi(senderContext.request);
    const runner = await runnerContext(browser);
    expect((await runner.context.request.post(`/api/parcels/${parcel.id}/pickup`)).status()).toBe(200);
    const { readFileSync } = await import('node:fs');
    const photo = readFileSync(new URL('./fixtures/delivery-photo.jpg', import.meta.url));
    const uploaded = await runner.context.request.post(`/api/parcels/${parcel.id}/proof/photo`, {
      multipart: { photo: { name: 'leadas.jpg', mimeType: 'image/jpeg', buffer: photo } },
    });
    expect(uploaded.status(), await uploaded.text()).toBe(201);
    await signInViaApi(page.request, e2eAdmin.email, e2eAdmin.password);
    expect((await page.request.post(`/api/parcels/${parcel.id}/deliver`, { data: {} })).status()).toBe(200);

    const sender = await senderContext.newPage();
    await sender.goto('/FeladottCsomagok');
    const proof = card(sender, parcel.id).getByRole('region', { name: 'Leadási igazolás' });
    await expect(proof.getByRole('img', { name: `Fotó a(z) ${parcel.id} csomag leadásáról` })).toBeVisible();
    await expect(proof.getByText('ellenőrizve')).toBeVisible();
    await expect(proof.getByText(/SHA-256|[0-9a-f]{64}/)).toHaveCount(0);

    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(`/SaCsomagSzerkesztes/${parcel.id}`);
    await expect(
      page.getByRole('region', { name: 'Leadási igazolás' }).getByText(/^SHA-256: [0-9a-f]{64}$/),
    ).toBeVisible();
    await senderContext.close();
    await runner.context.close();
  });
});
