import type { ParsedMail } from 'mailparser';
import {
  budapestToSzeged,
  expect,
  marker,
  newPerson,
  registerViaApi,
  runnerContext,
  sendParcelViaApi,
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
