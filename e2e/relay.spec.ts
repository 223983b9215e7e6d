import { budapestDateTimeInput } from '@csomag/domain/format';
import type { Page } from '@playwright/test';
import {
  decodeQr,
  dragMarker,
  e2eAdmin,
  expect,
  expectAccessible,
  newPerson,
  parcelFromNewSender,
  registerViaApi,
  runnerContext,
  signInViaApi,
  test,
  toastShown,
} from './fixtures.ts';
import { baseURL } from './playwright.config.ts';

const card = (page: Page, parcelId: string) => page.getByRole('article', { name: `Csomag ${parcelId}` });

/** Kárász utca 5, Szeged: the destination pin on the door, so the last runner may deliver by position. */
const szegedDoor = { lat: 46.2517, lng: 20.1469 };

test.describe('relay: runner to runner hand-over', () => {
  test('A shows the relay QR, B takes the parcel over; both lists change live, tracking shows both legs, B delivers', async ({
    browser,
  }) => {
    // Three people on three pages, a QR read and an accessibility check: over a minute on a loaded machine.
    test.slow();
    const parcel = await parcelFromNewSender(browser, { receiverCoordinates: szegedDoor });
    const first = await runnerContext(browser);
    const second = await runnerContext(browser);
    expect((await first.context.request.post(`/api/parcels/${parcel.id}/pickup`)).status()).toBe(200);

    // Both in-progress lists open, and the public tracking page, all following live updates.
    await second.page.goto('/FolyamatbanLevoCsomagok');
    await expect(second.page.getByRole('heading', { name: 'Folyamatban lévő csomagok' })).toBeVisible();
    await expect(card(second.page, parcel.id)).toHaveCount(0);
    const watcher = await browser.newContext();
    const tracking = await watcher.newPage();
    await tracking.goto(`/CsomagKovetes/${parcel.id}`);
    await expect(tracking.getByText('szállítás alatt').first()).toBeVisible();
    await expect(tracking.getByText(first.account.userName, { exact: true })).toBeVisible();

    await first.page.goto('/FolyamatbanLevoCsomagok');
    const mine = card(first.page, parcel.id);
    await mine.getByRole('button', { name: 'Átadás másik futárnak' }).click();
    const qr = mine.getByRole('img', { name: 'Futárátadási QR kód' });
    await expect(qr).toBeVisible();
    await expect(mine.getByText(/^Érvényes eddig: \d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/)).toBeVisible();
    await expectAccessible(first.page);
    const link = new URL(await decodeQr(qr));
    expect(link.pathname).toBe('/FutarAtvetel');
    expect(link.searchParams.get('csomag')).toBe(parcel.id);
    expect(link.searchParams.get('token')).toBeTruthy();
    const takeOverPath = `${link.pathname}${link.search}`;

    // The carrier opening their own link is refused, and nothing changes.
    const own = await first.context.newPage();
    await own.goto(takeOverPath);
    await expect(own.getByRole('alert')).toHaveText('A saját csomagodat nem veheted át magadtól.');
    await expect(own.getByRole('button', { name: 'Átveszem' })).toHaveCount(0);
    await own.close();

    // B scans it on their own phone at Nyugati pályaudvar: the parcel's summary, then 'Átveszem'.
    await second.context.setGeolocation({ latitude: 47.5106, longitude: 19.0567, accuracy: 10 });
    const scanner = await second.context.newPage();
    await scanner.goto(takeOverPath);
    await expect(scanner.getByRole('heading', { name: 'Csomag átvétele másik futártól' })).toBeVisible();
    await expect(scanner.getByText(parcel.id)).toBeVisible();
    await expect(scanner.getByText(first.account.userName, { exact: true })).toBeVisible();
    await expectAccessible(scanner);
    const confirmed = toastShown(scanner, 'Átvetted a csomagot: most már nálad van.');
    await scanner.getByRole('button', { name: 'Átveszem' }).click();
    await confirmed;
    await expect(scanner).toHaveURL('/FolyamatbanLevoCsomagok');
    await expect(card(scanner, parcel.id)).toBeVisible();

    // Live, without a reload: A's list loses it, and A is told whose hands it is in now (issue 27
    // item 4: before, the card vanished without a word); B's other open list gains it.
    await expect(mine).toHaveCount(0);
    await expect(
      first.page.getByText(
        `Átadtad a(z) ${parcel.id} azonosítójú csomagot: most ${second.account.userName} futárnál van.`,
      ),
    ).toBeVisible();
    await expect(card(second.page, parcel.id)).toBeVisible();

    // The tracking page: B is 'A futárod' now, and the timeline has both legs.
    await expect(tracking.getByText(second.account.userName, { exact: true })).toBeVisible();
    const timeline = tracking.getByRole('region', { name: 'Előzmények' });
    await expect(timeline.getByText('Futár felvette')).toBeVisible();
    // The place is named (the nearest district), never shown as coordinates.
    await expect(
      timeline.getByText(
        new RegExp(
          `Átadva: ${first.account.userName} → ${second.account.userName}, Budapest VI\\. kerület, \\d\\d:\\d\\d$`,
        ),
      ),
    ).toBeVisible();

    // A used link is refused to anyone after.
    const third = await runnerContext(browser);
    await third.page.goto(takeOverPath);
    await expect(third.page.getByRole('alert')).toHaveText(
      'Ezt az átadási QR kódot már felhasználták, vagy a csomag azóta másnál van.',
    );
    await expect(third.page.getByRole('button', { name: 'Átveszem' })).toHaveCount(0);
    // A tampered one too.
    await third.page.goto(takeOverPath.replace(/token=[^&]+/, 'token=forged'));
    await expect(third.page.getByRole('alert')).toHaveText('Ez az átadási QR kód érvénytelen.');
    // Someone signed in who is not a runner is told why not.
    const bystander = await browser.newContext();
    await registerViaApi(bystander.request, newPerson('user'));
    const notRunner = await bystander.newPage();
    await notRunner.goto(takeOverPath);
    await expect(notRunner.getByRole('alert')).toHaveText(
      'Csomagot csak futár vehet át másik futártól: jelentkezz be a futár fiókoddal.',
    );
    await expect(notRunner.getByRole('button', { name: 'Átveszem' })).toHaveCount(0);
    await bystander.close();

    // B, now the holder, delivers at the door (the 15 m rule applies to whoever holds it last).
    await second.context.setGeolocation({ latitude: szegedDoor.lat, longitude: szegedDoor.lng, accuracy: 5 });
    await card(second.page, parcel.id).getByRole('button', { name: 'Leadás QR kód nélkül' }).click();
    await expect(second.page.getByText('Sikeres csomagleadás!')).toBeVisible();
    await expect(card(second.page, parcel.id)).toHaveCount(0);
    await expect(tracking.getByText('leadott').first()).toBeVisible();

    // The back office sees the whole chain of custody, and that it verifies.
    const office = await browser.newContext();
    await signInViaApi(office.request, e2eAdmin.email, e2eAdmin.password);
    const edit = await office.newPage();
    await edit.goto(`/SaCsomagSzerkesztes/${parcel.id}`);
    const chain = edit.getByRole('list', { name: 'A csomag őrzési lánca' });
    await expect(edit.getByText('A lánc ellenőrizve: sértetlen.')).toBeVisible();
    await expect(chain.getByRole('listitem')).toHaveCount(4);
    await expect(chain.getByRole('listitem').nth(1)).toContainText(
      `Felvétel: feladó (${parcel.senderUser}) → futár (${first.account.userName})`,
    );
    await expect(chain.getByRole('listitem').nth(2)).toContainText(
      `Futárváltás: futár (${first.account.userName}) → futár (${second.account.userName})`,
    );
    await expect(chain.getByRole('listitem').nth(2)).toContainText('Megerősítette: az átvevő futár QR kóddal');
    await expect(chain.getByRole('listitem').nth(3)).toContainText(
      `Leadás: futár (${second.account.userName}) → címzett`,
    );
    await expectAccessible(edit);
    for (const context of [first.context, second.context, third.context, watcher, office]) await context.close();
  });

  test('B cannot scan A’s screen: A reads out the code, B types it with the parcel’s id and takes it over', async ({
    browser,
  }) => {
    const parcel = await parcelFromNewSender(browser);
    const first = await runnerContext(browser);
    const second = await runnerContext(browser);
    await second.page.setViewportSize({ width: 390, height: 844 });
    expect((await first.context.request.post(`/api/parcels/${parcel.id}/pickup`)).status()).toBe(200);

    await first.page.goto('/FolyamatbanLevoCsomagok');
    const mine = card(first.page, parcel.id);
    await mine.getByRole('button', { name: 'Átadás másik futárnak' }).click();
    const said = mine.getByText(/^Ha nem tudja beolvasni:/);
    await expect(said).toBeVisible();
    const pin = ((await said.textContent()) ?? '').match(/ezt a kódot: (\d{6})\./)?.[1] ?? '';
    expect(pin).toMatch(/^\d{6}$/);

    // B opens the page from their own list: a wrong code is refused, saying how many tries are left.
    await second.page.goto('/FolyamatbanLevoCsomagok');
    await second.page.getByRole('link', { name: 'Átvétel másik futártól' }).click();
    await expect(second.page).toHaveURL('/FutarAtvetel');
    const form = second.page.getByRole('form', { name: 'Átvétel kóddal' });
    await form.getByLabel('Csomagazonosító').fill(parcel.id.toLowerCase());
    const wrong = String((Number(pin) + 1) % 1_000_000).padStart(6, '0');
    await form.getByLabel('Az átadó futár kódja').fill(wrong);
    await form.getByRole('button', { name: 'Átveszem' }).click();
    await expect(form.getByText('Hibás kód. Még 4 próbálkozás maradt.')).toBeVisible();
    await expectAccessible(second.page);
    await form.getByLabel('Az átadó futár kódja').fill(pin);
    const takenOver = toastShown(second.page, 'Átvetted a csomagot: most már nálad van.');
    await form.getByRole('button', { name: 'Átveszem' }).click();
    await takenOver;
    await expect(second.page).toHaveURL('/FolyamatbanLevoCsomagok');
    await expect(card(second.page, parcel.id)).toBeVisible();
    // A hears it live, as after a scan.
    await expect(mine).toHaveCount(0);
    const office = await browser.newContext();
    await signInViaApi(office.request, e2eAdmin.email, e2eAdmin.password);
    const chain = await (await office.request.get(`/api/parcels/${parcel.id}/custody`)).json();
    expect((chain.events as { kind: string; how: string }[]).at(-1)).toMatchObject({
      kind: 'relayed',
      how: 'runner_pin',
    });
    for (const context of [first.context, second.context, office]) await context.close();
  });
});

const nyugati = { latitude: 47.5106, longitude: 19.0567 };

test.describe('relay offers: Továbbadnám', () => {
  test('A offers a parcel at a point picked on the map; C sees it live on the waiting list and map, reserves it; A sees by whom', async ({
    browser,
  }) => {
    // Three runners' pages and two maps: over a minute on a loaded machine.
    test.slow();
    const parcel = await parcelFromNewSender(browser);
    const first = await runnerContext(browser, nyugati);
    expect((await first.context.request.post(`/api/parcels/${parcel.id}/pickup`)).status()).toBe(200);

    // C has the waiting list and the map open before anything is offered.
    // Some 15 km away, so on the wide runner map their own pin does not cover the offer's.
    const third = await runnerContext(browser, { latitude: 47.42, longitude: 18.9 });
    await third.page.goto('/FutarraVaroCsomagok');
    const offers = third.page.getByRole('region', { name: 'Továbbadás' });
    const offerCard = offers.getByRole('article', { name: `Továbbadás: ${parcel.id}` });
    await expect(offers).toBeVisible();
    await expect(offerCard).toHaveCount(0);
    const mapPage = await third.context.newPage();
    await mapPage.goto('/FutarTerkep');
    await expect(mapPage.locator('.leaflet-container')).toBeVisible();

    // A: 'Továbbadnám' on the card; the map starts at A's position, dragging the pin or a tap moves the meeting point.
    await first.page.goto('/FolyamatbanLevoCsomagok');
    const mine = card(first.page, parcel.id);
    await mine.getByRole('button', { name: 'Továbbadnám' }).click();
    const form = mine.getByRole('form', { name: 'Továbbadás másik futárnak' });
    // The phone reports a fix while the form is open.
    await first.context.setGeolocation({ ...nyugati, accuracy: 5 });
    await expect(form.getByText('Kiválasztott pont: 47.51060, 19.05670')).toBeVisible();
    const picker = form.getByRole('region', { name: 'Térkép: a továbbadás találkozási pontja' });
    await expect(picker.locator('.leaflet-marker-icon[title="Találkozási pont"]')).toBeVisible();
    await dragMarker(first.page, picker.locator('.leaflet-marker-icon[title="Találkozási pont"]'), -60, 40);
    const chosen = form.getByText(/^Kiválasztott pont: /);
    await expect(chosen).not.toHaveText('Kiválasztott pont: 47.51060, 19.05670');
    const dragged = await chosen.textContent();
    // A tap elsewhere on the map moves it there: north-east of A now.
    const box = await picker.boundingBox();
    if (!box) throw new Error('the map is not shown');
    await first.page.mouse.click(box.x + box.width / 2 + 60, box.y + box.height / 2 - 40);
    await expect(chosen).not.toHaveText(dragged ?? '');
    const [lat, lng] = ((await chosen.textContent()) ?? '').replace('Kiválasztott pont: ', '').split(', ').map(Number);
    expect(lat).toBeGreaterThan(nyugati.latitude);
    expect(lng).toBeGreaterThan(nyugati.longitude);
    await form.getByLabel('A hely neve').fill('Nyugati pu.');
    const from = Date.now();
    await form.getByLabel('Ettől (budapesti idő)').fill(budapestDateTimeInput(from));
    await form.getByLabel('Eddig (budapesti idő)').fill(budapestDateTimeInput(from + 90 * 60_000));
    await expectAccessible(first.page);
    await form.getByRole('button', { name: 'Felajánlom' }).click();
    await expect(first.page.getByText('Felajánlottad a csomagot továbbadásra.')).toBeVisible();
    // A window that runs past midnight says so: 'holnap 00:13'.
    const clock = (at: number) => {
      const [day, time] = budapestDateTimeInput(at).split('T');
      return day === budapestDateTimeInput(Date.now()).slice(0, 10) ? (time ?? '') : `holnap ${time}`;
    };
    const hours = `${clock(from)}–${clock(from + 90 * 60_000)}`;
    await expect(mine.getByText(`Továbbadásra felajánlva: Nyugati pu., ${hours}`)).toBeVisible();
    await expect(mine.getByText('Még senki nem foglalta le.')).toBeVisible();
    const stored = (await (await first.context.request.get('/api/relay-offers')).json()).items.find(
      (offer: { parcelId: string }) => offer.parcelId === parcel.id,
    );
    expect(stored.place.lat).toBeCloseTo(lat ?? 0, 4);
    expect(stored.place.lng).toBeCloseTo(lng ?? 0, 4);

    // C, live, without a reload: the offer on the waiting list…
    await expect(offerCard).toBeVisible();
    await expect(offerCard).toContainText(parcel.category);
    await expect(offerCard).toContainText('Találkozási pont: Nyugati pu.');
    await expect(offerCard).toContainText(`Időablak: ${hours}`);
    await expect(offerCard).toContainText(`Felajánlja: ${first.account.userName}`);
    await expectAccessible(third.page);
    // …and on the map as a 'Továbbadás' pin, reserved from its popup.
    await mapPage.bringToFront();
    const pins = mapPage.locator('.leaflet-marker-icon[title="Továbbadás"]');
    await expect(pins.first()).toBeVisible();
    // Other tests' offers may be on the map too: open pins until the popup is this parcel's.
    const popup = mapPage.locator('.leaflet-popup', { hasText: parcel.id });
    const pinCount = await pins.count();
    for (let i = 0; i < pinCount; i++) {
      await pins.nth(i).click();
      await expect(mapPage.locator('.leaflet-popup')).toBeVisible();
      if (await popup.isVisible()) break;
    }
    await expect(popup).toBeVisible();
    await expect(popup).toContainText('Nyugati pu.');
    await popup.getByRole('button', { name: 'Lefoglalom' }).click();
    await expect(
      mapPage.getByText('Lefoglaltad a csomagot: találkozz a futárral, és olvasd be a QR kódját.'),
    ).toBeVisible();
    await expect(popup.getByText('Lefoglalva neked – találkozz a futárral, és olvasd be a QR kódját.')).toBeVisible();

    // The waiting list says the same, live; A's card says who reserved it, live.
    await expect(
      offerCard.getByText('Lefoglalva neked – találkozz a futárral, és olvasd be a QR kódját.'),
    ).toBeVisible();
    await expect(offerCard.getByRole('button', { name: 'Lefoglalom' })).toHaveCount(0);
    await expect(mine.getByText(`Lefoglalta: ${third.account.userName}`)).toBeVisible();

    // A withdraws: it leaves C's list live.
    await mine.getByRole('button', { name: 'Visszavonás' }).click();
    await expect(first.page.getByText('Visszavontad a továbbadást.')).toBeVisible();
    await expect(offerCard).toHaveCount(0);
    await expect(mine.getByRole('button', { name: 'Továbbadnám' })).toBeVisible();
    for (const context of [first.context, third.context]) await context.close();
  });

  test('a meeting point outside Hungary is refused with the server’s message, and nothing is saved', async ({
    browser,
  }) => {
    const parcel = await parcelFromNewSender(browser);
    // In Prague: the form's point is the runner's position until they tap the map.
    const runner = await runnerContext(browser, { latitude: 50.0755, longitude: 14.4378 });
    expect((await runner.context.request.post(`/api/parcels/${parcel.id}/pickup`)).status()).toBe(200);
    await runner.page.goto('/FolyamatbanLevoCsomagok');
    const mine = card(runner.page, parcel.id);
    await mine.getByRole('button', { name: 'Továbbadnám' }).click();
    const form = mine.getByRole('form', { name: 'Továbbadás másik futárnak' });
    await runner.context.setGeolocation({ latitude: 50.0755, longitude: 14.4378, accuracy: 5 });
    await expect(form.getByText('Kiválasztott pont: 50.07550, 14.43780')).toBeVisible();
    await form.getByRole('button', { name: 'Felajánlom' }).click();
    await expect(form.getByRole('alert')).toHaveText('A találkozási pontnak Magyarországon kell lennie.');
    await expect(runner.page.getByText('Felajánlottad a csomagot továbbadásra.')).toHaveCount(0);
    const { items } = await (await runner.context.request.get('/api/relay-offers')).json();
    expect(items.filter((offer: { parcelId: string }) => offer.parcelId === parcel.id)).toEqual([]);
    await expect(mine.getByText(/^Továbbadásra felajánlva/)).toHaveCount(0);
    await runner.context.close();
  });

  test('a drop point near the runner is offered as the meeting point: its place and name fill the form', async ({
    browser,
  }) => {
    const admin = await browser.newContext({ baseURL });
    await signInViaApi(admin.request, e2eAdmin.email, e2eAdmin.password);
    const name = `Nyugati trafik ${Date.now() % 10000}`;
    const created = await admin.request.post('/api/drop-points', {
      data: {
        name,
        kind: 'shop',
        address: '1062 Budapest, Teréz körút 55',
        location: { lat: 47.5109, lng: 19.0571 },
        openingHours: 'H-V 6:00-22:00',
        staff: [],
      },
    });
    expect(created.status()).toBe(201);
    const parcel = await parcelFromNewSender(browser);
    const runner = await runnerContext(browser, nyugati);
    expect((await runner.context.request.post(`/api/parcels/${parcel.id}/pickup`)).status()).toBe(200);
    await runner.page.goto('/FolyamatbanLevoCsomagok');
    const mine = card(runner.page, parcel.id);
    await mine.getByRole('button', { name: 'Továbbadnám' }).click();
    const form = mine.getByRole('form', { name: 'Továbbadás másik futárnak' });
    await runner.context.setGeolocation({ ...nyugati, accuracy: 5 });
    const nearest = form.getByRole('region', { name: 'Átvételi pontok találkozási helynek' });
    await nearest.getByRole('button', { name: `Itt: ${name}` }).click();
    await expect(form.getByLabel('A hely neve')).toHaveValue(name);
    await expect(form.getByText('Kiválasztott pont: 47.51090, 19.05710')).toBeVisible();
    await form.getByRole('button', { name: 'Felajánlom' }).click();
    await expect(runner.page.getByText('Felajánlottad a csomagot továbbadásra.')).toBeVisible();
    const stored = (await (await runner.context.request.get('/api/relay-offers')).json()).items.find(
      (offer: { parcelId: string }) => offer.parcelId === parcel.id,
    );
    expect(stored).toMatchObject({ placeLabel: name, place: { lat: 47.5109, lng: 19.0571 } });
    for (const context of [admin, runner.context]) await context.close();
  });
});
