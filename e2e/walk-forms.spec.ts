import { fileURLToPath } from 'node:url';
import type { Locator, Page } from '@playwright/test';
import {
  expect,
  expectAccessible,
  newPerson,
  registerViaApi,
  runnerContext,
  sendParcelViaApi,
  test,
} from './fixtures.ts';
import { baseURL } from './playwright.config.ts';

// Issue 27, "found on a phone, second walk": forms and the messages they show (items 2, 5, 6).
test.use({ viewport: { width: 390, height: 844 } });

const PHOTO = fileURLToPath(new URL('./fixtures/delivery-photo.jpg', import.meta.url));
/** Kárász utca 5, Szeged: the door the runner stands at. */
const szegedDoor = { lat: 46.2517, lng: 20.1469 };

const card = (page: Page, parcelId: string) => page.getByRole('article', { name: `Csomag ${parcelId}` });

/**
 * A field marked as refused the way a screen reader hears it: aria-invalid, its message linked by
 * aria-describedby, and that message inside a live region (said as it appears).
 */
async function expectRefused(page: Page, field: Locator, message?: string) {
  await expect(field).toHaveAttribute('aria-invalid', 'true');
  if (message) await expect(field).toHaveAccessibleDescription(message);
  else await expect(field).toHaveAccessibleDescription(/\S/);
  const ids = (await field.getAttribute('aria-describedby'))?.split(/\s+/) ?? [];
  const announced = await Promise.all(
    ids.map((id) =>
      page
        .locator(`[id="${id}"]`)
        .evaluate((element) => Boolean(element.textContent?.trim() && element.closest('[aria-live], [role="alert"]'))),
    ),
  );
  expect(announced, 'the message is inside a live region').toContain(true);
}

test.describe('every refused field is marked at once, said, and the first gets the focus', () => {
  test("sign-in: SPEC's two warnings as errors on both fields, not as placeholders; the server is not asked", async ({
    page,
  }) => {
    const loginCalls: string[] = [];
    page.on('request', (request) => request.url().includes('/api/auth/login') && loginCalls.push(request.url()));
    await page.goto('/Bejelentkezes');
    const email = page.getByLabel('Email');
    const password = page.getByLabel('Jelszó');
    await page.getByRole('button', { name: 'Bejelentkezés' }).click();
    await expectRefused(page, email, 'nem létező email cím');
    await expectRefused(page, password, 'nem valid jelszó');
    await expect(email).toBeFocused();
    // An error, not a hint: the placeholders stay empty.
    await expect(email).not.toHaveAttribute('placeholder', /\S/);
    await expect(password).not.toHaveAttribute('placeholder', /\S/);
    await expectAccessible(page);

    // A good email, a short password: only the password is refused, and it gets the focus.
    await email.fill('valaki@example.hu');
    await expect(email).not.toHaveAttribute('aria-invalid', 'true');
    await password.fill('123');
    await page.getByRole('button', { name: 'Bejelentkezés' }).click();
    await expectRefused(page, password, 'nem valid jelszó');
    await expect(email).not.toHaveAttribute('aria-invalid', 'true');
    await expect(email).toHaveValue('valaki@example.hu');
    await expect(password).toBeFocused();
    // Typing in the field takes its error away: what it said may no longer be true.
    await password.fill('123456');
    await expect(page.getByText('nem valid jelszó')).toHaveCount(0);
    expect(loginCalls).toEqual([]);
  });

  test('the send form, submitted empty, marks every required field at once and focuses the first', async ({ page }) => {
    await registerViaApi(page.request, newPerson('user'));
    await page.goto('/CsomagFeladas');
    await expect(page.getByLabel('Feladási cím')).not.toHaveValue('');
    await page.getByLabel('Feladási cím').fill('');
    await page.getByRole('button', { name: 'Feladás' }).click();
    for (const label of ['Feladási cím', 'Kiszállítási cím', 'Kategória']) {
      await expectRefused(page, page.getByLabel(label, { exact: true }), 'Kötelező mező.');
    }
    await expectRefused(page, page.getByLabel(/^Súly/));
    await expect(page.getByLabel('Feladási cím')).toBeFocused();
    await expectAccessible(page);
  });
});

test.describe('a message goes when what it said is no longer true', () => {
  test("the photo the sender asked for: 'előbb készíts fotót' goes once the photo is saved", async ({ browser }) => {
    const sender = await browser.newContext({ baseURL });
    await registerViaApi(sender.request, newPerson('user'));
    const parcel = await sendParcelViaApi(sender.request, {
      receiverCoordinates: szegedDoor,
      photoRequired: true,
    } as never);
    const runner = await runnerContext(browser, { latitude: szegedDoor.lat, longitude: szegedDoor.lng });
    expect((await runner.context.request.post(`/api/parcels/${parcel.id}/pickup`)).status()).toBe(200);

    await runner.page.goto('/FolyamatbanLevoCsomagok');
    const mine = card(runner.page, parcel.id);
    await runner.stillHere();
    await mine.getByRole('button', { name: 'Leadás QR kód nélkül' }).click();
    const refusal = mine.getByText('előbb készíts fotót a csomagról');
    await expect(refusal).toBeVisible();

    await mine.getByLabel('Fotó a leadásról').setInputFiles(PHOTO);
    await expect(mine.getByRole('status').filter({ hasText: 'A fotó elmentve.' })).toBeVisible();
    await expect(refusal).toHaveCount(0);
    await expect(mine.getByRole('alert')).toHaveCount(0);
    await runner.context.close();
    await sender.close();
  });

  test("'Leadás QR kód nélkül' says the position is being found, and the QR path stays open meanwhile", async ({
    browser,
  }) => {
    const sender = await browser.newContext({ baseURL });
    await registerViaApi(sender.request, newPerson('user'));
    const parcel = await sendParcelViaApi(sender.request, { receiverCoordinates: szegedDoor } as never);
    const runner = await runnerContext(browser, { latitude: szegedDoor.lat, longitude: szegedDoor.lng });
    // A phone that takes its time to find itself: three seconds for each fix asked for.
    await runner.page.addInitScript(() => {
      const original = Geolocation.prototype.getCurrentPosition;
      Geolocation.prototype.getCurrentPosition = function (this: Geolocation, ...args) {
        setTimeout(() => original.apply(this, args), 3_000);
      };
    });
    expect((await runner.context.request.post(`/api/parcels/${parcel.id}/pickup`)).status()).toBe(200);

    await runner.page.goto('/FolyamatbanLevoCsomagok');
    // Chromium's emulated position is handed to a page loaded since only when set again.
    await runner.context.setGeolocation({ latitude: szegedDoor.lat, longitude: szegedDoor.lng, accuracy: 5 });
    const mine = card(runner.page, parcel.id);
    await mine.getByRole('button', { name: 'Leadás QR kód nélkül' }).click();
    const locating = mine.getByRole('status').filter({ hasText: 'A helyzeted meghatározása folyamatban' });
    await expect(locating).toBeVisible();
    await expect(locating).toContainText('QR kóddal');
    await expect(mine.getByRole('button', { name: 'Leadás QR kód nélkül' })).toBeDisabled();
    await expect(mine.getByRole('button', { name: 'Leadás QR kóddal' })).toBeEnabled();
    await expectAccessible(runner.page);

    // Found: the message goes, and the delivery at the door is confirmed by the server. Its toast
    // may have come and gone during the accessibility check above on a slow machine: the card
    // leaving the list and the stored parcel say it instead.
    await expect(mine).toHaveCount(0);
    await expect(runner.page.getByText('A helyzeted meghatározása folyamatban')).toHaveCount(0);
    const stored = await sender.request.get(`/api/parcels/${parcel.id}`);
    expect(((await stored.json()) as { status: string }).status).toBe('delivered');
    await runner.context.close();
    await sender.close();
  });
});
