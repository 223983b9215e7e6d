import { INCIDENT_PHOTOS_MAX } from '@csomag/domain/incidents';
import { messages } from '@csomag/domain/messages';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Cast, carriedFor, DEBRECEN_DOOR, dropPointBody, requestsOf, signUpCast } from '../../test/cast.ts';
import { northOf, storedEvents, storedParcel } from '../../test/delivery.ts';
import { createTestApp, type SignedIn, signUp, type TestApp } from '../../test/harness.ts';
import { sendParcel } from '../../test/parcels.ts';
import { postPhoto, testPicture } from '../../test/photo.ts';
import { removeExpiredProofImages } from '../proofs/service.ts';
import { readChain, verifyChain } from '../relay/chain.ts';

/** Incidents (issue 28): the carrier reports, the back office decides once. */
let t: TestApp;
let cast: Cast;
let admin: SignedIn;
let sender: SignedIn;
let runner: SignedIn;
let otherRunner: SignedIn;
let receiver: SignedIn;
let staff: SignedIn;
let dropPointId: number;

beforeAll(async () => {
  t = await createTestApp();
  cast = await signUpCast(t.app);
  ({ admin, sender, runner, otherRunner, receiver } = cast);
  staff = await signUp(t.app);
  dropPointId = (await post(admin, '/api/drop-points', dropPointBody(staff.account.userName))).json().id;
});
afterAll(() => t.close());

const carried = () => carriedFor(t.app, cast);
const { post, get } = requestsOf(() => t.app);
const report = (who: SignedIn | null, parcelId: string, body: object = {}) =>
  post(who, `/api/parcels/${parcelId}/incidents`, { kind: 'damaged', description: 'Beázott a doboz', ...body });
const resolve = (who: SignedIn | null, id: number, decision: string, note = 'Megnéztük a fotókat') =>
  post(who, `/api/incidents/${id}/resolve`, { decision, note });

const uploadPhoto = async (who: SignedIn, id: number) =>
  postPhoto(t.app, who, `/api/incidents/${id}/photos`, await testPicture());

describe('reporting an incident', () => {
  it('is the carrier’s, one open at a time, on the timeline, with photos the back office sees', async () => {
    const parcel = await carried();
    const before = await storedParcel(t.app, parcel.id);
    const reported = await report(runner, parcel.id);
    expect(reported.statusCode, reported.body).toBe(201);
    const incident = reported.json();
    expect(incident).toMatchObject({
      parcelId: parcel.id,
      kind: 'damaged',
      description: 'Beázott a doboz',
      reporter: runner.account.userName,
      photos: [],
      decision: null,
      resolvedAt: null,
    });
    // The parcel itself does not change; the timeline says so.
    expect(await storedParcel(t.app, parcel.id)).toEqual(before);
    expect((await storedEvents(t.app, parcel.id)).map((event) => event.kind)).toContain('incident_reported');
    const second = await report(runner, parcel.id, { kind: 'lost' });
    expect(second.statusCode).toBe(409);
    expect(second.json().error).toEqual({ code: 'incident_open', message: messages.incidentOpen });

    expect((await uploadPhoto(otherRunner, incident.id)).statusCode).toBe(404);
    for (let n = 1; n <= INCIDENT_PHOTOS_MAX; n++) {
      const photo = await uploadPhoto(runner, incident.id);
      expect(photo.statusCode, photo.body).toBe(201);
      expect(photo.json().photos).toHaveLength(n);
    }
    const full = await uploadPhoto(runner, incident.id);
    expect(full.statusCode).toBe(409);
    expect(full.json().error.message).toBe(messages.incidentPhotosFull(INCIDENT_PHOTOS_MAX));
    const image = await get(admin, `/api/incidents/${incident.id}/photos/1`);
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/jpeg');
    for (const who of [runner, sender]) {
      expect((await get(who, `/api/incidents/${incident.id}/photos/1`)).statusCode).toBe(403);
    }
  });

  it('refuses anyone but the carrier, a parcel not in transit and bad input, changing nothing', async () => {
    const parcel = await carried();
    for (const [who, status] of [
      [otherRunner, 403],
      [sender, 403],
      [admin, 403],
      [null, 401],
    ] as const) {
      expect((await report(who, parcel.id)).statusCode).toBe(status);
    }
    const waiting = await sendParcel(t.app, sender.cookie);
    expect((await report(runner, waiting.id)).statusCode).toBe(409);
    for (const [body, field, message] of [
      [{ kind: 'stolen' }, 'kind', messages.incidentKindInvalid],
      [{ description: 'x' }, 'description', messages.incidentDescriptionInvalid],
      [{ description: 'x'.repeat(1001) }, 'description', messages.incidentDescriptionInvalid],
    ] as const) {
      const response = await report(runner, parcel.id, body);
      expect(response.statusCode).toBe(400);
      expect(response.json().error.fields[field]).toBe(message);
    }
    expect(
      (await get(admin, '/api/incidents?status=open&limit=200'))
        .json()
        .items.map((i: { parcelId: string }) => i.parcelId),
    ).not.toContain(parcel.id);
  });
});

/** A parcel its receiver sent to the drop point after a failed attempt, on its way there (`left`: left there). */
async function toDropPoint({ left }: { left: boolean }) {
  const parcel = await carriedFor(t.app, cast, { receiverCoordinates: DEBRECEN_DOOR });
  const attempt = await post(runner, `/api/parcels/${parcel.id}/attempts`, {
    reason: 'nobody_home',
    position: { ...northOf(DEBRECEN_DOOR, 2), accuracy: 5 },
  });
  expect(attempt.statusCode, attempt.body).toBe(201);
  expect((await post(receiver, `/api/parcels/${parcel.id}/drop-point`, { dropPointId })).statusCode).toBe(200);
  if (left) {
    const coming = (await get(staff, `/api/drop-points/${dropPointId}/parcels`))
      .json()
      .items.find((item: { id: string }) => item.id === parcel.id);
    const handed = await post(runner, `/api/parcels/${parcel.id}/pin-handover`, { pin: coming.dropOffPin });
    expect(handed.json()).toMatchObject({ status: 'at_drop_point' });
  }
  return parcel;
}

describe('an incident at a drop point', () => {
  it('is reported by its staff, with photos, about a parcel waiting there — by nobody else, changing nothing', async () => {
    const coming = await toDropPoint({ left: false });
    const notYet = await report(staff, coming.id);
    expect(notYet.statusCode).toBe(409);
    expect(notYet.json().error).toEqual({ code: 'parcel_not_in_transit', message: messages.incidentNotAtDropPoint });

    const parcel = await toDropPoint({ left: true });
    const before = await storedParcel(t.app, parcel.id);
    for (const [who, status] of [
      [cast.otherUser, 403],
      [sender, 403],
      [runner, 409],
      [admin, 403],
      [null, 401],
    ] as const) {
      expect((await report(who, parcel.id)).statusCode, String(who?.account.userName)).toBe(status);
    }
    expect(await storedParcel(t.app, parcel.id)).toEqual(before);

    const reported = await report(staff, parcel.id, { description: 'Összetört a doboz a polcon' });
    expect(reported.statusCode, reported.body).toBe(201);
    const incident = reported.json();
    expect(incident).toMatchObject({ parcelId: parcel.id, reporter: staff.account.userName });
    expect(await storedParcel(t.app, parcel.id)).toEqual(before);
    expect((await uploadPhoto(cast.otherUser, incident.id)).statusCode).toBe(404);
    const photo = await uploadPhoto(staff, incident.id);
    expect(photo.statusCode, photo.body).toBe(201);
    expect(photo.json().photos).toEqual([1]);
  });

  it('goes back to its sender at the back office’s word: it waits for them there, told as the way back', async () => {
    const parcel = await toDropPoint({ left: true });
    const incident = (await report(staff, parcel.id)).json();
    const decided = await resolve(admin, incident.id, 'return', 'A feladó kéri vissza');
    expect(decided.statusCode, decided.body).toBe(200);
    expect(await storedParcel(t.app, parcel.id)).toMatchObject({
      status: 'at_drop_point',
      returning: 1,
      holder_kind: 'drop_point',
      holder_id: dropPointId,
    });
    expect((await readChain(t.store.db, parcel.id)).at(-1)).toMatchObject({
      kind: 'return_started',
      from_kind: 'drop_point',
      to_kind: 'drop_point',
      how: 'admin',
      confirmed_by: expect.any(Number),
      reason: 'A feladó kéri vissza',
    });
    expect(await verifyChain(t.store.db, parcel.id)).toMatchObject({ ok: true });
    // Its sender collects it there with their own code.
    const { pin } = (await get(sender, `/api/parcels/${parcel.id}/handover-pin`)).json();
    expect((await post(staff, `/api/parcels/${parcel.id}/release`, { pin })).json()).toMatchObject({
      status: 'returned',
    });
    // Sent back already: a second return is refused and leaves its incident open.
    const waiting = await toDropPoint({ left: true });
    const first = (await report(staff, waiting.id)).json();
    await resolve(admin, first.id, 'return');
    const next = (await report(staff, waiting.id)).json();
    const twice = await resolve(admin, next.id, 'return');
    expect(twice.json().error).toEqual({
      code: 'incident_decision_impossible',
      message: messages.incidentReturnNotPossible,
    });
    expect((await get(admin, `/api/incidents/${next.id}`)).json().incident).toMatchObject({ resolvedAt: null });
  });

  it('is written off from the drop point: its chain closes with lost, from the place to nobody', async () => {
    const parcel = await toDropPoint({ left: true });
    const incident = (await report(staff, parcel.id, { kind: 'lost', description: 'Nem találjuk a polcon' })).json();
    expect((await resolve(admin, incident.id, 'write_off', 'Elveszett az átvételi ponton')).statusCode).toBe(200);
    expect(await storedParcel(t.app, parcel.id)).toMatchObject({ status: 'lost', holder_kind: 'none' });
    expect((await readChain(t.store.db, parcel.id)).at(-1)).toMatchObject({
      kind: 'lost',
      from_kind: 'drop_point',
      from_id: dropPointId,
      to_kind: 'none',
    });
    expect(await verifyChain(t.store.db, parcel.id)).toMatchObject({ ok: true });
    // Nothing is handed out of a lost parcel.
    const { pin } = (await get(receiver, `/api/parcels/${parcel.id}/handover-pin`)).json() as { pin?: string };
    const late = await post(staff, `/api/parcels/${parcel.id}/release`, { pin: pin ?? '000000' });
    expect(late.statusCode).toBe(409);
  });
});

describe('the back office’s decision', () => {
  it('shows the queue and the incident with its parcel, custody chain and attempts; only to the back office', async () => {
    const parcel = await carried();
    const incident = (await report(runner, parcel.id, { kind: 'lost', description: 'Ellopták a táskámat' })).json();
    const queue = await get(admin, '/api/incidents');
    expect(queue.json().items.map((i: { id: number }) => i.id)).toContain(incident.id);
    const detail = await get(admin, `/api/incidents/${incident.id}`);
    expect(detail.statusCode, detail.body).toBe(200);
    expect(detail.json()).toMatchObject({
      incident: { id: incident.id },
      parcel: { id: parcel.id },
      custody: { firstBadSeq: null },
      attempts: [],
    });
    for (const who of [runner, sender]) {
      expect((await get(who, '/api/incidents')).statusCode).toBe(403);
      expect((await get(who, `/api/incidents/${incident.id}`)).statusCode).toBe(403);
      expect((await resolve(who, incident.id, 'continue')).statusCode).toBe(403);
    }
    expect((await get(admin, '/api/incidents/999999')).statusCode).toBe(404);
  });

  it('writes a lost parcel off: its chain closes with lost, from the runner to nobody', async () => {
    const parcel = await carried();
    const incident = (await report(runner, parcel.id, { kind: 'lost', description: 'Ellopták a táskámat' })).json();
    const decided = await resolve(admin, incident.id, 'write_off', 'A futár rendőrségi feljelentést tett');
    expect(decided.statusCode, decided.body).toBe(200);
    expect(decided.json()).toMatchObject({ decision: 'write_off', resolvedBy: admin.account.userName });
    expect(await storedParcel(t.app, parcel.id)).toMatchObject({
      status: 'lost',
      holder_kind: 'none',
      holder_id: null,
    });
    expect((await readChain(t.store.db, parcel.id)).at(-1)).toMatchObject({
      kind: 'lost',
      from_kind: 'runner',
      to_kind: 'none',
      how: 'admin',
      reason: 'A futár rendőrségi feljelentést tett',
    });
    expect(await verifyChain(t.store.db, parcel.id)).toMatchObject({ ok: true });
    expect((await get(null, `/api/tracking/${parcel.id}`)).json()).toMatchObject({ status: 'lost', state: 'lost' });
    // Decided once; a lost parcel takes nothing more.
    const again = await resolve(admin, incident.id, 'continue');
    expect(again.json().error).toEqual({ code: 'incident_resolved', message: messages.incidentResolved });
    const late = await post(runner, `/api/parcels/${parcel.id}/deliver`, { lat: 47.5, lng: 19, accuracy: 5 });
    expect(late.json().error).toEqual({ code: 'parcel_not_in_transit', message: messages.lostParcel });
    const patch = await t.app.inject({
      method: 'PATCH',
      url: `/api/parcels/${parcel.id}`,
      headers: { cookie: admin.cookie },
      payload: { status: 'in_transit', reason: 'Megkerült' },
    });
    expect(patch.json().error.code).toBe('status_own_flow');
  });

  it('sends a damaged parcel back to its sender, its runner still carrying it', async () => {
    const parcel = await carried();
    const incident = (await report(runner, parcel.id)).json();
    const decided = await resolve(admin, incident.id, 'return', 'A feladó kérte vissza');
    expect(decided.statusCode, decided.body).toBe(200);
    expect(await storedParcel(t.app, parcel.id)).toMatchObject({
      status: 'in_transit',
      returning: 1,
      holder_kind: 'runner',
    });
    expect((await readChain(t.store.db, parcel.id)).at(-1)).toMatchObject({ kind: 'return_started', how: 'admin' });
    // Another incident may be reported now, and a return cannot be decided twice over.
    const next = (await report(runner, parcel.id)).json();
    const twice = await resolve(admin, next.id, 'return');
    expect(twice.statusCode).toBe(409);
    expect(twice.json().error).toEqual({
      code: 'incident_decision_impossible',
      message: messages.incidentReturnNotPossible,
    });
    // Refused, the incident stays open: the decision and the parcel change go together.
    expect((await get(admin, `/api/incidents/${next.id}`)).json().incident).toMatchObject({ resolvedAt: null });
    expect((await resolve(admin, next.id, 'continue')).json()).toMatchObject({ decision: 'continue' });
    expect(await storedParcel(t.app, parcel.id)).toMatchObject({ status: 'in_transit', returning: 1 });
  });

  it('records one decision when two are made at once', async () => {
    const parcel = await carried();
    const incident = (await report(runner, parcel.id)).json();
    const answers = await Promise.all([
      resolve(admin, incident.id, 'write_off'),
      resolve(admin, incident.id, 'return'),
      resolve(admin, incident.id, 'continue'),
    ]);
    expect(answers.filter((answer) => answer.statusCode === 200)).toHaveLength(1);
    const decision = answers.find((answer) => answer.statusCode === 200)?.json().decision;
    const row = await storedParcel(t.app, parcel.id);
    if (decision === 'write_off') expect(row.status).toBe('lost');
    else if (decision === 'return') expect(row).toMatchObject({ status: 'in_transit', returning: 1 });
    else expect(row).toMatchObject({ status: 'in_transit', returning: 0 });
    expect(await verifyChain(t.store.db, parcel.id)).toMatchObject({ ok: true });
  });

  it('refuses a decision that is not one of the three, or without its reason, in Hungarian', async () => {
    const parcel = await carried();
    const incident = (await report(runner, parcel.id)).json();
    const unknown = await resolve(admin, incident.id, 'ignore');
    expect(unknown.json().error.fields.decision).toBe(messages.incidentDecisionInvalid);
    const noReason = await resolve(admin, incident.id, 'continue', '');
    expect(noReason.json().error.fields.note).toBe(messages.reasonInvalid);
    expect((await get(admin, `/api/incidents/${incident.id}`)).json().incident).toMatchObject({ resolvedAt: null });
  });

  it('lets the photos of a decided incident go with the proofs’ retention', async () => {
    const parcel = await carried();
    const incident = (await report(runner, parcel.id)).json();
    await uploadPhoto(runner, incident.id);
    await resolve(admin, incident.id, 'continue');
    const longAgo = new Date(Date.now() - 40 * 86_400_000).toISOString();
    await t.store.db.updateTable('incidents').set({ resolved_at: longAgo }).where('id', '=', incident.id).execute();
    expect(await removeExpiredProofImages(t.store.db, 30)).toBeGreaterThanOrEqual(1);
    expect((await get(admin, `/api/incidents/${incident.id}/photos/1`)).statusCode).toBe(404);
    expect((await get(admin, `/api/incidents/${incident.id}`)).json().incident.photos).toEqual([]);
  });
});
