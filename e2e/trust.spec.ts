import {
  e2eAdmin,
  expect,
  expectAccessible,
  newPerson,
  parcelFromNewSender,
  registerViaApi,
  runnerContext,
  sendParcelViaApi,
  signInViaApi,
  test,
} from './fixtures.ts';
import { baseURL } from './playwright.config.ts';

test('the back office suspends a runner, who then cannot take parcels and is told why; lifting it lets them', async ({
  page,
  browser,
}) => {
  await signInViaApi(page.request, e2eAdmin.email, e2eAdmin.password);
  const parcel = await parcelFromNewSender(browser);
  const runner = await runnerContext(browser);

  await page.goto(`/SaFutarSzerkesztes/${runner.account.userName}`);
  const panel = page.getByRole('region', { name: 'Jóváhagyás és felfüggesztés' });
  // What is true of the runner, not SPEC's status field ('inaktív' of every runner, issue 27).
  await expect(panel.getByTestId('runner-trust-state')).toContainText('Jóváhagyva');
  await expect(panel.getByTestId('runner-trust-state')).not.toContainText('inaktív');
  await expect(panel.getByTestId('runner-trust-state')).toContainText('Nincs felfüggesztve');
  // No reason: the server refuses, and says so beside the field.
  await panel.getByRole('button', { name: 'Felfüggesztés', exact: true }).click();
  await expect(panel.getByText('Add meg a felfüggesztés okát.')).toBeVisible();
  await panel.getByLabel('A felfüggesztés oka').fill('Több panasz érkezett.');
  await panel.getByRole('button', { name: 'Felfüggesztés', exact: true }).click();
  await expect(page.getByText('A futár felfüggesztve.')).toBeVisible();
  await expect(panel.getByTestId('runner-trust-state')).toContainText('Több panasz érkezett.');
  await expect(panel.getByRole('button', { name: 'Felfüggesztés feloldása' })).toBeVisible();
  await expectAccessible(page);

  await page.goto('/SaFutarListazas');
  await page.getByLabel('Keresés').fill(runner.account.userName);
  const card = page.getByRole('article', { name: new RegExp(runner.account.userName) });
  await expect(card.getByText('felfüggesztve', { exact: true })).toBeVisible();

  // The runner sees why instead of the waiting pool, and a pickup is refused.
  await runner.page.goto('/FutarraVaroCsomagok');
  await expect(runner.page.getByText('A futárfiókod fel van függesztve: Több panasz érkezett.')).toBeVisible();
  const pickup = await runner.context.request.post(`/api/parcels/${parcel.id}/pickup`);
  expect(pickup.status()).toBe(403);
  expect((await pickup.json()).error.code).toBe('runner_suspended');

  await page.goto(`/SaFutarSzerkesztes/${runner.account.userName}`);
  await panel.getByRole('button', { name: 'Felfüggesztés feloldása' }).click();
  await expect(page.getByText('A felfüggesztés feloldva.')).toBeVisible();
  expect((await runner.context.request.post(`/api/parcels/${parcel.id}/pickup`)).status()).toBe(200);
  await runner.context.close();
});

test("a sender reports a delivered parcel 'Nem érkezett meg'; the back office sees it and resolves it", async ({
  page,
  browser,
}) => {
  await signInViaApi(page.request, e2eAdmin.email, e2eAdmin.password);
  const senderSide = await browser.newContext({ baseURL });
  await registerViaApi(senderSide.request, newPerson('user'));
  const parcel = await sendParcelViaApi(senderSide.request);
  const runner = await runnerContext(browser);
  expect((await runner.context.request.post(`/api/parcels/${parcel.id}/pickup`)).status()).toBe(200);
  expect((await page.request.post(`/api/parcels/${parcel.id}/deliver`, { data: {} })).status()).toBe(200);

  const sender = await senderSide.newPage();
  await sender.goto('/FeladottCsomagok');
  const parcelCard = sender.getByRole('article', { name: `Csomag ${parcel.id}` });
  await parcelCard.getByRole('button', { name: 'Nem érkezett meg' }).click();
  await parcelCard.getByRole('button', { name: 'Bejelentés elküldése' }).click();
  await expect(parcelCard.getByText('Írd le, mi történt.')).toBeVisible();
  await parcelCard.getByLabel('Mi történt?').fill('A címzett szerint nem csengetett senki.');
  await parcelCard.getByRole('button', { name: 'Bejelentés elküldése' }).click();
  await expect(sender.getByText('A bejelentést megkaptuk, az ügyfélszolgálat megvizsgálja.').first()).toBeVisible();

  // The runner's card in the back office shows the open report.
  await page.goto('/SaFutarListazas');
  await page.getByLabel('Keresés').fill(runner.account.userName);
  await expect(
    page.getByRole('article', { name: new RegExp(runner.account.userName) }).getByText('nyitott bejelentés'),
  ).toBeVisible();

  await page.goto('/SaBejelentesek');
  const report = page.getByRole('article').filter({ hasText: parcel.id }).first();
  await expect(report).toContainText('A címzett szerint nem csengetett senki.');
  await report.getByRole('link', { name: 'Részletek' }).click();
  await expect(page.getByRole('heading', { name: 'Idővonal' })).toBeVisible();
  await page.getByLabel('Döntés').fill('A futár igazolta a leadást; a csomag a szomszédnál volt.');
  await page.getByRole('button', { name: 'Lezárás' }).click();
  await expect(page.getByText('A bejelentés lezárva.')).toBeVisible();
  await expect(page.getByText(/Lezárta: /)).toBeVisible();
  await expectAccessible(page);

  await page.goto('/SaBejelentesek');
  await page.getByRole('tab', { name: 'Lezárt' }).click();
  await expect(page.getByRole('article').filter({ hasText: parcel.id }).first()).toBeVisible();
  await senderSide.close();
  await runner.context.close();
});
