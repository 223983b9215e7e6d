import type { Page } from '@playwright/test';
import { expect, fillAccountForm, holdBack, newPerson, registerViaApi, test } from './fixtures.ts';
import { baseURL } from './playwright.config.ts';

/**
 * A home server is reached by a LAN name over plain HTTP (no TLS, not localhost): Chromium maps
 * this name to the e2e server (--host-resolver-rules in playwright.config.ts). Nothing the server
 * sends may move the page off that origin — an upgrade-insecure-requests in the CSP, say, sends
 * every asset to https:// where nothing answers.
 */
const lanOrigin = `http://csomagkuldo.lan:${new URL(baseURL).port}`;

/** Every network request a page makes, and those that failed or were answered with an error. */
function watchTraffic(page: Page) {
  const urls: string[] = [];
  const problems: string[] = [];
  page.on('request', (request) => {
    // data: and blob: URLs never reach the network.
    if (!/^(data|blob):/.test(request.url())) urls.push(request.url());
  });
  page.on('requestfailed', (request) => problems.push(`${request.url()}: ${request.failure()?.errorText}`));
  page.on('response', (response) => {
    if (response.status() >= 400) problems.push(`${response.url()}: HTTP ${response.status()}`);
  });
  return {
    /** Settles the page, then checks that every request so far stayed on the plain-HTTP LAN origin and succeeded. */
    async expectAllServedFromLanOrigin() {
      await page.waitForLoadState('networkidle');
      expect(urls.length, 'the page loaded its assets').toBeGreaterThan(1);
      expect(urls.filter((url) => !url.startsWith(`${lanOrigin}/`))).toEqual([]);
      expect(problems).toEqual([]);
    },
  };
}

test.describe('serving on a LAN host name over plain HTTP', () => {
  test('shows the landing page with every asset from the same http:// origin', async ({ page }) => {
    const traffic = watchTraffic(page);
    await page.goto(`${lanOrigin}/`);
    await traffic.expectAllServedFromLanOrigin();
    await expect(
      page.getByRole('heading', { level: 1, name: 'Csomagot küldenél? Egy szomszéd már viszi is.' }),
    ).toBeVisible();
    expect(page.url()).toBe(`${lanOrigin}/`);
  });

  test('registers and opens a signed-in page with the session kept over http://', async ({ page }) => {
    const registration = watchTraffic(page);
    await page.goto(`${lanOrigin}/FelhasznaloRegisztracio`);
    await registration.expectAllServedFromLanOrigin();
    await fillAccountForm(page, newPerson('user'));
    await page.getByRole('button', { name: 'Regisztráció' }).click();
    await expect(page).toHaveURL(`${lanOrigin}/FelhasznaloDashboard`);
    await registration.expectAllServedFromLanOrigin();

    // A fresh load of a guarded page: the session cookie set over plain HTTP must come back.
    const guarded = await page.context().newPage();
    const traffic = watchTraffic(guarded);
    await guarded.goto(`${lanOrigin}/FelhasznaloDashboard`);
    await traffic.expectAllServedFromLanOrigin();
    await expect(guarded.getByRole('heading', { level: 1, name: 'Áttekintés' })).toBeVisible();
    await expect(guarded.getByText('Még nem adtál fel csomagot.')).toBeVisible();
    await expect(guarded).toHaveURL(`${lanOrigin}/FelhasznaloDashboard`);
    await traffic.expectAllServedFromLanOrigin();
  });
});

/**
 * The sign-in and registration pages are rendered at build time: a person on a slow phone sees
 * the form and can type before its script has arrived. Holding back the page's own chunk makes
 * that moment long enough to act in.
 */
test.describe('a form shown before its script has arrived', () => {
  test('keeps what was typed, is never sent by the browser itself, and signs in afterwards', async ({
    page,
    request,
  }) => {
    const person = newPerson('user');
    await registerViaApi(request, person);
    const script = holdBack();
    await page.route(/\/assets\/login-page-[\w-]+\.js$/, script.handler);
    await page.goto('/Bejelentkezes');
    const button = page.getByRole('button', { name: 'Bejelentkezés' });
    await expect(button).toBeDisabled();
    await page.getByLabel('Email').fill(person.email);
    await page.getByLabel('Jelszó').fill(person.password);
    // Enter in a field is how a form is usually sent: the browser must not do it (the fields would land in the URL).
    await page.getByLabel('Jelszó').press('Enter');
    expect(page.url()).not.toContain('?');

    script.release();
    await expect(button).toBeEnabled();
    await expect(page.getByLabel('Email')).toHaveValue(person.email);
    await button.click();
    await expect(page).toHaveURL('/FelhasznaloDashboard');
  });

  test('keeps a registration typed in early and registers with it', async ({ page }) => {
    const script = holdBack();
    await page.route(/\/assets\/register-page-[\w-]+\.js$/, script.handler);
    await page.goto('/FelhasznaloRegisztracio');
    await expect(page.getByRole('button', { name: 'Regisztráció' })).toBeDisabled();
    const person = newPerson('user');
    await fillAccountForm(page, person);

    script.release();
    await expect(page.getByRole('button', { name: 'Regisztráció' })).toBeEnabled();
    await expect(page.getByLabel('Felhasználónév', { exact: true })).toHaveValue(person.userName);
    await page.getByRole('button', { name: 'Regisztráció' }).click();
    await expect(page).toHaveURL('/FelhasznaloDashboard');
  });
});
