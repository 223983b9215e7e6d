import type { ParsedMail } from 'mailparser';
import {
  budapestToSzeged,
  carriedToTheDoor,
  expect,
  expectAccessible,
  marker,
  newPerson,
  registerViaApi,
  runnerContext,
  sendParcelViaApi,
  szegedDoor,
  test,
} from './fixtures.ts';
import { mailNamed } from './mailbox.ts';
import { baseURL } from './playwright.config.ts';

/* Mail about parcels (issue 29), read from the .eml files the e2e server writes (mailbox.ts). */

const linkIn = (mail: ParsedMail, pattern: RegExp) => pattern.exec(mail.text ?? '')?.[0] ?? '';

test('a receiver without an account is mailed the tracking link, sees their code through it, and stops the mail with one click', async ({
  page,
  browser,
}) => {
  const receiverEmail = `cimzett.${Date.now().toString(36)}@example.hu`;
  await registerViaApi(page.request, newPerson('user'));
  await page.goto('/CsomagFeladas');
  await page.getByLabel('Feladási cím').fill(budapestToSzeged.senderAddress);
  await page.getByLabel('Kiszállítási cím').fill(budapestToSzeged.receiverAddress);
  await page.getByLabel('Kategória').fill('Könyv');
  await page.getByLabel('Súly (gramm)').fill('850');
  const emailField = page.getByLabel('Címzett e-mail címe (nem kötelező)');
  await expect(emailField).toHaveAccessibleDescription(/levélben értesítjük a csomag útjáról/);
  await emailField.fill('nem-email-cim');
  await expect(marker(page, 'Kiszállítási pont')).toBeVisible();
  await page.getByRole('button', { name: 'Feladás' }).click();
  await expect(emailField).toHaveAccessibleDescription(/Érvénytelen email cím/);
  await expect(emailField).toBeFocused();
  await emailField.fill(receiverEmail);
  const saved = page.waitForResponse((r) => r.url().endsWith('/api/parcels') && r.request().method() === 'POST');
  await page.getByRole('button', { name: 'Feladás' }).click();
  const parcel = (await (await saved).json()) as { id: string };
  await expect(page).toHaveURL(new RegExp(`/CsomagKovetes/${parcel.id}$`));

  const coming = await mailNamed(receiverEmail, 'Csomagot küldtek neked');
  expect(coming.subject).toBe(`Csomagot küldtek neked – ${parcel.id}`);
  const link = linkIn(coming, new RegExp(`https?://\\S+/CsomagKovetes/${parcel.id}#link=\\S+`));
  expect(link).not.toBe('');
  expect(coming.html).toContain('Csomag követése');

  // A runner picks it up: the receiver hears it, and the link now shows their code.
  const runner = await runnerContext(browser);
  expect((await runner.context.request.post(`/api/parcels/${parcel.id}/pickup`)).status()).toBe(200);
  await mailNamed(receiverEmail, 'A csomagod úton van');

  const receiver = await browser.newContext({ baseURL });
  const phone = await receiver.newPage();
  await phone.goto(link);
  await expect(phone.getByText(parcel.id, { exact: true })).toBeVisible();
  const code = phone.getByRole('region', { name: 'Átvételi kód' });
  await expect(code).toBeVisible();
  const pin = (await code.locator('.pin').textContent()) ?? '';
  expect(pin).toMatch(/^[0-9]{6}$/);
  // The key left the address bar: a link copied from it does not show the code to someone else.
  expect(phone.url()).not.toContain('#link=');
  const stranger = await browser.newContext({ baseURL });
  const strangerPage = await stranger.newPage();
  await strangerPage.goto(phone.url());
  await expect(strangerPage.getByText(parcel.id, { exact: true })).toBeVisible();
  await expect(strangerPage.getByRole('region', { name: 'Átvételi kód' })).toHaveCount(0);

  // The code the receiver reads out is the one the runner hands the parcel over with.
  const handedOver = await runner.context.request.post(`/api/parcels/${parcel.id}/pin-handover`, { data: { pin } });
  expect(handedOver.status()).toBe(200);
  const delivered = await mailNamed(receiverEmail, 'Kézbesítve');

  // 'Leiratkozás' in the message: the page asks first, then says what stopped.
  const stop = linkIn(delivered, /https?:\/\/\S+\/Leiratkozas#token=\S+/);
  await phone.goto(stop);
  await expect(phone.getByText('Biztosan nem kérsz több ilyen levelet?')).toBeVisible();
  await phone.getByRole('button', { name: 'Leiratkozom' }).click();
  await expect(phone.getByText(`Leiratkoztál: a(z) ${parcel.id} csomagról nem küldünk több levelet.`)).toBeVisible();
  for (const context of [receiver, stranger, runner.context]) await context.close();
});

test('a sender switches a kind of status mail off on the profile page, said once the server saved it', async ({
  page,
}) => {
  const account = await registerViaApi(page.request, newPerson('user'));
  await sendParcelViaApi(page.request);
  await page.goto(`/FelhasznaloProfil/${account.userName}`);
  const section = page.getByRole('region', { name: 'E-mail értesítések' });
  await expect(section.getByText('Levelet csak megerősített e-mail címre küldünk')).toBeVisible();
  const delivered = section.getByRole('switch', { name: 'Kézbesítve (az igazolás linkjével)' });
  await expect(delivered).toBeChecked();
  await delivered.click();
  await expect(page.getByText('Elmentettük, miről kapsz levelet.')).toBeVisible();
  await page.reload();
  await expect(
    page.getByRole('region', { name: 'E-mail értesítések' }).getByRole('switch', { name: /^Kézbesítve/ }),
  ).not.toBeChecked();
  await expect(
    page.getByRole('region', { name: 'E-mail értesítések' }).getByRole('switch', { name: 'Futár felvette' }),
  ).toBeChecked();
});

test('a receiver without an account asks for a neighbour from the mail’s link and collects the parcel there with the notice’s code', async ({
  browser,
}) => {
  const receiverEmail = `szomszedos.${Date.now().toString(36)}@example.hu`;
  const { sender, parcel, receiver: signedInReceiver, runner } = await carriedToTheDoor(browser, { receiverEmail });
  await signedInReceiver.context.close();
  const attempt = await runner.context.request.post(`/api/parcels/${parcel.id}/attempts`, {
    data: { reason: 'nobody_home', position: { ...szegedDoor, accuracy: 5 } },
  });
  expect(attempt.status()).toBe(201);

  // The mail about the failed attempt brings the link; the phone asks for the neighbour.
  const attempted = await mailNamed(receiverEmail, `Nem sikerült kézbesíteni – ${parcel.id}`);
  const link = linkIn(attempted, new RegExp(`https?://\\S+/CsomagKovetes/${parcel.id}#link=\\S+`));
  const context = await browser.newContext({ baseURL, viewport: { width: 390, height: 844 } });
  const phone = await context.newPage();
  await phone.goto(link);
  const wish = phone.getByRole('form', { name: 'Vagy hagyja a szomszédnál' });
  await wish.getByLabel('A szomszéd neve').fill('Kovács Béla');
  await wish.getByLabel('Emelet, ajtó').fill('2. emelet 5.');
  await wish.getByRole('button', { name: 'Kérem, hagyja a szomszédnál' }).click();
  await expect(phone.getByText('A kérést elküldtük a futárnak.')).toBeVisible();
  const carried = await runner.context.request.get('/api/me/assigned-parcels');
  const mine = ((await carried.json()).items as { id: string; neighbourWish: unknown }[]).find(
    (p) => p.id === parcel.id,
  );
  expect(mine?.neighbourWish).toEqual({ name: 'Kovács Béla', door: '2. emelet 5.' });

  // The runner leaves it there (the screens: handover-codes.spec); the mail says where it is.
  const left = await runner.context.request.post(`/api/parcels/${parcel.id}/neighbour`, {
    data: {
      name: 'Kovács Béla',
      door: '2. emelet 5.',
      confirmedName: 'Kovács Béla',
      position: { ...szegedDoor, accuracy: 5 },
    },
  });
  expect(left.status()).toBe(201);
  const { pin } = (await left.json()) as { pin: string };
  const withNeighbour = await mailNamed(receiverEmail, `A csomagod egy szomszédodnál van – ${parcel.id}`);
  expect(withNeighbour.text).toContain('Kovács Béla (2. emelet 5.)');

  // Back on the page the link opened (kept for the tab): the notice's code collects it.
  await phone.reload();
  const collect = phone.getByRole('form', { name: 'Átvétel a szomszédtól' });
  await collect.getByLabel('Átvételi kód').fill(pin);
  await collect.getByRole('button', { name: 'Átvettem' }).click();
  await expect(phone.getByText('Átvetted a csomagot. Köszönjük!')).toBeVisible();
  await phone.reload();
  await expect(phone.getByText('leadott', { exact: true }).first()).toBeVisible();
  await expectAccessible(phone);
  for (const open of [context, sender.context, runner.context]) await open.close();
});
