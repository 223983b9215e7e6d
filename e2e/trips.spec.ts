import type { Page } from '@playwright/test';
import { expect, expectAccessible, metresNorth, parcelFromNewSender, runnerContext, test } from './fixtures.ts';

// Issue 13: a runner says where they are going and gets the waiting parcels on the way.

/** Újpest (IV. district), where the runner stands; the trip goes to Újbuda (XI.), which '1117' geocodes to. */
const ujpest = { lat: 47.5618, lng: 19.0891 };
const ujbuda = { lat: 47.476, lng: 19.036 };
const UJBUDA_ADDRESS = '1117 Budapest, Október huszonharmadika utca 8';
const debrecen = { lat: 47.5316, lng: 21.6273 };

/** A point `fraction` of the way from `a` to `b`. */
const along = (a: { lat: number; lng: number }, b: { lat: number; lng: number }, fraction: number) => ({
  lat: a.lat + (b.lat - a.lat) * fraction,
  lng: a.lng + (b.lng - a.lng) * fraction,
});

/** A parcel picked up just past the trip's start and delivered just before its end: on the way. */
const onTheWay = (tag: string) => ({
  senderAddress: `1042 Budapest, Árpád út ${tag}`,
  receiverAddress: `1117 Budapest, Bercsényi utca ${tag}`,
  senderCoordinates: along(ujpest, ujbuda, 0.03),
  receiverCoordinates: along(ujpest, ujbuda, 0.97),
  category: 'Könyv',
  weightGrams: 640,
});

/**
 * The trip form from where the runner stands (`here`) to Újbuda, by public transport. The position
 * is set again first: the page's watch takes fixes at most 5 s old (geolocation.ts), and Chromium's
 * emulation hands a new one only when set again — on a loaded machine more than that passes
 * between the context's creation and the form.
 */
async function fillTrip(page: Page, here: { lat: number; lng: number }, toAddress = UJBUDA_ADDRESS) {
  await page.context().setGeolocation({ latitude: here.lat, longitude: here.lng, accuracy: 5 });
  await page.goto('/FutarUtvonal');
  await expect(page.getByRole('heading', { level: 1, name: 'Útvonal' })).toBeVisible();
  const from = page.getByRole('group', { name: 'Honnan indulsz?' });
  await from.getByRole('radio', { name: 'Jelenlegi helyzetem' }).check();
  await expect(from.getByText('A jelenlegi helyzetedből indulunk.')).toBeVisible();
  const to = page.getByRole('group', { name: 'Hova mész?' });
  await to.getByRole('radio', { name: 'Cím' }).check();
  await to.getByLabel('Érkezés címe').fill(toAddress);
  await expect(to.getByText(/^Megtalált hely:/)).toBeVisible();
  await page.getByRole('group', { name: 'Közlekedési mód' }).getByRole('radio', { name: 'Tömegközlekedés' }).check();
  await expect(page.getByLabel('Legfeljebb ennyi kitérő (perc)')).toHaveValue('10');
}

test.describe('trips', () => {
  test('a trip across Budapest by public transport shows the parcel on the way, not the one in Debrecen, and picks it up', async ({
    browser,
  }) => {
    const tag = String(Date.now() % 100_000);
    const fitting = await parcelFromNewSender(browser, onTheWay(tag));
    const inDebrecen = await parcelFromNewSender(browser, {
      senderAddress: '4024 Debrecen, Piac utca 20',
      receiverAddress: '4025 Debrecen, Hatvan utca 1',
      senderCoordinates: debrecen,
      receiverCoordinates: metresNorth(debrecen, 900),
    });
    const runner = await runnerContext(browser, { latitude: ujpest.lat, longitude: ujpest.lng });
    const { page } = runner;

    // From the menu, as a runner finds it.
    await page.goto('/FutarDashboard');
    await page.getByRole('link', { name: 'Útvonal megadása: útba eső csomagok' }).click();
    await expect(page).toHaveURL('/FutarUtvonal');
    await fillTrip(page, ujpest);
    await page.getByRole('button', { name: 'Útba eső csomagok keresése' }).click();

    const matches = page.getByRole('region', { name: 'Útba eső csomagok', exact: true });
    await expect(
      matches.getByText(/^Becslés: az út kitérő nélkül kb\. \d+ perc, érkezés kb\. \d{1,2}:\d{2}\.$/),
    ).toBeVisible();
    const card = matches.getByRole('article', { name: `Csomag ${fitting.id}` });
    await expect(card).toBeVisible();
    await expect(card.getByText(/^\+\d+ perc$/)).toBeVisible();
    await expect(card).toContainText('Könyv');
    await expect(card).toContainText('640 g');
    await expect(card).toContainText(fitting.senderAddress);
    await expect(card).toContainText(fitting.receiverAddress);
    await expect(matches.getByRole('article', { name: `Csomag ${inDebrecen.id}` })).toHaveCount(0);

    // The map: the trip's ends and the parcel's two points, each labelled.
    const map = page.getByRole('region', { name: 'Az útvonal és az útba eső csomagok térképe' });
    await expect(map.locator('.leaflet-marker-icon[title="Indulás"]')).toHaveCount(1);
    await expect(map.locator('.leaflet-marker-icon[title="Érkezés"]')).toHaveCount(1);
    await expect(map.locator(`.leaflet-marker-icon[title="Felvétel: ${fitting.senderAddress}"]`)).toHaveCount(1);
    await expect(map.locator(`.leaflet-marker-icon[title="Leadás: ${fitting.receiverAddress}"]`)).toHaveCount(1);
    await expect(map.locator('path.leaflet-interactive').first()).toBeAttached();
    await expectAccessible(page);

    await card.getByRole('button', { name: 'Csomag felvétele' }).click();
    await expect(page.getByText('Sikeres csomagfelvétel!')).toBeVisible();
    // Taken: it leaves the matches, and the server says it is this runner's.
    await expect(card).toHaveCount(0);
    const taken = await (await runner.context.request.get(`/api/parcels/${fitting.id}`)).json();
    expect(taken.status).toBe('in_transit');
    expect(taken.runner).toBe(runner.account.userName);
    await runner.context.close();
  });

  test('a saved trip active now is offered a fitting new parcel live; it can be paused and deleted', async ({
    browser,
  }) => {
    const runner = await runnerContext(browser, { latitude: ujpest.lat, longitude: ujpest.lng });
    const { page } = runner;
    await fillTrip(page, ujpest);

    // Active now: every day, departing in half an hour (Budapest time: the browser's zone).
    const time = await page.evaluate(() => {
      const at = new Date(Date.now() + 30 * 60_000);
      return `${String(at.getHours()).padStart(2, '0')}:${String(at.getMinutes()).padStart(2, '0')}`;
    });
    const save = page.getByRole('region', { name: 'Útvonal mentése' });
    await save.getByLabel('Megnevezés').fill('Munkába');
    for (const day of ['Szombat', 'Vasárnap']) await save.getByRole('checkbox', { name: day }).check();
    await save.getByLabel('Indulás időpontja').fill(time);
    await save.getByRole('button', { name: 'Útvonal mentése' }).click();
    const schedule = `Minden nap ${time.replace(/^0/, '')}`;
    await expect(page.getByText(`Elmentve: Munkába (${schedule})`)).toBeVisible();
    const saved = page.getByRole('region', { name: 'Mentett útvonalaim' }).getByRole('article', { name: 'Munkába' });
    await expect(saved).toContainText(schedule);
    const listed = await (await runner.context.request.get('/api/me/trips')).json();
    expect(listed.items).toHaveLength(1);
    expect(listed.items[0].active).toBe(true);

    // A sender posts a parcel on the way: the runner is offered it at once, and takes it from the offer.
    const parcel = await parcelFromNewSender(browser, onTheWay(String(Date.now() % 100_000)));
    const offer = page.locator('.trip-offer').filter({ hasText: parcel.senderAddress });
    await expect(offer).toContainText('Új csomag az útvonaladon');
    await expect(offer).toContainText(parcel.receiverAddress);
    await expectAccessible(page);
    await offer.getByRole('button', { name: 'Csomag felvétele' }).click();
    await expect(page.getByText('Sikeres csomagfelvétel!')).toBeVisible();
    const taken = await (await runner.context.request.get(`/api/parcels/${parcel.id}`)).json();
    expect(taken.runner).toBe(runner.account.userName);

    // Paused, resumed and deleted: each said once the server confirmed it.
    await saved.getByRole('button', { name: 'Szüneteltetés: Munkába' }).click();
    await expect(page.getByText('Szüneteltetve: Munkába')).toBeVisible();
    await expect(saved.getByText('Szünetel', { exact: true })).toBeVisible();
    expect((await (await runner.context.request.get('/api/me/trips')).json()).items[0].paused).toBe(true);
    await saved.getByRole('button', { name: 'Folytatás: Munkába' }).click();
    await expect(page.getByText('Újra figyeljük: Munkába')).toBeVisible();
    await saved.getByRole('button', { name: 'Törlés: Munkába' }).click();
    await expect(page.getByText('Törölve: Munkába')).toBeVisible();
    await expect(page.getByText('Még nincs mentett útvonalad.')).toBeVisible();
    expect((await (await runner.context.request.get('/api/me/trips')).json()).items).toEqual([]);
    await runner.context.close();
  });

  test("the same place as start and end: the server's Hungarian message at the field, nothing saved", async ({
    browser,
  }) => {
    const runner = await runnerContext(browser, { latitude: ujbuda.lat, longitude: ujbuda.lng });
    const { page } = runner;
    // From where the runner stands, to the address that is the same place.
    await fillTrip(page, ujbuda);
    const sameMessage = 'Az indulás és az érkezés ugyanaz a hely: adj meg két különböző pontot.';
    const to = page.getByRole('group', { name: 'Hova mész?' });

    await page.getByRole('button', { name: 'Útba eső csomagok keresése' }).click();
    await expect(to.getByText(sameMessage)).toBeVisible();
    await expect(page.getByRole('region', { name: 'Útba eső csomagok', exact: true })).toHaveCount(0);

    const save = page.getByRole('region', { name: 'Útvonal mentése' });
    await save.getByLabel('Megnevezés').fill('Sehova');
    await save.getByRole('button', { name: 'Útvonal mentése' }).click();
    await expect(to.getByText(sameMessage)).toBeVisible();
    await expect(page.getByText('Még nincs mentett útvonalad.')).toBeVisible();
    expect((await (await runner.context.request.get('/api/me/trips')).json()).items).toEqual([]);

    // 0 minutes: the server's words beside the field.
    await page.getByLabel('Legfeljebb ennyi kitérő (perc)').fill('0');
    await page.getByRole('button', { name: 'Útba eső csomagok keresése' }).click();
    await expect(page.getByText('A kitérő 1 és 120 perc között lehet (egész szám).')).toBeVisible();
    await expectAccessible(page);
    await runner.context.close();
  });

  test('a relay offer the trip passes shows under Továbbadás and on the map; one is reserved, one taken meanwhile is refused', async ({
    browser,
  }) => {
    const tag = String(Date.now() % 100_000);
    // Going on past Újbuda to Budaörs: a trip from Újpest to Újbuda brings it kilometres closer.
    const budaors = { lat: 47.4621, lng: 18.958 };
    const carrier = await runnerContext(browser);
    const offer = async (fraction: number, placeLabel: string) => {
      const parcel = await parcelFromNewSender(browser, { receiverCoordinates: budaors, category: 'Könyv' });
      expect((await carrier.context.request.post(`/api/parcels/${parcel.id}/pickup`)).status()).toBe(200);
      const created = await carrier.context.request.post(`/api/parcels/${parcel.id}/relay-offer`, {
        data: {
          place: along(ujpest, ujbuda, fraction),
          placeLabel,
          from: new Date().toISOString(),
          until: new Date(Date.now() + 2 * 3_600_000).toISOString(),
        },
      });
      expect(created.status()).toBe(201);
      return { parcel, offer: (await created.json()) as { id: number }, placeLabel };
    };
    const lehel = await offer(0.35, `Lehel tér ${tag}`);
    const nyugati = await offer(0.5, `Nyugati pu. ${tag}`);

    const runner = await runnerContext(browser, { latitude: ujpest.lat, longitude: ujpest.lng });
    const { page } = runner;
    await fillTrip(page, ujpest);
    await page.getByRole('button', { name: 'Útba eső csomagok keresése' }).click();

    const relays = page.getByRole('region', { name: 'Továbbadás', exact: true });
    const card = relays.getByRole('article', { name: `Továbbadás: ${lehel.parcel.id}` });
    await expect(card).toBeVisible();
    await expect(card.getByText(/^\+\d+ perc$/)).toBeVisible();
    await expect(card.getByText(/^\d+(,\d)? km-rel közelebb a célhoz$/)).toBeVisible();
    await expect(card).toContainText(`Találkozási pont: ${lehel.placeLabel}`);
    await expect(card.getByText(/^Időablak: (holnap )?\d\d:\d\d–(holnap )?\d\d:\d\d$/)).toBeVisible();
    await expect(card).toContainText(`Felajánlja: ${carrier.account.userName}`);
    await expect(card).toContainText('Könyv');
    const map = page.getByRole('region', { name: 'Az útvonal és az útba eső csomagok térképe' });
    for (const { placeLabel } of [lehel, nyugati]) {
      await expect(map.locator(`.leaflet-marker-icon[title="Továbbadás: ${placeLabel}"]`)).toHaveCount(1);
    }
    await expectAccessible(page);

    // Someone else reserves the other one while this runner's request is on its way (held until
    // then): the server's words, and it leaves the list.
    const quicker = await runnerContext(browser);
    await page.route(`**/api/relay-offers/${nyugati.offer.id}/take`, async (route) => {
      expect((await quicker.context.request.post(`/api/relay-offers/${nyugati.offer.id}/take`)).status()).toBe(200);
      await route.continue();
    });
    const taken = relays.getByRole('article', { name: `Továbbadás: ${nyugati.parcel.id}` });
    await taken.getByRole('button', { name: 'Lefoglalom' }).click();
    await expect(page.getByText('Ezt a továbbadást már más lefoglalta, vagy már nem érvényes.')).toBeVisible();
    await expect(taken).toHaveCount(0);
    await expect(map.locator(`.leaflet-marker-icon[title="Továbbadás: ${nyugati.placeLabel}"]`)).toHaveCount(0);

    // This one is free: reserved, said once the server confirmed it, and the card says so.
    await card.getByRole('button', { name: 'Lefoglalom' }).click();
    await expect(
      page.getByText('Lefoglaltad a csomagot: találkozz a futárral, és olvasd be a QR kódját.'),
    ).toBeVisible();
    await expect(card.getByRole('status')).toHaveText(
      'Lefoglalva neked – találkozz a futárral, és olvasd be a QR kódját.',
    );
    await expect(card.getByRole('button', { name: 'Lefoglalom' })).toHaveCount(0);
    const listed = await (await runner.context.request.get('/api/relay-offers')).json();
    expect(listed.items.find((item: { id: number }) => item.id === lehel.offer.id)?.takenBy).toBe(
      runner.account.userName,
    );
    for (const context of [carrier.context, runner.context, quicker.context]) await context.close();
  });

  test('an end picked on the map', async ({ browser }) => {
    const runner = await runnerContext(browser, { latitude: ujpest.lat, longitude: ujpest.lng });
    const { page } = runner;
    await page.goto('/FutarUtvonal');
    await expect(page.getByRole('group', { name: 'Honnan indulsz?' })).toContainText(
      'A jelenlegi helyzetedből indulunk.',
    );
    const to = page.getByRole('group', { name: 'Hova mész?' });
    await to.getByRole('radio', { name: 'Pont a térképen' }).check();
    const map = to.getByRole('region', { name: 'Térkép: Hova mész? kijelölése' });
    const box = await map.boundingBox();
    if (!box) throw new Error('the map is not on screen');
    // The map opens on central Budapest: a tap in its middle picks a point there (again, until the
    // map's tap handler has loaded).
    const chosen = to.getByText(/^Kijelölt pont: 47\.\d{5}, 19\.\d{5}$/);
    await expect(async () => {
      await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
      await expect(chosen).toBeVisible({ timeout: 1000 });
    }).toPass();
    await expect(map.locator('.leaflet-marker-icon[title="Hova mész?"]')).toHaveCount(1);
    await page.getByRole('button', { name: 'Útba eső csomagok keresése' }).click();
    const matches = page.getByRole('region', { name: 'Útba eső csomagok', exact: true });
    await expect(
      matches.getByText(/^Becslés: az út kitérő nélkül kb\. \d+ perc, érkezés kb\. \d{1,2}:\d{2}\.$/),
    ).toBeVisible();
    await runner.context.close();
  });
});
