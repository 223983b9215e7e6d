import { en } from '@csomag/domain/messages-en';
import type { Page } from '@playwright/test';
import {
  budapestToSzeged,
  expect,
  expectAccessible,
  newPerson,
  registerViaApi,
  runnerContext,
  sendParcelViaApi,
  test,
} from './fixtures.ts';
import { baseURL } from './playwright.config.ts';

/*
 * Issue 30: English beside Hungarian. A person switches on the landing page, signs up, sends a
 * parcel and tracks it in English; the choice survives a reload and a new sign-in elsewhere; a
 * runner's pages read in English at phone size; the server's refusals come in English too.
 */
test.use({ viewport: { width: 390, height: 844 } });

const noSidewaysScroll = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth);

test('switched to English on the landing page: sign up, send, track — kept on reload and on another browser', async ({
  page,
  browser,
}) => {
  test.slow();
  await page.goto('/');
  await expect(page.locator('html')).toHaveAttribute('lang', 'hu');
  await page.getByRole('button', { name: 'English' }).click();
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await expect(page.getByRole('heading', { name: en.landingTitle })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Magyar' })).toBeVisible();
  await expectAccessible(page);
  expect(await noSidewaysScroll(page)).toBe(true);

  // Sign up in English; the account keeps the language chosen before it existed.
  const person = newPerson('user');
  await page.getByRole('link', { name: en.landingRegister }).first().click();
  await page.getByRole('link', { name: en.registerAsUser }).click();
  await page.getByLabel(en.nameLabel, { exact: true }).fill(person.name);
  await page.getByLabel(en.userNameLabel).fill(person.userName);
  await page.getByLabel(en.emailLabel).fill(person.email);
  await page.getByLabel(en.passwordLabel).fill(person.password);
  await page.getByLabel(en.phoneNumberLabel).fill(person.phoneNumber);
  await page.getByLabel(en.addressLabel, { exact: true }).fill(person.address);
  await page.getByRole('button', { name: en.registerSubmit }).click();
  await expect(page).toHaveURL('/FelhasznaloDashboard');
  await expect(page.getByRole('button', { name: en.menuButtonLabel })).toBeVisible();
  await expect.poll(async () => (await (await page.request.get('/api/auth/me')).json()).account.language).toBe('en');

  // Send a parcel: the form, its check and its toast in English.
  await page.goto('/CsomagFeladas');
  await page.getByLabel(en.senderAddressLabel).fill(budapestToSzeged.senderAddress);
  await page.getByLabel(en.receiverAddressLabel).fill(budapestToSzeged.receiverAddress);
  await page.getByLabel(en.categoryLabel).fill('Books');
  await page.getByLabel(en.weightGramsLabel).fill('850');
  await page.getByRole('button', { name: en.sendParcelSubmit }).click();
  await expect(page.getByText(en.parcelSent)).toBeVisible();
  await expect(page).toHaveURL(/\/CsomagKovetes\/[0-9A-Z]{10}$/);
  await expect(page.getByText(en.statusWaiting, { exact: true }).first()).toBeVisible();
  await expect(page.getByRole('region', { name: en.timelineTitle })).toContainText(en.eventCreated);
  // Dates as English writes them, day first ('29/11/2026, 15:20:00'), not the Hungarian year first.
  await expect(page.getByRole('region', { name: en.timelineTitle }).locator('time').first()).toHaveText(
    /^\d{2}\/\d{2}\/\d{4}, \d{2}:\d{2}:\d{2}$/,
  );
  await expectAccessible(page);

  // A reload keeps it: the server sends the page rendered in English at build time (the switch's
  // cookie), which the app takes over in place.
  const reloaded = await page.reload();
  expect(await reloaded?.text()).toContain('<html lang="en">');
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await expect(page.getByRole('region', { name: en.timelineTitle })).toBeVisible();

  // Another browser, Hungarian by default: signing in brings the account's English.
  const elsewhere = await browser.newContext({ baseURL, viewport: { width: 390, height: 844 } });
  const other = await elsewhere.newPage();
  await other.goto('/Bejelentkezes');
  await expect(other.locator('html')).toHaveAttribute('lang', 'hu');
  await other.getByLabel('Email').fill(person.email);
  await other.getByLabel('Jelszó').fill(person.password);
  await other.getByRole('button', { name: 'Bejelentkezés' }).click();
  await expect(other.locator('html')).toHaveAttribute('lang', 'en');
  await expect(other.getByRole('button', { name: 'Magyar' })).toBeVisible();
  await elsewhere.close();
});

test('the switch works where the browser refuses local storage: the cookie keeps the choice, and the server sends the page in it', async ({
  page,
}) => {
  await page.addInitScript(() => {
    Object.defineProperty(window, 'localStorage', {
      get() {
        throw new DOMException('The operation is insecure.', 'SecurityError');
      },
    });
  });
  await page.goto('/');
  await expect(page.locator('html')).toHaveAttribute('lang', 'hu');
  await page.getByRole('button', { name: 'English' }).click();
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await expect(page.getByRole('heading', { name: en.landingTitle })).toBeVisible();
  const reloaded = await page.reload();
  expect(await reloaded?.text()).toContain('<html lang="en">');
  await expect(page.getByRole('button', { name: 'Magyar' })).toBeEnabled();
});

test('the server’s refusals come in the page’s language', async ({ page }) => {
  await page.goto('/Bejelentkezes');
  await page.getByRole('button', { name: 'English' }).click();
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  const form = page.getByRole('main');
  await form.getByLabel(en.emailLabel).fill('senki.sincs@example.hu');
  await form.getByLabel(en.passwordLabel).fill('rossz-jelszo');
  await form.getByRole('button', { name: en.signInSubmit }).click();
  await expect(page.getByText(en.wrongCredentials)).toBeVisible();
  // And back to Hungarian with the same switch.
  await page.getByRole('button', { name: 'Magyar' }).click();
  await expect(page.locator('html')).toHaveAttribute('lang', 'hu');
  await expect(page.getByRole('heading', { name: 'Bejelentkezés' })).toBeVisible();
});

test('a runner’s pages in English at phone size: nothing scrolls sideways, nothing fails axe', async ({ browser }) => {
  test.slow();
  const sender = await browser.newContext({ baseURL });
  await registerViaApi(sender.request, newPerson('user'));
  const parcel = await sendParcelViaApi(sender.request);
  const runner = await runnerContext(browser);
  await runner.page.setViewportSize({ width: 390, height: 844 });
  const saved = await runner.context.request.patch(`/api/users/${runner.account.userName}`, {
    data: { language: 'en' },
  });
  expect(saved.status(), await saved.text()).toBe(200);
  expect((await runner.context.request.post(`/api/parcels/${parcel.id}/pickup`)).status()).toBe(200);
  for (const [path, heading] of [
    ['/FutarDashboard', en.runnerDashboardTitle],
    ['/FutarraVaroCsomagok', en.waitingParcelsTitle],
    ['/FolyamatbanLevoCsomagok', en.inProgressTitle],
  ] as const) {
    await runner.page.goto(path);
    // The account's English is brought in at the first page (it loads again in it).
    await expect(runner.page.locator('html')).toHaveAttribute('lang', 'en');
    await expect(runner.page.getByRole('heading', { name: heading, level: 1 })).toBeVisible();
    await expectAccessible(runner.page);
    expect(await noSidewaysScroll(runner.page), path).toBe(true);
  }
  await expect(runner.page.getByText(en.relayHandOff).first()).toBeVisible();
  for (const context of [sender, runner.context]) await context.close();
});
