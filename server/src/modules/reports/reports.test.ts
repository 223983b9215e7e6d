import { messages } from '@csomag/domain/messages';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pickUp } from '../../test/delivery.ts';
import { createTestApp, requestAs, type SignedIn, signInSuperadmin, signUp, type TestApp } from '../../test/harness.ts';
import { sendParcel } from '../../test/parcels.ts';

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

const get = (who: SignedIn | null, url: string) =>
  t.app.inject({ method: 'GET', url, ...(who ? { headers: { cookie: who.cookie } } : {}) });
const report = (who: SignedIn, parcelId: string, description = 'Nem kaptam meg, senki nem csengetett.') =>
  requestAs(t.app, who, 'POST', `/api/parcels/${parcelId}/not-received`, { description });
const storedReports = (parcelId: string) =>
  t.store.db.selectFrom('not_received_reports').selectAll().where('parcel_id', '=', parcelId).execute();

/** A parcel the runner delivered (the back office hands it over without a position), and its receiver. */
async function delivered() {
  const parcel = await sendParcel(t.app, sender.cookie);
  await pickUp(t.app, runner.cookie, parcel.id);
  const done = await requestAs(t.app, admin, 'POST', `/api/parcels/${parcel.id}/deliver`, {});
  expect(done.statusCode).toBe(200);
  const receiver = await signUp(t.app, { address: parcel.receiverAddress });
  return { parcel, receiver };
}

describe("'Nem érkezett meg' reports", () => {
  it('the sender and the receiver report once each; the back office sees, resolves and lists them', async () => {
    const { parcel, receiver } = await delivered();
    const bySender = await report(sender, parcel.id);
    expect(bySender.statusCode).toBe(201);
    expect(bySender.json()).toMatchObject({
      parcelId: parcel.id,
      reporter: sender.account.userName,
      reporterRole: 'sender',
      runner: runner.account.userName,
      resolvedAt: null,
    });
    const duplicate = await report(sender, parcel.id, 'Még mindig nincs meg.');
    expect(duplicate.statusCode).toBe(409);
    expect(duplicate.json().error).toEqual({ code: 'report_exists', message: messages.reportExists });
    const byReceiver = await report(receiver, parcel.id);
    expect(byReceiver.json()).toMatchObject({ reporter: receiver.account.userName, reporterRole: 'receiver' });
    expect(await storedReports(parcel.id)).toHaveLength(2);

    // The runner's card shows the open reports.
    const card = await get(admin, `/api/runners/${runner.account.userName}`);
    expect(card.json().trust.openReports).toBeGreaterThanOrEqual(2);

    const open = await get(admin, '/api/reports?status=open&limit=100');
    expect(open.json().items.map((item: { id: number }) => item.id)).toEqual(
      expect.arrayContaining([bySender.json().id, byReceiver.json().id]),
    );
    const detail = await get(admin, `/api/reports/${bySender.json().id}`);
    expect(detail.statusCode).toBe(200);
    expect(detail.json().parcel).toMatchObject({ id: parcel.id, status: 'delivered' });
    expect(detail.json().parcel.events.map((event: { kind: string }) => event.kind)).toContain('delivered');
    expect(detail.json().custody.events.length).toBeGreaterThanOrEqual(3);
    // The proof of delivery is linked where this server serves it, and the back office may read it.
    expect(detail.json().proofsUrl).toBe(`/api/parcels/${parcel.id}/proofs`);
    expect((await get(admin, detail.json().proofsUrl)).statusCode).toBe(200);

    const bad = await requestAs(t.app, admin, 'POST', `/api/reports/${bySender.json().id}/resolve`, {
      resolution: ' ',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.fields.resolution).toBe(messages.resolutionRequired);
    const resolved = await requestAs(t.app, admin, 'POST', `/api/reports/${bySender.json().id}/resolve`, {
      resolution: 'A futár fotóval igazolta; a csomag a szomszédnál volt.',
    });
    expect(resolved.statusCode).toBe(200);
    expect(resolved.json()).toMatchObject({ resolvedBy: admin.account.userName, resolvedAt: expect.any(String) });
    const again = await requestAs(t.app, admin, 'POST', `/api/reports/${bySender.json().id}/resolve`, {
      resolution: 'Más döntés',
    });
    expect(again.json().error.code).toBe('report_resolved');
    const row = (await storedReports(parcel.id)).find((r) => r.id === bySender.json().id);
    expect(row).toMatchObject({
      resolved_by: admin.account && expect.any(Number),
      resolution: expect.stringMatching(/^A futár/),
    });

    const resolvedList = await get(admin, '/api/reports?status=resolved&limit=100');
    expect(resolvedList.json().items.map((item: { id: number }) => item.id)).toContain(bySender.json().id);
    expect(
      (await get(admin, '/api/reports?status=open&limit=100')).json().items.map((i: { id: number }) => i.id),
    ).not.toContain(bySender.json().id);
    // Resolved, the sender may report again.
    expect((await report(sender, parcel.id)).statusCode).toBe(201);
  });

  it('refuses non-parties, parcels not delivered, late reports and bad input, storing nothing', async () => {
    const { parcel } = await delivered();
    const stranger = await signUp(t.app);
    const notParty = await report(stranger, parcel.id);
    expect(notParty.statusCode).toBe(403);
    expect(notParty.json().error).toEqual({ code: 'report_not_party', message: messages.reportNotParty });
    expect((await report(runner, parcel.id)).json().error.code).toBe('forbidden');
    expect((await report(admin, parcel.id)).json().error.code).toBe('forbidden');
    const anonymous = await t.app.inject({
      method: 'POST',
      url: `/api/parcels/${parcel.id}/not-received`,
      payload: { description: 'x' },
    });
    expect(anonymous.statusCode).toBe(401);
    for (const description of ['', '   ', 'x'.repeat(1001)]) {
      const bad = await report(sender, parcel.id, description);
      expect(bad.statusCode).toBe(400);
      expect(bad.json().error.fields.description).toMatch(/leírás|Írd le/);
    }
    expect((await report(sender, 'ZZZZZZZZZZ')).json().error.code).toBe('parcel_not_found');

    const waiting = await sendParcel(t.app, sender.cookie);
    const notDelivered = await report(sender, waiting.id);
    expect(notDelivered.statusCode).toBe(409);
    expect(notDelivered.json().error.code).toBe('report_not_delivered');

    await t.store.db
      .updateTable('parcels')
      .set({ delivered_at: new Date(Date.now() - 7 * 24 * 3600_000 - 60_000).toISOString() })
      .where('id', '=', parcel.id)
      .execute();
    const late = await report(sender, parcel.id);
    expect(late.statusCode).toBe(422);
    expect(late.json().error).toEqual({ code: 'report_too_late', message: messages.reportTooLate });
    expect(await storedReports(parcel.id)).toEqual([]);
    expect(await storedReports(waiting.id)).toEqual([]);
  });

  it('the list and the detail are the back office’s only', async () => {
    const { parcel } = await delivered();
    const made = (await report(sender, parcel.id)).json();
    for (const who of [sender, runner]) {
      expect((await get(who, '/api/reports')).statusCode).toBe(403);
      expect((await get(who, `/api/reports/${made.id}`)).statusCode).toBe(403);
      expect(
        (await requestAs(t.app, who, 'POST', `/api/reports/${made.id}/resolve`, { resolution: 'x' })).statusCode,
      ).toBe(403);
    }
    expect((await get(null, '/api/reports')).statusCode).toBe(401);
    expect((await get(admin, '/api/reports?status=mind')).statusCode).toBe(400);
    expect((await get(admin, '/api/reports/999999')).json().error.code).toBe('report_not_found');
    expect((await get(admin, '/api/reports?cursor=zzz')).json().error.code).toBe('invalid_cursor');
    expect((await storedReports(parcel.id))[0]?.resolved_at).toBeNull();
  });

  it('pages the list newest first', async () => {
    const ids: number[] = [];
    for (let i = 0; i < 3; i += 1) {
      const { parcel } = await delivered();
      ids.push((await report(sender, parcel.id)).json().id);
    }
    const first = (await get(admin, '/api/reports?status=open&limit=2')).json();
    expect(first.items).toHaveLength(2);
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = (await get(admin, `/api/reports?status=open&limit=2&cursor=${first.nextCursor}`)).json();
    const seen = [...first.items, ...second.items].map((item: { id: number }) => item.id);
    expect(seen.slice(0, 3)).toEqual([...ids].reverse());
  });

  it('answers an id that is no report with a Hungarian message', async () => {
    for (const id of ['abc', '0', '-1', '1.5']) {
      const response = await get(admin, `/api/reports/${id}`);
      expect(response.statusCode).toBe(400);
      expect(JSON.stringify(response.json())).toContain(messages.reportNotFound);
    }
    const missing = await get(admin, '/api/reports/999999');
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error.message).toBe(messages.reportNotFound);
  });
});
