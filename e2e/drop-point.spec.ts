import { fileURLToPath } from 'node:url';
import type { Browser } from '@playwright/test';
import {
  carriedToTheDoor,
  decodeQr,
  e2eAdmin,
  expect,
  expectAccessible,
  marker,
  parcelCard,
  personContext,
  runnerContext,
  signInViaApi,
  test,
  toastShown,
} from './fixtures.ts';
import { mailNamed } from './mailbox.ts';
import { baseURL } from './playwright.config.ts';

/*
 * Issue 28's path through a drop point, on phones: the runner finds nobody home and records it
 * with a photo; the receiver — no account, only the link in the mail about it (issue 29) —
 * chooses a drop point; the runner leaves the parcel there with the code the staff read out; the
 * receiver collects it with their own code, which the staff types in.
 */
test.use({ viewport: { width: 390, height: 844 } });

const PHOTO = fileURLToPath(new URL('./fixtures/delivery-photo.jpg', import.meta.url));
const szegedShop = { lat: 46.2531, lng: 20.1488 };

const card = parcelCard;

test('nobody home → the receiver chooses a drop point → the runner leaves it there → the receiver collects it with the code', async ({
  browser,
}) => {
  test.slow();
  const staff = await personContext(browser);
  const admin = await browser.newContext({ baseURL });
  await signInViaApi(admin.request, e2eAdmin.email, e2eAdmin.password);
  const shopName = `Dóm trafik ${Date.now() % 10000}`;
  // The back office adds the drop point: hours that do not parse are refused in Hungarian first.
  const adminPage = await admin.newPage();
  await adminPage.goto('/SaAtvetelipontok');
  await adminPage.getByRole('button', { name: 'Új átvételi pont' }).click();
  const pointForm = adminPage.getByRole('form', { name: 'Átvételi pont adatai' });
  await pointForm.getByLabel('Név').fill(shopName);
  await pointForm.getByLabel('Fajta').selectOption({ label: 'Üzlet' });
  await pointForm.getByLabel('Cím').fill('6720 Szeged, Dóm tér 1');
  await pointForm.getByLabel('Szélesség (pl. 47.4979)').fill(String(szegedShop.lat));
  await pointForm.getByLabel('Hosszúság (pl. 19.0402)').fill(String(szegedShop.lng));
  await pointForm.getByLabel('Nyitvatartás').fill('mindig nyitva');
  await pointForm.getByLabel('Munkatársak (felhasználónevek vesszővel)').fill(staff.account.userName);
  await pointForm.getByRole('button', { name: 'Mentés' }).click();
  await expect(pointForm.locator('.field-error').filter({ hasText: 'A nyitvatartást így add meg' })).toBeVisible();
  await pointForm.getByLabel('Nyitvatartás').fill('H-V 0:00-24:00');
  await pointForm.getByRole('button', { name: 'Mentés' }).click();
  await expect(adminPage.getByText('Az átvételi pontot elmentettük.')).toBeVisible();
  await expect(adminPage.getByRole('article', { name: shopName })).toContainText(staff.account.userName);
  await expectAccessible(adminPage);

  const receiverEmail = `atvevo.${Date.now().toString(36)}@example.hu`;
  const { sender, parcel, receiver: signedInReceiver, runner } = await carriedToTheDoor(browser, { receiverEmail });
  await signedInReceiver.context.close();

  // At the door: nobody home, with a photo of the door.
  await runner.page.goto('/FolyamatbanLevoCsomagok');
  await runner.stillHere();
  const mine = card(runner.page, parcel.id);
  await mine.getByRole('button', { name: 'Nem sikerült kézbesíteni' }).click();
  const form = mine.getByRole('form', { name: 'Sikertelen kézbesítés rögzítése' });
  await form.getByLabel('Mi történt?').selectOption({ label: 'Nem volt otthon senki' });
  await form.getByLabel('Fotó az ajtóról (nem kötelező)').setInputFiles(PHOTO);
  await form.getByRole('button', { name: 'Rögzítés' }).click();
  await expect(
    runner.page.getByText('A sikertelen kézbesítést rögzítettük. A feladót és a címzettet értesítettük.'),
  ).toBeVisible();

  // The receiver has no account: the mail about it brings the link where they choose.
  const attempted = await mailNamed(receiverEmail, `Nem sikerült kézbesíteni – ${parcel.id}`);
  expect(attempted.text).toContain('Az alábbi linken kérhetsz új időpontot');
  const link = new RegExp(`https?://\\S+/CsomagKovetes/${parcel.id}#link=\\S+`).exec(attempted.text ?? '')?.[0] ?? '';
  expect(link).not.toBe('');
  const receiverContext = await browser.newContext({ baseURL, viewport: { width: 390, height: 844 } });
  const receiver = { context: receiverContext, page: await receiverContext.newPage() };
  await receiver.page.goto(link);
  await expect(receiver.page.getByRole('heading', { name: 'Kézbesítési kísérletek' })).toBeVisible();
  await expect(receiver.page.getByText('Nem volt otthon senki').first()).toBeVisible();
  await expect(receiver.page.getByRole('img', { name: 'Fotó a 1. kézbesítési kísérletről' })).toBeVisible();
  const choice = receiver.page.getByRole('form', { name: 'Vagy vedd át egy átvételi ponton' });
  await choice
    .getByLabel('Átvételi pont')
    .selectOption({ label: `${shopName} — 6720 Szeged, Dóm tér 1 (H-V 0:00-24:00)` });
  await choice.getByRole('button', { name: 'Ide kérem' }).click();
  await expect(receiver.page.getByText(/^A csomag az átvételi pontra megy\./)).toBeVisible();
  await expectAccessible(receiver.page);

  // The staff's page shows it coming, with the code for the runner.
  await staff.page.goto('/AtvetelPont');
  const coming = staff.page.getByRole('region', { name: shopName }).getByRole('listitem', { name: parcel.id });
  await expect(coming).toContainText('Leadási kód a futárnak:');
  const dropOffPin = ((await coming.textContent()) ?? '').match(/Leadási kód a futárnak: (\d{6})/)?.[1] ?? '';
  expect(dropOffPin).toMatch(/^\d{6}$/);
  await expectAccessible(staff.page);

  // The runner's card says where it goes now; the code leaves it there.
  await runner.page.reload();
  await expect(mine.getByText(`Átvételi pontra: ${shopName}, 6720 Szeged, Dóm tér 1`)).toBeVisible();
  await expect(mine.getByRole('button', { name: 'Leadás QR kód nélkül' })).toHaveCount(0);
  const pinForm = mine.getByRole('form', { name: 'Átadás kóddal' });
  await pinForm.getByLabel('Átvételi kód').fill(dropOffPin);
  await pinForm.getByRole('button', { name: 'Átadás kóddal' }).click();
  await expect(runner.page.getByText('Leadtad a csomagot az átvételi ponton.')).toBeVisible();
  await expect(mine).toHaveCount(0);

  // The receiver sees their code; the staff types it in and hands the parcel out.
  await receiver.page.reload();
  const code = receiver.page.getByRole('region', { name: 'Átvételi kód' });
  await expect(code).toContainText('A csomag átvételi ponton vár');
  const receiverPin = ((await code.textContent()) ?? '').match(/Átvételi kód: (\d{6})/)?.[1] ?? '';
  expect(receiverPin).toMatch(/^\d{6}$/);
  await staff.page.reload();
  const waiting = staff.page.getByRole('region', { name: shopName }).getByRole('listitem', { name: parcel.id });
  await waiting.getByLabel('Az átvevő kódja').fill(receiverPin);
  await waiting.getByRole('button', { name: 'Kiadás' }).click();
  await expect(staff.page.getByText('A csomagot kiadtad.')).toBeVisible();

  await receiver.page.reload();
  await expect(receiver.page.getByText('leadott', { exact: true }).first()).toBeVisible();
  const chain = await admin.request.get(`/api/parcels/${parcel.id}/custody`);
  const kinds = ((await chain.json()).events as { kind: string }[]).map((event) => event.kind);
  expect(kinds).toEqual(['created', 'picked_up', 'attempted', 'dropped_off', 'collected']);
  for (const context of [admin, staff.context, sender.context, receiver.context, runner.context]) await context.close();
});

/**
 * A drop point the back office adds (open always, staffed by a new person), and a parcel its runner
 * left there with the staff's code after finding nobody home — the first test walks that through
 * the screens; the others start from it.
 */
async function leftAtDropPoint(
  browser: Browser,
  place: { name: string; address: string; location: { lat: number; lng: number } },
) {
  const staff = await personContext(browser);
  await staff.page.setViewportSize({ width: 390, height: 844 });
  const admin = await browser.newContext({ baseURL });
  await signInViaApi(admin.request, e2eAdmin.email, e2eAdmin.password);
  const created = await admin.request.post('/api/drop-points', {
    data: { ...place, kind: 'shop', openingHours: 'H-V 0:00-24:00', staff: [staff.account.userName] },
  });
  expect(created.status()).toBe(201);
  const point = (await created.json()) as { id: number };
  const { sender, parcel, receiver, runner } = await carriedToTheDoor(browser);
  const runnerApi = runner.context.request;
  expect(
    (await runnerApi.post(`/api/parcels/${parcel.id}/drop-point`, { data: { dropPointId: point.id } })).status(),
  ).toBe(200);
  const expected = await (await staff.context.request.get(`/api/drop-points/${point.id}/parcels`)).json();
  const { dropOffPin } = (expected.items as { id: string; dropOffPin: string }[]).find((i) => i.id === parcel.id) ?? {};
  expect((await runnerApi.post(`/api/parcels/${parcel.id}/pin-handover`, { data: { pin: dropOffPin } })).status()).toBe(
    200,
  );
  return { staff, admin, shopName: place.name, sender, parcel, receiver, runner };
}

test('refused at the counter → another runner takes it back with the staff’s QR code → the sender gets it with theirs', async ({
  browser,
}) => {
  test.slow();
  const shop = { lat: 46.2556, lng: 20.1505 };
  const { staff, admin, shopName, sender, parcel, receiver, runner } = await leftAtDropPoint(browser, {
    name: `Kárász trafik ${Date.now() % 10000}`,
    address: '6720 Szeged, Kárász utca 1',
    location: shop,
  });

  // The receiver refuses it at the counter: the staff says so, asked once more.
  await staff.page.goto('/AtvetelPont');
  const waiting = staff.page.getByRole('region', { name: shopName }).getByRole('listitem', { name: parcel.id });
  await waiting.getByRole('button', { name: 'A címzett nem veszi át' }).click();
  await waiting.getByRole('button', { name: 'Igen, visszaküldöm' }).click();
  await expect(staff.page.getByText('A csomag visszamegy a feladójához: ő átveheti itt')).toBeVisible();
  await expect(waiting).toContainText('Visszaküldés: a feladó veheti át');
  await expect(waiting).toContainText('Kód a futárnak, aki a feladóhoz viszi:');
  const link = await decodeQr(waiting.getByRole('img', { name: 'Átvételi kód QR kódként a futárnak' }));
  expect(link).toContain('/FutarraVaroCsomagok#');
  await expectAccessible(staff.page);

  // Another runner near the shop: its pin on their map; their camera opens the staff's code.
  const taker = await runnerContext(browser, { latitude: shop.lat, longitude: shop.lng, accuracy: 5 });
  await taker.page.setViewportSize({ width: 390, height: 844 });
  await taker.page.goto('/FutarTerkep');
  await expect(marker(taker.page, 'Átvételi pont').first()).toBeVisible();
  await taker.page.goto(link);
  const item = taker.page
    .getByRole('region', { name: 'Átvételi pontról vissza a feladóhoz' })
    .getByRole('listitem', { name: parcel.id });
  await expect(item).toContainText(`Felvétel: ${shopName}, 6720 Szeged, Kárász utca 1`);
  await expect(item).toContainText(`Cél: a feladó címe, ${parcel.senderAddress}`);
  await expect(item.getByLabel('Kód az átvételi ponttól')).toHaveValue(/^\d{6}$/);
  await expectAccessible(taker.page);
  await item.getByRole('button', { name: 'Átveszem' }).click();
  await expect(taker.page.getByText(`Átvetted a(z) ${parcel.id} csomagot: vidd a feladó címére.`)).toBeVisible();
  await expect(item).toHaveCount(0);

  // At the sender's door: the sender's QR code fills in their code on the runner's card.
  await sender.page.goto(`/CsomagKovetes/${parcel.id}`);
  const code = sender.page.getByRole('region', { name: 'Átvételi kód' });
  const senderPin = ((await code.textContent()) ?? '').match(/Átvételi kód: (\d{6})/)?.[1] ?? '';
  expect(senderPin).toMatch(/^\d{6}$/);
  const doorLink = await decodeQr(code.getByRole('img', { name: 'Átvételi kód QR kódként a futárnak' }));
  await taker.page.goto(doorLink);
  const mine = card(taker.page, parcel.id);
  await expect(mine.getByText(`Visszaküldés a feladónak: ${parcel.senderAddress}`)).toBeVisible();
  const pinForm = mine.getByRole('form', { name: 'Átadás kóddal' });
  await expect(pinForm.getByLabel('Átvételi kód')).toHaveValue(senderPin);
  await pinForm.getByRole('button', { name: 'Átadás kóddal' }).click();
  await expect(taker.page.getByText('Visszavitted a csomagot a feladónak.')).toBeVisible();

  const chain = await admin.request.get(`/api/parcels/${parcel.id}/custody`);
  const kinds = ((await chain.json()).events as { kind: string }[]).map((event) => event.kind);
  expect(kinds).toEqual(['created', 'picked_up', 'dropped_off', 'return_started', 'picked_up', 'returned']);
  for (const context of [admin, staff.context, sender.context, receiver.context, runner.context, taker.context]) {
    await context.close();
  }
});

test('a sender sends a parcel to a drop point from the form; its tracking page names the place', async ({
  browser,
}) => {
  const admin = await browser.newContext({ baseURL });
  await signInViaApi(admin.request, e2eAdmin.email, e2eAdmin.password);
  const officeName = `Tisza iroda ${Date.now() % 10000}`;
  const created = await admin.request.post('/api/drop-points', {
    data: {
      name: officeName,
      kind: 'office',
      address: '6720 Szeged, Dóm tér 2',
      location: { lat: 46.2496, lng: 20.1491 },
      openingHours: 'H-P 8:00-18:00',
      staff: [],
    },
  });
  expect(created.status()).toBe(201);
  const sender = await personContext(browser);
  const { page } = sender;
  await page.goto('/CsomagFeladas');
  await page.getByLabel('Feladási cím').fill('1052 Budapest, Váci utca 12');
  await page.getByLabel('Kiszállítási cím').fill('6720 Szeged, Kárász utca 5');
  await page.getByLabel('Kategória').fill('Könyv');
  await page.getByLabel('Súly (gramm)').fill('600');
  await expect(marker(page, 'Kiszállítási pont')).toBeVisible();
  const where = page.getByLabel('Hova kézbesítsük?');
  await expect(where).toHaveValue('');
  await where.selectOption({ label: `${officeName} — 6720 Szeged, Dóm tér 2 (H-P 8:00-18:00)` });
  await expectAccessible(page);
  const confirmed = toastShown(page, 'Sikeres csomagfeladás!');
  await page.getByRole('button', { name: 'Feladás' }).click();
  await confirmed;
  await expect(page).toHaveURL(/\/CsomagKovetes\/[0-9A-Z]{10}$/);
  await expect(page.getByRole('definition').filter({ hasText: `${officeName}, 6720 Szeged, Dóm tér 2` })).toBeVisible();
  for (const context of [admin, sender.context]) await context.close();
});

test('damaged on the shelf → its staff reports it with a photo → the back office sends it back → the sender collects it there', async ({
  browser,
}) => {
  test.slow();
  const { staff, admin, shopName, sender, parcel, receiver, runner } = await leftAtDropPoint(browser, {
    name: `Tisza trafik ${Date.now() % 10000}`,
    address: '6720 Szeged, Dóm tér 3',
    location: { lat: 46.2527, lng: 20.1492 },
  });

  // The staff finds it damaged on the shelf and says so, with a photo.
  await staff.page.goto('/AtvetelPont');
  const waiting = staff.page.getByRole('region', { name: shopName }).getByRole('listitem', { name: parcel.id });
  await waiting.getByRole('button', { name: 'Probléma bejelentése' }).click();
  const form = waiting.getByRole('form', { name: 'Probléma bejelentése' });
  await form.getByLabel('Mi történt a csomaggal?').selectOption({ label: 'Megsérült' });
  await form.getByLabel('Leírás').fill('Leesett a polcról, a doboz sarka betört.');
  await form.getByLabel('Fotók (nem kötelező, legfeljebb 5)').setInputFiles(PHOTO);
  await form.getByRole('button', { name: 'Bejelentés' }).click();
  await expect(staff.page.getByText('A problémát bejelentettük: az ügyfélszolgálat dönt a csomagról.')).toBeVisible();
  await expect(form).toHaveCount(0);
  await expectAccessible(staff.page);

  // The back office reads it with its photo and sends it back: it waits there for its sender.
  const page = await admin.newPage();
  await page.goto('/SaProblemak');
  const listed = page.getByRole('article').filter({ hasText: parcel.id });
  await expect(listed).toContainText('Leesett a polcról');
  await expect(listed).toContainText(staff.account.userName);
  await listed.getByRole('link', { name: 'Részletek' }).click();
  await expect(page.getByRole('img', { name: 'A bejelentés 1. fotója' })).toBeVisible();
  const decision = page.getByRole('form', { name: 'Döntés' });
  await decision.getByLabel('Visszaküldés a feladónak').check();
  await decision.getByLabel('A döntés indoka').fill('A feladó a sérült csomagot visszakéri.');
  await decision.getByRole('button', { name: 'Döntés' }).click();
  await expect(page.getByText('Rögzítettük a döntést: Visszaküldés a feladónak.')).toBeVisible();

  await staff.page.reload();
  await expect(waiting).toContainText('Visszaküldés: a feladó veheti át');
  await sender.page.goto(`/CsomagKovetes/${parcel.id}`);
  const code = sender.page.getByRole('region', { name: 'Átvételi kód' });
  const senderPin = ((await code.textContent()) ?? '').match(/Átvételi kód: (\d{6})/)?.[1] ?? '';
  expect(senderPin).toMatch(/^\d{6}$/);
  await waiting.getByLabel('Az átvevő kódja').fill(senderPin);
  await waiting.getByRole('button', { name: 'Kiadás' }).click();
  await expect(staff.page.getByText('A csomagot kiadtad.')).toBeVisible();

  const chain = await admin.request.get(`/api/parcels/${parcel.id}/custody`);
  const kinds = ((await chain.json()).events as { kind: string }[]).map((event) => event.kind);
  expect(kinds).toEqual(['created', 'picked_up', 'dropped_off', 'return_started', 'returned']);
  for (const context of [admin, staff.context, sender.context, receiver.context, runner.context]) await context.close();
});
