import { expect, expectAccessible, fillAccountForm, newPerson, test } from './fixtures.ts';
import { linksTo } from './mailbox.ts';

/* Email verification (issue 29): the link mailed at registration, read from its .eml (mailbox.ts). */

/** The verification links written to `email` so far, oldest first. */
const verificationLinksTo = (email: string) =>
  linksTo(email, /https?:\/\/\S+\/EmailMegerosites#token=[A-Za-z0-9_-]{43}/);

test('a new account verifies its address from the mailed link, once; the profile stops asking', async ({
  page,
  browser,
}) => {
  const person = newPerson('user');
  const email = person.email.toLowerCase();
  await page.goto('/FelhasznaloRegisztracio');
  await fillAccountForm(page, person);
  await page.getByRole('button', { name: 'Regisztráció' }).click();
  await expect(page).toHaveURL('/FelhasznaloDashboard');
  await expect.poll(async () => (await verificationLinksTo(email)).length).toBe(1);

  // The profile says the address is not verified yet, and sends a fresh link when asked.
  await page.goto(`/FelhasznaloProfil/${person.userName}`);
  const notice = page.getByRole('region', { name: 'E-mail cím megerősítése' });
  await expect(notice).toContainText(`Az e-mail címed (${email}) még nincs megerősítve`);
  await notice.getByRole('button', { name: 'Megerősítő levél újraküldése' }).click();
  await expect(page.getByText(`Új megerősítő linket küldtünk ide: ${email}.`)).toBeVisible();
  await expectAccessible(page);
  await expect.poll(async () => (await verificationLinksTo(email)).length).toBe(2);

  const link = (await verificationLinksTo(email)).at(-1) ?? '';
  await page.goto(link);
  await expect(page.getByRole('heading', { name: 'E-mail cím megerősítése' })).toBeVisible();
  await expect(page.getByRole('status')).toHaveText(`Köszönjük! Megerősítetted az e-mail címed: ${email}.`);
  await expectAccessible(page);

  // The same link again: used; the server's words are shown.
  const again = await browser.newPage();
  await again.goto(link);
  await expect(again.getByRole('alert')).toHaveText(
    'Ez a megerősítő link érvénytelen, lejárt vagy már felhasználták. Bejelentkezve a profilodon kérhetsz újat.',
  );
  await again.close();

  await page.getByRole('link', { name: 'Tovább a profilomra' }).click();
  await expect(page).toHaveURL(`/FelhasznaloProfil/${person.userName}`);
  await expect(page.getByRole('heading', { name: 'Profilom' })).toBeVisible();
  await expect(page.getByLabel('Email', { exact: true })).toHaveValue(email);
  await expect(page.getByRole('region', { name: 'E-mail cím megerősítése' })).toHaveCount(0);
});
