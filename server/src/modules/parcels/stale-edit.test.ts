import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pickUp, storedParcel } from '../../test/delivery.ts';
import { createTestApp, type SignedIn, signInCast, type TestApp } from '../../test/harness.ts';
import { sendParcel } from '../../test/parcels.ts';

let t: TestApp;
let admin: SignedIn;
let user: SignedIn;
let runner: SignedIn;
beforeAll(async () => {
  t = await createTestApp();
  ({ admin, sender: user, runner } = await signInCast(t.app));
});
afterAll(() => t.close());

const detail = async (parcelId: string) =>
  (await t.app.inject({ method: 'GET', url: `/api/parcels/${parcelId}`, headers: { cookie: admin.cookie } })).json();
const edit = (parcelId: string, payload: Record<string, unknown>) =>
  t.app.inject({ method: 'PATCH', url: `/api/parcels/${parcelId}`, headers: { cookie: admin.cookie }, payload });

describe('an edit of what the form showed (ADR 0006)', () => {
  it('refuses an edit of a version that is no longer current, saving nothing', async () => {
    const parcel = await sendParcel(t.app, user.cookie);
    const shown = await detail(parcel.id);
    expect(shown.version).toBe(1);
    await pickUp(t.app, runner.cookie, parcel.id);

    const stale = await edit(parcel.id, { category: 'Elavult űrlapról', version: shown.version });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().error.code).toBe('parcel_changed_meanwhile');
    const stored = await storedParcel(t.app, parcel.id);
    expect(stored.category).toBe(parcel.category);
    expect(stored.status).toBe('in_transit');
  });

  it('saves an edit of the current version and counts the version up', async () => {
    const parcel = await sendParcel(t.app, user.cookie);
    const shown = await detail(parcel.id);
    const saved = await edit(parcel.id, { category: 'Friss űrlapról', version: shown.version });
    expect(saved.statusCode).toBe(200);
    expect((await detail(parcel.id)).version).toBe(shown.version + 1);
  });
});
