import { messages } from '@csomag/domain/messages';
import type { Page } from '@playwright/test';
import {
  budapestToSzeged,
  dragMarker,
  e2eAdmin,
  expect,
  expectAccessible,
  holdBack,
  marker,
  newPerson,
  registerViaApi,
  runnerContext,
  sendParcelViaApi,
  signInViaApi,
  test,
  toastShown,
} from './fixtures.ts';

const timestamp = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

/** The send form's map shows both pins whole, however far apart they are. */
async function expectBothPinsInView(page: Page) {
  const map = page.getByRole('region', { name: 'A feladási és a kiszállítási pont' });
  await expect(async () => {
    const area = await map.boundingBox();
    for (const pin of [marker(page, 'Felvételi pont'), marker(page, 'Kiszállítási pont')]) {
      const box = await pin.boundingBox();
      expect(area && box && box.x >= area.x && box.x + box.width <= area.x + area.width).toBe(true);
      expect(area && box && box.y >= area.y && box.y + box.height <= area.y + area.height).toBe(true);
    }
  }).toPass();
}

test.describe('sending a parcel', () => {
  test('sends a parcel, confirms after the save, and shows it in the lists and on its tracking page', async ({
    page,
    browser,
  }) => {
    const sender = await registerViaApi(page.request, newPerson('user'));
    await page.goto('/CsomagFeladas');
    // It leaves from home unless said otherwise.
    await expect(page.getByLabel('Feladási cím')).toHaveValue(sender.address);
    await page.getByLabel('Feladási cím').fill(budapestToSzeged.senderAddress);
    await page.getByLabel('Kiszállítási cím').fill(budapestToSzeged.receiverAddress);
    await page.getByLabel('Kategória').fill('Könyv');
    await page.getByLabel('Súly (gramm)').fill('850');
    // Both addresses are placed on the small map while typing, as draggable pins.
    await expect(marker(page, 'Felvételi pont')).toBeVisible();
    await expect(marker(page, 'Kiszállítási pont')).toBeVisible();

    // Each address says what its pin is: here a town's centre, not the door.
    await expect(page.getByText(messages.pinAtSettlementCentre('Szeged'))).toBeVisible();
    await expect(page.getByLabel('Kiszállítási cím')).toHaveAccessibleDescription(
      messages.pinAtSettlementCentre('Szeged'),
    );

    const saved = page.waitForResponse((r) => r.url().endsWith('/api/parcels') && r.request().method() === 'POST');
    const confirmed = toastShown(page, 'Sikeres csomagfeladás!');
    await page.getByRole('button', { name: 'Feladás' }).click();
    expect((await saved).status()).toBe(201);
    await confirmed;
    await expect(page).toHaveURL(/\/CsomagKovetes\/[0-9A-Z]{10}$/);
    const parcelId = page.url().split('/').pop() ?? '';

    const details = page.getByRole('definition');
    await expect(details.filter({ hasText: parcelId })).toBeVisible();
    await expect(page.getByText('várakozik').first()).toBeVisible();
    await expect(details.filter({ hasText: '850 g' })).toBeVisible();
    await expect(details.filter({ hasText: sender.userName })).toBeVisible();
    await expect(details.filter({ hasText: timestamp })).toHaveCount(1);
    await expect(page.getByText('Futár', { exact: true })).toHaveCount(0);
    await expect(page.getByRole('listitem').filter({ hasText: 'Feladva' })).toBeVisible();
    await expect(marker(page, 'Felvételi pont')).toBeVisible();
    await expect(marker(page, 'Kiszállítási pont')).toBeVisible();
    await expect(marker(page, 'A futárod')).toHaveCount(0);

    await expectAccessible(page);

    // A runner picks it up in another browser: the open tracking page follows without a reload.
    const runner = await runnerContext(browser);
    expect((await runner.context.request.post(`/api/parcels/${parcelId}/pickup`)).status()).toBe(200);
    await expect(details.filter({ hasText: 'szállítás alatt' })).toBeVisible();
    await expect(details.filter({ hasText: runner.account.userName })).toBeVisible();
    await expect(page.getByRole('listitem').filter({ hasText: 'Futár felvette' })).toBeVisible();

    await page.goto('/FeladottCsomagok');
    await expect(page.getByRole('article', { name: `Csomag ${parcelId}` })).toBeVisible();
    await page.goto('/FelhasznaloDashboard');
    const preview = page.getByRole('article', { name: `Csomag ${parcelId}` });
    await expect(preview).toContainText('szállítás alatt');
    await expectAccessible(page);

    // The dashboard is live too: the delivery shows up without a reload. (The destination stayed
    // Szeged's centre, so the runner could only hand it over by QR; the back office closes it here.)
    const admin = await browser.newContext();
    await signInViaApi(admin.request, e2eAdmin.email, e2eAdmin.password);
    const delivered = await admin.request.post(`/api/parcels/${parcelId}/deliver`, { data: {} });
    expect(delivered.status(), await delivered.text()).toBe(200);
    await admin.close();
    await expect(preview).toContainText('leadott');
    await runner.context.close();
  });

  test('on a phone: both pins in view, the destination dragged to the door, delivered there without QR', async ({
    page,
    browser,
  }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await registerViaApi(page.request, newPerson('user'));
    await page.goto('/CsomagFeladas');
    await page.getByLabel('Feladási cím').fill(budapestToSzeged.senderAddress);
    await page.getByLabel('Kiszállítási cím').fill(budapestToSzeged.receiverAddress);
    await page.getByLabel('Kategória').fill('Könyv');
    await page.getByLabel('Súly (gramm)').fill('850');
    await page.getByLabel('Címzett neve').fill('Kiss Anna');
    await page.getByLabel('Címzett telefonszáma').fill('+36 30 123 4567');
    const destination = marker(page, 'Kiszállítási pont');
    // Budapest and Szeged are 170 km apart: the map frames both.
    await expectBothPinsInView(page);

    // Zoomed on the destination, the sender drags it from the town's centre to the door.
    await page.getByRole('button', { name: 'Kiszállítási pont megnézése' }).click();
    await page.waitForTimeout(500);
    await dragMarker(page, destination, 60, 40);
    await expect(page.getByLabel('Kiszállítási cím')).toHaveAccessibleDescription(/^Kézzel elhelyezve/);
    const saved = page.waitForResponse((r) => r.url().endsWith('/api/parcels') && r.request().method() === 'POST');
    await page.getByRole('button', { name: 'Feladás' }).click();
    const parcel = await (await saved).json();
    expect(parcel).toMatchObject({ receiverPrecision: 'manual', senderPrecision: 'settlement' });
    const door = parcel.receiverCoordinates;

    // A runner standing at that door delivers by position.
    const runner = await runnerContext(browser, { latitude: door.lat, longitude: door.lng, accuracy: 5 });
    await runner.page.setViewportSize({ width: 390, height: 844 });
    expect((await runner.context.request.post(`/api/parcels/${parcel.id}/pickup`)).status()).toBe(200);
    await runner.page.goto('/FolyamatbanLevoCsomagok');
    const card = runner.page.getByRole('article', { name: `Csomag ${parcel.id}` });
    await runner.stillHere();
    await card.getByRole('button', { name: 'Leadás QR kód nélkül' }).click();
    await expect(runner.page.getByText('Sikeres csomagleadás!')).toBeVisible();
    await runner.context.close();
  });

  test('a pin placed just after the map zoomed in on the other one is framed with it', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await registerViaApi(page.request, newPerson('user'));
    // The map's code and the destination's place are held back until the map has framed the pickup
    // alone: that frame zooms in, and the destination's answer arrives while it would be animating.
    const mapCode = holdBack();
    const destinationPlace = holdBack();
    await page.route(/\/assets\/map-view-[^/]*\.js$/, mapCode.handler);
    await page.route(/\/api\/geocode\?q=.*Szeged/, destinationPlace.handler);
    await page.goto('/CsomagFeladas');
    await page.getByLabel('Feladási cím').fill(budapestToSzeged.senderAddress);
    await page.getByLabel('Kiszállítási cím').fill(budapestToSzeged.receiverAddress);
    await expect(page.getByLabel('Feladási cím')).toHaveAccessibleDescription(/közepe/);
    await destinationPlace.asked;
    mapCode.release();
    // Waited for in the page, a frame at a time: the zoom it shows lasts a quarter of a second.
    await marker(page, 'Felvételi pont').waitFor();
    destinationPlace.release();
    await expectBothPinsInView(page);
  });

  test('withdraws a waiting parcel from the sent list, and no longer once a runner has it', async ({
    page,
    browser,
  }) => {
    await registerViaApi(page.request, newPerson('user'));
    const waiting = await sendParcelViaApi(page.request);
    const taken = await sendParcelViaApi(page.request);
    const runner = await runnerContext(browser);
    expect((await runner.context.request.post(`/api/parcels/${taken.id}/pickup`)).status()).toBe(200);
    await page.goto('/FeladottCsomagok');
    const card = page.getByRole('article', { name: `Csomag ${waiting.id}` });
    // Taken by a runner: on its way, and no longer the sender's to withdraw (its link may still be copied).
    const takenCard = page.getByRole('article', { name: `Csomag ${taken.id}` });
    await expect(takenCard.getByText('szállítás alatt')).toBeVisible();
    await expect(takenCard.getByRole('button', { name: 'Feladás visszavonása' })).toHaveCount(0);
    await expect(card.getByText('várakozik')).toBeVisible();
    await card.getByRole('button', { name: 'Feladás visszavonása' }).click();
    await card.getByRole('button', { name: 'Igen, visszavonom' }).click();
    await expect(page.getByText('Visszavontad a feladást.')).toBeVisible();
    await expect(card).toHaveCount(0);
    expect((await page.request.get(`/api/tracking/${waiting.id}`)).status()).toBe(404);
    await runner.context.close();
  });

  test('shows the geocoder message for an address it cannot place, and saves nothing', async ({ page }) => {
    await registerViaApi(page.request, newPerson('user'));
    await page.goto('/CsomagFeladas');
    await page.getByLabel('Feladási cím').fill('Nincsilyenfalva, Sehol utca 1');
    await page.getByLabel('Kiszállítási cím').fill(budapestToSzeged.receiverAddress);
    await page.getByLabel('Kategória').fill('Irat');
    await page.getByLabel('Súly (gramm)').fill('100');
    await expect(page.getByLabel('Feladási cím')).toHaveAccessibleDescription(
      messages.settlementUnknown('Nincsilyenfalva'),
    );
    await page.getByRole('button', { name: 'Feladás' }).click();
    await expect(page.getByRole('alert')).toHaveText(messages.pickupPinMissing);
    await expect(page.getByLabel('Feladási cím')).toBeFocused();
    await expect(page).toHaveURL('/CsomagFeladas');
    const sent = await (await page.request.get('/api/me/sent-parcels')).json();
    expect(sent.items).toEqual([]);
  });

  test('filters the sent list by status', async ({ page }) => {
    await registerViaApi(page.request, newPerson('user'));
    const parcel = await sendParcelViaApi(page.request);
    await page.goto('/FeladottCsomagok');
    const card = page.getByRole('article', { name: `Csomag ${parcel.id}` });
    await expect(card).toBeVisible();
    await page.getByLabel('Státusz').selectOption({ label: 'leadott' });
    await expect(page.getByText('Nincs ilyen státuszú feladott csomagod.')).toBeVisible();
    await expect(card).toHaveCount(0);
    await page.getByLabel('Státusz').selectOption({ label: 'várakozik' });
    await expect(card).toBeVisible();
  });

  test('shows a parcel to the receiver whose profile address matches it', async ({ browser }) => {
    const senderContext = await browser.newContext();
    await registerViaApi(senderContext.request, newPerson('user'));
    const receiverAddress = `1117 Budapest, Irinyi József utca ${Date.now() % 1000}.`;
    const parcel = await sendParcelViaApi(senderContext.request, { receiverAddress });
    await senderContext.close();

    const context = await browser.newContext();
    // Same door, written differently: case, spaces and punctuation do not matter.
    await registerViaApi(
      context.request,
      newPerson('user', { address: receiverAddress.toUpperCase().replace(',', '  ') }),
    );
    const page = await context.newPage();
    await page.goto('/NekemCimzettCsomagok');
    await expect(page.getByRole('article', { name: `Csomag ${parcel.id}` })).toBeVisible();
    await context.close();
  });
});

test.describe('tracking', () => {
  test('finds a parcel by its id from the search box, and says so when there is none', async ({ page, browser }) => {
    const senderContext = await browser.newContext();
    await registerViaApi(senderContext.request, newPerson('user'));
    const parcel = await sendParcelViaApi(senderContext.request);
    await senderContext.close();

    await page.goto('/CsomagKovetes');
    await page.getByPlaceholder('csomagID').fill(parcel.id);
    await page.getByRole('button', { name: 'Keresés' }).click();
    await expect(page).toHaveURL(`/CsomagKovetes/${parcel.id}`);
    await expect(page.getByText('Könyv')).toBeVisible();
    await page.getByRole('link', { name: 'Vissza a kereséshez' }).click();
    await expect(page).toHaveURL('/CsomagKovetes');

    await page.goto('/CsomagKovetes/ZZZZZZZZZZ');
    await expect(page.getByRole('alert')).toHaveText('Nincs ilyen azonosítójú csomag.');
  });
});

test.describe('dashboard and profile', () => {
  test('shows the previews side by side at 1280 px and as tabs at 390 px', async ({ page }) => {
    await registerViaApi(page.request, newPerson('user'));
    const parcel = await sendParcelViaApi(page.request);
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto('/FelhasznaloDashboard');
    await expect(page.getByRole('heading', { name: 'Nekem címzett csomagok' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Feladott csomagok' })).toBeVisible();
    await expect(page.getByRole('tablist')).toHaveCount(0);
    await expect(page.getByRole('link', { name: 'Összes feladott csomag' })).toHaveAttribute(
      'href',
      '/FeladottCsomagok',
    );

    await page.setViewportSize({ width: 390, height: 800 });
    const tabs = page.getByRole('tablist', { name: 'Áttekintés' });
    await expect(tabs.getByRole('tab')).toHaveText(['Nekem címzett', 'Feladott', 'Hasznos tudnivalók']);
    await tabs.getByRole('tab', { name: 'Feladott' }).click();
    await expect(page.getByRole('article', { name: `Csomag ${parcel.id}` })).toBeVisible();
    await tabs.getByRole('tab', { name: 'Hasznos tudnivalók' }).click();
    await expect(page.getByRole('heading', { name: 'Hasznos tudnivalók' })).toBeVisible();
  });

  test('keeps the dashboard preview to four parcels', async ({ page }) => {
    await registerViaApi(page.request, newPerson('user'));
    for (let i = 0; i < 5; i++) await sendParcelViaApi(page.request, { category: `Doboz ${i}` });
    await page.goto('/FelhasznaloDashboard');
    const sent = page.getByRole('region', { name: 'Feladott csomagok' });
    await expect(sent.getByRole('article')).toHaveCount(4);
    await expect(sent.getByText('Doboz 4')).toBeVisible();
  });

  test('saves the profile after the server confirms, and refuses another person’s profile', async ({
    page,
    browser,
  }) => {
    const person = newPerson('user');
    const account = await registerViaApi(page.request, person);
    await page.goto(`/FelhasznaloProfil/${account.userName}`);
    await expect(page.getByLabel('Név', { exact: true })).toHaveValue(person.name);
    await page.getByLabel('Telefonszám').fill('+36 70 999 8888');
    await page.getByLabel('Cím', { exact: true }).fill('6720 Szeged, Kárász utca 5');
    await page.getByRole('button', { name: 'Mentés' }).click();
    await expect(page.getByText('Sikeres adatváltoztatás!')).toBeVisible();
    await page.reload();
    await expect(page.getByLabel('Telefonszám')).toHaveValue('+36 70 999 8888');

    const other = await browser.newContext();
    const otherAccount = await registerViaApi(other.request, newPerson('user'));
    await other.close();
    await page.goto(`/FelhasznaloProfil/${otherAccount.userName}`);
    await expect(page.getByRole('alert')).toHaveText('Ehhez nincs jogosultságod.');
    await expect(page.getByLabel('Telefonszám')).toHaveCount(0);
  });
});
