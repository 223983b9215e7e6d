import type { IncidentDetail } from '@csomag/domain/incidents';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailParcel } from '../../db/migrations/0029-mail-parcel.ts';
import { type Cast, carriedFor, DEBRECEN_DOOR, requestsOf, signUpCast } from '../../test/cast.ts';
import { northOf } from '../../test/delivery.ts';
import { createTestApp, type SignedIn, type TestApp } from '../../test/harness.ts';
import { postPhoto, testPicture } from '../../test/photo.ts';

/**
 * What the back office's incident detail shows besides the chain (issue 28, item 7): the parcel's
 * proofs and the mail written about it.
 */
let t: TestApp;
let cast: Cast;

beforeAll(async () => {
  t = await createTestApp();
  cast = await signUpCast(t.app);
  // The sender's status mail goes to a verified address only.
  await t.store.db
    .updateTable('accounts')
    .set({ email_verified_at: new Date().toISOString() })
    .where('user_name', '=', cast.sender.account.userName)
    .execute();
});
afterAll(() => t.close());

const { post, get } = requestsOf(() => t.app);
let counter = 0;
const receiverEmail = () => `bizonyitek${++counter}.${Date.now().toString(36)}@example.hu`;
const atDoor = { ...northOf(DEBRECEN_DOOR, 3), accuracy: 5 };

/** A parcel to a receiver without an account, carried, with an incident reported on it. */
async function incidentOn(email: string) {
  const parcel = await carriedFor(t.app, cast, { receiverEmail: email, receiverCoordinates: DEBRECEN_DOOR });
  const reported = await post(cast.runner, `/api/parcels/${parcel.id}/incidents`, {
    kind: 'damaged',
    description: 'Beázott a doboz',
  });
  expect(reported.statusCode, reported.body).toBe(201);
  return { parcel, incident: reported.json() as { id: number } };
}

async function detailOf(incidentId: number): Promise<IncidentDetail> {
  const response = await get(cast.admin, `/api/incidents/${incidentId}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

const uploadProofPhoto = async (who: SignedIn, parcelId: string) =>
  postPhoto(t.app, who, `/api/parcels/${parcelId}/proof/photo`, await testPicture({ format: 'jpeg' }), 'image/jpeg');

describe('the messages about the parcel', () => {
  it('lists the mail written about that parcel, newest first, without bodies, and no other parcel’s', async () => {
    const email = receiverEmail();
    const { parcel, incident } = await incidentOn(email);
    const attempted = await post(cast.runner, `/api/parcels/${parcel.id}/attempts`, {
      reason: 'nobody_home',
      position: atDoor,
    });
    expect(attempted.statusCode, attempted.body).toBe(201);
    // Another parcel's mail, to another receiver and to the same sender.
    const other = await incidentOn(receiverEmail());

    const { messages } = await detailOf(incident.id);
    const senderEmail = cast.sender.account.email.toLowerCase();
    expect(messages.map((message) => [message.to, message.template])).toEqual([
      [senderEmail, 'sender_attempted'],
      [email, 'receiver_attempted'],
      [senderEmail, 'sender_reported'],
      [senderEmail, 'sender_picked_up'],
      [email, 'receiver_picked_up'],
      [email, 'receiver_coming'],
    ]);
    for (const message of messages) {
      // Never the bodies: their links hold the receiver's key and the stop token.
      expect(Object.keys(message).sort()).toEqual(
        ['createdAt', 'failedAt', 'id', 'sentAt', 'subject', 'template', 'to'].sort(),
      );
      expect(message.subject).toContain(parcel.id);
    }
    const otherIds = (await detailOf(other.incident.id)).messages.map((message) => message.id);
    expect(otherIds).toHaveLength(4);
    expect(otherIds.filter((id) => messages.some((message) => message.id === id))).toEqual([]);
  });

  it('records no parcel on an account’s own mail', async () => {
    const own = await t.store.db
      .selectFrom('mail_outbox')
      .select(['template', 'parcel_id'])
      .where('to_address', '=', cast.sender.account.email)
      .where('template', '=', 'email_verification')
      .execute();
    expect(own).toEqual([{ template: 'email_verification', parcel_id: null }]);
  });
});

describe('the proofs of the parcel', () => {
  it('shows none until there is one, then the list the proofs’ own reader gives', async () => {
    const { parcel, incident } = await incidentOn(receiverEmail());
    expect((await detailOf(incident.id)).proofs).toEqual([]);
    const uploaded = await uploadProofPhoto(cast.runner, parcel.id);
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    const { proofs } = await detailOf(incident.id);
    expect(proofs).toEqual((await get(cast.admin, `/api/parcels/${parcel.id}/proofs`)).json().items);
    expect(proofs).toEqual([expect.objectContaining({ kind: 'photo', available: true, removedAt: null })]);
  });

  it('is the back office’s only, like the rest of the incident', async () => {
    const { incident } = await incidentOn(receiverEmail());
    for (const who of [cast.runner, cast.sender, cast.receiver, cast.otherUser]) {
      expect((await get(who, `/api/incidents/${incident.id}`)).statusCode).toBe(403);
    }
    expect((await get(null, `/api/incidents/${incident.id}`)).statusCode).toBe(401);
  });
});

describe('migration 0029', () => {
  it('drops the parcel of a message on the way down and starts it empty on the way up', async () => {
    const own = await createTestApp();
    try {
      const ownCast = await signUpCast(own.app);
      const parcel = await carriedFor(own.app, ownCast, { receiverEmail: receiverEmail() });
      const about = () =>
        own.store.db.selectFrom('mail_outbox').select('id').where('parcel_id', '=', parcel.id).execute();
      expect(await about()).toHaveLength(2);
      await mailParcel.down?.(own.store.db);
      await expect(about()).rejects.toThrow();
      await mailParcel.up(own.store.db);
      // What was written before is kept, about no parcel: nothing then recorded one.
      expect(await about()).toEqual([]);
      expect(await own.store.db.selectFrom('mail_outbox').select('id').execute()).not.toHaveLength(0);
    } finally {
      await own.close();
    }
  });
});
