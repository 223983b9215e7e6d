import type { Page } from '@playwright/test';
import {
  e2eAdmin,
  expect,
  expectAccessible,
  newPerson,
  registerViaApi,
  revealCard,
  runnerContext,
  sendParcelViaApi,
  signInViaApi,
  test,
} from './fixtures.ts';
import { baseURL } from './playwright.config.ts';

/** A comment that would run script if it were ever inserted as HTML. */
const comment = '<img src=x onerror="window.__xss=1">Lassú volt';

/** Nothing of the comment ran or became an element: it is text on the page. */
async function expectInert(page: Page) {
  expect(await page.evaluate(() => (window as unknown as { __xss?: unknown }).__xss)).toBeUndefined();
  await expect(page.locator('img[src="x"]')).toHaveCount(0);
}

test('the back office and the rated runner read rating comments as text; a hidden comment disappears for the runner', async ({
  page,
  browser,
}) => {
  const admin = await signInViaApi(page.request, e2eAdmin.email, e2eAdmin.password);

  // A sender's parcel, picked up by a runner and delivered (by the back office, for brevity).
  const senderSide = await browser.newContext({ baseURL });
  const senderAccount = await registerViaApi(senderSide.request, newPerson('user'));
  const parcel = await sendParcelViaApi(senderSide.request);
  const runner = await runnerContext(browser);
  expect((await runner.context.request.post(`/api/parcels/${parcel.id}/pickup`)).status()).toBe(200);
  expect((await page.request.post(`/api/parcels/${parcel.id}/deliver`, { data: {} })).status()).toBe(200);

  // The sender rates the runner with a comment that looks like markup.
  const sender = await senderSide.newPage();
  await sender.goto('/FeladottCsomagok');
  const card = await revealCard(sender, parcel.id);
  await card.getByRole('button', { name: 'Futár értékelése' }).click();
  await sender.getByRole('radio', { name: '2 csillag' }).check();
  await sender.getByLabel('Megjegyzés (nem kötelező)').fill(comment);
  await sender.getByRole('button', { name: 'Értékelés mentése' }).click();
  await expect(sender.getByText('Az értékelés elmentve.')).toBeVisible();
  await senderSide.close();

  // The runner reads it on their profile, as text, without who wrote it.
  await runner.page.goto(`/FutarProfil/${runner.account.userName}`);
  const aboutMe = runner.page.getByRole('region', { name: 'Rólad írták' });
  await expect(aboutMe.getByText(comment, { exact: true })).toBeVisible();
  await expect(aboutMe).toContainText('2 csillag');
  await expect(aboutMe).not.toContainText(senderAccount.userName);
  await expect(aboutMe).not.toContainText(parcel.id);
  await expectInert(runner.page);
  await expectAccessible(runner.page);

  // The back office reads it on the runner's page with the parcel and the rater.
  await page.goto(`/SaFutarSzerkesztes/${runner.account.userName}`);
  const comments = page.getByRole('region', { name: 'Értékelések megjegyzései' });
  const item = comments.getByRole('article').filter({ hasText: comment });
  await expect(item.getByText(comment, { exact: true })).toBeVisible();
  await expect(item).toContainText(`${senderAccount.userName} (feladó)`);
  await expect(item.getByRole('link', { name: parcel.id })).toHaveAttribute(
    'href',
    `/SaCsomagSzerkesztes/${parcel.id}`,
  );
  await expectInert(page);

  // Hiding asks for a reason first.
  await item.getByRole('button', { name: 'Elrejtés' }).click();
  await item.getByRole('button', { name: 'Elrejtés' }).click();
  await expect(item.getByText('Add meg az elrejtés okát.')).toBeVisible();
  await item.getByLabel('Az elrejtés oka').fill('Sértő hangnem');
  await item.getByRole('button', { name: 'Elrejtés' }).click();
  await expect(page.getByText('A megjegyzés elrejtve.')).toBeVisible();
  await expect(item).toContainText(`Elrejtve (${admin.userName}`);
  await expect(item).toContainText('Sértő hangnem');
  await expect(item.getByRole('button', { name: 'Megjelenítés' })).toBeVisible();
  // Still there for the back office, still text.
  await expect(item.getByText(comment, { exact: true })).toBeVisible();
  await expectInert(page);
  await expectAccessible(page);

  // The runner no longer sees it.
  await runner.page.reload();
  await expect(aboutMe.getByText('Még senki nem írt rólad megjegyzést.')).toBeVisible();
  await expect(aboutMe).not.toContainText('Lassú volt');

  // Shown again, the runner sees it again.
  await item.getByRole('button', { name: 'Megjelenítés' }).click();
  await expect(page.getByText('A megjegyzés újra látható.')).toBeVisible();
  await expect(item).toContainText(`Újra megjelenítve (${admin.userName}`);
  await runner.page.reload();
  await expect(aboutMe.getByText(comment, { exact: true })).toBeVisible();
  await expectInert(runner.page);
  await runner.context.close();
});
