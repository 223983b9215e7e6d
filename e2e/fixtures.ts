import { randomInt } from 'node:crypto';
import type { Account } from '@csomag/domain/account';
import { type APIRequestContext, test as base, expect, type Page } from '@playwright/test';
import { e2eAdmin } from './playwright.config.ts';

let counter = 0;
export function newPerson(role: 'user' | 'runner' = 'user', overrides: Partial<Record<string, string>> = {}) {
  counter += 1;
  const tag = `${Date.now().toString(36)}${process.pid}${counter}`;
  return {
    role,
    name: role === 'user' ? `Kiss Ilona ${counter}` : `Nagy Bence ${counter}`,
    userName: `${role}_${tag}`,
    email: `${role}.${tag}@example.hu`,
    password: 'jelszo-123',
    phoneNumber: '+36 30 555 1234',
    address: '1052 Budapest, Váci utca 12',
    ...overrides,
  };
}
export type Person = ReturnType<typeof newPerson>;

/** Registers through the API; the context's cookie jar then holds the session. */
export async function registerViaApi(request: APIRequestContext, person: Person): Promise<Account> {
  const response = await request.post('/api/auth/register', { data: person });
  expect(response.status(), await response.text()).toBe(201);
  return (await response.json()).account;
}

export async function signInViaApi(request: APIRequestContext, email: string, password: string): Promise<Account> {
  const response = await request.post('/api/auth/login', { data: { email, password } });
  expect(response.status(), await response.text()).toBe(200);
  return (await response.json()).account;
}

/** Signs in through the real form, as a person would. */
export async function signInWithForm(page: Page, email: string, password: string) {
  await page.goto('/Bejelentkezes');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Jelszó').fill(password);
  await page.getByRole('button', { name: 'Bejelentkezés' }).click();
}

export { e2eAdmin };

/** Each test is its own client address (the server trusts the proxy header in e2e). */
export const test = base.extend({
  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads the fixture's dependencies from this pattern
  extraHTTPHeaders: async ({}, use) => {
    await use({ 'x-forwarded-for': `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}` });
  },
});
export { expect };

export interface NewParcel {
  senderAddress: string;
  receiverAddress: string;
  category: string;
  weightGrams: number;
}

export const budapestToSzeged: NewParcel = {
  senderAddress: '1052 Budapest, Váci utca 12',
  receiverAddress: '6720 Szeged, Kárász utca 5',
  category: 'Könyv',
  weightGrams: 850,
};

/** Sends a parcel through the API as the signed-in user of this request context. */
export async function sendParcelViaApi(request: APIRequestContext, parcel: Partial<NewParcel> = {}) {
  const response = await request.post('/api/parcels', { data: { ...budapestToSzeged, ...parcel } });
  expect(response.status(), await response.text()).toBe(201);
  return (await response.json()) as NewParcel & { id: string; status: string; senderUser: string };
}

/** A Leaflet marker by its SPEC label (title and alt text). */
export const marker = (page: Page, title: string) => page.locator(`.leaflet-marker-icon[title="${title}"]`);
