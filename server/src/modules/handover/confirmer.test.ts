import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pickUp, storedEvents } from '../../test/delivery.ts';
import { createTestApp, requestAs, type SignedIn, signInSuperadmin, signUp, type TestApp } from '../../test/harness.ts';
import { sendParcel } from '../../test/parcels.ts';
import { readChain } from '../relay/chain.ts';

/*
 * Who confirmed a QR hand-over (issue 27): before, anyone holding the receiver's link was recorded
 * as 'a címzett'. Now the signed-in account on the confirming phone, if any, else a link holder
 * with the name they typed and their signature — read by the back office only.
 */

let t: TestApp;
let admin: SignedIn;
let sender: SignedIn;
let runner: SignedIn;
beforeAll(async () => {
  t = await createTestApp();
  admin = await signInSuperadmin(t.app);
  sender = await signUp(t.app);
  runner = await signUp(t.app, { role: 'runner' });
});
afterAll(() => t.close());

const get = (url: string, who?: SignedIn) =>
  t.app.inject({ method: 'GET', url, ...(who ? { headers: { cookie: who.cookie } } : {}) });

/** A parcel in the runner's hands and the body its QR link confirms with. */
async function carriedWithLink() {
  const parcel = await sendParcel(t.app, sender.cookie);
  await pickUp(t.app, runner.cookie, parcel.id);
  const link = await requestAs(t.app, runner, 'POST', `/api/parcels/${parcel.id}/handover-token`, {});
  const query = new URL(link.json().url).searchParams;
  return { parcel, body: { token: query.get('token'), futar: query.get('futar'), felado: query.get('felado') } };
}

const confirm = (parcelId: string, payload: Record<string, unknown>, who?: SignedIn) =>
  t.app.inject({
    method: 'POST',
    url: `/api/parcels/${parcelId}/handover`,
    payload,
    ...(who ? { headers: { cookie: who.cookie } } : {}),
  });

const signature = async () => ({
  image: `data:image/png;base64,${(
    await sharp({ create: { width: 40, height: 20, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } })
      .png()
      .toBuffer()
  ).toString('base64')}`,
  strokes: [{ penColor: 'black', points: [{ x: 1, y: 2, time: 1, pressure: 0.5 }] }],
});

/** The hand-over step of the parcel's timeline as `who` reads it. */
const handoverStep = async (parcelId: string, who: SignedIn) =>
  (await get(`/api/parcels/${parcelId}`, who)).json().events.find((e: { kind: string }) => e.kind === 'handed_over_qr');

describe('who confirmed a QR hand-over', () => {
  it('is a link holder with the name they typed and their signature when nobody is signed in', async () => {
    const { parcel, body } = await carriedWithLink();
    const response = await confirm(parcel.id, { ...body, name: '  Kiss Ilona ', signature: await signature() });
    expect(response.statusCode, response.body).toBe(200);

    expect(await handoverStep(parcel.id, admin)).toMatchObject({
      actor: runner.account.userName,
      confirmedBy: { account: null, name: 'Kiss Ilona', signed: true },
    });
    // The custody chain names no account as confirming: nobody signed in.
    const chain = await readChain(t.store.db, parcel.id);
    expect(chain.at(-1)).toMatchObject({ kind: 'handed_over_qr', how: 'receiver_qr', confirmed_by: null });
  });

  it('is the signed-in account when someone is signed in on the confirming phone', async () => {
    const receiver = await signUp(t.app);
    const { parcel, body } = await carriedWithLink();
    expect((await confirm(parcel.id, body, receiver)).statusCode).toBe(200);

    expect((await handoverStep(parcel.id, admin)).confirmedBy).toEqual({
      account: receiver.account.userName,
      name: null,
      signed: false,
    });
    const receiverId = (
      await t.store.db
        .selectFrom('accounts')
        .select('id')
        .where('user_name', '=', receiver.account.userName)
        .executeTakeFirstOrThrow()
    ).id;
    expect((await readChain(t.store.db, parcel.id)).at(-1)?.confirmed_by).toBe(receiverId);
  });

  it('is shown to the back office only: not to the runner, the sender or the public tracking view', async () => {
    const { parcel, body } = await carriedWithLink();
    expect((await confirm(parcel.id, { ...body, name: 'Titkos Tivadar' })).statusCode).toBe(200);

    expect((await handoverStep(parcel.id, admin)).confirmedBy).toEqual({
      account: null,
      name: 'Titkos Tivadar',
      signed: false,
    });
    for (const who of [runner, sender]) {
      const detail = await get(`/api/parcels/${parcel.id}`, who);
      expect(detail.statusCode).toBe(200);
      expect(detail.body).not.toContain('Titkos Tivadar');
      expect(detail.body).not.toContain('confirmedBy');
    }
    const tracking = await get(`/api/tracking/${parcel.id}`);
    expect(tracking.statusCode).toBe(200);
    expect(tracking.body).not.toContain('Titkos Tivadar');
    expect(tracking.body).not.toContain('confirmedBy');

    // The back office's report page reads it with the parcel ('Nem érkezett meg').
    const report = await requestAs(t.app, sender, 'POST', `/api/parcels/${parcel.id}/not-received`, {
      description: 'Nem kaptam meg.',
    });
    expect(report.statusCode, report.body).toBe(201);
    const detail = await get(`/api/reports/${report.json().id}`, admin);
    expect(detail.json().parcel.events.find((e: { kind: string }) => e.kind === 'handed_over_qr').confirmedBy).toEqual({
      account: null,
      name: 'Titkos Tivadar',
      signed: false,
    });
  });

  it('refuses a blank or overlong name, handing nothing over', async () => {
    const { parcel, body } = await carriedWithLink();
    for (const name of ['   ', 'x'.repeat(101)]) {
      const refused = await confirm(parcel.id, { ...body, name });
      expect(refused.statusCode).toBe(400);
      expect(Object.keys(refused.json().error.fields)).toEqual(['name']);
    }
    expect((await storedEvents(t.app, parcel.id)).map((e) => e.kind)).toEqual(['created', 'picked_up']);
  });
});
