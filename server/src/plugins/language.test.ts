import { messages } from '@csomag/domain/messages';
import { en } from '@csomag/domain/messages-en';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type SignedIn, signUp, type TestApp } from '../test/harness.ts';
import { sendParcel } from '../test/parcels.ts';

/** Refusals in the request's language (issue 30): the account's choice, else Accept-Language, else Hungarian. */
let t: TestApp;
let person: SignedIn;
beforeAll(async () => {
  t = await createTestApp();
  person = await signUp(t.app);
});
afterAll(() => t.close());

const ask = (headers: Record<string, string>, url = '/api/tracking/NINCSILYEN') =>
  t.app.inject({ method: 'GET', url, headers });
const choose = (who: SignedIn, language: unknown) =>
  t.app.inject({
    method: 'PATCH',
    url: `/api/users/${who.account.userName}`,
    headers: { cookie: who.cookie },
    payload: { language },
  });

describe('a refusal in the request’s language', () => {
  it('is English for Accept-Language: en, Hungarian otherwise, and says which', async () => {
    for (const [header, language, text] of [
      ['en-GB,en;q=0.9', 'en', en.parcelNotFound],
      ['de,en;q=0.5', 'en', en.parcelNotFound],
      ['hu-HU', 'hu', messages.parcelNotFound],
      ['fr', 'hu', messages.parcelNotFound],
    ] as const) {
      const answer = await ask({ 'accept-language': header });
      expect(answer.statusCode).toBe(404);
      expect(answer.json().error).toEqual({ code: 'parcel_not_found', message: text });
      expect(answer.headers['content-language']).toBe(language);
    }
    expect((await ask({})).json().error.message).toBe(messages.parcelNotFound);
  });

  it('says a schema’s field messages, ours and zod’s own, in English', async () => {
    const answer = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'accept-language': 'en' },
      payload: { email: 'x', password: 5 },
    });
    expect(answer.statusCode).toBe(400);
    const { error } = answer.json();
    expect(error.message).toBe(en.invalidBody);
    expect(error.fields.email).toBe(en.emailTooShort);
    // zod's own message for a wrong type, from its English locale.
    expect(error.fields.password).toMatch(/^Invalid input: expected string/);
  });

  it('carries a parameterised refusal’s numbers over', async () => {
    const parcel = await sendParcel(t.app, person.cookie);
    const runner = await signUp(t.app, { role: 'runner' });
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: `/api/parcels/${parcel.id}/pickup`,
          headers: { cookie: runner.cookie },
        })
      ).statusCode,
    ).toBe(200);
    const wrong = await t.app.inject({
      method: 'POST',
      url: `/api/parcels/${parcel.id}/pin-handover`,
      headers: { cookie: runner.cookie, 'accept-language': 'en' },
      payload: { pin: '000000' },
    });
    // A wrong code (or, once in a million, the right one handing it over).
    if (wrong.statusCode !== 200) expect(wrong.json().error.message).toBe(en.handoverPinWrong(4));
  });

  it('follows the account’s choice over the browser’s, saved on the profile and answered with it', async () => {
    expect(person.account.language).toBeNull();
    const chosen = await choose(person, 'en');
    expect(chosen.statusCode, chosen.body).toBe(200);
    expect(chosen.json().account.language).toBe('en');
    const signedIn = (header: string) =>
      t.app.inject({
        method: 'GET',
        url: '/api/tracking/NINCSILYEN',
        headers: { cookie: person.cookie, 'accept-language': header },
      });
    expect((await signedIn('hu')).json().error.message).toBe(en.parcelNotFound);
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: { cookie: person.cookie } })).json().account
        .language,
    ).toBe('en');
    await choose(person, 'hu');
    expect((await signedIn('en')).json().error.message).toBe(messages.parcelNotFound);
  });

  it('refuses a language it does not have, in the language asked for, changing nothing', async () => {
    const other = await signUp(t.app);
    const refused = await t.app.inject({
      method: 'PATCH',
      url: `/api/users/${other.account.userName}`,
      headers: { cookie: other.cookie, 'accept-language': 'en' },
      payload: { language: 'de' },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.fields.language).toBe(en.languageInvalid);
    const inHungarian = await choose(other, 'magyar');
    expect(inHungarian.json().error.fields.language).toBe(messages.languageInvalid);
    const me = await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: { cookie: other.cookie } });
    expect(me.json().account.language).toBeNull();
  });
});
