import {
  expect,
  expectAccessible,
  metresNorth,
  parcelFromNewSender,
  revealCard,
  runnerContext,
  test,
} from './fixtures.ts';

// Three decimals, as the list sends the position: the distances shown are from exactly here.
const szeged = { lat: 46.253, lng: 20.148 };
const debrecen = { lat: 47.5316, lng: 21.6273 };

test.describe('planning a round from the waiting list', () => {
  test('lists the nearest pickup first with its distance, and filters by settlement', async ({ browser }) => {
    const inSzeged = await parcelFromNewSender(browser, {
      senderAddress: '6720 Szeged, Kárász utca 5',
      senderCoordinates: metresNorth(szeged, 800),
    });
    const inDebrecen = await parcelFromNewSender(browser, {
      senderAddress: '4024 Debrecen, Piac utca 20',
      senderCoordinates: debrecen,
    });
    const runner = await runnerContext(browser, { latitude: szeged.lat, longitude: szeged.lng });
    const { page } = runner;
    await page.goto('/FutarraVaroCsomagok');
    await expect(page.getByLabel('Rendezés')).toHaveValue('nearest');
    await expect(page.getByLabel('Rendezés').locator('option:checked')).toHaveText('Legközelebbi elöl');

    const szegedCard = await revealCard(page, inSzeged.id);
    await expect(szegedCard.getByText('800 m', { exact: true })).toBeVisible();
    const debrecenCard = await revealCard(page, inDebrecen.id);
    await expect(debrecenCard.getByText(/^\d+ km$/)).toBeVisible();
    const order = await page.getByRole('article').evaluateAll((cards) => cards.map((card) => card.ariaLabel));
    expect(order.indexOf(`Csomag ${inSzeged.id}`)).toBeLessThan(order.indexOf(`Csomag ${inDebrecen.id}`));
    await expectAccessible(page);

    await page.getByLabel('Település').fill('Debrecen');
    await expect(page.getByRole('article', { name: `Csomag ${inSzeged.id}` })).toHaveCount(0);
    await revealCard(page, inDebrecen.id);
    for (const pickup of await page.locator('article .route span:first-child').allTextContents()) {
      expect(pickup).toContain('Debrecen');
    }

    // The longest waiting first on request: no distances then.
    await page.getByLabel('Település').fill('');
    await page.getByLabel('Rendezés').selectOption({ label: 'Legrégebben várakozó elöl' });
    await expect(
      page
        .getByRole('article')
        .first()
        .getByText(/^\d+(,\d)? k?m$/),
    ).toHaveCount(0);
    await runner.context.close();
  });
});
