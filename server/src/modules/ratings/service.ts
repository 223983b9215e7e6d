import { messages } from '@csomag/domain/messages';
import type {
  BackOfficeComment,
  CommentModeration,
  RatingCommentList,
  RatingCommentsQuery,
} from '@csomag/domain/rating-comments';
import {
  DELIVERED_LIST_DAYS,
  DELIVERED_LIST_MAX,
  type DeliveredParcel,
  type ParcelRatings,
  RATING_EDIT_WINDOW_HOURS,
  type RaterRole,
  type Rating,
  type RatingSummary,
  RUNNER_RATER_ROLES,
  ratingEditableUntil,
  ratingSummary,
} from '@csomag/domain/ratings';
import { type Kysely, type Selectable, type SqlBool, sql } from 'kysely';
import { cursorNumber, decodeCursor, pageOf } from '../../db/cursor.ts';
import { nowIso } from '../../db/database.ts';
import type { AccountRow, Database, RatingsTable } from '../../db/schema.ts';
import { refuse } from '../../errors.ts';
import { findRunnerByUserName } from '../auth/accounts.ts';
import { mayRating, raterRoleOf } from './policy.ts';

/** Refusal codes of this module: a parcel not yet delivered, and a rating past its edit window. */
export const RATING_CODES = {
  notDelivered: 'rating_not_delivered',
  closed: 'rating_locked',
} as const;

/** Refusals of the comments' moderation (ADR 0025). */
export const COMMENT_CODES = {
  notFound: 'rating_comment_not_found',
  hidden: 'rating_comment_hidden',
  shown: 'rating_comment_shown',
} as const;

/** What a rating looks at of its parcel. */
type RatedParcel = { status: string; sender_id: number; runner_id: number | null; receiver_key: string };

const rateeOf = (role: RaterRole, parcel: RatedParcel) => (role === 'runner' ? parcel.sender_id : parcel.runner_id);

const loadParcel = (db: Kysely<Database>, parcelId: string) =>
  db
    .selectFrom('parcels')
    .select(['id', 'status', 'sender_id', 'runner_id', 'receiver_key'])
    .where('id', '=', parcelId)
    .executeTakeFirst();

type RatingRow = Selectable<RatingsTable> & { ratee_user_name: string | null };

function presentRating(row: RatingRow): Rating {
  return {
    raterRole: row.rater_role,
    ratee: row.ratee_user_name,
    stars: row.stars,
    comment: row.comment,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    editableUntil: ratingEditableUntil(row.created_at),
  };
}

const selectRatings = (db: Kysely<Database>, parcelId: string) =>
  db
    .selectFrom('ratings')
    .leftJoin('accounts as ratee', 'ratee.id', 'ratings.ratee_id')
    .selectAll('ratings')
    .select('ratee.user_name as ratee_user_name')
    .where('ratings.parcel_id', '=', parcelId);

const editCutoff = (now: string) =>
  new Date(new Date(now).getTime() - RATING_EDIT_WINDOW_HOURS * 3_600_000).toISOString();

/**
 * PUT /api/parcels/:id/rating: the first rating of the actor's role on a delivered parcel, or an
 * edit of their own within the window. Insert-or-nothing, then a guarded update: two tabs saving
 * at once end with one row, and a rating past its window is never changed.
 */
export async function rateParcel(
  db: Kysely<Database>,
  actor: AccountRow,
  parcelId: string,
  body: { stars: number; comment: string | null },
  now = nowIso(),
): Promise<Rating> {
  const parcel = await loadParcel(db, parcelId);
  if (!parcel) throw refuse('parcel_not_found', messages.parcelNotFound);
  const role = raterRoleOf(actor, parcel);
  if (!role) throw refuse('forbidden', messages.ratingNotParty);
  if (parcel.status !== 'delivered') throw refuse(RATING_CODES.notDelivered, messages.ratingNotDelivered);
  const rateeId = rateeOf(role, parcel);
  if (rateeId === null) throw refuse(RATING_CODES.notDelivered, messages.ratingNoRatee);
  const inserted = await db
    .insertInto('ratings')
    .values({
      parcel_id: parcel.id,
      rater_id: actor.id,
      rater_role: role,
      ratee_id: rateeId,
      stars: body.stars,
      comment: body.comment,
      created_at: now,
      updated_at: now,
    })
    .onConflict((oc) => oc.columns(['parcel_id', 'rater_role']).doNothing())
    .returning('id')
    .executeTakeFirst();
  if (!inserted) {
    const updated = await db
      .updateTable('ratings')
      .set({ stars: body.stars, comment: body.comment, updated_at: now })
      .where('parcel_id', '=', parcel.id)
      .where('rater_role', '=', role)
      .where('rater_id', '=', actor.id)
      .where('created_at', '>', editCutoff(now))
      .returning('id')
      .executeTakeFirst();
    if (!updated) throw refuse(RATING_CODES.closed, messages.ratingEditClosed(RATING_EDIT_WINDOW_HOURS));
  }
  const row = await selectRatings(db, parcel.id).where('ratings.rater_role', '=', role).executeTakeFirstOrThrow();
  return presentRating(row);
}

/** GET /api/parcels/:id/ratings: the caller's own rating of the parcel (the superadmin: all of them). */
export async function parcelRatings(
  db: Kysely<Database>,
  actor: AccountRow,
  parcelId: string,
  now = nowIso(),
): Promise<ParcelRatings> {
  const parcel = await loadParcel(db, parcelId);
  if (!parcel) throw refuse('parcel_not_found', messages.parcelNotFound);
  const role = raterRoleOf(actor, parcel);
  if (!role && !mayRating(actor, 'readAllOfParcel')) throw refuse('forbidden', messages.ratingNotParty);
  let rows = selectRatings(db, parcel.id);
  if (role) rows = rows.where('ratings.rater_role', '=', role).where('ratings.rater_id', '=', actor.id);
  const ratings = (await rows.orderBy('ratings.id').execute()).map(presentRating);
  const rateeId = role ? rateeOf(role, parcel) : null;
  const ratee =
    rateeId === null
      ? null
      : ((await db.selectFrom('accounts').select('user_name').where('id', '=', rateeId).executeTakeFirst())
          ?.user_name ?? null);
  const mine = role ? ratings[0] : undefined;
  // Someone else at the receiver's address may have rated already: then this one cannot.
  const takenByOther =
    role !== null &&
    !mine &&
    (await db
      .selectFrom('ratings')
      .select('id')
      .where('parcel_id', '=', parcel.id)
      .where('rater_role', '=', role)
      .executeTakeFirst()) !== undefined;
  const canRate =
    role !== null &&
    parcel.status === 'delivered' &&
    ratee !== null &&
    !takenByOther &&
    (!mine || mine.editableUntil > now);
  return { role, ratee, canRate, ratings };
}

/** Who rates whom, for averages: runners are rated by senders and receivers, senders by runners. */
export type RatedAs = 'runner' | 'sender';
const ratedBy = (kind: RatedAs): readonly RaterRole[] => (kind === 'runner' ? RUNNER_RATER_ROLES : ['runner']);

/**
 * The shown averages of many accounts in one grouped query, each pulled towards the mean of all
 * ratings of that kind (read by the same query): a page of runners costs one query, not one per row.
 */
export async function ratingSummaries(
  db: Kysely<Database>,
  accountIds: readonly number[],
  kind: RatedAs = 'runner',
): Promise<Map<number, RatingSummary>> {
  const summaries = new Map<number, RatingSummary>();
  if (accountIds.length === 0) return summaries;
  const roles = ratedBy(kind);
  const rows = await db
    .selectFrom('ratings')
    .select((eb) => [
      'ratings.ratee_id',
      eb.fn.countAll().as('n'),
      eb.fn.sum('ratings.stars').as('total'),
      eb
        .selectFrom('ratings as every')
        .select((inner) => inner.fn.avg('every.stars').as('mean'))
        .where('every.rater_role', 'in', roles)
        .as('mean'),
    ])
    .where('ratings.ratee_id', 'in', [...new Set(accountIds)])
    .where('ratings.rater_role', 'in', roles)
    .groupBy('ratings.ratee_id')
    .execute();
  for (const row of rows) {
    // PostgreSQL answers bigint and numeric aggregates as text.
    const summary = ratingSummary(Number(row.total), Number(row.n), row.mean === null ? null : Number(row.mean));
    if (summary) summaries.set(row.ratee_id, summary);
  }
  return summaries;
}

/** The runners' shown averages by user name (the runner list carries no account ids). */
export async function runnerRatingsByUserName(
  db: Kysely<Database>,
  userNames: readonly string[],
): Promise<Map<string, RatingSummary>> {
  if (userNames.length === 0) return new Map();
  const accounts = await db
    .selectFrom('accounts')
    .select(['id', 'user_name'])
    .where('user_name', 'in', [...new Set(userNames)])
    .execute();
  const byId = await ratingSummaries(
    db,
    accounts.map((a) => a.id),
  );
  return new Map(
    accounts.flatMap((a) => {
      const summary = byId.get(a.id);
      return summary ? [[a.user_name, summary] as const] : [];
    }),
  );
}

/** A list page of runners with each one's shown average (null while unrated). */
export async function withRunnerRatings<T extends { userName: string }>(
  db: Kysely<Database>,
  page: { items: T[]; nextCursor: string | null },
): Promise<{ items: (T & { rating: RatingSummary | null })[]; nextCursor: string | null }> {
  const ratings = await runnerRatingsByUserName(
    db,
    page.items.map((item) => item.userName),
  );
  return { ...page, items: page.items.map((item) => ({ ...item, rating: ratings.get(item.userName) ?? null })) };
}

/** GET /api/me/delivered-parcels: the runner's deliveries of the last days, with their rating of each sender. */
export async function listDeliveredParcels(
  db: Kysely<Database>,
  runner: AccountRow,
  now = nowIso(),
): Promise<DeliveredParcel[]> {
  const since = new Date(new Date(now).getTime() - DELIVERED_LIST_DAYS * 86_400_000).toISOString();
  const rows = await db
    .selectFrom('parcels')
    .innerJoin('accounts as sender', 'sender.id', 'parcels.sender_id')
    .leftJoin('ratings', (join) =>
      join
        .onRef('ratings.parcel_id', '=', 'parcels.id')
        .on('ratings.rater_role', '=', 'runner')
        .on('ratings.rater_id', '=', runner.id),
    )
    .select([
      'parcels.id',
      'parcels.category',
      'parcels.delivered_at',
      'sender.user_name as sender_user_name',
      'ratings.stars',
    ])
    .where('parcels.runner_id', '=', runner.id)
    .where('parcels.status', '=', 'delivered')
    .where('parcels.delivered_at', '>=', since)
    .orderBy('parcels.delivered_at', 'desc')
    .orderBy('parcels.id')
    .limit(DELIVERED_LIST_MAX)
    .execute();
  return rows.map((row) => ({
    id: row.id,
    category: row.category,
    senderUser: row.sender_user_name,
    deliveredAt: row.delivered_at ?? now,
    myStars: row.stars,
  }));
}

// ——— the comments about a runner, read and moderated (ADR 0025) ———

/** The comments of a runner's ratings (by senders and receivers), with who wrote and who hid each. */
const selectComments = (db: Kysely<Database>) =>
  db
    .selectFrom('ratings')
    .leftJoin('accounts as rater', 'rater.id', 'ratings.rater_id')
    .leftJoin('accounts as hider', 'hider.id', 'ratings.hidden_by')
    .select([
      'ratings.id',
      'ratings.parcel_id',
      'ratings.rater_role',
      'ratings.stars',
      'ratings.comment',
      'ratings.created_at',
      'ratings.updated_at',
      'ratings.hidden_at',
      'ratings.hidden_reason',
      'rater.user_name as rater_user_name',
      'hider.user_name as hider_user_name',
    ])
    .where('ratings.rater_role', 'in', RUNNER_RATER_ROLES)
    .where('ratings.comment', 'is not', null);
type CommentRow = Awaited<ReturnType<ReturnType<typeof selectComments>['executeTakeFirstOrThrow']>>;

/** Each comment's recorded hides and showings again, oldest first: one query for a page. */
async function moderationsOf(db: Kysely<Database>, ratingIds: number[]): Promise<Map<number, CommentModeration[]>> {
  const byRating = new Map<number, CommentModeration[]>();
  if (ratingIds.length === 0) return byRating;
  const rows = await db
    .selectFrom('rating_moderations as m')
    .leftJoin('accounts as moderator', 'moderator.id', 'm.by_id')
    .select(['m.rating_id', 'm.action', 'm.reason', 'm.at', 'moderator.user_name as by_user_name'])
    .where('m.rating_id', 'in', ratingIds)
    .orderBy('m.id')
    .execute();
  for (const row of rows) {
    const list = byRating.get(row.rating_id) ?? [];
    list.push({ action: row.action, by: row.by_user_name, at: row.at, reason: row.reason });
    byRating.set(row.rating_id, list);
  }
  return byRating;
}

const presentBackOfficeComment = (row: CommentRow, moderation: CommentModeration[]): BackOfficeComment => ({
  id: row.id,
  parcelId: row.parcel_id,
  rater: row.rater_user_name,
  // The query reads senders' and receivers' ratings only.
  raterRole: row.rater_role === 'receiver' ? 'receiver' : 'sender',
  stars: row.stars,
  comment: row.comment ?? '',
  createdAt: row.created_at,
  updatedAt: row.updated_at,
  hidden: row.hidden_at ? { at: row.hidden_at, by: row.hider_user_name, reason: row.hidden_reason ?? '' } : null,
  moderation,
});

/**
 * GET /api/runners/:userName/rating-comments, newest first: the back office reads every comment
 * with its parcel, rater and moderation; the rated runner the visible ones, without who wrote them
 * or on which parcel. Only the back office learns whether a runner of that name exists.
 */
export async function listRatingComments(
  db: Kysely<Database>,
  actor: AccountRow,
  userName: string,
  query: RatingCommentsQuery,
): Promise<RatingCommentList> {
  const runner = await findRunnerByUserName(db, userName);
  if (!runner) {
    throw mayRating(actor, 'readCommentDetails')
      ? refuse('runner_not_found', messages.runnerNotFound)
      : refuse('forbidden', messages.forbidden);
  }
  if (!mayRating(actor, 'readComments', runner)) throw refuse('forbidden', messages.forbidden);
  const details = mayRating(actor, 'readCommentDetails', runner);
  let page = selectComments(db).where('ratings.ratee_id', '=', runner.id);
  if (!details) page = page.where('ratings.hidden_at', 'is', null);
  if (query.cursor) {
    const [createdAt = '', id = ''] = decodeCursor(query.cursor, 2);
    page = page.where(
      sql<SqlBool>`(ratings.created_at, ratings.id) < (${createdAt}, ${cursorNumber(id, { integer: true })})`,
    );
  }
  const rows = await page
    .orderBy('ratings.created_at', 'desc')
    .orderBy('ratings.id', 'desc')
    .limit(query.limit + 1)
    .execute();
  const keyOf = (row: CommentRow) => [row.created_at, String(row.id)];
  if (!details) {
    const ratee = pageOf(
      rows,
      query.limit,
      (row) => ({ id: row.id, stars: row.stars, comment: row.comment ?? '', createdAt: row.created_at }),
      keyOf,
    );
    return { view: 'ratee', ...ratee };
  }
  const moderations = await moderationsOf(
    db,
    rows.slice(0, query.limit).map((row) => row.id),
  );
  const backOffice = pageOf(
    rows,
    query.limit,
    (row) => presentBackOfficeComment(row, moderations.get(row.id) ?? []),
    keyOf,
  );
  return { view: 'backOffice', ...backOffice };
}

export type CommentModerationChange = { action: 'hide'; reason: string } | { action: 'show' };

/**
 * POST /api/ratings/:id/comment/hide·show: the back office hides a comment about a runner with a
 * reason, or shows it again. The conditional write and its record commit together; a hide of a
 * hidden comment (or showing a shown one) changes nothing and is a 409. Only the text is
 * moderated: the stars keep counting in the runner's average.
 */
export async function moderateComment(
  db: Kysely<Database>,
  admin: AccountRow,
  ratingId: number,
  change: CommentModerationChange,
): Promise<BackOfficeComment> {
  const now = nowIso();
  const changed = await db.transaction().execute(async (trx) => {
    const comment = trx
      .updateTable('ratings')
      .where('id', '=', ratingId)
      .where('rater_role', 'in', RUNNER_RATER_ROLES)
      .where('comment', 'is not', null);
    const updated =
      change.action === 'hide'
        ? await comment
            .set({ hidden_at: now, hidden_by: admin.id, hidden_reason: change.reason })
            .where('hidden_at', 'is', null)
            .returning('id')
            .executeTakeFirst()
        : await comment
            .set({ hidden_at: null, hidden_by: null, hidden_reason: null })
            .where('hidden_at', 'is not', null)
            .returning('id')
            .executeTakeFirst();
    if (!updated) return false;
    await trx
      .insertInto('rating_moderations')
      .values({
        rating_id: ratingId,
        action: change.action,
        reason: change.action === 'hide' ? change.reason : null,
        by_id: admin.id,
        at: now,
      })
      .execute();
    return true;
  });
  const row = await selectComments(db).where('ratings.id', '=', ratingId).executeTakeFirst();
  if (!row) throw refuse(COMMENT_CODES.notFound, messages.ratingCommentNotFound);
  if (!changed) {
    throw change.action === 'hide'
      ? refuse(COMMENT_CODES.hidden, messages.ratingCommentAlreadyHidden)
      : refuse(COMMENT_CODES.shown, messages.ratingCommentNotHidden);
  }
  return presentBackOfficeComment(row, (await moderationsOf(db, [row.id])).get(row.id) ?? []);
}
