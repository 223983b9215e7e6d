import type { Page } from '@playwright/test';
import {
  e2eAdmin,
  expect,
  marker,
  metresNorth,
  parcelFromNewSender,
  runnerContext,
  settled,
  signInViaApi,
  test,
} from './fixtures.ts';

const phone = { width: 390, height: 844 };
const desktop = { width: 1280, height: 800 };
// Far from the other specs' parcels (and from each other), so only each test's own pins are in view.
const pecs = { lat: 46.0727, lng: 18.2323 };
const miskolc = { lat: 48.1035, lng: 20.7784 };
const zalaegerszeg = { lat: 46.8417, lng: 16.8416 };

const isWaitingList = (url: string) => new URL(url).pathname === '/api/parcels/waiting';

test.describe('runner map on a phone', () => {
  test('opening a popup and zooming in settles: a few requests at most, then a map that stays still', async ({
    browser,
  }) => {
    const parcel = await parcelFromNewSender(browser, {
      senderAddress: '7621 Pécs, Király utca 1',
      receiverAddress: '7621 Pécs, Széchenyi tér 1',
      senderCoordinates: metresNorth(pecs, 5000),
      // Near the top of the map, so its popup makes Leaflet pan the map.
      receiverCoordinates: metresNorth(pecs, 25_000),
    });
    // Two more at one address, as on a real street.
    for (let i = 0; i < 2; i++) {
      await parcelFromNewSender(browser, {
        senderAddress: '7622 Pécs, Rákóczi út 1',
        receiverAddress: '7624 Pécs, Ifjúság útja 6',
        senderCoordinates: metresNorth(pecs, -15_000),
        receiverCoordinates: metresNorth(pecs, -20_000),
      });
    }
    const { context, page } = await runnerContext(browser, { latitude: pecs.lat, longitude: pecs.lng });
    await page.setViewportSize(phone);
    // Other tests' parcels arriving live would refetch the list too: only the map's own requests count here.
    await page.route('**/api/events**', (route) => route.abort());
    await page.goto('/FutarTerkep');
    await expect(marker(page, 'Ez te vagy')).toBeVisible();

    await marker(page, 'Elérhető').first().waitFor();
    const pickups = await marker(page, 'Elérhető').all();
    const northmost = await Promise.all(pickups.map(async (pin) => (await pin.boundingBox())?.y ?? Infinity));
    await pickups[northmost.indexOf(Math.min(...northmost))]?.click();
    await expect(page.getByText('Hova: 7621 Pécs, Széchenyi tér 1')).toBeVisible();
    // The pickup's popup (with its 'Felvétel') may stand over the 'Hova' pin: closed as a person would.
    await page.locator('.leaflet-popup-close-button').click();
    await marker(page, 'Hova').click();
    await expect(page.getByText(parcel.id)).toBeVisible();

    let requests = 0;
    page.on('request', (request) => {
      if (isWaitingList(request.url())) requests += 1;
    });
    // A phone reports a fix every second or so, tens of metres off even when its owner stands still.
    let fixes = 0;
    const nextFix = () => {
      fixes += 1;
      const at = metresNorth(pecs, fixes % 2 ? 30 : 0);
      return context.setGeolocation({ latitude: at.lat, longitude: at.lng, accuracy: 30 });
    };
    await page.getByRole('button', { name: 'Nagyítás' }).click();
    for (let waited = 0; waited < 5000; waited += 500) {
      await nextFix();
      await page.waitForTimeout(500);
    }
    expect.soft(requests, 'requests for the waiting list within 5 s of the zoom').toBeLessThanOrEqual(3);

    const views = new Set<string>();
    for (let waited = 0; waited <= 2000; waited += 250) {
      if (waited % 500 === 0) await nextFix();
      views.add(await page.locator('.leaflet-map-pane').evaluate((pane) => (pane as HTMLElement).style.transform));
      await page.waitForTimeout(250);
    }
    expect([...views], 'the map moves by itself after settling').toHaveLength(1);
    await context.close();
  });

  test('opens each of two parcels waiting at the same address', async ({ browser }) => {
    const receivers = ['3530 Miskolc, Szemere utca 2', '3527 Miskolc, József Attila utca 20'];
    for (const receiverAddress of receivers) {
      await parcelFromNewSender(browser, {
        senderAddress: '3525 Miskolc, Városház tér 8',
        receiverAddress,
        senderCoordinates: metresNorth(miskolc, 5000),
        receiverCoordinates: metresNorth(miskolc, -5000),
      });
    }
    const { context, page } = await runnerContext(browser, { latitude: miskolc.lat, longitude: miskolc.lng });
    await page.setViewportSize(phone);
    await page.goto('/FutarTerkep');
    // The pair is drawn as one counted pin; tapping it spreads them apart.
    const pair = page.locator('.marker-cluster', { hasText: '2' });
    await expect(pair).toBeVisible();
    await pair.click();
    const pins = marker(page, 'Elérhető');
    await expect(pins).toHaveCount(2);

    const opened = [];
    for (const pin of await pins.all()) {
      await pin.click();
      // The previous popup fades out first.
      const popup = page.locator('.leaflet-popup');
      await expect(popup).toHaveCount(1);
      await expect(popup).toContainText('Honnan: 3525 Miskolc, Városház tér 8');
      opened.push(await popup.locator('p', { hasText: 'Hova:' }).textContent());
      await expect(marker(page, 'Hova')).toBeVisible();
    }
    expect(opened.sort()).toEqual(receivers.map((address) => `Hova: ${address}`).sort());
    await context.close();
  });

  test('a group right where the runner stands is not covered by their own pin, and a pickup pin offers ‘Felvétel’', async ({
    browser,
  }) => {
    for (const receiverAddress of ['8900 Zalaegerszeg, Kossuth Lajos utca 10', '8900 Zalaegerszeg, Széchenyi tér 1']) {
      await parcelFromNewSender(browser, {
        senderAddress: '8900 Zalaegerszeg, Kovács Károly tér 1',
        receiverAddress,
        senderCoordinates: zalaegerszeg,
        receiverCoordinates: metresNorth(zalaegerszeg, -3000),
      });
    }
    const { context, page } = await runnerContext(browser, { latitude: zalaegerszeg.lat, longitude: zalaegerszeg.lng });
    await page.setViewportSize(phone);
    await page.goto('/FutarTerkep');
    await expect(marker(page, 'Ez te vagy')).toBeVisible();
    // A click lands only on what is on top: under 'Ez te vagy', this would fail.
    const pair = page.locator('.marker-cluster', { hasText: '2' });
    await expect(pair).toBeVisible();
    await pair.click();
    const pin = marker(page, 'Elérhető').first();
    await pin.click();
    const popup = page.locator('.leaflet-popup');
    await expect(popup).toContainText('Hova:');
    // Tapped once the popup has stopped moving, as a person would.
    const button = popup.getByRole('button', { name: 'Felvétel' });
    await settled(button);
    // The server's answer first: a tap that never sent the pickup and one refused read differently.
    const answer = page.waitForResponse((response) => response.url().endsWith('/pickup'));
    await button.click();
    expect((await answer).status()).toBe(200);
    await expect(page.getByText('Sikeres csomagfelvétel!')).toBeVisible();
    await context.close();
  });
});

/** The map fills what the header leaves of the screen: nothing scrolls, so no control slides under the header. */
async function expectMapBelowHeader(page: Page, label: string) {
  const map = page.getByRole('region', { name: label });
  await expect(map.locator('.leaflet-control-zoom')).toBeVisible();
  // A swipe on the page, as on a phone: it must have nothing to scroll.
  await page.mouse.wheel(0, 1000);
  const scroll = await page.evaluate(() => ({
    height: document.scrollingElement?.scrollHeight ?? 0,
    screen: window.innerHeight,
  }));
  expect.soft(scroll.height, 'the page scrolls').toBeLessThanOrEqual(scroll.screen);

  const header = await page.getByRole('banner').boundingBox();
  const zoom = await map.locator('.leaflet-control-zoom').boundingBox();
  const box = await map.boundingBox();
  if (!header || !zoom || !box) throw new Error('no header, map or zoom control');
  const headerBottom = header.y + header.height;
  expect.soft(zoom.y, 'the zoom control is not below the header').toBeGreaterThanOrEqual(headerBottom);
  expect.soft(Math.abs(box.y - headerBottom), 'the map starts below the header').toBeLessThanOrEqual(1);
  expect.soft(Math.abs(box.y + box.height - scroll.screen), 'the map reaches the bottom').toBeLessThanOrEqual(1);
}

for (const viewport of [phone, desktop]) {
  test(`runner and admin maps fill the screen below the header at ${viewport.width}×${viewport.height}`, async ({
    browser,
    page,
  }) => {
    const runner = await runnerContext(browser, { latitude: pecs.lat, longitude: pecs.lng });
    await runner.page.setViewportSize(viewport);
    await runner.page.goto('/FutarTerkep');
    await expectMapBelowHeader(runner.page, 'Futárra váró csomagok térképe');
    await runner.context.close();

    await signInViaApi(page.request, e2eAdmin.email, e2eAdmin.password);
    await page.setViewportSize(viewport);
    await page.goto('/SaTerkep');
    await expectMapBelowHeader(page, 'Csomagok térképe');
  });
}

test('a runner standing still who opens the map later is shown where they are', async ({ browser }) => {
  const { context, page } = await runnerContext(browser, { latitude: 46.9062, longitude: 19.6913 });
  await page.setViewportSize(desktop);
  // The runner's pages follow the position from the start: the first fix is reported.
  const reported = page.waitForRequest((request) => request.url().endsWith('/api/runners/me/location'));
  await page.goto('/FolyamatbanLevoCsomagok');
  await reported;
  // The phone stands still and reports nothing new; a watch started now would be handed a fix at
  // most 5 s old (geolocation.ts), so the map is opened after that.
  await page.waitForTimeout(6_000);
  await page.getByRole('banner').getByRole('link', { name: 'Térkép' }).click();
  await expect(page).toHaveURL('/FutarTerkep');
  await expect(marker(page, 'Ez te vagy')).toBeVisible();
  await context.close();
});
