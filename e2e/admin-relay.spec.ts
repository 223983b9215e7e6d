import type { APIRequestContext, Page } from '@playwright/test';
import {
  e2eAdmin,
  expect,
  expectAccessible,
  newPerson,
  registerViaApi,
  runnerContext,
  sendParcelViaApi,
  signInViaApi,
  test,
} from './fixtures.ts';
import { baseURL } from './playwright.config.ts';

const card = (page: Page, parcelId: string) => page.getByRole('article', { name: `Csomag ${parcelId}` });

/** The carrier's relay link and the next runner's 'Átveszem', through the API as the two phones send them. */
async function relay(parcelId: string, carrier: APIRequestContext, taker: APIRequestContext) {
  const link = await carrier.post(`/api/parcels/${parcelId}/relay-token`, { data: {} });
  expect(link.status(), await link.text()).toBe(200);
  const token = new URL((await link.json()).url).searchParams.get('token');
  const taken = await taker.post(`/api/parcels/${parcelId}/relay`, { data: { token } });
  expect(taken.status(), await taken.text()).toBe(200);
}

test.describe('relay in the back office', () => {
  test('the superadmin sees a relayed parcel’s chain, finds it as multi-leg, and corrects its holder with a reason', async ({
    page,
    browser,
  }) => {
    // One sender's two parcels: one carried by a single runner, one handed from the first runner to the second.
    const senderContext = await browser.newContext({ baseURL });
    const sender = await registerViaApi(senderContext.request, newPerson('user'));
    const single = await sendParcelViaApi(senderContext.request, { category: 'Egy futár' });
    const relayed = await sendParcelViaApi(senderContext.request, { category: 'Két futár' });
    await senderContext.close();
    const first = await runnerContext(browser);
    const second = await runnerContext(browser);
    const third = await runnerContext(browser);
    for (const id of [single.id, relayed.id]) {
      expect((await first.context.request.post(`/api/parcels/${id}/pickup`)).status()).toBe(200);
    }
    await relay(relayed.id, first.context.request, second.context.request);

    await signInViaApi(page.request, e2eAdmin.email, e2eAdmin.password);

    // The edit page shows the chain: the pickup by the first runner, the change to the second.
    await page.goto(`/SaCsomagSzerkesztes/${relayed.id}`);
    await expect(page.getByRole('heading', { name: 'Csomag Szerkesztése' })).toBeVisible();
    const chain = page.getByRole('region', { name: 'Átadások lánca' });
    await expect(chain.getByText('A lánc ellenőrizve: sértetlen.')).toBeVisible();
    const steps = chain.getByRole('list', { name: 'A csomag őrzési lánca' }).getByRole('listitem');
    await expect(steps).toHaveCount(3);
    await expect(steps.nth(1)).toContainText(
      `Felvétel: feladó (${sender.userName}) → futár (${first.account.userName})`,
    );
    await expect(steps.nth(2)).toContainText(
      `Futárváltás: futár (${first.account.userName}) → futár (${second.account.userName})`,
    );
    await expect(steps.nth(2)).toContainText('Megerősítette: az átvevő futár QR kóddal');

    // The list: the sender's two parcels, then only the multi-leg one, with its badge; the filter is in the address.
    await page.goto('/SaCsomagListazas');
    await page.getByLabel('Feladó', { exact: true }).fill(sender.userName);
    await expect(card(page, single.id)).toBeVisible();
    await expect(card(page, relayed.id)).toBeVisible();
    await expect(card(page, relayed.id).getByText('többszakaszos', { exact: true })).toBeVisible();
    await expect(card(page, single.id).getByText('többszakaszos', { exact: true })).toHaveCount(0);
    await page.getByLabel('Többszakaszos').check();
    await expect(card(page, single.id)).toHaveCount(0);
    await expect(page.getByRole('article')).toHaveCount(1);
    await expect(card(page, relayed.id)).toBeVisible();
    await expect(page).toHaveURL(/tobbszakaszos=1/);
    await expect(page).toHaveURL(new RegExp(`felado=${sender.userName}`));
    await expectAccessible(page);
    // Reloaded (or linked), the list keeps its filters.
    await page.reload();
    await expect(page.getByLabel('Többszakaszos')).toBeChecked();
    await expect(page.getByLabel('Feladó', { exact: true })).toHaveValue(sender.userName);
    await expect(page.getByRole('article')).toHaveCount(1);
    await expect(card(page, relayed.id)).toBeVisible();

    // 'Felelős módosítása': the reason is required; the server names the third runner the holder.
    await card(page, relayed.id).getByRole('link', { name: 'Szerkesztés' }).click();
    await expect(page).toHaveURL(`/SaCsomagSzerkesztes/${relayed.id}`);
    const override = page.getByRole('region', { name: 'Felelős módosítása' });
    await override.getByLabel('Új felelős futár (felhasználónév)').fill(third.account.userName);
    await override.getByRole('button', { name: 'Új felelős kijelölése' }).click();
    await expect(override.getByText('Add meg a felelős módosításának okát.')).toBeVisible();
    const reason = 'A futárok átadták egymásnak, de nem rögzítették.';
    await override.getByLabel('A módosítás oka').fill(reason);
    await override.getByRole('button', { name: 'Új felelős kijelölése' }).click();
    await expect(page.getByText(`Mentve: a csomag felelőse mostantól ${third.account.userName}.`)).toBeVisible();
    await expect(steps).toHaveCount(4);
    await expect(steps.nth(3)).toContainText(
      `Felelős kijelölése: futár (${second.account.userName}) → futár (${third.account.userName})`,
    );
    await expect(steps.nth(3)).toContainText(`Indok: ${reason}`);
    await expect(steps.nth(3)).toContainText('Megerősítette: az ügyfélszolgálat');
    await expect(chain.getByText('A lánc ellenőrizve: sértetlen.')).toBeVisible();
    await expectAccessible(page);

    // Naming the runner who holds it already: the server's refusal is shown, and the chain stays as it was.
    await override.getByLabel('Új felelős futár (felhasználónév)').fill(third.account.userName);
    await override.getByLabel('A módosítás oka').fill('Még egyszer.');
    await override.getByRole('button', { name: 'Új felelős kijelölése' }).click();
    await expect(override.getByRole('alert')).toHaveText('A csomag már ennél a futárnál van.');
    await expect(steps).toHaveCount(4);

    // The third runner's in-progress list has it now.
    await third.page.goto('/FolyamatbanLevoCsomagok');
    await expect(card(third.page, relayed.id)).toBeVisible();
    for (const runner of [first, second, third]) await runner.context.close();
  });
});
