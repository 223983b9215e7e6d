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
