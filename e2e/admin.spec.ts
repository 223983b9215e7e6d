import type { Browser, Page } from '@playwright/test';
import {
  dragMarker,
  e2eAdmin,
  expect,
  expectAccessible,
  fillAccountForm,
  marker,
  newPerson,
  parcelFromNewSender,
  registerViaApi,
  runnerContext,
  signInViaApi,
  signInWithForm,
  test,
  toastShown,
} from './fixtures.ts';

const card = (page: Page, parcelId: string) => page.getByRole('article', { name: `Csomag ${parcelId}` });

/** A new sender's parcel, assigned by the back office to a new runner whose in-progress list shows it. */
async function assignedToNewRunner(page: Page, browser: Browser) {
  const parcel = await parcelFromNewSender(browser);
  const runner = await runnerContext(browser);
  const assigned = await page.request.post(`/api/parcels/${parcel.id}/assign`, {
    data: { runner: runner.account.userName },
  });
  expect(assigned.ok()).toBe(true);
  await runner.page.goto('/FolyamatbanLevoCsomagok');
  await expect(card(runner.page, parcel.id)).toBeVisible();
  return { parcel, runner };
}

test.beforeEach(async ({ page }) => {
  await signInViaApi(page.request, e2eAdmin.email, e2eAdmin.password);
});

test.describe('runners in the back office', () => {
  test('registers a runner, lists it, edits it, and the runner signs in with the new password', async ({
    page,
    browser,
  }) => {
    const person = newPerson('runner');
    await page.goto('/SaFutarReg');
    await expect(page.getByRole('heading', { name: 'Szuper Admin Futár Regisztráció' })).toBeVisible();
    await fillAccountForm(page, person);
    const confirmed = toastShown(page, 'Sikeres futárregisztráció!');
    await page.getByRole('button', { name: 'Regisztráció' }).click();
    await confirmed;
    await expect(page).toHaveURL('/SaFutarListazas');

    await page.getByLabel('Keresés névre').fill(person.name);
    const runnerCard = page.getByRole('article', { name: `Futár ${person.userName}` });
    await expect(runnerCard).toBeVisible();
    await expect(runnerCard).toContainText(person.email);
    await expectAccessible(page);
    await expect(runnerCard).not.toContainText(person.password);
    await runnerCard.getByRole('link', { name: 'Szerkesztés' }).click();
    await expect(page).toHaveURL(`/SaFutarSzerkesztes/${person.userName}`);
    await expect(page.getByRole('heading', { name: 'Futár Szerkesztése' })).toBeVisible();
    await expect(page.getByLabel('Felhasználónév')).toBeDisabled();
    await expect(page.getByLabel('Email')).toBeDisabled();
    await page.getByLabel('Név', { exact: true }).fill('Átnevezett Futár');
    await page.getByLabel('Telefonszám').fill('+36 30 000 1111');
    await page.getByLabel('Jelszó').fill('uj-jelszo-456');
    await page.getByRole('button', { name: 'Mentés' }).click();
    await expect(page.getByText('Sikeres mentés!')).toBeVisible();
    await page.getByRole('link', { name: 'Vissza' }).click();
    await expect(page).toHaveURL('/SaFutarListazas');

    const runnerSide = await browser.newContext();
    const runnerPage = await runnerSide.newPage();
    await signInWithForm(runnerPage, person.email, 'uj-jelszo-456');
    await expect(runnerPage).toHaveURL('/FutarDashboard');
    await runnerSide.close();
  });

  test('deletes a runner after the confirmation, and refuses while the runner carries a parcel', async ({
    page,
    browser,
  }) => {
    const idle = await runnerContext(browser);
    await page.goto(`/SaFutarTorles/${idle.account.userName}`);
    await expect(
      page.getByText(`Biztosan törölni akarod a ${idle.account.userName} felhasználónevű futárt?`),
    ).toBeVisible();
    await page.getByRole('button', { name: 'Törlés' }).click();
    await expect(page).toHaveURL('/SaFutarListazas');
    await page.getByLabel('Keresés névre').fill(idle.account.userName);
    await expect(page.getByText('Nincs ilyen futár.')).toBeVisible();

    const busy = await runnerContext(browser);
    const parcel = await parcelFromNewSender(browser);
    expect((await busy.context.request.post(`/api/parcels/${parcel.id}/pickup`)).status()).toBe(200);
    await page.goto(`/SaFutarTorles/${busy.account.userName}`);
    await page.getByRole('button', { name: 'Törlés' }).click();
    await expect(page.getByRole('alert')).toContainText(parcel.id);
    await expect(card(page, parcel.id)).toBeVisible();
    await expect(page).toHaveURL(`/SaFutarTorles/${busy.account.userName}`);
    await idle.context.close();
    await busy.context.close();
  });
});

test.describe('parcels in the back office', () => {
  test('creates a parcel for a user; it is listed, edited, and shown on the map', async ({ page, browser }) => {
    const senderContext = await browser.newContext();
    const sender = await registerViaApi(senderContext.request, newPerson('user'));
    await senderContext.close();

    await page.goto('/SaCsomagListazas');
    await expect(page.getByRole('heading', { name: 'Csomaglistázás' })).toBeVisible();
    await page.goto('/SaCsomagLetrehozas');
    await expect(page.getByRole('heading', { name: 'Szuper Admin Csomag Létrehozás' })).toBeVisible();
    await page.getByLabel('Feladó felhasználó').fill(sender.userName);
    await page.getByLabel('Feladási cím').fill('1052 Budapest, Váci utca 12');
    await page.getByLabel('Kiszállítási cím').fill('4024 Debrecen, Piac utca 20');
    await page.getByLabel('Kategória').fill('Festmény');
    await page.getByLabel('Súly (gramm)').fill('2300');
    const confirmed = toastShown(page, 'Sikeres csomaglétrehozás!');
    await page.getByRole('button', { name: 'Létrehoz' }).click();
    await confirmed;
    await expect(page).toHaveURL(/\/SaCsomagSzerkesztes\/[0-9A-Z]{10}$/);
    const parcelId = page.url().split('/').pop() ?? '';

    await expect(page.getByRole('heading', { name: 'Csomag Szerkesztése' })).toBeVisible();
    await expect(page.getByLabel('Azonosító')).toHaveValue(parcelId);
    await expect(page.getByLabel('Azonosító')).toBeDisabled();
    await expectAccessible(page);
    await page.getByLabel('Kategória').fill('Keretezett festmény');
    await page.getByLabel('Kiszállítási cím').fill('6720 Szeged, Kárász utca 5');
    await page.getByRole('button', { name: 'Módosít' }).click();
    await expect(page.getByText('Sikeres mentés!')).toBeVisible();
    // Nobody carried it yet: only a pickup or an assignment can take it further.
    await expect(page.getByLabel('Státusz').locator('option[value="delivered"]')).toBeDisabled();
    await expect(page.getByLabel('Státusz').locator('option[value="in_transit"]')).toBeDisabled();
    await page.reload();
    await expect(page.getByLabel('Kategória')).toHaveValue('Keretezett festmény');
    await expect(page.getByLabel('Kiszállítási cím')).toHaveValue('6720 Szeged, Kárász utca 5');
    await expect(page.getByText('Adatok módosítva')).toBeVisible();

    await page.getByRole('link', { name: 'Vissza' }).click();
    await expect(page).toHaveURL('/SaCsomagListazas');
    await page.getByLabel('Feladó').fill(sender.userName);
    await expect(card(page, parcelId)).toBeVisible();
    await expect(card(page, parcelId)).toContainText('Keretezett festmény');
  });

  test('shows both pins on the edit page and saves the destination dragged to the door', async ({ page, browser }) => {
    const parcel = await parcelFromNewSender(browser);
    await page.goto(`/SaCsomagSzerkesztes/${parcel.id}`);
    const destination = marker(page, 'Kiszállítási pont');
    await expect(marker(page, 'Felvételi pont')).toBeVisible();
    await expect(destination).toBeVisible();
    await page.getByRole('button', { name: 'Kiszállítási pont megnézése' }).click();
    await page.waitForTimeout(500);
    await dragMarker(page, destination, 50, 34);
    await page.getByRole('button', { name: 'Módosít' }).click();
    await expect(page.getByText('Sikeres mentés!')).toBeVisible();
    const saved = await (await page.request.get(`/api/parcels/${parcel.id}`)).json();
    expect(saved.receiverPrecision).toBe('manual');
    expect(saved.receiverCoordinates).not.toEqual(parcel.receiverCoordinates);
  });

  test('assigns a waiting parcel to a runner, who sees it in progress live', async ({ page, browser }) => {
    const parcel = await parcelFromNewSender(browser);
    const runner = await runnerContext(browser);
    await runner.page.goto('/FolyamatbanLevoCsomagok');
    await expect(runner.page.getByText('Most nincs nálad szállítandó csomag.')).toBeVisible();

    await page.goto('/SaCsomagFutarhozRendeles');
    await expect(page.getByRole('heading', { name: 'Csomagok futárhoz rendelése' })).toBeVisible();
    const assign = page.getByRole('button', { name: 'Hozzárendelés' });
    await expect(assign).toBeDisabled();
    await page.getByLabel('Csomag', { exact: true }).selectOption(parcel.id);
    await expect(page.getByRole('definition').filter({ hasText: parcel.senderUser })).toBeVisible();
    await expect(assign).toBeDisabled();
    const option = page.getByLabel('Futár').locator('option', { hasText: runner.account.userName });
    await page.getByLabel('Futár').selectOption((await option.getAttribute('value')) ?? '');
    await expect(
      page.getByText(`Biztosan a(z) ${parcel.id} azonosítójú csomagot ${runner.account.userName} futárhoz rendeled?`),
    ).toBeVisible();
    await expect(assign).toBeEnabled();
    await expectAccessible(page);
    await assign.click();
    await expect(page.getByText('Sikeres hozzárendelés!')).toBeVisible();

    await expect(runner.page.getByRole('article', { name: `Csomag ${parcel.id}` })).toBeVisible();
    await runner.context.close();
  });

  test('takes a parcel from its runner only with a reason, and the runner sees it go live', async ({
    page,
    browser,
  }) => {
    const { parcel, runner } = await assignedToNewRunner(page, browser);

    await page.goto(`/SaCsomagSzerkesztes/${parcel.id}`);
    await expect(page.getByLabel('Indok')).toHaveCount(0);
    await page.getByLabel('Státusz').selectOption({ label: 'várakozik' });
    await page.getByRole('button', { name: 'Módosít' }).click();
    await expect(page.getByLabel('Indok')).toHaveAccessibleDescription('Ehhez a státuszváltáshoz add meg az indokát.');
    await page.getByLabel('Indok').fill('A futár nem tudja elvinni.');
    await page.getByRole('button', { name: 'Módosít' }).click();
    await expect(page.getByText('Sikeres mentés!')).toBeVisible();
    await expect(page.getByText('Státusz módosítva')).toBeVisible();
    await expect(runner.page.getByRole('article', { name: `Csomag ${parcel.id}` })).toHaveCount(0);
    await runner.context.close();
  });

  test('deletes a parcel a runner carries only with a reason, naming the runner, who sees it go live', async ({
    page,
    browser,
  }) => {
    const { parcel, runner } = await assignedToNewRunner(page, browser);

    await page.goto(`/SaCsomagTorles/${parcel.id}`);
    await expect(page.getByText(`${runner.account.userName} futárnál van szállítás alatt`)).toBeVisible();
    const remove = page.getByRole('button', { name: 'Törlés' });
    await expect(remove).toBeDisabled();
    await page.getByLabel('Indok').fill('A feladó telefonon visszamondta.');
    await remove.click();
    await expect(page).toHaveURL('/SaCsomagListazas');
    await expect(runner.page.getByRole('article', { name: `Csomag ${parcel.id}` })).toHaveCount(0);
    await runner.context.close();
  });

  test("hands a parcel over with 'Leadás' from the list, then deletes it after the confirmation", async ({
    page,
    browser,
  }) => {
    const parcel = await parcelFromNewSender(browser);
    const runner = await runnerContext(browser);
    await runner.context.request.post(`/api/parcels/${parcel.id}/pickup`);
    await page.goto('/SaCsomagListazas');
    await page.getByLabel('Feladó').fill(parcel.senderUser);
    await expect(card(page, parcel.id)).toContainText('szállítás alatt');
    await expectAccessible(page);
    await card(page, parcel.id).getByRole('button', { name: 'Leadás' }).click();
    await expect(page.getByText('Sikeres csomagleadás!')).toBeVisible();
    await expect(card(page, parcel.id)).toContainText('leadott');
    await expect(card(page, parcel.id).getByRole('button', { name: 'Leadás' })).toHaveCount(0);

    await card(page, parcel.id).getByRole('link', { name: 'Törlés' }).click();
    await expect(page).toHaveURL(`/SaCsomagTorles/${parcel.id}`);
    await expect(page.getByText(`Biztosan törölni akarod a(z) ${parcel.id} ID-val rendelkező csomagot?`)).toBeVisible();
    await page.getByRole('button', { name: 'Törlés' }).click();
    await expect(page).toHaveURL('/SaCsomagListazas');
    await page.getByLabel('Feladó').fill(parcel.senderUser);
    await expect(page.getByText('Nincs a szűrésnek megfelelő csomag.')).toBeVisible();
    await runner.context.close();
  });

  test("shows a created parcel on the map: clusters, a popup with the details link, 'Futárra vár'", async ({
    page,
    browser,
  }) => {
    // A lone parcel in Kecskemét, away from the Budapest crowd the other tests make.
    const kecskemet = { lat: 46.9062, lng: 19.6913 };
    const sender = await registerViaApi((await browser.newContext()).request, newPerson('user'));
    const created = await page.request.post('/api/parcels', {
      data: {
        senderUser: sender.userName,
        senderAddress: '6000 Kecskemét, Kossuth tér 1',
        receiverAddress: '6000 Kecskemét, Rákóczi út 10',
        category: 'Bor',
        weightGrams: 1500,
        senderCoordinates: kecskemet,
        // Far enough from the pickup that neither pin nor popup covers the other at zoom 8.
        receiverCoordinates: { lat: 46.75, lng: 20.0 },
      },
    });
    expect(created.status(), await created.text()).toBe(201);
    const parcel = await created.json();
    for (let i = 0; i < 3; i++) await parcelFromNewSender(browser);
    await page.goto('/SaTerkep');
    await expect(page.locator('.marker-cluster').first()).toBeVisible();
    await expectAccessible(page);

    const map = await page.getByRole('region', { name: 'Csomagok térképe' }).boundingBox();
    if (!map) throw new Error('no map');
    const pickups = marker(page, 'Felvételi pont');
    await expect(pickups.first()).toBeAttached();
    let ours = -1;
    for (let i = 0; i < (await pickups.count()); i++) {
      const box = await pickups.nth(i).boundingBox();
      // Kecskemét lies south-east of the map's centre.
      if (box && box.y > map.y + map.height / 2 && box.x > map.x + map.width / 2) ours = i;
    }
    expect(ours).toBeGreaterThanOrEqual(0);
    await pickups.nth(ours).click();
    const popup = page.locator('.leaflet-popup');
    await expect(popup).toContainText('6000 Kecskemét, Rákóczi út 10');
    await expect(popup.getByRole('link', { name: 'Részletek' })).toHaveAttribute(
      'href',
      `/SaCsomagSzerkesztes/${parcel.id}`,
    );
    await marker(page, 'Hova').click();
    const destination = page.locator('.leaflet-popup', { hasText: parcel.id });
    await expect(destination).toContainText('Futárra vár');
    await expect(destination).toContainText('6000 Kecskemét, Rákóczi út 10');
    await destination.getByRole('link', { name: 'Részletek' }).click();
    await expect(page).toHaveURL(`/SaCsomagSzerkesztes/${parcel.id}`);
  });
});

test.describe('back-office guard', () => {
  test('keeps runners and users out of every back-office page', async ({ browser }) => {
    const runner = await runnerContext(browser);
    for (const path of ['/SaFutarListazas', '/SaCsomagListazas', '/SaTerkep', '/SaCsomagFutarhozRendeles']) {
      await runner.page.goto(path);
      await expect(runner.page).toHaveURL('/FutarDashboard');
    }
    const response = await runner.context.request.get('/api/parcels');
    expect(response.status()).toBe(403);
    await runner.context.close();
  });
});
