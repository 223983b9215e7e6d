import { e2eAdmin, expect, expectAccessible, newPerson, registerViaApi, signInViaApi, test } from './fixtures.ts';
import { newestLinkTo } from './mailbox.ts';
import { baseURL } from './playwright.config.ts';

/* Email (issue 29) on the embedded default: the link read from its .eml file (mailbox.ts). */

/** The reset link in the newest message to `email`, once it is there. */
const resetLinkFor = (email: string) => newestLinkTo(email, /https?:\/\/\S+\/UjJelszo#token=[A-Za-z0-9_-]{43}/);

test('a forgotten password is set again from the emailed link, which works once; the back office sees the message', async ({
  page,
  browser,
}) => {
  const person = newPerson('user');
  const other = await browser.newContext({ baseURL });
  await registerViaApi(other.request, person);

  await page.goto('/Bejelentkezes');
  await page.getByRole('link', { name: 'Elfelejtetted a jelszavad?' }).click();
  await expect(page).toHaveURL('/ElfelejtettJelszo');
  const form = page.getByRole('form', { name: 'Elfelejtett jelszó' });
  await form.getByLabel('Email').fill('nem-email');
  await form.getByRole('button', { name: 'Link küldése' }).click();
  await expect(form.getByText('Érvénytelen email cím.')).toBeVisible();
  await form.getByLabel('Email').fill(person.email);
  await form.getByRole('button', { name: 'Link küldése' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Ha ehhez a címhez tartozik fiók' })).toBeVisible();
  await expectAccessible(page);

  const link = await resetLinkFor(person.email.toLowerCase());
  await page.goto(link);
  const reset = page.getByRole('form', { name: 'Új jelszó beállítása' });
  await reset.getByLabel('Új jelszó').fill('uj-jelszo-2026');
  await reset.getByRole('button', { name: 'Jelszó mentése' }).click();
  await expect(page.getByText('Elmentettük az új jelszavad.')).toBeVisible();
  await expect(page).toHaveURL('/Bejelentkezes');
  // The session the person had before ended with the old password.
  expect((await (await other.request.get('/api/auth/me')).json()).account).toBeNull();
  await page.getByLabel('Email').fill(person.email);
  await page.getByLabel('Jelszó').fill('uj-jelszo-2026');
  await page.getByRole('button', { name: 'Bejelentkezés' }).click();
  await expect(page).toHaveURL('/FelhasznaloDashboard');

  // The link again: used.
  const again = await browser.newPage();
  await again.goto(link);
  const second = again.getByRole('form', { name: 'Új jelszó beállítása' });
  await second.getByLabel('Új jelszó').fill('masik-jelszo-2026');
  await second.getByRole('button', { name: 'Jelszó mentése' }).click();
  await expect(again.getByText('Ez a link érvénytelen, lejárt vagy már felhasználták. Kérj új linket.')).toBeVisible();
  await again.close();

  const admin = await browser.newContext({ baseURL });
  await signInViaApi(admin.request, e2eAdmin.email, e2eAdmin.password);
  const office = await admin.newPage();
  await office.goto('/SaBejelentesek');
  await office.getByRole('navigation', { name: 'További ügyek' }).getByRole('link', { name: 'Levelek' }).click();
  await expect(office).toHaveURL('/SaLevelek');
  await expect(office.getByText(/Nincs SMTP szerver beállítva/)).toBeVisible();
  const sent = office.getByRole('article').filter({ hasText: person.email.toLowerCase() }).first();
  await expect(sent).toContainText('Jelszó-visszaállítás');
  await expect(sent).toContainText('elküldve');
  await expect(sent).toContainText(/Fájl: .*\.eml/);
  await expectAccessible(office);
  for (const context of [admin, other]) await context.close();
});
