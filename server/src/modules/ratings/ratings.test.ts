import { messages } from '@csomag/domain/messages';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pickUp } from '../../test/delivery.ts';
import { createTestApp, type SignedIn, signInSuperadmin, signUp, type TestApp } from '../../test/harness.ts';
import { sendParcel } from '../../test/parcels.ts';
import { callOn, deliveredParcel, type Method } from '../../test/ratings.ts';

const storedRatings = (app: FastifyInstance, parcelId: string) =>
  app.store.db.selectFrom('ratings').selectAll().where('parcel_id', '=', parcelId).orderBy('id').execute();

describe('PUT /api/parcels/:id/rating', () => {
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
  const call = (method: Method, url: string, who?: SignedIn, payload?: unknown) =>
    callOn(t.app, method, url, who, payload);

  it('lets the sender and the receiver rate the runner, and the runner the sender, once each', async () => {
    const { parcel, receiver } = await deliveredParcel(t.app, admin, sender, runner);
    const bySender = await call('PUT', `/api/parcels/${parcel.id}/rating`, sender, {
      stars: 5,
      comment: '  <b>Gyors</b> volt  ',
    });
    expect(bySender.statusCode).toBe(200);
    expect(bySender.json().rating).toMatchObject({
      raterRole: 'sender',
      ratee: runner.account.userName,
      stars: 5,
      // Plain text, as typed (trimmed): the web renders it as text, never as HTML.
      comment: '<b>Gyors</b> volt',
    });
    const byReceiver = await call('PUT', `/api/parcels/${parcel.id}/rating`, receiver, { stars: 4 });
    expect(byReceiver.statusCode).toBe(200);
    expect(byReceiver.json().rating).toMatchObject({
      raterRole: 'receiver',
      ratee: runner.account.userName,
      comment: null,
    });
    const byRunner = await call('PUT', `/api/parcels/${parcel.id}/rating`, runner, {
      stars: 3,
      comment: 'Nem volt otthon',
    });
    expect(byRunner.statusCode).toBe(200);
    expect(byRunner.json().rating).toMatchObject({ raterRole: 'runner', ratee: sender.account.userName, stars: 3 });

    const rows = await storedRatings(t.app, parcel.id);
    expect(rows.map((r) => [r.rater_role, r.rater_id, r.ratee_id, r.stars])).toEqual([
      ['sender', expect.any(Number), expect.any(Number), 5],
      ['receiver', expect.any(Number), expect.any(Number), 4],
      ['runner', expect.any(Number), expect.any(Number), 3],
    ]);
    expect(rows[0]?.ratee_id).toBe(rows[1]?.ratee_id);
    expect(rows[2]?.ratee_id).toBe(rows[0]?.rater_id);

    // Each sees only their own rating; the back office sees all three.
    const mine = await call('GET', `/api/parcels/${parcel.id}/ratings`, receiver);
    expect(mine.statusCode).toBe(200);
    expect(mine.json()).toMatchObject({ role: 'receiver', ratee: runner.account.userName, canRate: true });
    expect(mine.json().ratings).toHaveLength(1);
    expect(mine.json().ratings[0]).toMatchObject({ raterRole: 'receiver', stars: 4 });
    const all = await call('GET', `/api/parcels/${parcel.id}/ratings`, admin);
    expect(all.json()).toMatchObject({ role: null, canRate: false });
    expect(all.json().ratings.map((r: { raterRole: string }) => r.raterRole)).toEqual(['sender', 'receiver', 'runner']);
  });

  it('refuses anyone who is not a party, and rating before delivery', async () => {
    const { parcel } = await deliveredParcel(t.app, admin, sender, runner);
    const stranger = await signUp(t.app);
    const otherRunner = await signUp(t.app, { role: 'runner' });
    for (const who of [stranger, otherRunner, admin]) {
      const response = await call('PUT', `/api/parcels/${parcel.id}/rating`, who, { stars: 1 });
      expect(response.statusCode).toBe(403);
      expect(response.json().error).toEqual({ code: 'forbidden', message: messages.ratingNotParty });
    }
    expect((await call('GET', `/api/parcels/${parcel.id}/ratings`, stranger)).statusCode).toBe(403);
    const anonymous = await call('PUT', `/api/parcels/${parcel.id}/rating`, undefined, { stars: 1 });
    expect(anonymous.statusCode).toBe(401);
    expect((await call('PUT', '/api/parcels/ZZZZZZZZZZ/rating', sender, { stars: 1 })).statusCode).toBe(404);

    const waiting = await sendParcel(t.app, sender.cookie);
    const early = await call('PUT', `/api/parcels/${waiting.id}/rating`, sender, { stars: 5 });
    expect(early.statusCode).toBe(409);
    expect(early.json().error.message).toBe(messages.ratingNotDelivered);
    await pickUp(t.app, runner.cookie, waiting.id);
    const inTransit = await call('PUT', `/api/parcels/${waiting.id}/rating`, runner, { stars: 5 });
    expect(inTransit.statusCode).toBe(409);
    const notYet = await call('GET', `/api/parcels/${waiting.id}/ratings`, sender);
    expect(notYet.json()).toMatchObject({ role: 'sender', canRate: false, ratings: [] });

    expect(await storedRatings(t.app, parcel.id)).toEqual([]);
    expect(await storedRatings(t.app, waiting.id)).toEqual([]);
  });

  it('lets a rating be edited for 24 hours, then refuses with a clear message', async () => {
    const { parcel } = await deliveredParcel(t.app, admin, sender, runner);
    const url = `/api/parcels/${parcel.id}/rating`;
    expect((await call('PUT', url, sender, { stars: 2, comment: 'Késett' })).statusCode).toBe(200);
    const edited = await call('PUT', url, sender, { stars: 4 });
    expect(edited.statusCode).toBe(200);
    expect(edited.json().rating).toMatchObject({ stars: 4, comment: null });
    expect((await storedRatings(t.app, parcel.id)).map((r) => r.stars)).toEqual([4]);

    // The rating was first given 25 hours ago.
    const longAgo = new Date(Date.now() - 25 * 3_600_000).toISOString();
    await t.app.store.db
      .updateTable('ratings')
      .set({ created_at: longAgo, updated_at: longAgo })
      .where('parcel_id', '=', parcel.id)
      .execute();
    const late = await call('PUT', url, sender, { stars: 1 });
    expect(late.statusCode).toBe(409);
    expect(late.json().error.message).toBe(messages.ratingEditClosed(24));
    const [row] = await storedRatings(t.app, parcel.id);
    expect(row).toMatchObject({ stars: 4, updated_at: longAgo });
    const view = await call('GET', `/api/parcels/${parcel.id}/ratings`, sender);
    expect(view.json()).toMatchObject({ canRate: false, ratings: [{ stars: 4 }] });
  });

  it("does not let a second account at the receiver's address change the first one's rating", async () => {
    const { parcel, receiver } = await deliveredParcel(t.app, admin, sender, runner);
    const housemate = await signUp(t.app, { address: receiver.account.address });
    expect((await call('PUT', `/api/parcels/${parcel.id}/rating`, receiver, { stars: 5 })).statusCode).toBe(200);
    const other = await call('PUT', `/api/parcels/${parcel.id}/rating`, housemate, { stars: 1 });
    expect(other.statusCode).toBe(409);
    expect((await call('GET', `/api/parcels/${parcel.id}/ratings`, housemate)).json()).toMatchObject({
      role: 'receiver',
      canRate: false,
      ratings: [],
    });
    expect((await storedRatings(t.app, parcel.id)).map((r) => r.stars)).toEqual([5]);
  });

  it.each([
    [{ stars: 6 }, 'stars', messages.ratingStarsInvalid(1, 5)],
    [{ stars: 'abc' }, 'stars', messages.ratingStarsInvalid(1, 5)],
    [{ stars: 0 }, 'stars', messages.ratingStarsInvalid(1, 5)],
    [{ stars: 3.5 }, 'stars', messages.ratingStarsInvalid(1, 5)],
    [{}, 'stars', messages.ratingStarsInvalid(1, 5)],
    [{ stars: 4, comment: 'x'.repeat(501) }, 'comment', messages.ratingCommentTooLong(500)],
    [{ stars: 4, comment: 12 }, 'comment', messages.ratingCommentInvalid],
  ])('refuses %j with a Hungarian message and stores nothing', async (payload, field, message) => {
    const { parcel } = await deliveredParcel(t.app, admin, sender, runner);
    const response = await call('PUT', `/api/parcels/${parcel.id}/rating`, sender, payload);
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toMatchObject({ code: 'invalid_body', fields: { [field]: message } });
    expect(await storedRatings(t.app, parcel.id)).toEqual([]);
  });

  it('takes a comment of exactly 500 characters', async () => {
    const { parcel } = await deliveredParcel(t.app, admin, sender, runner);
    const response = await call('PUT', `/api/parcels/${parcel.id}/rating`, sender, {
      stars: 4,
      comment: 'é'.repeat(500),
    });
    expect(response.statusCode).toBe(200);
    expect((await storedRatings(t.app, parcel.id))[0]?.comment).toBe('é'.repeat(500));
  });

  it('does not stand in the way of deleting a rated runner: their ratings go with them', async () => {
    const rated = await signUp(t.app, { role: 'runner' });
    const { parcel } = await deliveredParcel(t.app, admin, sender, rated);
    expect((await call('PUT', `/api/parcels/${parcel.id}/rating`, sender, { stars: 4 })).statusCode).toBe(200);
    expect((await call('PUT', `/api/parcels/${parcel.id}/rating`, rated, { stars: 4 })).statusCode).toBe(200);
    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `/api/runners/${rated.account.userName}`,
      headers: { cookie: admin.cookie },
    });
    expect(deleted.statusCode).toBe(204);
    expect(await storedRatings(t.app, parcel.id)).toEqual([]);
  });

  it("lists the runner's recent deliveries with their rating of each sender", async () => {
    const { parcel } = await deliveredParcel(t.app, admin, sender, runner);
    const before = await call('GET', '/api/me/delivered-parcels', runner);
    expect(before.statusCode).toBe(200);
    expect(before.json().items[0]).toMatchObject({ id: parcel.id, senderUser: sender.account.userName, myStars: null });
    await call('PUT', `/api/parcels/${parcel.id}/rating`, runner, { stars: 2 });
    const after = await call('GET', '/api/me/delivered-parcels', runner);
    expect(after.json().items[0]).toMatchObject({ id: parcel.id, myStars: 2 });
    expect((await call('GET', '/api/me/delivered-parcels', sender)).statusCode).toBe(403);
    expect((await call('GET', '/api/me/delivered-parcels')).statusCode).toBe(401);
  });
});

describe('shown averages', () => {
  let t: TestApp;
  let admin: SignedIn;
  let sender: SignedIn;
  let slow: SignedIn;
  let fast: SignedIn;
  let unrated: SignedIn;
  const tag = `Csillag${Date.now().toString(36)}`;
  beforeAll(async () => {
    t = await createTestApp();
    admin = await signInSuperadmin(t.app);
    sender = await signUp(t.app);
    slow = await signUp(t.app, { role: 'runner', name: `Lassú ${tag}` });
    fast = await signUp(t.app, { role: 'runner', name: `Fürge ${tag}` });
    unrated = await signUp(t.app, { role: 'runner', name: `Új ${tag}` });
    const rate = (parcelId: string, who: SignedIn, stars: number) =>
      callOn(t.app, 'PUT', `/api/parcels/${parcelId}/rating`, who, { stars }).then((r) =>
        expect(r.statusCode).toBe(200),
      );
    // slow: one 1-star review; fast: 5 from the sender and 5 from the receiver.
    const first = await deliveredParcel(t.app, admin, sender, slow);
    await rate(first.parcel.id, sender, 1);
    // A runner's rating of the sender is not a rating of runners: it moves no runner's average.
    await rate(first.parcel.id, slow, 1);
    const second = await deliveredParcel(t.app, admin, sender, fast);
    await rate(second.parcel.id, sender, 5);
    await rate(second.parcel.id, second.receiver, 5);
  });
  afterAll(() => t.close());

  // Overall mean of runners' ratings: (1 + 5 + 5) / 3. Shrunk with 5 imaginary ratings at that mean.
  const mean = 11 / 3;
  const expected = (sum: number, n: number) => Math.round(((5 * mean + sum) / (5 + n)) * 10) / 10;

  it('shows each runner on the back office list with the shrunk average and count', async () => {
    const response = await callOn(t.app, 'GET', `/api/runners?q=${tag}`, admin);
    expect(response.statusCode).toBe(200);
    const byName = Object.fromEntries(
      response.json().items.map((r: { userName: string; rating: unknown }) => [r.userName, r.rating]),
    );
    expect(byName).toEqual({
      [slow.account.userName]: { average: expected(1, 1), count: 1 },
      [fast.account.userName]: { average: expected(10, 2), count: 2 },
      [unrated.account.userName]: null,
    });
    // One 1-star review does not make a 1-star runner.
    expect(expected(1, 1)).toBe(3.2);
  });

  it('shows them in the assignment list (nearest first)', async () => {
    const waiting = await sendParcel(t.app, sender.cookie);
    const response = await callOn(t.app, 'GET', `/api/runners?near=${waiting.id}&q=${tag}`, admin);
    expect(response.statusCode).toBe(200);
    const fastItem = response.json().items.find((r: { userName: string }) => r.userName === fast.account.userName);
    expect(fastItem).toMatchObject({ rating: { average: 4, count: 2 } });
    expect(fastItem).toHaveProperty('distanceMetres');
  });

  it("shows the runner's average on the tracking page while in transit only", async () => {
    const parcel = await sendParcel(t.app, sender.cookie);
    const waiting = await callOn(t.app, 'GET', `/api/tracking/${parcel.id}`);
    expect(waiting.json().runnerRating).toBeNull();
    await pickUp(t.app, fast.cookie, parcel.id);
    const inTransit = await callOn(t.app, 'GET', `/api/tracking/${parcel.id}`);
    expect(inTransit.statusCode).toBe(200);
    expect(inTransit.json()).toMatchObject({ runner: fast.account.userName, runnerRating: { average: 4, count: 2 } });
    await t.app.inject({
      method: 'POST',
      url: `/api/parcels/${parcel.id}/deliver`,
      headers: { cookie: admin.cookie },
      payload: {},
    });
    const delivered = await callOn(t.app, 'GET', `/api/tracking/${parcel.id}`);
    expect(delivered.json()).toMatchObject({ status: 'delivered', runner: null, runnerRating: null });
  });
});
