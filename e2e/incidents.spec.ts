import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  e2eAdmin,
  expect,
  expectAccessible,
  parcelCard,
  personContext,
  runnerContext,
  sendParcelViaApi,
  signInViaApi,
  test,
} from './fixtures.ts';
import { baseURL } from './playwright.config.ts';

/*
 * Incidents (issue 28): the runner reports a damaged parcel with a photo on their phone; the back
 * office reads it with its photo, the parcel's proofs, the mail written about it and its custody
 * chain, and decides once — here, back to the sender.
 */
const PHOTO = fileURLToPath(new URL('./fixtures/delivery-photo.jpg', import.meta.url));

test('a damaged parcel reported by its runner is sent back by the back office’s decision', async ({ browser }) => {
  test.slow();
  const sender = await personContext(browser);
  const receiverEmail = `serult.${Date.now().toString(36)}@example.hu`;
  const parcel = await sendParcelViaApi(sender.context.request, { receiverEmail });
  const runner = await runnerContext(browser);
  await runner.page.setViewportSize({ width: 390, height: 844 });
  expect((await runner.context.request.post(`/api/parcels/${parcel.id}/pickup`)).status()).toBe(200);
  // The runner's photo of the parcel, a proof the back office weighs the case on.
  const proof = await runner.context.request.post(`/api/parcels/${parcel.id}/proof/photo`, {
    multipart: { photo: { name: 'csomag.jpg', mimeType: 'image/jpeg', buffer: readFileSync(PHOTO) } },
  });
  expect(proof.status(), await proof.text()).toBe(201);

  await runner.page.goto('/FolyamatbanLevoCsomagok');
  const mine = parcelCard(runner.page, parcel.id);
  await mine.getByRole('button', { name: 'Probléma bejelentése' }).click();
  const form = mine.getByRole('form', { name: 'Probléma bejelentése' });
  await form.getByLabel('Mi történt a csomaggal?').selectOption({ label: 'Megsérült' });
  await form.getByLabel('Leírás').fill('x');
  await form.getByRole('button', { name: 'Bejelentés' }).click();
  await expect(form.getByText('Írd le, mi történt (3–1000 karakter).')).toBeVisible();
  await form.getByLabel('Leírás').fill('Eláztatta az eső, a doboz szétázott.');
  await form.getByLabel('Fotók (nem kötelező, legfeljebb 5)').setInputFiles(PHOTO);
  await form.getByRole('button', { name: 'Bejelentés' }).click();
  await expect(runner.page.getByText('A problémát bejelentettük: az ügyfélszolgálat dönt a csomagról.')).toBeVisible();

  const admin = await browser.newContext({ baseURL });
  await signInViaApi(admin.request, e2eAdmin.email, e2eAdmin.password);
  const page = await admin.newPage();
  await page.goto('/SaBejelentesek');
  await page.getByRole('navigation', { name: 'További ügyek' }).getByRole('link', { name: 'Problémák' }).click();
  await expect(page).toHaveURL('/SaProblemak');
  const listed = page.getByRole('article').filter({ hasText: parcel.id });
  await expect(listed).toContainText('Eláztatta az eső');
  await listed.getByRole('link', { name: 'Részletek' }).click();
  const photo = page.getByRole('img', { name: 'A bejelentés 1. fotója' });
  await expect(photo).toBeVisible();
  await expect.poll(() => photo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  const proofs = page.getByRole('region', { name: 'Bizonyítékok' });
  const proofPhoto = proofs.getByRole('img', { name: 'Fotó a leadásról' });
  await expect(proofPhoto).toBeVisible();
  await expect
    .poll(() => proofPhoto.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0))
    .toBe(true);
  // The receiver was told it is coming and picked up; nothing about another parcel.
  const mail = page.getByRole('region', { name: 'Levelek a csomagról' });
  await expect(mail.getByRole('listitem')).toHaveCount(2);
  await expect(mail.getByRole('listitem').first()).toContainText(`A csomagod úton van – ${parcel.id}`);
  await expect(mail.getByRole('listitem').last()).toContainText(`Csomagot küldtek neked – ${parcel.id}`);
  await expect(mail.getByText(`Címzett: ${receiverEmail}`, { exact: true })).toHaveCount(2);
  await expectAccessible(page);
  const decision = page.getByRole('form', { name: 'Döntés' });
  await decision.getByLabel('Visszaküldés a feladónak').check();
  await decision.getByLabel('A döntés indoka').fill('A feladó visszakérte a sérült csomagot.');
  await decision.getByRole('button', { name: 'Döntés' }).click();
  await expect(page.getByText('Rögzítettük a döntést: Visszaküldés a feladónak.')).toBeVisible();
  expect((await (await admin.request.get(`/api/tracking/${parcel.id}`)).json()).state).toBe('returning');
  for (const context of [admin, sender.context, runner.context]) await context.close();
});

test('a parcel its runner reports lost is written off: its sender and the back office see it as lost', async ({
  browser,
}) => {
  const sender = await personContext(browser);
  const parcel = await sendParcelViaApi(sender.context.request);
  const runner = await runnerContext(browser);
  expect((await runner.context.request.post(`/api/parcels/${parcel.id}/pickup`)).status()).toBe(200);
  const reported = await runner.context.request.post(`/api/parcels/${parcel.id}/incidents`, {
    data: { kind: 'lost', description: 'Ellopták a táskámat a villamoson.' },
  });
  expect(reported.status()).toBe(201);

  const admin = await browser.newContext({ baseURL });
  await signInViaApi(admin.request, e2eAdmin.email, e2eAdmin.password);
  const page = await admin.newPage();
  await page.goto('/SaProblemak');
  const listed = page.getByRole('article').filter({ hasText: parcel.id });
  await expect(listed).toContainText('Ellopták a táskámat');
  await listed.getByRole('link', { name: 'Részletek' }).click();
  const decision = page.getByRole('form', { name: 'Döntés' });
  await decision.getByLabel('Elveszettnek nyilvánítva').check();
  await decision.getByLabel('A döntés indoka').fill('Nem került elő, a feladó kártérítést kapott.');
  await decision.getByRole('button', { name: 'Döntés' }).click();
  await expect(page.getByText('Rögzítettük a döntést: Elveszettnek nyilvánítva.')).toBeVisible();
  // The chain ends with the loss, to nobody.
  await expect(
    page.getByRole('region', { name: 'Átadások lánca' }).getByText('Elveszettnek nyilvánítva'),
  ).toBeVisible();
  // The back office's list shows it as lost, and its state filter finds it there.
  await page.goto('/SaCsomagListazas');
  await page.getByLabel('Feladó', { exact: true }).fill(sender.account.userName);
  await expect(parcelCard(page, parcel.id).getByText('elveszett', { exact: true })).toBeVisible();
  await page.getByLabel('Státusz').selectOption({ label: 'szállítás alatt' });
  await expect(parcelCard(page, parcel.id)).toHaveCount(0);
  await page.getByLabel('Státusz').selectOption({ label: 'elveszett' });
  await expect(parcelCard(page, parcel.id).getByText('elveszett', { exact: true })).toBeVisible();

  await sender.page.goto(`/CsomagKovetes/${parcel.id}`);
  await expect(sender.page.getByText('elveszett', { exact: true }).first()).toBeVisible();
  await expect(
    sender.page.getByRole('region', { name: 'Előzmények' }).getByText('Elveszettnek nyilvánítva'),
  ).toBeVisible();
  // The runner no longer carries it.
  await runner.page.goto('/FolyamatbanLevoCsomagok');
  await expect(runner.page.getByText('Betöltés…')).toHaveCount(0);
  await expect(parcelCard(runner.page, parcel.id)).toHaveCount(0);
  for (const context of [admin, sender.context, runner.context]) await context.close();
});
