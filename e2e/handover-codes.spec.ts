import { carriedToTheDoor, expect, parcelCard, szegedDoor, test } from './fixtures.ts';

/*
 * The other honest ends of a delivery (issue 28), on phones: the receiver reads their code out and
 * the runner types it in; nobody home, the parcel left with a neighbour who confirms with their
 * name, and the receiver collecting it with the code the neighbour was given.
 */
test.use({ viewport: { width: 390, height: 844 } });

test('the receiver reads out their code and the runner hands the parcel over with it', async ({ browser }) => {
  const { sender, parcel, receiver, runner } = await carriedToTheDoor(browser);
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

test('the neighbour the receiver asked for, who confirms with their name; the receiver collects it with the code on the notice', async ({
  browser,
}) => {
  const { sender, parcel, receiver, runner } = await carriedToTheDoor(browser);
  // Nobody home the first time; the receiver asks for the parcel to be left with a neighbour.
  const attempt = await runner.context.request.post(`/api/parcels/${parcel.id}/attempts`, {
    data: { reason: 'nobody_home', position: { ...szegedDoor, accuracy: 5 } },
  });
  expect(attempt.status()).toBe(201);
  await receiver.page.goto(`/CsomagKovetes/${parcel.id}`);
  const wish = receiver.page.getByRole('form', { name: 'Vagy hagyja a szomszédnál' });
  await wish.getByLabel('A szomszéd neve').fill('Kovács Béla');
  await wish.getByLabel('Emelet, ajtó').fill('2. emelet 5.');
  await wish.getByRole('button', { name: 'Kérem, hagyja a szomszédnál' }).click();
  await expect(receiver.page.getByText('A kérést elküldtük a futárnak.')).toBeVisible();

  await runner.page.goto('/FolyamatbanLevoCsomagok');
  await runner.stillHere();
  const mine = parcelCard(runner.page, parcel.id);
  await expect(mine.getByText('A címzett kéri, hogy a szomszédnál hagyd: Kovács Béla (2. emelet 5.).')).toBeVisible();
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
