import { messages } from '@csomag/domain/messages';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parcelRow } from '../../test/back-office.ts';
import { createTestApp, type SignedIn, signInSuperadmin, signUp, type TestApp } from '../../test/harness.ts';
import { buildParcelBody, sendParcel } from '../../test/parcels.ts';

/*
 * A weight typed with a unit or a decimal comma (issue 27): understood into whole grams or refused
 * with a Hungarian 400 — never cut to the number in front of the unit ('2 kg' was once 2 g).
 */

let t: TestApp;
let admin: SignedIn;
let sender: SignedIn;
beforeAll(async () => {
  t = await createTestApp();
  admin = await signInSuperadmin(t.app);
  sender = await signUp(t.app);
});
afterAll(() => t.close());

const storedWithCategory = async (category: unknown) =>
  (await t.store.db.selectFrom('parcels').select('id').where('category', '=', String(category)).execute()).length;

describe('a parcel sent with a weight as typed', () => {
  it.each([
    ['2 kg', 2000],
    ['1,5 kg', 1500],
    ['1.5 kg', 1500],
    ['0,75 kg', 750],
    ['2kg', 2000],
    ['750 g', 750],
    ['750', 750],
    [750, 750],
  ])('stores %j as %i g and answers it', async (weightGrams, grams) => {
    const body = buildParcelBody({ weightGrams });
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/parcels',
      headers: { cookie: sender.cookie },
      payload: body,
    });
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json().weightGrams).toBe(grams);
    expect((await parcelRow(t.store, response.json().id))?.weight_grams).toBe(grams);
  });

  it.each([
    ['1,5', messages.weightNeedsUnit],
    ['1,2345 kg', messages.weightNotWholeGrams(1235)],
    ['2 font', messages.weightUnreadable],
    ['60 kg', messages.weightTooHeavy(50_000)],
    ['-2 kg', messages.weightInvalid],
    ['', messages.required],
    [1.5, messages.weightInvalid],
  ])('refuses %j with 400 in Hungarian beside the field, storing nothing', async (weightGrams, message) => {
    const body = buildParcelBody({ weightGrams });
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/parcels',
      headers: { cookie: sender.cookie },
      payload: body,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toMatchObject({ code: 'invalid_body', fields: { weightGrams: message } });
    expect(await storedWithCategory(body.category)).toBe(0);
  });
});

describe("the back office's weight edit", () => {
  it('reads "1,5 kg" as 1500 g, and refuses "1,5" changing nothing', async () => {
    const parcel = await sendParcel(t.app, sender.cookie);
    const patch = (weightGrams: unknown) =>
      t.app.inject({
        method: 'PATCH',
        url: `/api/parcels/${parcel.id}`,
        headers: { cookie: admin.cookie },
        payload: { weightGrams },
      });
    const refused = await patch('1,5');
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.fields).toEqual({ weightGrams: messages.weightNeedsUnit });
    expect((await parcelRow(t.store, parcel.id))?.weight_grams).toBe(850);
    const edited = await patch('1,5 kg');
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json().weightGrams).toBe(1500);
    expect((await parcelRow(t.store, parcel.id))?.weight_grams).toBe(1500);
  });
});
