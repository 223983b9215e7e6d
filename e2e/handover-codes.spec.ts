import { expect, parcelCard, personContext, runnerContext, sendParcelViaApi, test } from './fixtures.ts';

/*
 * The other honest ends of a delivery (issue 28), on phones: the receiver reads their code out and
 * the runner types it in; nobody home, the parcel left with a neighbour who confirms with their
 * name, and the receiver collecting it with the code the neighbour was given.
 */
test.use({ viewport: { width: 390, height: 844 } });

const budapestDoor = { lat: 47.4925, lng: 19.0513 };
const szegedDoor = { lat: 46.2517, lng: 20.1469 };

async function carriedTo(browser: Parameters<typeof personContext>[0]) {
  const receiverAddress = `6720 Szeged, Kárász utca ${(Date.now() % 900) + 10}.`;
  const sender = await personContext(browser);
  const parcel = await sendParcelViaApi(sender.context.request, {
    receiverAddress,
    senderCoordinates: budapestDoor,
    receiverCoordinates: szegedDoor,
  } as never);
  const receiver = await personContext(browser, receiverAddress);
  const runner = await runnerContext(browser, { latitude: szegedDoor.lat, longitude: szegedDoor.lng, accuracy: 5 });
  await runner.page.setViewportSize({ width: 390, height: 844 });
  expect((await runner.context.request.post(`/api/parcels/${parcel.id}/pickup`)).status()).toBe(200);
  return { sender, parcel, receiver, runner };
}

test('the receiver reads out their code and the runner hands the parcel over with it', async ({ browser }) => {
  const { sender, parcel, receiver, runner } = await carriedTo(browser);
  await receiver.page.goto(`/CsomagKovetes/${parcel.id}`);
  const code = receiver.page.getByRole('region', { name: 'Átvételi kód' });
  await expect(code).toContainText(/Átvételi kód: \d{6}/);
  const pin = ((await code.textContent()) ?? '').match(/Átvételi kód: (\d{6})/)?.[1] ?? '';

  await runner.page.goto('/FolyamatbanLevoCsomagok');
  const mine = parcelCard(runner.page, parcel.id);
  const form = mine.getByRole('form', { name: 'Átadás kóddal' });
  // A wrong code: refused, with the tries left, in the server's words.
  await form.getByLabel('Átvételi kód').fill(pin === '000000' ? '000001' : '000000');
  await form.getByRole('button', { name: 'Átadás kóddal' }).click();
  await expect(form.getByText('Hibás kód. Még 4 próbálkozás maradt.')).toBeVisible();
  await form.getByLabel('Átvételi kód').fill(pin);
  await form.getByRole('button', { name: 'Átadás kóddal' }).click();
  await expect(runner.page.getByText('Átadtad a csomagot.')).toBeVisible();
  await expect(mine).toHaveCount(0);
  await receiver.page.reload();
  await expect(receiver.page.getByText('leadott', { exact: true }).first()).toBeVisible();
  for (const context of [sender.context, receiver.context, runner.context]) await context.close();
});

test('left with a neighbour who confirms with their name; the receiver collects it with the code on the notice', async ({
  browser,
}) => {
  const { sender, parcel, receiver, runner } = await carriedTo(browser);
  await runner.page.goto('/FolyamatbanLevoCsomagok');
  const mine = parcelCard(runner.page, parcel.id);
  await mine.getByRole('button', { name: 'Szomszédnál hagyom' }).click();
  const form = mine.getByRole('form', { name: 'Átadás a szomszédnak' });
  await form.getByLabel('A szomszéd neve').fill('Kovács Béla');
  await form.getByLabel('Emelet, ajtó').fill('2. emelet 5.');
  // The neighbour types a name that is not the one given: refused before anything is sent.
  await form.getByLabel('A szomszéd írja be a nevét megerősítésként').fill('Nagy Éva');
  await form.getByRole('button', { name: 'Átadtam a szomszédnak' }).click();
  await expect(
    form.getByText('A szomszéd a saját nevét írja be megerősítésként, ugyanúgy, ahogy fent szerepel.'),
  ).toBeVisible();
  await form.getByLabel('A szomszéd írja be a nevét megerősítésként').fill('kovács béla');
  const left = runner.page.waitForResponse((r) => r.url().endsWith(`/api/parcels/${parcel.id}/neighbour`));
  await form.getByRole('button', { name: 'Átadtam a szomszédnak' }).click();
  expect((await left).status()).toBe(201);
  // The card goes (the parcel left the runner's hands); the code stays until written down.
  await expect(mine).toHaveCount(0);
  const slip = runner.page.getByRole('status').filter({ hasText: 'Átvételi kód a címzettnek:' });
  await expect(slip).toBeVisible();
  const pin = ((await slip.textContent()) ?? '').match(/Átvételi kód a címzettnek: (\d{6})/)?.[1] ?? '';
  expect(pin).toMatch(/^\d{6}$/);
  await slip.getByRole('button', { name: 'Felírtam a kódot' }).click();
  await expect(slip).toHaveCount(0);

  await receiver.page.goto(`/CsomagKovetes/${parcel.id}`);
  await expect(receiver.page.getByText('szomszédnál', { exact: true }).first()).toBeVisible();
  const collect = receiver.page.getByRole('form', { name: 'Átvétel a szomszédtól' });
  await collect.getByLabel('Átvételi kód').fill(pin);
  await collect.getByRole('button', { name: 'Átvettem' }).click();
  await expect(receiver.page.getByText('Átvetted a csomagot. Köszönjük!')).toBeVisible();
  await receiver.page.reload();
  await expect(receiver.page.getByText('leadott', { exact: true }).first()).toBeVisible();
  for (const context of [sender.context, receiver.context, runner.context]) await context.close();
});
