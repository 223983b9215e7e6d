import { EARTH_RADIUS_M } from '@csomag/domain/geo';
import { messages } from '@csomag/domain/messages';
import type {
  RunnerCreateBody,
  RunnerList,
  RunnerListItem,
  RunnerListQuery,
  RunnerUpdate,
} from '@csomag/domain/runner';
import { type Kysely, type RawBuilder, type SqlBool, sql } from 'kysely';
import type { ChangeFeed } from '../../db/change-feed.ts';
import { cursorNumber, decodeCursor, pageOf } from '../../db/cursor.ts';
import type { Store } from '../../db/database.ts';
import { isForeignKeyViolation } from '../../db/errors.ts';
import type { AccountRow, Database } from '../../db/schema.ts';
import { refuse, refuseField } from '../../errors.ts';
import { createAccount, findRunnerByUserName } from '../auth/accounts.ts';
import { sendVerificationLink } from '../auth/email-verification.ts';
import { presentAccount } from '../auth/present.ts';
import { detachDeletedRunner } from '../parcels/changes.ts';
import { withRunnerRatings } from '../ratings/service.ts';
import { accountsByName, CURSOR_PART_MAX, matchesSearch } from '../users/directory.ts';
import { mayAccount } from '../users/policy.ts';
import { STRANGER, updateProfile } from '../users/service.ts';

/** Sort key of runners without a position: after every real distance. */
const NO_POSITION = 1e15;

/** Great-circle distance in metres from a point to the runner's last position (null when none). */
const distanceFrom = (lat: number, lng: number): RawBuilder<number | null> =>
  sql<number | null>`${EARTH_RADIUS_M * 2} * asin(sqrt(
    power(sin(radians(accounts.last_lat - ${lat}) / 2), 2)
    + cos(radians(${lat})) * cos(radians(accounts.last_lat)) * power(sin(radians(accounts.last_lng - ${lng}) / 2), 2)
  ))`;

const selectRunners = (db: Kysely<Database>) =>
  db.selectFrom('accounts').selectAll('accounts').where('accounts.role', '=', 'runner');

/**
 * Runners nearest to a parcel's pickup point first (for assigning it); runners who never shared
 * a position come last, by name. The distance is computed by the database, so paging stays exact.
 */
async function runnersNear(
  { db, dialect }: Pick<Store, 'db' | 'dialect'>,
  parcelId: string,
  query: RunnerListQuery,
): Promise<{ items: Omit<RunnerListItem, 'rating' | 'parcelsInTransit'>[]; nextCursor: string | null }> {
  const parcel = await db
    .selectFrom('parcels')
    .select(['sender_lat', 'sender_lng'])
    .where('id', '=', parcelId)
    .executeTakeFirst();
  if (!parcel) throw refuseField('near_parcel_not_found', 'near', messages.parcelNotFound);
  const distance = distanceFrom(parcel.sender_lat, parcel.sender_lng);
  const sortKey = sql<number>`coalesce(${distance}, ${sql.lit(NO_POSITION)})`;
  let page = selectRunners(db).select([distance.as('distance'), sortKey.as('sort_key')]);
  if (query.q) page = page.where(matchesSearch(dialect, query.q));
  if (query.cursor) {
    const [key = '', name = '', id = ''] = decodeCursor(query.cursor, 3, CURSOR_PART_MAX);
    page = page.where(
      sql<SqlBool>`(${sortKey}, accounts.name, accounts.id) > (${cursorNumber(key)}, ${name}, ${cursorNumber(id, { integer: true })})`,
    );
  }
  const rows = await page
    .orderBy(sortKey)
    .orderBy('accounts.name')
    .orderBy('accounts.id')
    .limit(query.limit + 1)
    .execute();
  return pageOf(
    rows,
    query.limit,
    (row) => ({
      ...presentAccount(row),
      distanceMetres: row.distance === null ? null : Math.round(Number(row.distance)),
    }),
    (last) => [String(Number(last.sort_key)), last.name, String(last.id)],
  );
}

/** How many parcels each runner of a page carries now: one grouped query for the page (issue 27). */
async function withParcelsInTransit<T extends { userName: string }>(
  db: Kysely<Database>,
  page: { items: T[]; nextCursor: string | null },
): Promise<{ items: (T & { parcelsInTransit: number })[]; nextCursor: string | null }> {
  const userNames = page.items.map((item) => item.userName);
  const rows =
    userNames.length === 0
      ? []
      : await db
          .selectFrom('parcels')
          .innerJoin('accounts', 'accounts.id', 'parcels.runner_id')
          .select(['accounts.user_name', (eb) => eb.fn.countAll<number | string>().as('carried')])
          .where('accounts.user_name', 'in', userNames)
          .where('parcels.status', '=', 'in_transit')
          .groupBy('accounts.user_name')
          .execute();
  const carried = new Map(rows.map((row) => [row.user_name, Number(row.carried)]));
  return { ...page, items: page.items.map((item) => ({ ...item, parcelsInTransit: carried.get(item.userName) ?? 0 })) };
}

/** A page of runners, each with their shown rating (issue 15) and the parcels they carry now (issue 27). */
export async function listRunners(store: Pick<Store, 'db' | 'dialect'>, query: RunnerListQuery): Promise<RunnerList> {
  const page = query.near ? await runnersNear(store, query.near, query) : await accountsByName(store, 'runner', query);
  return withRunnerRatings(store.db, await withParcelsInTransit(store.db, page));
}

/** The back office registers a runner; the address it typed is verified by the link mailed to it (issue 29). */
export const createRunner = (
  db: Kysely<Database>,
  body: RunnerCreateBody,
  runnerApproval: 'auto' | 'manual',
  mailOrigin: string,
) =>
  createAccount(db, body, 'runner', runnerApproval, undefined, {
    withAccount: (trx, runner) => sendVerificationLink(trx, mailOrigin, runner, runner.email, 'account'),
  });

/**
 * The runner behind a URL, for that runner or the superadmin (others: 403 without learning whether
 * it exists). Users and admins are not runners: these routes neither show nor change them.
 */
export async function findManagedRunner(
  db: Kysely<Database>,
  actor: AccountRow,
  userName: string,
  action: 'viewRunner' | 'editRunner',
) {
  const runner = await findRunnerByUserName(db, userName);
  if (!mayAccount(actor, action, runner ?? STRANGER)) throw refuse('forbidden', messages.forbidden);
  if (!runner) throw refuse('runner_not_found', messages.runnerNotFound);
  return runner;
}

/** The profile edit for runners: the user name and email stay, the role never changes (DESIGN §9). */
export async function updateRunner(
  db: Kysely<Database>,
  actor: AccountRow,
  target: AccountRow,
  { userName, ...patch }: RunnerUpdate,
  keepSessionHash: string | null,
): Promise<AccountRow> {
  if (userName !== undefined && userName.toLowerCase() !== target.user_name.toLowerCase()) {
    throw refuseField('user_name_read_only', 'userName', messages.userNameReadOnly);
  }
  return updateProfile(db, actor, target, patch, keepSessionHash);
}

/** Shown in the refusal: the first few parcels the runner still carries. */
const CARRIED_SHOWN = 10;

async function refuseWhileCarrying(db: Kysely<Database>, runnerId: number) {
  const carried = await db
    .selectFrom('parcels')
    .select('id')
    .where('runner_id', '=', runnerId)
    .where('status', '=', 'in_transit')
    .orderBy('created_at')
    .limit(CARRIED_SHOWN + 1)
    .execute();
  if (carried.length === 0) return;
  const ids = carried.slice(0, CARRIED_SHOWN).map((p) => p.id);
  const list = carried.length > CARRIED_SHOWN ? `${ids.join(', ')}, …` : ids.join(', ');
  throw refuse('runner_carries_parcels', messages.runnerCarriesParcels(list));
}

/**
 * Deletes a runner who carries nothing: their sessions go with them. The parcels they delivered
 * stay, with the runner cleared and an `edited` timeline entry naming who carried them, so the
 * history survives the account (parcel_events has no foreign key).
 */
export async function deleteRunner(
  changes: Pick<ChangeFeed, 'transaction'>,
  db: Kysely<Database>,
  admin: AccountRow,
  userName: string,
): Promise<void> {
  const runner = await findRunnerByUserName(db, userName);
  if (!runner) throw refuse('runner_not_found', messages.runnerNotFound);
  try {
    await changes.transaction(async (trx, publish) => {
      await refuseWhileCarrying(trx, runner.id);
      await detachDeletedRunner(trx, publish, runner, admin);
      await trx.deleteFrom('sessions').where('account_id', '=', runner.id).execute();
      await trx.deleteFrom('accounts').where('id', '=', runner.id).execute();
    });
  } catch (error) {
    // PostgreSQL: a pickup committed between our check and the delete; the foreign key caught it.
    if (isForeignKeyViolation(error)) await refuseWhileCarrying(db, runner.id);
    throw error;
  }
}
