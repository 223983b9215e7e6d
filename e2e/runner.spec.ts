import {
  decodeQr,
  expect,
  expectAccessible,
  marker,
  metresNorth,
  parcelFromNewSender,
  revealCard,
  runnerContext,
  settled,
  test,
} from './fixtures.ts';

const card = (page: import('@playwright/test').Page, parcelId: string) =>
  page.getByRole('article', { name: `Csomag ${parcelId}` });

test.describe('waiting pool and pickup', () => {
  test('picks a parcel up after the server confirms; it leaves every waiting list live', async ({ browser }) => {
    const parcel = await parcelFromNewSender(browser, { category: 'Virág' });
    const runner = await runnerContext(browser);
    const watcher = await runnerContext(browser);
    await watcher.page.goto('/FutarraVaroCsomagok');
    await revealCard(watcher.page, parcel.id);

    await runner.page.goto('/FutarraVaroCsomagok');
    await revealCard(runner.page, parcel.id);
    const pickup = runner.page.waitForResponse((r) => r.url().endsWith(`/api/parcels/${parcel.id}/pickup`));
    await card(runner.page, parcel.id).getByRole('button', { name: 'Csomag felvétele' }).click();
    expect((await pickup).status()).toBe(200);
    await expect(runner.page.getByText('Sikeres csomagfelvétel!')).toBeVisible();
    await expect(card(runner.page, parcel.id)).toHaveCount(0);
    // The other runner's list updates without a reload.
    await expect(card(watcher.page, parcel.id)).toHaveCount(0);

    await runner.page.goto('/FolyamatbanLevoCsomagok');
    await expect(card(runner.page, parcel.id)).toBeVisible();
    await expect(card(runner.page, parcel.id).getByText('szállítás alatt')).toBeVisible();
    await expectAccessible(runner.page);
    await runner.context.close();
    await watcher.context.close();
  });

  test('gives a parcel clicked by two runners at once to exactly one of them', async ({ browser }) => {
    const parcel = await parcelFromNewSender(browser);
    const first = await runnerContext(browser);
    const second = await runnerContext(browser);
    for (const runner of [first, second]) {
      // Hold back live updates so neither list loses the card before both runners have clicked.
      await runner.page.route('**/api/events**', (route) => route.abort());
      await runner.page.goto('/FutarraVaroCsomagok');
    }
    const buttons = [];
    for (const runner of [first, second]) {
      buttons.push((await revealCard(runner.page, parcel.id)).getByRole('button', { name: 'Csomag felvétele' }));
    }
    const answers = [first, second].map(({ page }) =>
      page.waitForResponse(
        (r) => r.url().endsWith(`/api/parcels/${parcel.id}/pickup`) && r.request().method() === 'POST',
      ),
    );
    await Promise.all(buttons.map((button) => button.click()));
    const statuses = await Promise.all(answers.map(async (answer) => (await answer).status()));
    expect(statuses.toSorted()).toEqual([200, 409]);

    // Each runner is told what the server answered them — looked for at once on both pages, as the
    // toasts close on their own after a few seconds.
    const success = 'Sikeres csomagfelvétel!';
    const taken = 'Ezt a csomagot már felvette egy másik futár.';
    await Promise.all(
      [first, second].map(({ page }, index) =>
        expect(page.getByText(statuses[index] === 200 ? success : taken)).toBeVisible(),
      ),
    );
    const loser = statuses[0] === 200 ? second : first;
    await expect(loser.page.getByText(success)).toHaveCount(0);
    await first.context.close();
    await second.context.close();
  });

  test('shows the dashboard tabs with the waiting pool and the contact block', async ({ browser }) => {
    const parcel = await parcelFromNewSender(browser);
    const runner = await runnerContext(browser);
    await runner.page.goto('/FutarDashboard');
    const tabs = runner.page.getByRole('tablist', { name: 'Futár áttekintés' });
    await expect(tabs.getByRole('tab')).toHaveText(['Szállítás alatt', 'Felvételre vár', 'Hasznos tudnivalók']);
    await expect(runner.page.getByText('Most nincs nálad szállítandó csomag.')).toBeVisible();
    await tabs.getByRole('tab', { name: 'Felvételre vár' }).click();
    await revealCard(runner.page, parcel.id);
    await card(runner.page, parcel.id).getByRole('button', { name: 'Csomag felvétele' }).click();
    await expect(runner.page.getByText('Sikeres csomagfelvétel!')).toBeVisible();
    await tabs.getByRole('tab', { name: 'Szállítás alatt' }).click();
    await expect(card(runner.page, parcel.id)).toBeVisible();
    await tabs.getByRole('tab', { name: 'Hasznos tudnivalók' }).click();
    await expect(runner.page.getByText('Email: segitseg@csomagkuldo.hu')).toBeVisible();
    await runner.context.close();
  });
});

/** Kárász utca 5, Szeged: where a sender drags the destination pin. */
const szegedDoor = { lat: 46.2517, lng: 20.1469 };

test.describe('delivery', () => {
  test('delivers within 15 m of the door, and refuses 2 km away with the distance', async ({ browser }) => {
    // The sender put the destination pin on the door.
    const parcel = await parcelFromNewSender(browser, { receiverCoordinates: szegedDoor });
    const door = parcel.receiverCoordinates;
    const far = metresNorth(door, 2000);
    const runner = await runnerContext(browser, { latitude: far.lat, longitude: far.lng, accuracy: 10 });
    const pickup = await runner.context.request.post(`/api/parcels/${parcel.id}/pickup`);
    expect(pickup.status()).toBe(200);

    await runner.page.goto('/FolyamatbanLevoCsomagok');
    await runner.stillHere();
    await card(runner.page, parcel.id).getByRole('button', { name: 'Leadás QR kód nélkül' }).click();
    await expect(card(runner.page, parcel.id).getByRole('alert')).toHaveText(
      /^Túl messze vagy (199\d|200\d) méter távolságra$/,
    );

    await runner.context.setGeolocation({ latitude: door.lat, longitude: door.lng, accuracy: 5 });
    await card(runner.page, parcel.id).getByRole('button', { name: 'Leadás QR kód nélkül' }).click();
    await expect(runner.page.getByText('Sikeres csomagleadás!')).toBeVisible();
    await expect(card(runner.page, parcel.id)).toHaveCount(0);
    const tracking = await runner.context.request.get(`/api/tracking/${parcel.id}`);
    expect((await tracking.json()).status).toBe('delivered');
    await runner.context.close();
  });

  test('offers only the QR handover where the door is not known, shows whom to call, and takes a parcel back to its sender', async ({
    browser,
  }) => {
    // Placed by the gazetteer at Szeged's centre: nobody dragged the pin to the door.
    const parcel = await parcelFromNewSender(browser, {
      recipientName: 'Kiss Anna',
      recipientPhone: '+36 30 123 4567',
    });
    const runner = await runnerContext(browser);
    await runner.page.setViewportSize({ width: 390, height: 844 });
    expect((await runner.context.request.post(`/api/parcels/${parcel.id}/pickup`)).status()).toBe(200);
    await runner.page.goto('/FolyamatbanLevoCsomagok');
    const mine = card(runner.page, parcel.id);
    await expect(mine.getByText('A címzett pontos helye nem ismert — adj át QR kóddal')).toBeVisible();
    await expect(mine.getByRole('button', { name: 'Leadás QR kód nélkül' })).toHaveCount(0);
    await expect(mine.getByRole('button', { name: 'Leadás QR kóddal' })).toBeVisible();
    await expect(mine.getByRole('link', { name: 'Címzett hívása (Kiss Anna)' })).toHaveAttribute(
      'href',
      'tel:+36301234567',
    );
    await expect(mine.getByRole('link', { name: /^Feladó hívása/ })).toHaveAttribute('href', /^tel:\+?\d+$/);

    // 'Visszaadom' never puts it back in the pool (issue 28): here it goes back to its sender.
    await mine.getByRole('button', { name: 'Visszaadom' }).click();
    await mine.getByRole('button', { name: 'Visszaviszem a feladónak' }).click();
    await mine.getByLabel('Miért viszed vissza?').fill('Nem jutok el Szegedre.');
    await mine.getByRole('button', { name: 'Visszaküldés indítása' }).click();
    await expect(runner.page.getByText(/^A csomag visszamegy a feladóhoz\./)).toBeVisible();
    await expect(mine.getByText(/^Visszaküldés a feladónak: /)).toBeVisible();
    expect((await (await runner.context.request.get(`/api/tracking/${parcel.id}`)).json()).state).toBe('returning');
    await runner.context.close();
  });

  test('explains when the position cannot be read', async ({ browser }) => {
    const parcel = await parcelFromNewSender(browser, { receiverCoordinates: szegedDoor });
    const runner = await runnerContext(browser);
    await runner.context.clearPermissions();
    await runner.context.request.post(`/api/parcels/${parcel.id}/pickup`);
    await runner.page.goto('/FolyamatbanLevoCsomagok');
    await card(runner.page, parcel.id).getByRole('button', { name: 'Leadás QR kód nélkül' }).click();
    await expect(card(runner.page, parcel.id).getByRole('alert')).toContainText('A helymeghatározás nem elérhető.');
    await runner.context.close();
  });

  test('hands over by QR: the receiver confirms, both pages turn delivered live, the link then fails', async ({
    browser,
  }) => {
    const parcel = await parcelFromNewSender(browser);
    const runner = await runnerContext(browser);
    await runner.context.request.post(`/api/parcels/${parcel.id}/pickup`);
    const trackingPage = await (await browser.newContext()).newPage();
    await trackingPage.goto(`/CsomagKovetes/${parcel.id}`);
    await expect(trackingPage.getByText('szállítás alatt').first()).toBeVisible();

    await runner.page.goto('/FolyamatbanLevoCsomagok');
    await card(runner.page, parcel.id).getByRole('button', { name: 'Leadás QR kóddal' }).click();
    await expect(runner.page).toHaveURL('/FutarQr');
    await expect(runner.page.getByRole('heading', { name: 'QR kódos csomagleadás' })).toBeVisible();
    await runner.page.reload();
    const qr = runner.page.getByRole('img', { name: 'Átvételi QR kód' });
    await expect(qr).toBeVisible();
    await expectAccessible(runner.page);
    expect(await qr.getAttribute('width')).toBe('128');
    const link = new URL(await decodeQr(qr));
    expect(link.pathname).toBe('/Csomagatvetel');
    expect(link.searchParams.get('csomagid')).toBe(parcel.id);
    expect(link.searchParams.get('futar')).toBe(runner.account.userName);
    expect(link.searchParams.get('felado')).toBe(parcel.senderUser);

    const receiver = await browser.newContext();
    const receiverPage = await receiver.newPage();
    await receiverPage.goto(link.toString());
    await expect(receiverPage.getByRole('heading', { name: 'Csomagátvétel QR kóddal' })).toBeVisible();
    await expectAccessible(receiverPage);
    await receiverPage.getByRole('button', { name: 'Átvétel' }).click();
    await expect(receiverPage.getByText('Sikeres csomagleadás!').first()).toBeVisible();

    await expect(runner.page.getByRole('status').filter({ hasText: 'Sikeres csomagleadás!' })).toBeVisible();
    await expect(trackingPage.getByText('leadott').first()).toBeVisible();

    const again = await browser.newContext();
    const againPage = await again.newPage();
    await againPage.goto(link.toString());
    await expect(againPage.getByRole('alert')).toHaveText('Ezt a csomagot már átvették.');
    await againPage.goto(link.toString().replace(/token=[^&]+/, 'token=forged'));
    await expect(againPage.getByRole('alert')).toHaveText('A QR kód érvénytelen vagy lejárt.');
    for (const context of [runner.context, receiver, again, trackingPage.context()]) await context.close();
  });
});

test.describe('runner map and live location', () => {
  // Far from every other e2e parcel, so only this test's markers are in view.
  const sopron = { lat: 47.6817, lng: 16.5845 };

  test('shows me, the waiting parcel, where it goes, and picks it up from the map', async ({ browser }) => {
    // Kilometres apart, so no marker hides another at zoom 10.
    const pickupPoint = metresNorth(sopron, 6000);
    const parcel = await parcelFromNewSender(browser, {
      senderAddress: '9400 Sopron, Várkerület 1',
      receiverAddress: '9400 Sopron, Fő tér 2',
      senderCoordinates: pickupPoint,
      receiverCoordinates: metresNorth(sopron, -6000),
    });
    const runner = await runnerContext(browser, { latitude: sopron.lat, longitude: sopron.lng });
    await runner.page.goto('/FutarTerkep');
    await expect(marker(runner.page, 'Ez te vagy')).toBeVisible();
    await expectAccessible(runner.page);
    const map = await runner.page.getByRole('region', { name: 'Futárra váró csomagok térképe' }).boundingBox();
    if (!map) throw new Error('no map');
    // The pickup marker of this parcel is the one in view.
    const available = marker(runner.page, 'Elérhető');
    // Only what lies in view is asked for: the suite's parcels elsewhere in the country are not loaded.
    await expect(available).toHaveCount(1);
    let ours = -1;
    for (let i = 0; i < (await available.count()); i++) {
      const box = await available.nth(i).boundingBox();
      if (box && box.x > map.x && box.x < map.x + map.width && box.y > map.y && box.y < map.y + map.height) ours = i;
    }
    expect(ours).toBeGreaterThanOrEqual(0);
    await expect(marker(runner.page, 'Hova')).toHaveCount(0);
    await available.nth(ours).click();
    await expect(runner.page.getByText('Honnan: 9400 Sopron, Várkerület 1')).toBeVisible();
    await expect(marker(runner.page, 'Hova')).toBeVisible();
    // Clicking the map itself clears the selection.
    await runner.page.mouse.click(map.x + map.width - 60, map.y + 60);
    await expect(marker(runner.page, 'Hova')).toHaveCount(0);
    await available.nth(ours).click();
    await marker(runner.page, 'Hova').click();
    await expect(runner.page.getByText(parcel.id)).toBeVisible();
    // The 'Hova' popup's own 'Felvétel' (the pickup pin's popup offers one too, and fades out meanwhile).
    const pickUpHere = runner.page
      .locator('.leaflet-popup', { hasText: parcel.id })
      .getByRole('button', { name: 'Felvétel' });
    await settled(pickUpHere);
    await pickUpHere.click();
    await expect(runner.page.getByText('Sikeres csomagfelvétel!')).toBeVisible();
    await expect(marker(runner.page, 'Hova')).toHaveCount(0);
    await runner.context.close();
  });

  test("shows 'A futárod' on the tracking page and moves it when the runner moves", async ({ browser }) => {
    const parcel = await parcelFromNewSender(browser);
    const start = parcel.senderCoordinates;
    const runner = await runnerContext(browser, { latitude: start.lat, longitude: start.lng });
    await runner.context.request.post(`/api/parcels/${parcel.id}/pickup`);
    await runner.page.goto('/FolyamatbanLevoCsomagok');

    const viewer = await (await browser.newContext()).newPage();
    await viewer.goto(`/CsomagKovetes/${parcel.id}`);
    const courier = marker(viewer, 'A futárod');
    const pickup = marker(viewer, 'Felvételi pont');
    await expect(courier).toBeVisible();
    // How far below the pickup pin the courier is drawn: measured against the pickup, whatever the
    // map's framing (it fits both ends and the courier, Budapest to Szeged: ~295 m a pixel).
    const belowPickup = async () => {
      const [runnerBox, pickupBox] = await Promise.all([courier.boundingBox(), pickup.boundingBox()]);
      return runnerBox && pickupBox ? runnerBox.y - pickupBox.y : Number.NaN;
    };
    // The runner reports from the pickup: drawn on it.
    await expect.poll(async () => Math.abs(await belowPickup())).toBeLessThan(3);

    // 15 km south, still between the two ends: ~50 px lower on the map.
    const moved = metresNorth(start, -15_000);
    await runner.context.setGeolocation({ latitude: moved.lat, longitude: moved.lng, accuracy: 5 });
    await expect.poll(belowPickup, { timeout: 20_000 }).toBeGreaterThan(20);
    await runner.context.close();
    await viewer.context().close();
  });

  test('saves the runner profile with the email read-only', async ({ browser }) => {
    const runner = await runnerContext(browser);
    await runner.page.goto(`/FutarProfil/${runner.account.userName}`);
    await expect(runner.page.getByLabel('Email')).toBeDisabled();
    await expect(runner.page.getByLabel('Email')).toHaveValue(runner.account.email);
    await runner.page.getByLabel('Név', { exact: true }).fill('Futó Ferenc');
    await runner.page.getByLabel('Telefonszám').fill('+36 20 111 2222');
    await runner.page.getByRole('button', { name: 'Mentés' }).click();
    await expect(runner.page.getByText('Sikeres adatváltoztatás!')).toBeVisible();
    const me = await (await runner.context.request.get('/api/auth/me')).json();
    expect(me.account).toMatchObject({ name: 'Futó Ferenc', phoneNumber: '+36 20 111 2222', role: 'runner' });
    await runner.context.close();
  });
});
