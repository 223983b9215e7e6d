import {
  budapestToSzeged,
  e2eAdmin,
  expect,
  expectAccessible,
  marker,
  newPerson,
  parcelFromNewSender,
  registerViaApi,
  runnerContext,
  sendParcelViaApi,
  signInViaApi,
  test,
} from './fixtures.ts';
import { baseURL } from './playwright.config.ts';

// Issue 27, "Found on a phone, second walk": what the app records and shows must be what is true.
test.use({ viewport: { width: 390, height: 844 } });

test('a weight typed with a unit is read back in grams before sending, stored so, and a decimal without a unit is refused', async ({
  page,
}) => {
  await registerViaApi(page.request, newPerson('user'));
  await page.goto('/CsomagFeladas');
  await page.getByLabel('Feladási cím').fill(budapestToSzeged.senderAddress);
  await page.getByLabel('Kiszállítási cím').fill(budapestToSzeged.receiverAddress);
  await page.getByLabel('Kategória').fill('Könyv');
  const weight = page.getByLabel('Súly (gramm)');
  const readAs = page.getByTestId('weight-read-as');

  await weight.fill('1,5 kg');
  await expect(readAs).toHaveText('= 1500 g');
  await expect(weight).toHaveAccessibleDescription('= 1500 g');
  await weight.fill('2kg');
  await expect(readAs).toHaveText('= 2000 g');

  // A decimal comma without a unit: grams or kilograms? Refused beside the field, nothing read.
  await weight.fill('1,5');
  await weight.blur();
  await expect(weight).toHaveAccessibleDescription('Tizedes súly mellé írd ki a mértékegységet (pl. 1,5 kg).');
  await expect(readAs).toBeEmpty();
  await weight.fill('0,75 kg');
  await expect(readAs).toHaveText('= 750 g');
  await expect(weight).toHaveAccessibleDescription('= 750 g');
  await expectAccessible(page);

  await expect(marker(page, 'Felvételi pont')).toBeVisible();
  await expect(marker(page, 'Kiszállítási pont')).toBeVisible();
  const saved = page.waitForResponse((r) => r.url().endsWith('/api/parcels') && r.request().method() === 'POST');
  await page.getByRole('button', { name: 'Feladás' }).click();
  const response = await saved;
  expect(response.status()).toBe(201);
  expect((await response.json()).weightGrams).toBe(750);
  await expect(page.getByText('Sikeres csomagfeladás!')).toBeVisible();
  await expect(page.getByRole('definition').filter({ hasText: '750 g' })).toBeVisible();
});

test("a suspended runner's dashboard says so with the reason; the back office's list shows each runner's true standing", async ({
  page,
  browser,
}) => {
  await signInViaApi(page.request, e2eAdmin.email, e2eAdmin.password);
  const suspended = await runnerContext(browser);
  const carrying = await runnerContext(browser);
  const parcel = await parcelFromNewSender(browser);
  expect((await carrying.context.request.post(`/api/parcels/${parcel.id}/pickup`)).status()).toBe(200);
  const reason = 'Két bejelentés egy héten belül.';
  const suspend = await page.request.post(`/api/runners/${suspended.account.userName}/suspend`, { data: { reason } });
  expect(suspend.status()).toBe(200);

  await suspended.page.goto('/FutarDashboard');
  const notice = suspended.page.getByTestId('runner-standing-notice');
  await expect(notice).toHaveText(`A futárfiókod fel van függesztve: ${reason}`);
  await expect(notice).toHaveRole('alert');
  // At the top: right under the page's heading.
  await expect(suspended.page.locator('h1 + [data-testid="runner-standing-notice"]')).toBeVisible();
  await expectAccessible(suspended.page);
  // An approved runner's dashboard has nothing to say about it.
  await carrying.page.goto('/FutarDashboard');
  await expect(carrying.page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(carrying.page.getByTestId('runner-standing-notice')).toHaveCount(0);

  await page.goto('/SaFutarListazas');
  await page.getByLabel('Keresés').fill(suspended.account.userName);
  const suspendedCard = page.getByRole('article', { name: new RegExp(suspended.account.userName) });
  await expect(suspendedCard.getByText('felfüggesztve', { exact: true })).toBeVisible();
  await expect(suspendedCard).toContainText('most nem visz csomagot');
  await expect(suspendedCard).not.toContainText('inaktív');
  await page.getByLabel('Keresés').fill(carrying.account.userName);
  const carryingCard = page.getByRole('article', { name: new RegExp(carrying.account.userName) });
  await expect(carryingCard.getByText('jóváhagyva', { exact: true })).toBeVisible();
  await expect(carryingCard).toContainText('most 1 csomagot visz');
  await expect(carryingCard).not.toContainText('inaktív');
  await expectAccessible(page);
  await suspended.context.close();
  await carrying.context.close();
});

test("the back office's report page says who confirmed a QR hand-over: a link holder, by the name they typed", async ({
  page,
  browser,
}) => {
  await signInViaApi(page.request, e2eAdmin.email, e2eAdmin.password);
  const senderSide = await browser.newContext({ baseURL });
  await registerViaApi(senderSide.request, newPerson('user'));
  const parcel = await sendParcelViaApi(senderSide.request);
  const runner = await runnerContext(browser);
  expect((await runner.context.request.post(`/api/parcels/${parcel.id}/pickup`)).status()).toBe(200);
  const link = (await (await runner.context.request.post(`/api/parcels/${parcel.id}/handover-token`)).json())
    .url as string;

  // Someone holding the link, not signed in, on their own phone.
  const holder = await browser.newContext({ baseURL, viewport: { width: 390, height: 844 } });
  const holderPage = await holder.newPage();
  await holderPage.goto(link);
  await holderPage.getByLabel('A neved').fill('Kiss Ilona');
  await expectAccessible(holderPage);
  const handedOver = holderPage.waitForResponse((r) => r.url().endsWith(`/api/parcels/${parcel.id}/handover`));
  await holderPage.getByRole('button', { name: 'Átvétel' }).click();
  expect((await handedOver).status()).toBe(200);

  const report = await senderSide.request.post(`/api/parcels/${parcel.id}/not-received`, {
    data: { description: 'Nem én vettem át.' },
  });
  expect(report.status()).toBe(201);
  await page.goto(`/SaBejelentes/${(await report.json()).id}`);
  const said = 'Megerősítette: a link birtokosa, bejelentkezés nélkül, „Kiss Ilona” néven, aláírás nélkül';
  await expect(page.getByTestId('report-handover-confirmer')).toHaveText(said);
  await expect(page.getByTestId('handover-confirmer')).toHaveText(said);
  await expectAccessible(page);

  // Not on the public tracking page.
  await holderPage.goto(`/CsomagKovetes/${parcel.id}`);
  await expect(holderPage.getByText('leadott').first()).toBeVisible();
  await expect(holderPage.getByText('Kiss Ilona')).toHaveCount(0);
  for (const context of [holder, senderSide, runner.context]) await context.close();
});
