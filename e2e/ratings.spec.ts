import type { Page } from '@playwright/test';
import {
  e2eAdmin,
  expect,
  expectAccessible,
  newPerson,
  parcelFromNewSender,
  registerViaApi,
  revealCard,
  runnerContext,
  sendParcelViaApi,
  signInViaApi,
  test,
} from './fixtures.ts';
import { baseURL } from './playwright.config.ts';

/** Gives stars and a comment in a rating form, saves, and waits for the server's confirmation. */
async function rate(page: Page, stars: number, comment?: string) {
  await page.getByRole('radio', { name: `${stars} csillag` }).check();
  if (comment) await page.getByLabel('Megjegyzés (nem kötelező)').fill(comment);
  await page.getByRole('button', { name: 'Értékelés mentése' }).click();
  await expect(page.getByText('Az értékelés elmentve.')).toBeVisible();
}

test('the sender rates the runner of a delivered parcel; the back office sees it in the runner list and the assignment drop-down', async ({
  page,
  browser,
}) => {
  await signInViaApi(page.request, e2eAdmin.email, e2eAdmin.password);

  // A sender's parcel, picked up by a runner and delivered (by the back office, for brevity).
  const senderSide = await browser.newContext({ baseURL });
  await registerViaApi(senderSide.request, newPerson('user'));
  const parcel = await sendParcelViaApi(senderSide.request);
  const runner = await runnerContext(browser);
  expect((await runner.context.request.post(`/api/parcels/${parcel.id}/pickup`)).status()).toBe(200);
  expect((await page.request.post(`/api/parcels/${parcel.id}/deliver`, { data: {} })).status()).toBe(200);

  // The sender rates the runner from their sent parcels.
  const sender = await senderSide.newPage();
  await sender.goto('/FeladottCsomagok');
  const card = await revealCard(sender, parcel.id);
  await card.getByRole('button', { name: 'Futár értékelése' }).click();
  await expect(card.getByText(`${runner.account.userName} futár értékelése`)).toBeVisible();
  await rate(sender, 5, '<b>Gyors</b> és kedves');
  await expect(card.getByText(/Eddig módosíthatod:/)).toBeVisible();
  // The comment is shown back as text, never as markup.
  await expect(card.getByLabel('Megjegyzés (nem kötelező)')).toHaveValue('<b>Gyors</b> és kedves');
  await expectAccessible(sender);
  await senderSide.close();

  // The runner rates the sender from their recent deliveries on the dashboard.
  await runner.page.goto('/FutarDashboard');
  const delivered = runner.page.getByRole('article', { name: `Csomag ${parcel.id}` });
  await delivered.getByRole('button', { name: 'Feladó értékelése' }).click();
  await rate(runner.page, 3);
  await expect(delivered.getByRole('radio', { name: '3 csillag' })).toBeChecked();

  // The shown average as the server computes it (other ratings in the shared database pull it).
  const listed = await page.request.get(`/api/runners?q=${encodeURIComponent(runner.account.userName)}`);
  const item = (await listed.json()).items.find((r: { userName: string }) => r.userName === runner.account.userName);
  expect(item.rating.count).toBe(1);
  const shown = `★ ${item.rating.average.toFixed(1).replace('.', ',')} (1 értékelés)`;

  await page.goto('/SaFutarListazas');
  await page.getByLabel('Keresés névre').fill(runner.account.userName);
  const runnerCard = page.getByRole('article', { name: `Futár ${runner.account.userName}` });
  await expect(runnerCard).toContainText(shown);

  // A new waiting parcel: the runner stands at its pickup point, so comes first in the drop-down.
  const waiting = await parcelFromNewSender(browser);
  const located = await runner.context.request.put('/api/runners/me/location', {
    data: { ...waiting.senderCoordinates, accuracy: 5 },
  });
  expect(located.ok(), await located.text()).toBe(true);
  await page.goto('/SaCsomagFutarhozRendeles');
  await page.getByLabel('Csomag', { exact: true }).selectOption(waiting.id);
  const option = page.getByLabel('Futár').locator('option', { hasText: runner.account.userName });
  await expect(option).toContainText(shown);
  await expect(option).toContainText('0 m');
  await runner.context.close();
});
