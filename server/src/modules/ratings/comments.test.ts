import { PassThrough } from 'node:stream';
import { messages } from '@csomag/domain/messages';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type SignedIn, signInSuperadmin, signUp, type TestApp } from '../../test/harness.ts';
import { callOn, deliveredParcel, type Method } from '../../test/ratings.ts';

async function rate(app: FastifyInstance, parcelId: string, who: SignedIn, stars: number, comment?: string) {
  const response = await callOn(app, 'PUT', `/api/parcels/${parcelId}/rating`, who, { stars, comment });
  if (response.statusCode !== 200) throw new Error(`rating failed: ${response.body}`);
}

const ratingRow = (app: FastifyInstance, parcelId: string, role: 'sender' | 'receiver' | 'runner') =>
  app.store.db
    .selectFrom('ratings')
    .selectAll()
    .where('parcel_id', '=', parcelId)
    .where('rater_role', '=', role)
    .executeTakeFirstOrThrow();

const moderationsOf = (app: FastifyInstance, ratingId: number) =>
  app.store.db
    .selectFrom('rating_moderations')
    .select(['action', 'reason', 'by_id'])
    .where('rating_id', '=', ratingId)
    .orderBy('id')
    .execute();

const commentsUrl = (runner: SignedIn, query = '') => `/api/runners/${runner.account.userName}/rating-comments${query}`;

describe('the comments about a runner', () => {
  let t: TestApp;
  let admin: SignedIn;
  let sender: SignedIn;
  let runner: SignedIn;
  let otherRunner: SignedIn;
  let logged = '';
  const abusive = `<img src=x onerror="window.__xss=1">Lassú volt ${Date.now().toString(36)}`;
  const hideReason = 'Sértő megjegyzés, titkos-ok-42';
  let first: Awaited<ReturnType<typeof deliveredParcel>>;
  let second: Awaited<ReturnType<typeof deliveredParcel>>;

  beforeAll(async () => {
    const stream = new PassThrough();
    stream.on('data', (chunk) => {
      logged += chunk.toString();
    });
    t = await createTestApp({ LOG_LEVEL: 'info' }, { logStream: stream });
    admin = await signInSuperadmin(t.app);
    sender = await signUp(t.app);
    runner = await signUp(t.app, { role: 'runner' });
    otherRunner = await signUp(t.app, { role: 'runner' });
    // The runner's first parcel: the sender writes an abusive comment, the receiver stars only,
    // and the runner's own comment is about the sender (not a comment about the runner).
    first = await deliveredParcel(t.app, admin, sender, runner);
    await rate(t.app, first.parcel.id, sender, 1, abusive);
    await rate(t.app, first.parcel.id, first.receiver, 4);
    await rate(t.app, first.parcel.id, runner, 5, 'Kedves feladó');
    // The second parcel, rated a moment later: the receiver's comment is the newest.
    second = await deliveredParcel(t.app, admin, sender, runner);
    await rate(t.app, second.parcel.id, second.receiver, 5, 'Pontos és udvarias');
    // Another runner's comment never shows on this runner's page.
    const others = await deliveredParcel(t.app, admin, sender, otherRunner);
    await rate(t.app, others.parcel.id, sender, 3, 'Másik futár');
  });
  afterAll(() => t.close());
  const call = (method: Method, url: string, who?: SignedIn, payload?: unknown) =>
    callOn(t.app, method, url, who, payload);

  it('shows the back office every comment of the runner, newest first, with parcel, rater, stars, time and state', async () => {
    const response = await call('GET', commentsUrl(runner), admin);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.view).toBe('backOffice');
    expect(body.nextCursor).toBeNull();
    expect(body.items).toEqual([
      {
        id: expect.any(Number),
        parcelId: second.parcel.id,
        rater: second.receiver.account.userName,
        raterRole: 'receiver',
        stars: 5,
        comment: 'Pontos és udvarias',
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
        hidden: null,
        moderation: [],
      },
      {
        id: expect.any(Number),
        parcelId: first.parcel.id,
        rater: sender.account.userName,
        raterRole: 'sender',
        stars: 1,
        // As typed: the server stores and answers text, the web renders it as text.
        comment: abusive,
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
        hidden: null,
        moderation: [],
      },
    ]);
  });

  it('shows the rated runner the comments about them without the rater or the parcel', async () => {
    const response = await call('GET', commentsUrl(runner), runner);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.view).toBe('ratee');
    expect(body.items).toEqual([
      { id: expect.any(Number), stars: 5, comment: 'Pontos és udvarias', createdAt: expect.any(String) },
      { id: expect.any(Number), stars: 1, comment: abusive, createdAt: expect.any(String) },
    ]);
    for (const name of [sender.account.userName, second.receiver.account.userName, first.parcel.id]) {
      expect(response.body).not.toContain(name);
    }
  });

  it('pages newest first with a cursor, and refuses a cursor it did not hand out', async () => {
    const page1 = await call('GET', commentsUrl(runner, '?limit=1'), admin);
    expect(page1.json().items.map((c: { comment: string }) => c.comment)).toEqual(['Pontos és udvarias']);
    const cursor = page1.json().nextCursor;
    expect(cursor).toEqual(expect.any(String));
    const page2 = await call('GET', commentsUrl(runner, `?limit=1&cursor=${cursor}`), admin);
    expect(page2.json()).toMatchObject({ items: [{ comment: abusive }], nextCursor: null });
    const ownPage = await call('GET', commentsUrl(runner, `?limit=1&cursor=${cursor}`), runner);
    expect(ownPage.json()).toMatchObject({ view: 'ratee', items: [{ comment: abusive }], nextCursor: null });

    const forged = await call('GET', commentsUrl(runner, '?cursor=bm90LW91cnM'), admin);
    expect(forged.statusCode).toBe(400);
    expect(forged.json().error).toMatchObject({ code: 'invalid_cursor', message: messages.invalidCursor });
    const badLimit = await call('GET', commentsUrl(runner, '?limit=0'), runner);
    expect(badLimit.statusCode).toBe(400);
    expect(badLimit.json().error.code).toBe('invalid_body');
  });

  it('refuses anyone else: signed out 401, a user or another runner 403; an unknown runner is 404 only to the back office', async () => {
    const anonymous = await call('GET', commentsUrl(runner));
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json().error).toEqual({ code: 'sign_in_required', message: messages.signInRequired });
    for (const who of [sender, first.receiver, otherRunner]) {
      const response = await call('GET', commentsUrl(runner), who);
      expect(response.statusCode).toBe(403);
      expect(response.json().error).toEqual({ code: 'forbidden', message: messages.forbidden });
    }
    const unknown = '/api/runners/nincs_ilyen_futar/rating-comments';
    expect((await call('GET', unknown, admin)).json().error).toEqual({
      code: 'runner_not_found',
      message: messages.runnerNotFound,
    });
    expect((await call('GET', unknown, otherRunner)).statusCode).toBe(403);
    // A user's name names no runner.
    expect((await call('GET', `/api/runners/${sender.account.userName}/rating-comments`, admin)).statusCode).toBe(404);
  });

  describe('hiding and showing again', () => {
    it('refuses a hide without a reason, or with one too long, in Hungarian, and changes nothing', async () => {
      const rating = await ratingRow(t.app, second.parcel.id, 'receiver');
      const url = `/api/ratings/${rating.id}/comment/hide`;
      for (const [payload, message] of [
        [{}, messages.ratingHideReasonRequired],
        [{ reason: '   ' }, messages.ratingHideReasonRequired],
        [{ reason: 42 }, messages.ratingHideReasonRequired],
        [{ reason: 'x'.repeat(501) }, messages.ratingHideReasonTooLong(500)],
      ] as const) {
        const response = await call('POST', url, admin, payload);
        expect(response.statusCode, JSON.stringify(payload)).toBe(400);
        expect(response.json().error).toMatchObject({ code: 'invalid_body', fields: { reason: message } });
      }
      const notAnId = await call('POST', '/api/ratings/abc/comment/hide', admin, { reason: 'ok' });
      expect(notAnId.statusCode).toBe(400);
      expect(notAnId.json().error.fields).toEqual({ id: messages.ratingCommentNotFound });
      expect(await ratingRow(t.app, second.parcel.id, 'receiver')).toEqual(rating);
      expect(await moderationsOf(t.app, rating.id)).toEqual([]);
    });

    it('lets only the back office hide or show: signed out 401, the runner, another runner or a user 403', async () => {
      const rating = await ratingRow(t.app, second.parcel.id, 'receiver');
      for (const action of ['hide', 'show']) {
        const url = `/api/ratings/${rating.id}/comment/${action}`;
        expect((await call('POST', url, undefined, { reason: 'x' })).statusCode).toBe(401);
        for (const who of [runner, otherRunner, sender, second.receiver]) {
          const response = await call('POST', url, who, { reason: 'x' });
          expect(response.statusCode).toBe(403);
          expect(response.json().error.code).toBe('forbidden');
        }
      }
      expect(await ratingRow(t.app, second.parcel.id, 'receiver')).toEqual(rating);
      expect(await moderationsOf(t.app, rating.id)).toEqual([]);
    });

    it('answers 404 for no such comment: an unknown id, a rating without a comment, a rating of a sender', async () => {
      const starsOnly = await ratingRow(t.app, first.parcel.id, 'receiver');
      const ofSender = await ratingRow(t.app, first.parcel.id, 'runner');
      for (const id of [999_999, starsOnly.id, ofSender.id]) {
        const response = await call('POST', `/api/ratings/${id}/comment/hide`, admin, { reason: 'Sértő' });
        expect(response.statusCode).toBe(404);
        expect(response.json().error).toEqual({
          code: 'rating_comment_not_found',
          message: messages.ratingCommentNotFound,
        });
      }
      expect(await ratingRow(t.app, first.parcel.id, 'runner')).toMatchObject({ hidden_at: null });
    });

    it('hides with a reason (recorded), the runner no longer sees it, and a second hide is a 409', async () => {
      const rating = await ratingRow(t.app, first.parcel.id, 'sender');
      const averageBefore = await runnerAverage();
      const hidden = await call('POST', `/api/ratings/${rating.id}/comment/hide`, admin, {
        reason: `  ${hideReason} `,
      });
      expect(hidden.statusCode).toBe(200);
      expect(hidden.json().comment).toMatchObject({
        id: rating.id,
        comment: abusive,
        hidden: { at: expect.any(String), by: admin.account.userName, reason: hideReason },
        moderation: [{ action: 'hide', by: admin.account.userName, reason: hideReason }],
      });
      const stored = await ratingRow(t.app, first.parcel.id, 'sender');
      expect(stored).toMatchObject({
        hidden_at: expect.any(String),
        hidden_by: expect.any(Number),
        hidden_reason: hideReason,
        // Only the text is moderated.
        stars: 1,
        comment: abusive,
      });
      expect(await moderationsOf(t.app, rating.id)).toEqual([
        { action: 'hide', reason: hideReason, by_id: stored.hidden_by },
      ]);

      const own = await call('GET', commentsUrl(runner), runner);
      expect(own.json().items.map((c: { comment: string }) => c.comment)).toEqual(['Pontos és udvarias']);
      const backOffice = await call('GET', commentsUrl(runner), admin);
      expect(backOffice.json().items[1]).toMatchObject({
        comment: abusive,
        hidden: { by: admin.account.userName, reason: hideReason },
      });
      // The stars still count in the runner's average.
      expect(await runnerAverage()).toEqual(averageBefore);

      const again = await call('POST', `/api/ratings/${rating.id}/comment/hide`, admin, { reason: 'Még egyszer' });
      expect(again.statusCode).toBe(409);
      expect(again.json().error).toEqual({
        code: 'rating_comment_hidden',
        message: messages.ratingCommentAlreadyHidden,
      });
      expect(await ratingRow(t.app, first.parcel.id, 'sender')).toEqual(stored);
      expect(await moderationsOf(t.app, rating.id)).toHaveLength(1);

      // The rater editing within their window does not bring a hidden comment back.
      await rate(t.app, first.parcel.id, sender, 2, 'Átírt szöveg');
      expect(await ratingRow(t.app, first.parcel.id, 'sender')).toMatchObject({ hidden_reason: hideReason });
      expect((await call('GET', commentsUrl(runner), runner)).body).not.toContain('Átírt szöveg');
      await rate(t.app, first.parcel.id, sender, 1, abusive);
    });

    it('shows a hidden comment again (recorded); showing a shown one is a 409', async () => {
      const rating = await ratingRow(t.app, first.parcel.id, 'sender');
      const shown = await call('POST', `/api/ratings/${rating.id}/comment/show`, admin);
      expect(shown.statusCode).toBe(200);
      expect(shown.json().comment).toMatchObject({
        hidden: null,
        moderation: [
          { action: 'hide', reason: hideReason },
          { action: 'show', by: admin.account.userName, reason: null },
        ],
      });
      expect(await ratingRow(t.app, first.parcel.id, 'sender')).toMatchObject({
        hidden_at: null,
        hidden_by: null,
        hidden_reason: null,
      });
      const own = await call('GET', commentsUrl(runner), runner);
      expect(own.json().items.map((c: { comment: string }) => c.comment)).toEqual(['Pontos és udvarias', abusive]);

      const again = await call('POST', `/api/ratings/${rating.id}/comment/show`, admin);
      expect(again.statusCode).toBe(409);
      expect(again.json().error).toEqual({ code: 'rating_comment_shown', message: messages.ratingCommentNotHidden });
      expect(await moderationsOf(t.app, rating.id)).toHaveLength(2);
    });

    it('never writes a comment or a reason into the log', () => {
      expect(logged).toContain('rating comment hidden');
      expect(logged).toContain('rating comment shown again');
      for (const text of [
        abusive,
        abusive.slice(abusive.indexOf('Lassú')),
        'Pontos és udvarias',
        hideReason,
        'Átírt szöveg',
      ]) {
        expect(logged).not.toContain(text);
      }
    });
  });

  async function runnerAverage() {
    const listed = await call('GET', `/api/runners?q=${runner.account.userName}`, admin);
    return listed.json().items.find((r: { userName: string }) => r.userName === runner.account.userName)?.rating;
  }
});

describe('a moderated comment', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('goes with its runner: deleting them is not refused, and the record goes too', async () => {
    const admin = await signInSuperadmin(t.app);
    const sender = await signUp(t.app);
    const runner = await signUp(t.app, { role: 'runner' });
    const { parcel } = await deliveredParcel(t.app, admin, sender, runner);
    await rate(t.app, parcel.id, sender, 2, 'Goromba volt');
    const rating = await ratingRow(t.app, parcel.id, 'sender');
    const hide = await callOn(t.app, 'POST', `/api/ratings/${rating.id}/comment/hide`, admin, { reason: 'Sértő' });
    expect(hide.statusCode).toBe(200);
    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `/api/runners/${runner.account.userName}`,
      headers: { cookie: admin.cookie },
    });
    expect(deleted.statusCode).toBe(204);
    expect(await moderationsOf(t.app, rating.id)).toEqual([]);
  });
});
