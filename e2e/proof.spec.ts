import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import {
  expect,
  expectAccessible,
  newPerson,
  registerViaApi,
  revealCard,
  runnerContext,
  sendParcelViaApi,
  test,
} from './fixtures.ts';
import { baseURL } from './playwright.config.ts';

/** A small camera JPEG with GPS and camera make in its EXIF (the server keeps none of it). */
const PHOTO = fileURLToPath(new URL('./fixtures/delivery-photo.jpg', import.meta.url));

/** Kárász utca 5, Szeged: where the sender dragged the destination pin. */
const szegedDoor = { lat: 46.2517, lng: 20.1469 };

const card = (page: Page, parcelId: string) => page.getByRole('article', { name: `Csomag ${parcelId}` });

/** A sender in their own signed-in context, and a parcel they sent. */
async function senderWithParcel(browser: import('@playwright/test').Browser, extra: Record<string, unknown> = {}) {
  const context = await browser.newContext({ baseURL });
  await registerViaApi(context.request, newPerson('user'));
  const parcel = await sendParcelViaApi(context.request, { receiverCoordinates: szegedDoor, ...extra } as never);
  return { context, parcel, page: await context.newPage() };
}

/** The image really loaded (a blob read with the session), not a broken <img>. */
async function expectLoaded(image: import('@playwright/test').Locator) {
  await expect(image).toBeVisible();
  await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  expect(await image.getAttribute('src')).toMatch(/^blob:/);
}

test.describe('proof of delivery', () => {
  test('the runner delivers with a photo the sender asked for; the sender sees the photo', async ({ browser }) => {
    const sender = await senderWithParcel(browser, { photoRequired: true });
    const runner = await runnerContext(browser, { latitude: szegedDoor.lat, longitude: szegedDoor.lng, accuracy: 5 });
    expect((await runner.context.request.post(`/api/parcels/${sender.parcel.id}/pickup`)).status()).toBe(200);

    await runner.page.goto('/FolyamatbanLevoCsomagok');
    const mine = card(runner.page, sender.parcel.id);
    await expect(mine.getByText('A feladó fotót kért a leadásról.')).toBeVisible();
    // Without the photo the server refuses, and says why.
    await runner.stillHere();
    await mine.getByRole('button', { name: 'Leadás QR kód nélkül' }).click();
    await expect(
      runner.page.getByText('A feladó fotót kért a leadásról: előbb készíts fotót a csomagról.'),
    ).toBeVisible();

    const upload = runner.page.waitForResponse((r) => r.url().endsWith(`/api/parcels/${sender.parcel.id}/proof/photo`));
    await mine.getByLabel('Fotó a leadásról').setInputFiles(PHOTO);
    expect((await upload).status()).toBe(201);
    await expect(mine.getByRole('status').filter({ hasText: 'A fotó elmentve.' })).toBeVisible();
    await expect(mine.getByRole('img', { name: 'A leadásról készült fotó előnézete' })).toBeVisible();
    await expectAccessible(runner.page);

    await runner.stillHere();
    await mine.getByRole('button', { name: 'Leadás QR kód nélkül' }).click();
    await expect(runner.page.getByText('Sikeres csomagleadás!').first()).toBeVisible();

    await sender.page.goto('/FeladottCsomagok');
    const sent = await revealCard(sender.page, sender.parcel.id);
    await expectLoaded(sent.getByRole('img', { name: `Fotó a(z) ${sender.parcel.id} csomag leadásáról` }));
    await expectAccessible(sender.page);
    // Never a public address: the same URL without the session is refused.
    const anonymous = await browser.newContext({ baseURL });
    expect((await anonymous.request.get(`/api/parcels/${sender.parcel.id}/proof/photo`)).status()).toBe(401);
    for (const context of [anonymous, runner.context, sender.context]) await context.close();
  });

  test('the receiver signs on /Csomagatvetel before Átvétel; the sender sees the signature', async ({ browser }) => {
    const sender = await senderWithParcel(browser);
    const runner = await runnerContext(browser);
    expect((await runner.context.request.post(`/api/parcels/${sender.parcel.id}/pickup`)).status()).toBe(200);
    const link = (await (await runner.context.request.post(`/api/parcels/${sender.parcel.id}/handover-token`)).json())
      .url as string;

    const receiver = await browser.newContext({ baseURL });
    const page = await receiver.newPage();
    await page.goto(link);
    await expect(page.getByRole('heading', { name: 'Csomagátvétel QR kóddal' })).toBeVisible();
    const pad = page.getByRole('img', { name: 'Aláírás mező' });
    await expect(pad).toBeVisible();
    await expectAccessible(page);
    const box = await pad.boundingBox();
    if (!box) throw new Error('no signature pad');
    // A first scribble, cleared with 'Törlés', then the signature itself.
    for (const attempt of [0, 1]) {
      await page.mouse.move(box.x + 20, box.y + box.height / 2);
      await page.mouse.down();
      for (let i = 1; i <= 12; i++) {
        await page.mouse.move(box.x + 20 + i * 18, box.y + box.height / 2 + (i % 2 ? -25 : 25), { steps: 3 });
      }
      await page.mouse.up();
      if (attempt === 0) await page.getByRole('button', { name: 'Törlés' }).click();
    }
    const handover = page.waitForResponse((r) => r.url().endsWith(`/api/parcels/${sender.parcel.id}/handover`));
    await page.getByRole('button', { name: 'Átvétel' }).click();
    expect((await handover).status()).toBe(200);
    await expect(page.getByText('Sikeres csomagleadás!').first()).toBeVisible();

    await sender.page.goto('/FeladottCsomagok');
    const sent = await revealCard(sender.page, sender.parcel.id);
    await expectLoaded(
      sent.getByRole('img', { name: `A címzett aláírása a(z) ${sender.parcel.id} csomag átvételekor` }),
    );
    for (const context of [receiver, runner.context, sender.context]) await context.close();
  });
});
