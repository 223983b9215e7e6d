import { fileURLToPath } from 'node:url';
import type { BrowserContext, Page } from '@playwright/test';
import {
  carriedToTheDoor,
  expect,
  metresNorth,
  parcelFromNewSender,
  revealCard,
  runnerContext,
  szegedDoor,
  test,
} from './fixtures.ts';
import { baseURL } from './playwright.config.ts';

/*
 * The installable app and the outbox (docs/decisions/0019-installable-app-and-outbox.md). Offline
 * is the browser's offline mode plus every request to the server aborted at the context, which also
 * holds the service worker's own fetches (setOffline alone does not stop those).
 */

const PHOTO = fileURLToPath(new URL('./fixtures/delivery-photo.jpg', import.meta.url));

const card = (page: Page, parcelId: string) => page.getByRole('article', { name: `Csomag ${parcelId}` });

async function serviceWorkerReady(page: Page) {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
}

const everything = `${baseURL}/**`;

async function goOffline(context: BrowserContext) {
  await context.setOffline(true);
  await context.route(everything, (route) => route.abort('internetdisconnected'));
}

async function goOnline(context: BrowserContext) {
  await context.unroute(everything);
  await context.setOffline(false);
}

interface TimelineEvent {
  kind: string;
  at: string;
  occurredAt?: string;
}

test.describe('the installable app', () => {
  test('links its manifest, installs its service worker and starts offline from the cached shell', async ({
    page,
    context,
  }) => {
    await page.goto('/');
    const manifestHref = await page.locator('link[rel="manifest"]').getAttribute('href');
    expect(manifestHref).toBe('/manifest.webmanifest');
    const manifest = await (await page.request.get('/manifest.webmanifest')).json();
    expect(manifest).toMatchObject({ name: 'Csomagküldő', lang: 'hu', display: 'standalone', start_url: '/' });
    expect(manifest.shortcuts.map((shortcut: { url: string }) => shortcut.url)).toEqual([
      '/FutarraVaroCsomagok',
      '/FutarTerkep',
    ]);
    await serviceWorkerReady(page);

    await goOffline(context);
    await page.goto('/CsomagKovetes');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.getByText(/^Offline — /)).toBeVisible();
    // A route's own code comes from the precache too: the sign-in page was never opened online.
    await page.goto('/Bejelentkezes');
    await expect(page.getByRole('button', { name: 'Bejelentkezés' })).toBeVisible();
    await goOnline(context);
  });
});

test.describe('a new version', () => {
  test('is offered when its service worker waits, and taken on the tap', async ({ page }) => {
    await page.goto('/');
    await serviceWorkerReady(page);
    // A returning visitor: the page is under the installed worker.
    await page.reload();
    // The next deployment's worker, as the browser finds it on its update check (a new script URL
    // stands in for new bytes: the e2e server serves one build).
    await page.evaluate(async () => {
      await navigator.serviceWorker.register('/sw.js?next-build');
    });
    await expect(page.getByText('Új verzió érhető el —')).toBeVisible();
    // Nothing changes until the tap: the old worker still controls the page, the new one waits.
    expect(await page.evaluate(() => navigator.serviceWorker.controller?.scriptURL)).toBe(`${baseURL}/sw.js`);
    // Settled: the app's own registration (on load) may have started one more install meanwhile.
    await expect
      .poll(() =>
        page.evaluate(async () => {
          const registration = await navigator.serviceWorker.getRegistration();
          return registration?.installing === null && registration.waiting !== null;
        }),
      )
      .toBe(true);
    await page.evaluate(async () => {
      const worker = (await navigator.serviceWorker.getRegistration())?.waiting;
      // What becomes of it is noted where the reloaded page can read it.
      worker?.addEventListener('statechange', () => sessionStorage.setItem('waiting-worker', worker.state));
      (window as unknown as { beforeUpdate: boolean }).beforeUpdate = true;
    });

    const reloaded = page.waitForEvent('load');
    await page.getByRole('button', { name: 'frissítés' }).click();
    await reloaded;
    // The waiting worker took over and the page reloaded: the old page's state is gone.
    expect(await page.evaluate(() => 'beforeUpdate' in window)).toBe(false);
    expect(['activating', 'activated']).toContain(await page.evaluate(() => sessionStorage.getItem('waiting-worker')));
  });
});

test.describe('actions that survive a lost connection', () => {
  test('a pickup and a delivery made offline are sent once each when the connection returns', async ({ browser }) => {
    const parcel = await parcelFromNewSender(browser, { receiverCoordinates: szegedDoor });
    const door = parcel.receiverCoordinates;
    const runner = await runnerContext(browser, { latitude: door.lat, longitude: door.lng, accuracy: 5 });
    const { page, context } = runner;
    await page.goto('/FutarraVaroCsomagok');
    await revealCard(page, parcel.id);
    await serviceWorkerReady(page);

    await goOffline(context);
    await card(page, parcel.id).getByRole('button', { name: 'Csomag felvétele' }).click();
    await expect(page.getByText('Függőben: 1 művelet')).toBeVisible();
    await expect(card(page, parcel.id)).toHaveCount(0);

    // The app opened again without a connection: the kept session, lists and actions are there.
    await page.goto('/FolyamatbanLevoCsomagok');
    await runner.stillHere();
    await expect(page.getByText(/^Offline — utoljára frissítve: /)).toBeVisible();
    await expect(page.getByText('Függőben: 1 művelet')).toBeVisible();
    await card(page, parcel.id).getByRole('button', { name: 'Leadás QR kód nélkül' }).click();
    await expect(page.getByText('Függőben: 2 művelet')).toBeVisible();
    const pending = page.getByTestId('pending-actions').getByRole('listitem');
    await expect(pending).toHaveCount(2);
    await expect(pending.first()).toContainText(`Csomag felvétele · ${parcel.id}`);
    await expect(pending.first()).toContainText(/rögzítve: \d{4}-\d\d-\d\d \d\d:\d\d:\d\d/);

    const reconnectedAt = Date.now();
    await goOnline(context);
    await expect(page.getByText('Sikeres csomagfelvétel!')).toBeVisible();
    await expect(page.getByText('Sikeres csomagleadás!')).toBeVisible();
    await expect(page.getByTestId('pending-actions')).toHaveCount(0);
    await expect(card(page, parcel.id)).toHaveCount(0);

    const detail = await context.request.get(`/api/parcels/${parcel.id}`);
    expect(detail.status()).toBe(200);
    const { status, events } = (await detail.json()) as { status: string; events: TimelineEvent[] };
    expect(status).toBe('delivered');
    const pickups = events.filter((event) => event.kind === 'picked_up');
    const deliveries = events.filter((event) => event.kind === 'delivered');
    expect(pickups).toHaveLength(1);
    expect(deliveries).toHaveLength(1);
    // The timeline keeps when the runner tapped (occurredAt), not when the server heard of it.
    for (const event of [...pickups, ...deliveries]) {
      expect(event.occurredAt).toBeDefined();
      expect(Date.parse(event.occurredAt ?? '')).toBeLessThan(reconnectedAt);
    }
    await context.close();
  });

  test('a pickup kept offline that another runner took meanwhile says so after reconnecting', async ({ browser }) => {
    const parcel = await parcelFromNewSender(browser);
    const late = await runnerContext(browser);
    const fast = await runnerContext(browser);
    await late.page.goto('/FutarraVaroCsomagok');
    await revealCard(late.page, parcel.id);
    await serviceWorkerReady(late.page);

    await goOffline(late.context);
    await card(late.page, parcel.id).getByRole('button', { name: 'Csomag felvétele' }).click();
    await expect(late.page.getByText('Függőben: 1 művelet')).toBeVisible();

    const taken = await fast.context.request.post(`/api/parcels/${parcel.id}/pickup`);
    expect(taken.status()).toBe(200);

    await goOnline(late.context);
    await expect(late.page.getByText('Ezt a csomagot már felvette egy másik futár.')).toBeVisible();
    await expect(late.page.getByTestId('pending-actions')).toHaveCount(0);
    const detail = await fast.context.request.get(`/api/parcels/${parcel.id}`);
    const { runner, events } = (await detail.json()) as { runner: string; events: TimelineEvent[] };
    expect(runner).toBe(fast.account.userName);
    expect(events.filter((event) => event.kind === 'picked_up')).toHaveLength(1);
    await late.context.close();
    await fast.context.close();
  });

  test('a hand-over with the receiver’s code made offline at the door is sent and checked when the connection returns', async ({
    browser,
  }) => {
    const { parcel, receiver, runner, sender } = await carriedToTheDoor(browser);
    const { pin } = (await (await receiver.context.request.get(`/api/parcels/${parcel.id}/handover-pin`)).json()) as {
      pin: string;
    };
    const { page, context } = runner;
    await page.goto('/FolyamatbanLevoCsomagok');
    await expect(card(page, parcel.id)).toBeVisible();
    await serviceWorkerReady(page);

    await goOffline(context);
    const form = card(page, parcel.id).getByRole('form', { name: 'Átadás kóddal' });
    await form.getByLabel('Átvételi kód').fill(pin);
    await form.getByRole('button', { name: 'Átadás kóddal' }).click();
    await expect(page.getByText('Függőben: 1 művelet')).toBeVisible();
    await expect(page.getByTestId('pending-actions').getByRole('listitem')).toContainText(
      `Átadás kóddal · ${parcel.id}`,
    );
    await expect(card(page, parcel.id)).toHaveCount(0);

    const reconnectedAt = Date.now();
    await goOnline(context);
    await expect(page.getByText('Átadtad a csomagot.')).toBeVisible();
    await expect(page.getByTestId('pending-actions')).toHaveCount(0);
    const detail = await context.request.get(`/api/parcels/${parcel.id}`);
    const { status, events } = (await detail.json()) as { status: string; events: TimelineEvent[] };
    expect(status).toBe('delivered');
    const handedOver = events.filter((event) => event.kind === 'handed_over_pin');
    expect(handedOver).toHaveLength(1);
    expect(Date.parse(handedOver[0]?.occurredAt ?? '')).toBeLessThan(reconnectedAt);
    for (const each of [runner, receiver, sender]) await each.context.close();
  });

  test('a failed attempt recorded offline at the door is sent when the connection returns; its photo is not kept', async ({
    browser,
  }) => {
    const { parcel, receiver, runner, sender } = await carriedToTheDoor(browser);
    const { page, context } = runner;
    await page.goto('/FolyamatbanLevoCsomagok');
    const mine = card(page, parcel.id);
    await expect(mine).toBeVisible();
    await serviceWorkerReady(page);

    await goOffline(context);
    await mine.getByRole('button', { name: 'Nem sikerült kézbesíteni' }).click();
    const form = mine.getByRole('form', { name: 'Sikertelen kézbesítés rögzítése' });
    await form.getByLabel('Mi történt?').selectOption({ label: 'Nem volt otthon senki' });
    await form.getByLabel('Fotó az ajtóról (nem kötelező)').setInputFiles(PHOTO);
    await runner.stillHere();
    await form.getByRole('button', { name: 'Rögzítés' }).click();
    await expect(page.getByText('Függőben: 1 művelet')).toBeVisible();
    await expect(page.getByText(/^Az ajtóról készült fotót kapcsolat nélkül nem tudjuk eltenni/)).toBeVisible();
    await expect(page.getByTestId('pending-actions').getByRole('listitem')).toContainText(
      `Sikertelen kézbesítés rögzítése · ${parcel.id}`,
    );

    await goOnline(context);
    await expect(
      page.getByText('A sikertelen kézbesítést rögzítettük. A feladót és a címzettet értesítettük.'),
    ).toBeVisible();
    await expect(page.getByTestId('pending-actions')).toHaveCount(0);
    const detail = await context.request.get(`/api/parcels/${parcel.id}`);
    const { status, events } = (await detail.json()) as { status: string; events: TimelineEvent[] };
    expect(status).toBe('in_transit');
    expect(events.filter((event) => event.kind === 'attempted')).toHaveLength(1);
    for (const each of [runner, receiver, sender]) await each.context.close();
  });

  test('positions recorded offline go to the server as one batch when the connection returns', async ({ browser }) => {
    const start = { lat: 47.4979, lng: 19.0402 };
    const runner = await runnerContext(browser, { latitude: start.lat, longitude: start.lng, accuracy: 5 });
    const { page, context } = runner;
    const isLocation = (url: string) => url.endsWith('/api/runners/me/location');
    const firstReport = page.waitForResponse((response) => isLocation(response.url()));
    await page.goto('/FutarDashboard');
    expect((await firstReport).status()).toBe(204);
    await serviceWorkerReady(page);

    await goOffline(context);
    const keptPoints = () =>
      page.evaluate(
        () =>
          new Promise<number>((resolve, reject) => {
            const open = indexedDB.open('csomag-outbox');
            open.onerror = () => reject(open.error);
            open.onsuccess = () => {
              const read = open.result.transaction('actions').objectStore('actions').getAll();
              read.onsuccess = () => {
                const batch = (read.result as { kind: string; body: { points: unknown[] } }[]).find(
                  (action) => action.kind === 'location',
                );
                resolve(batch?.body.points.length ?? 0);
              };
            };
          }),
      );
    for (const [index, metres] of [40, 80, 120].entries()) {
      const at = metresNorth(start, metres);
      await context.setGeolocation({ latitude: at.lat, longitude: at.lng, accuracy: 5 });
      await expect.poll(keptPoints).toBe(index + 1);
    }

    const sent: unknown[] = [];
    page.on('request', (request) => {
      if (isLocation(request.url())) sent.push(request.postDataJSON());
    });
    const batch = page.waitForResponse((response) => isLocation(response.url()));
    await goOnline(context);
    expect((await batch).ok()).toBe(true);
    await expect.poll(keptPoints).toBe(0);
    expect(sent).toHaveLength(1);
    const { points } = sent[0] as { points: { lat: number; occurredAt: string }[] };
    expect(points.map((point) => point.lat)).toEqual([40, 80, 120].map((metres) => metresNorth(start, metres).lat));
    expect(points.map((point) => Date.parse(point.occurredAt))).toEqual(
      points.map((point) => Date.parse(point.occurredAt)).sort((a, b) => a - b),
    );
    await context.close();
  });
});
