import { messages } from '@csomag/domain/messages';
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
import type { Kysely, Selectable } from 'kysely';
import { nowIso } from '../../db/database.ts';
import type { AccountRow, Database, RatingsTable } from '../../db/schema.ts';
import { refuse } from '../../errors.ts';

/** Refusal codes of this module: a parcel not yet delivered, and a rating past its edit window. */
export const RATING_CODES = {
  notDelivered: 'rating_not_delivered',
  closed: 'rating_locked',
} as const;

type ParcelFacts = { status: string; sender_id: number; runner_id: number | null; receiver_key: string };

/** The actor's part in a parcel, if any. One person, one role: sender before runner before receiver. */
export function raterRoleOf(
  actor: Pick<AccountRow, 'id' | 'role' | 'address_key'>,
  parcel: ParcelFacts,
): RaterRole | null {
  if (actor.role === 'superadmin') return null;
  if (parcel.sender_id === actor.id) return 'sender';
  if (parcel.runner_id === actor.id) return 'runner';
  if (actor.role === 'user' && actor.address_key !== '' && actor.address_key === parcel.receiver_key) return 'receiver';
  return null;
}

const rateeOf = (role: RaterRole, parcel: ParcelFacts) => (role === 'runner' ? parcel.sender_id : parcel.runner_id);

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
  if (!role && actor.role !== 'superadmin') throw refuse('forbidden', messages.ratingNotParty);
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
