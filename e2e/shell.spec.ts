import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, expectAccessible, newPerson, registerViaApi, test } from './fixtures.ts';
import { e2eDataDir } from './playwright.config.ts';

test.describe('landing page and shell', () => {
  test('shows the hero, about, useful info and the way in', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1 })).toContainText('Csomagot küldenél?');
    await expect(page.getByRole('heading', { name: 'Rólunk', exact: true })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Hasznos tudnivalók' })).toBeVisible();
    await page.getByRole('link', { name: 'Vágj bele' }).click();
    await expect(page).toHaveURL('/Regisztracio');
    await page.goto('/');
    await page.getByRole('main').getByRole('link', { name: 'Regisztráció' }).click();
    await expect(page).toHaveURL('/Regisztracio');
    await page.goto('/');
    await page.getByRole('main').getByRole('link', { name: 'Bejelentkezés' }).click();
    await expect(page).toHaveURL('/Bejelentkezes');
  });

  test('walks the three testimonials with arrows disabled at both ends', async ({ page }) => {
    await page.goto('/');
    const previous = page.getByRole('button', { name: 'Előző' });
    const next = page.getByRole('button', { name: 'Következő' });
    await expect(previous).toBeDisabled();
    await expect(page.getByText('1 / 3')).toBeVisible();
    await next.click();
    await expect(page.getByText('2 / 3')).toBeVisible();
    await expect(previous).toBeEnabled();
    await next.click();
    await expect(page.getByText('3 / 3')).toBeVisible();
    await expect(page.getByText('Futár, Budapest')).toBeVisible();
    await expect(next).toBeDisabled();
    await previous.click();
    await expect(next).toBeEnabled();
  });

  test('has the footer with social icons and the operator’s three pages, each saying when it is not published', async ({
    page,
  }) => {
    await page.goto('/');
    const footer = page.getByRole('contentinfo');
    for (const name of ['Facebook', 'Instagram', 'YouTube']) {
      await expect(footer.getByRole('link', { name })).toHaveAttribute('href', '#');
    }
    for (const [name, path] of [
      ['Adatvédelmi tájékoztató', '/Adatvedelem'],
      ['Kapcsolat', '/Kapcsolat'],
      ['Impresszum', '/Impresszum'],
    ] as const) {
      await expect(footer.getByRole('link', { name })).toHaveAttribute('href', path);
    }
    // The e2e server starts without demo data: no page is published until the operator writes one.
    await footer.getByRole('link', { name: 'Impresszum' }).click();
    await expect(page).toHaveURL('/Impresszum');
    await expect(page.getByRole('heading', { name: 'Impresszum', level: 1 })).toBeVisible();
    await expect(page.getByText('Az üzemeltető ezt az oldalt még nem tette közzé.')).toBeVisible();
    // The operator writes the contact page as Markdown; it is shown as written, its HTML escaped.
    mkdirSync(join(e2eDataDir ?? '', 'pages'), { recursive: true });
    writeFileSync(
      join(e2eDataDir ?? '', 'pages', 'kapcsolat.md'),
      '# Kapcsolat\n\nÍrj nekünk: **ugyfelszolgalat@pelda.hu**\n\n<script>window.owned = true</script>\n',
    );
    await page.getByRole('contentinfo').getByRole('link', { name: 'Kapcsolat' }).click();
    await expect(page.getByRole('heading', { name: 'Kapcsolat', level: 1 })).toBeVisible();
    await expect(page.getByText('ugyfelszolgalat@pelda.hu')).toBeVisible();
    await expect(page.getByText('<script>window.owned = true</script>')).toBeVisible();
    expect(await page.evaluate(() => 'owned' in window)).toBe(false);
    await expectAccessible(page);
  });

  test('shows the inline bar at 1280 px and the hamburger drawer at 390 px', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto('/');
    const banner = page.getByRole('banner');
    await expect(banner.getByRole('navigation', { name: 'Főmenü' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Menü' })).toHaveCount(0);

    await page.setViewportSize({ width: 390, height: 800 });
    const hamburger = page.getByRole('button', { name: 'Menü' });
    await expect(hamburger).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Főmenü' })).toHaveCount(0);
    const icon = await hamburger.locator('svg').boundingBox();
    expect([icon?.width, icon?.height]).toEqual([24, 20]);
    await hamburger.click();
    const drawer = page.getByRole('navigation', { name: 'Főmenü' });
    await expect(drawer).toBeVisible();
    await drawer.getByRole('link', { name: 'Csomagkövetés' }).click();
    await expect(page).toHaveURL('/CsomagKovetes');
    await expect(page.getByRole('navigation', { name: 'Főmenü' })).toHaveCount(0);
  });

  test('marks the page the menu is on, in the page and back through the history', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto('/');
    const menu = page.getByRole('banner').getByRole('navigation', { name: 'Főmenü' });
    const home = menu.getByRole('link', { name: 'Főoldal', exact: true });
    const tracking = menu.getByRole('link', { name: 'Csomagkövetés', exact: true });
    await expect(home).toHaveAttribute('aria-current', 'page');
    await expect(tracking).not.toHaveAttribute('aria-current', 'page');

    await tracking.click();
    await expect(page).toHaveURL('/CsomagKovetes');
    await expect(tracking).toHaveAttribute('aria-current', 'page');
    await expect(home).not.toHaveAttribute('aria-current', 'page');

    await page.goBack();
    await expect(page).toHaveURL('/');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Csomagot küldenél? Egy szomszéd már viszi is.');
    await expect(home).toHaveAttribute('aria-current', 'page');
    await page.goForward();
    await expect(page).toHaveURL('/CsomagKovetes');
    await expect(tracking).toHaveAttribute('aria-current', 'page');
  });

  test('shows a Hungarian 404 page on an unknown path', async ({ page }) => {
    await page.goto('/NincsIlyenOldal/123');
    await expect(page.getByRole('heading', { name: 'Az oldal nem található (404)' })).toBeVisible();
    await page.getByRole('link', { name: 'Vissza a főoldalra' }).click();
    await expect(page).toHaveURL('/');
  });

  test('passes an accessibility check on the landing, sign-in and registration pages', async ({ page }) => {
    for (const path of ['/', '/Bejelentkezes', '/FelhasznaloRegisztracio']) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
      expect(results.violations.map((v) => `${path}: ${v.id}`)).toEqual([]);
    }
  });
});

test.describe('route guards', () => {
  test('sends an anonymous visitor of a runner page to sign-in', async ({ page }) => {
    await page.goto('/FutarDashboard');
    await expect(page).toHaveURL('/Bejelentkezes');
  });

  test('keeps a user out of the admin map', async ({ page }) => {
    await registerViaApi(page.request, newPerson('user'));
    await page.goto('/SaTerkep');
    await expect(page).toHaveURL('/FelhasznaloDashboard');
  });

  test('keeps a runner out of user pages', async ({ page }) => {
    await registerViaApi(page.request, newPerson('runner'));
    await page.goto('/CsomagFeladas');
    await expect(page).toHaveURL('/FutarDashboard');
  });
});
