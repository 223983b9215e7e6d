import type { Page } from '@playwright/test';
import {
  budapestToSzeged,
  expect,
  fillAccountForm,
  marker,
  newPerson,
  parcelFromNewSender,
  registerViaApi,
  runnerContext,
  sendParcelViaApi,
  test,
} from './fixtures.ts';

// Issue 27, item 3: every new page starts at its top; going back finds a list where it was left.
test.use({ viewport: { width: 390, height: 844 } });

const scrollY = (page: Page) => page.evaluate(() => Math.round(window.scrollY));

/** Scrolls the page to its end and says how far down that is. */
async function scrollToEnd(page: Page) {
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  await expect.poll(() => scrollY(page)).toBeGreaterThan(100);
  return scrollY(page);
}

test.describe('a new page starts at its top', () => {
  test('after registering, the dashboard opens at its top', async ({ page }) => {
    await page.goto('/FelhasznaloRegisztracio');
    await fillAccountForm(page, newPerson('user'));
    await scrollToEnd(page);
    await page.getByRole('button', { name: 'Regisztráció' }).click();
    await expect(page).toHaveURL('/FelhasznaloDashboard');
    await expect(page.getByRole('heading', { level: 1 })).toBeInViewport();
    expect(await scrollY(page)).toBe(0);
  });

  test("after 'Feladás', the tracking page opens with the parcel's id in view", async ({ page }) => {
    await registerViaApi(page.request, newPerson('user'));
    await page.goto('/CsomagFeladas');
    await page.getByLabel('Feladási cím').fill(budapestToSzeged.senderAddress);
    await page.getByLabel('Kiszállítási cím').fill(budapestToSzeged.receiverAddress);
    await page.getByLabel('Kategória').fill('Könyv');
    await page.getByLabel(/^Súly/).fill('850');
    await expect(marker(page, 'Kiszállítási pont')).toBeVisible();
    await page.getByRole('button', { name: 'Feladás' }).scrollIntoViewIfNeeded();
    expect(await scrollY(page)).toBeGreaterThan(100);
    await page.getByRole('button', { name: 'Feladás' }).click();
    await expect(page).toHaveURL(/\/CsomagKovetes\/[0-9A-Z]{10}$/);
    const parcelId = page.url().split('/').pop() ?? '';
    const id = page.getByRole('definition').filter({ hasText: parcelId });
    await expect(id).toBeVisible();
    await expect(id).toBeInViewport();
    expect(await scrollY(page)).toBe(0);
  });

  test("a runner's QR page opens at its top, and a relay QR opened on a card comes into view", async ({ browser }) => {
    const runner = await runnerContext(browser);
    await runner.page.setViewportSize({ width: 390, height: 844 });
    const parcels = [];
    for (let i = 0; i < 2; i++) parcels.push(await parcelFromNewSender(browser));
    for (const parcel of parcels) {
      expect((await runner.context.request.post(`/api/parcels/${parcel.id}/pickup`)).status()).toBe(200);
    }
    const { page } = runner;
    await page.goto('/FolyamatbanLevoCsomagok');
    const last = page.getByRole('article').last();
    await expect(page.getByRole('article')).toHaveCount(2);

    // The relay QR opens below its button on a long card: it is brought into view.
    await last.getByRole('button', { name: 'Átadás másik futárnak' }).scrollIntoViewIfNeeded();
    await page.evaluate(() => window.scrollBy(0, -window.innerHeight / 3));
    await last.getByRole('button', { name: 'Átadás másik futárnak' }).click();
    await expect(last.getByRole('img', { name: 'Futárátadási QR kód' })).toBeInViewport({ ratio: 1 });

    // 'Leadás QR kóddal' from low on the list: the QR page starts at its top.
    await scrollToEnd(page);
    await last.getByRole('button', { name: 'Leadás QR kóddal' }).click();
    await expect(page).toHaveURL('/FutarQr');
    await expect(page.getByRole('heading', { name: 'QR kódos csomagleadás' })).toBeInViewport();
    expect(await scrollY(page)).toBe(0);
    await runner.context.close();
  });
});

test('a list gone back to is where it was left', async ({ page }) => {
  await registerViaApi(page.request, newPerson('user'));
  const sent = [];
  for (let i = 0; i < 6; i++) sent.push(await sendParcelViaApi(page.request, { category: `Doboz ${i}` }));
  await page.goto('/FeladottCsomagok');
  await expect(page.getByRole('article')).toHaveCount(6);
  // The oldest parcel is the last card: scroll to it and open its tracking page.
  const oldest = sent[0]?.id ?? '';
  const link = page.getByRole('article', { name: `Csomag ${oldest}` }).getByRole('link', { name: oldest });
  await link.scrollIntoViewIfNeeded();
  const left = await scrollY(page);
  expect(left).toBeGreaterThan(300);
  await link.click();
  await expect(page).toHaveURL(`/CsomagKovetes/${oldest}`);
  await expect.poll(() => scrollY(page)).toBe(0);

  await page.goBack();
  await expect(page).toHaveURL('/FeladottCsomagok');
  await expect.poll(() => scrollY(page)).toBe(left);
  await expect(link).toBeInViewport();

  // Forward again is a page gone back to as well: it was at its top.
  await page.goForward();
  await expect(page).toHaveURL(`/CsomagKovetes/${oldest}`);
  await expect.poll(() => scrollY(page)).toBe(0);
});
