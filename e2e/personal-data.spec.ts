import { readFileSync } from 'node:fs';
import { expect, expectAccessible, newPerson, registerViaApi, sendParcelViaApi, test } from './fixtures.ts';

/* 'Adataim letöltése' (issue 29): a person downloads everything kept about them from their profile. */
test('downloads my data from my profile as a JSON file, my parcels in it', async ({ page }) => {
  const person = newPerson('user');
  const account = await registerViaApi(page.request, person);
  const parcel = await sendParcelViaApi(page.request);
  await page.goto(`/FelhasznaloProfil/${account.userName}`);
  const section = page.getByRole('region', { name: 'Adataim' });
  await expect(section).toBeVisible();
  await expectAccessible(page);
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    section.getByRole('link', { name: 'Adataim letöltése' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe(`csomagkuldo-${account.userName}.json`);
  const data = JSON.parse(readFileSync((await download.path()) ?? '', 'utf8'));
  expect(data.account).toMatchObject({ user_name: account.userName, email: person.email.toLowerCase() });
  expect(data.parcelsSent.map((row: { id: string }) => row.id)).toContain(parcel.id);
  expect(JSON.stringify(data)).not.toContain('password');
});

test('erases my account from my profile with my password; I cannot sign in again', async ({ page }) => {
  const person = newPerson('user');
  const account = await registerViaApi(page.request, person);
  await page.goto(`/FelhasznaloProfil/${account.userName}`);
  const form = page.getByRole('form', { name: 'Fiók törlése' });
  await form.getByLabel('A jelszavad, megerősítésképp').fill('nem-ez-a-jelszo');
  await form.getByRole('button', { name: 'Fiókom végleges törlése' }).click();
  await expect(form.getByText('Hibás jelszó.')).toBeVisible();
  await form.getByLabel('A jelszavad, megerősítésképp').fill(person.password);
  await form.getByRole('button', { name: 'Fiókom végleges törlése' }).click();
  await expect(page.getByText('A fiókodat töröltük.')).toBeVisible();
  await expect(page).toHaveURL('/');
  const signIn = await page.request.post('/api/auth/login', {
    data: { email: person.email, password: person.password },
  });
  expect(signIn.status()).toBe(401);
});
