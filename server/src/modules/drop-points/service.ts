import {
  type DropPoint,
  type DropPointBody,
  type DropPointParcels,
  type DropPointReturnList,
  isOpenAt,
  parseOpeningHours,
} from '@csomag/domain/drop-points';
import { messages } from '@csomag/domain/messages';
import { type Kysely, sql } from 'kysely';
import type { ChangeFeed } from '../../db/change-feed.ts';
import { nowIso } from '../../db/database.ts';
import type { WindowCounter } from '../../db/rate-limits.ts';
import type { AccountRow, Database } from '../../db/schema.ts';
import { refuse, refuseField } from '../../errors.ts';
import { assertPin, pinFor } from '../handover/pin.ts';
import {
  chooseDropPoint,
  collectParcel,
  finishedRefusal,
  returnFromDropPoint,
  takeFromDropPoint,
} from '../parcels/changes.ts';
import { assertMayParcel, assertPartyMay, mayParcel, PARCEL_FACT_COLUMNS, type Party } from '../parcels/policy.ts';
import { type DropPointAction, type DropPointFacts, mayDropPoint } from './policy.ts';

/**
 * Drop points ('Átvételi pont', issue 28, docs/decisions/0030): the back office's list of partner
 * places and their staff; a parcel sent to one instead of the door; the runner leaves it there with
 * the staff's code (handover/pin.ts); its receiver (or, on its way back, its sender) collects it
 * with their code while the place is open.
 */

export interface DropPointsContext {
  db: Kysely<Database>;
  changes: Pick<ChangeFeed, 'transaction'>;
  pinKey: Buffer;
  limits: WindowCounter;
}

type DropPointRow = Awaited<ReturnType<ReturnType<typeof selectDropPoints>['executeTakeFirstOrThrow']>>;
const selectDropPoints = (db: Kysely<Database>) => db.selectFrom('drop_points').selectAll();

export function presentDropPoint(row: DropPointRow, now = new Date()): DropPoint {
  const week = parseOpeningHours(row.opening_hours);
  return {
    id: row.id,
    name: row.name,
    kind: row.kind,
    address: row.address,
    location: { lat: row.lat, lng: row.lng },
    openingHours: row.opening_hours,
    openNow: week !== null && isOpenAt(week, now),
    active: row.active === 1,
  };
}

async function findDropPoint(db: Kysely<Database>, id: number) {
  const row = await selectDropPoints(db).where('id', '=', id).executeTakeFirst();
  if (!row) throw refuse('drop_point_not_found', messages.dropPointNotFound);
  return row;
}

/** The accounts staffing each point, by point. */
async function staffOf(db: Kysely<Database>, ids: number[]) {
  const rows =
    ids.length === 0
      ? []
      : await db
          .selectFrom('drop_point_staff')
          .innerJoin('accounts', 'accounts.id', 'drop_point_staff.account_id')
          .select(['drop_point_staff.drop_point_id', 'accounts.id', 'accounts.user_name'])
          .where('drop_point_staff.drop_point_id', 'in', ids)
          .orderBy('accounts.user_name')
          .execute();
  const byPoint = new Map<number, { ids: number[]; names: string[] }>();
  for (const row of rows) {
    const staff = byPoint.get(row.drop_point_id) ?? { ids: [], names: [] };
    staff.ids.push(row.id);
    staff.names.push(row.user_name);
    byPoint.set(row.drop_point_id, staff);
  }
  return (id: number) => byPoint.get(id) ?? { ids: [], names: [] };
}

const factsOf = async (db: Kysely<Database>, id: number): Promise<DropPointFacts> => ({
  staffIds: (await staffOf(db, [id]))(id).ids,
});

/** The active drop points, by name: for anyone signed in (choosing one, the maps). */
export async function listDropPoints(db: Kysely<Database>) {
  const rows = await selectDropPoints(db).where('active', '=', 1).orderBy('name').orderBy('id').execute();
  const now = new Date();
  return { items: rows.map((row) => presentDropPoint(row, now)) };
}

/** Every drop point with its staff: the back office's list. */
export async function listAllDropPoints(db: Kysely<Database>) {
  const rows = await selectDropPoints(db).orderBy('name').orderBy('id').execute();
  const staff = await staffOf(
    db,
    rows.map((row) => row.id),
  );
  const now = new Date();
  return { items: rows.map((row) => ({ ...presentDropPoint(row, now), staff: staff(row.id).names })) };
}

/** The staff's accounts from their user names; an unknown one is refused by name. */
async function staffAccounts(db: Kysely<Database>, userNames: string[]) {
  const accounts = userNames.length
    ? await db
        .selectFrom('accounts')
        .select(['id', 'user_name', 'role', 'address_key', 'approved_at', 'suspended_at'])
        .where(
          sql<string>`lower(user_name)`,
          'in',
          userNames.map((name) => name.toLowerCase()),
        )
        .execute()
    : [];
  const named = accounts.filter((account) => mayDropPoint(account, 'beStaff'));
  for (const name of userNames) {
    if (!named.some((account) => account.user_name.toLowerCase() === name.toLowerCase())) {
      throw refuseField('account_not_found', 'staff', messages.dropPointStaffUnknown(name));
    }
  }
  return named.map((account) => account.id);
}

/** Creates (no id) or replaces a drop point with its staff, in one transaction. */
export async function saveDropPoint(db: Kysely<Database>, body: DropPointBody, id?: number) {
  const staffIds = await staffAccounts(db, body.staff);
  const values = {
    name: body.name,
    kind: body.kind,
    address: body.address,
    lat: body.location.lat,
    lng: body.location.lng,
    opening_hours: body.openingHours,
    active: body.active ? 1 : 0,
  };
  const saved = await db.transaction().execute(async (trx) => {
    let pointId = id;
    if (pointId === undefined) {
      pointId = (
        await trx
          .insertInto('drop_points')
          .values({ ...values, created_at: nowIso() })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
    } else {
      const result = await trx.updateTable('drop_points').set(values).where('id', '=', pointId).executeTakeFirst();
      if (Number(result.numUpdatedRows) === 0) throw refuse('drop_point_not_found', messages.dropPointNotFound);
      await trx.deleteFrom('drop_point_staff').where('drop_point_id', '=', pointId).execute();
    }
    if (staffIds.length > 0) {
      await trx
        .insertInto('drop_point_staff')
        .values(staffIds.map((account_id) => ({ drop_point_id: pointId, account_id })))
        .execute();
    }
    return pointId;
  });
  const row = await findDropPoint(db, saved);
  return { ...presentDropPoint(row), staff: (await staffOf(db, [saved]))(saved).names };
}

/** The points an account staffs: their work list's entry. */
export async function myDropPoints(db: Kysely<Database>, account: AccountRow) {
  const rows = await db
    .selectFrom('drop_points')
    .innerJoin('drop_point_staff', 'drop_point_staff.drop_point_id', 'drop_points.id')
    .selectAll('drop_points')
    .where('drop_point_staff.account_id', '=', account.id)
    .orderBy('drop_points.name')
    .execute();
  const now = new Date();
  return { items: rows.map((row) => presentDropPoint(row, now)) };
}

/**
 * A drop point's parcels for its staff: those on their way there (with the code the staff read
 * out to the runner who brings one) and those waiting there.
 */
export async function dropPointParcels(
  ctx: DropPointsContext,
  actor: AccountRow,
  id: number,
): Promise<DropPointParcels> {
  const point = await findDropPoint(ctx.db, id);
  if (!mayDropPoint(actor, 'work', await factsOf(ctx.db, id))) {
    throw refuse('forbidden', messages.dropPointNotStaff);
  }
  const rows = await ctx.db
    .selectFrom('parcels')
    .select(['id', 'category', 'weight_grams', 'status', 'at_drop_point_since', 'custody_seq', 'returning'])
    .where('drop_point_id', '=', id)
    .where('status', 'in', ['in_transit', 'at_drop_point'])
    .orderBy('created_at')
    .execute();
  return {
    dropPoint: presentDropPoint(point),
    items: rows
      // On its way back from elsewhere it goes to its sender's door, not here.
      .filter((row) => row.status === 'at_drop_point' || row.returning === 0)
      .map((row) => ({
        id: row.id,
        category: row.category,
        weightGrams: row.weight_grams,
        status: row.status === 'at_drop_point' ? 'at_drop_point' : 'in_transit',
        since: row.at_drop_point_since,
        dropOffPin: row.status === 'in_transit' ? pinFor(ctx.pinKey, row.id, row.custody_seq, 'drop_point') : null,
        returning: row.returning === 1,
        returnPin:
          row.status === 'at_drop_point' && row.returning === 1
            ? pinFor(ctx.pinKey, row.id, row.custody_seq, 'runner_return')
            : null,
      })),
  };
}

/**
 * Sends a parcel to a drop point instead of the door: its receiver or sender after a failed
 * attempt, or its carrier at any time (who then leaves it there).
 */
export async function sendToDropPoint(ctx: DropPointsContext, party: Party, parcelId: string, dropPointId: number) {
  const parcel = await ctx.db
    .selectFrom('parcels')
    .select([...PARCEL_FACT_COLUMNS, 'status'])
    .where('id', '=', parcelId)
    .executeTakeFirst();
  if (!parcel) throw refuse('parcel_not_found', messages.parcelNotFound);
  const actor = assertPartyMay(party, 'chooseDropPoint', parcelId, parcel);
  const point = await findDropPoint(ctx.db, dropPointId);
  if (point.active !== 1) throw refuseField('drop_point_not_found', 'dropPointId', messages.dropPointNotFound);
  const carrierId = actor && mayParcel(actor, 'startReturn', parcel) ? actor.id : null;
  return chooseDropPoint(ctx.changes, parcelId, actor, point, carrierId);
}

/** A parcel as the drop point's hand-overs read it. */
async function dropPointParcel(db: Kysely<Database>, parcelId: string) {
  const parcel = await db
    .selectFrom('parcels')
    .select(['id', 'status', 'custody_seq', 'returning', 'drop_point_id'])
    .where('id', '=', parcelId)
    .executeTakeFirst();
  if (!parcel) throw refuse('parcel_not_found', messages.parcelNotFound);
  return parcel;
}

/**
 * A parcel sent to a drop point whose staff may do `action` (releasing, by default); refused
 * otherwise (whose it is before its state).
 */
export async function parcelForStaff(
  db: Kysely<Database>,
  staff: AccountRow,
  parcelId: string,
  action: DropPointAction = 'release',
) {
  const parcel = await dropPointParcel(db, parcelId);
  const pointId = parcel.drop_point_id;
  if (pointId === null || !mayDropPoint(staff, action, await factsOf(db, pointId))) {
    throw refuse('forbidden', messages.dropPointNotStaff);
  }
  return { ...parcel, drop_point_id: pointId };
}

/**
 * The staff hands a waiting parcel to the person whose code it is — its receiver, or its sender
 * once it goes back — while the place is open.
 */
export async function releaseWithPin(ctx: DropPointsContext, staff: AccountRow, parcelId: string, pin: string) {
  const parcel = await parcelForStaff(ctx.db, staff, parcelId);
  if (parcel.status !== 'at_drop_point') throw refuse('parcel_not_in_transit', messages.dropPointNotHere);
  await assertOpen(ctx.db, parcel.drop_point_id);
  const party = parcel.returning === 1 ? 'sender' : 'receiver';
  await assertPin({ key: ctx.pinKey, limits: ctx.limits }, { id: parcel.id, seq: parcel.custody_seq, party }, pin);
  return collectParcel(ctx.changes, parcel.id, staff, parcel.custody_seq, 'at_drop_point');
}

/** Parcels are handed out only while their drop point is open, as its hours say. */
async function assertOpen(db: Kysely<Database>, dropPointId: number) {
  const point = await findDropPoint(db, dropPointId);
  const week = parseOpeningHours(point.opening_hours);
  if (week === null || !isOpenAt(week, new Date())) throw refuse('drop_point_closed', messages.dropPointClosed);
}

/** How many returns a runner's list shows: the oldest first. */
const RETURNS_LISTED = 200;

/**
 * Parcels not collected at a drop point in time, waiting there on their way back (issue 28): for
 * runners, a pickup at the drop point delivered at the sender's door. Oldest first.
 */
export async function listDropPointReturns(db: Kysely<Database>): Promise<DropPointReturnList> {
  const rows = await db
    .selectFrom('parcels')
    .innerJoin('drop_points', 'drop_points.id', 'parcels.drop_point_id')
    .selectAll('drop_points')
    .select([
      'parcels.id as parcel_id',
      'parcels.category',
      'parcels.weight_grams',
      'parcels.at_drop_point_since',
      'parcels.sender_address',
      'parcels.sender_lat',
      'parcels.sender_lng',
    ])
    .where('parcels.status', '=', 'at_drop_point')
    .where('parcels.returning', '=', 1)
    .orderBy('parcels.at_drop_point_since')
    .orderBy('parcels.id')
    .limit(RETURNS_LISTED)
    .execute();
  const now = new Date();
  return {
    items: rows.map((row) => ({
      id: row.parcel_id,
      category: row.category,
      weightGrams: row.weight_grams,
      since: row.at_drop_point_since,
      dropPoint: presentDropPoint(row, now),
      senderAddress: row.sender_address,
      senderLocation: { lat: row.sender_lat, lng: row.sender_lng },
    })),
  };
}

/**
 * A runner takes a returning parcel from its drop point with the code the staff read out, while
 * the place is open; they then carry it to its sender's door as any return. Tries are counted as
 * for every code; of two runners at once, one gets it.
 */
export async function takeReturnFromDropPoint(
  ctx: DropPointsContext,
  runner: AccountRow,
  parcelId: string,
  pin: string,
) {
  assertMayParcel(runner, 'pickUp');
  const parcel = await dropPointParcel(ctx.db, parcelId);
  if (parcel.status !== 'at_drop_point' || parcel.returning !== 1 || parcel.drop_point_id === null) {
    throw finishedRefusal(parcel.status) ?? refuse('parcel_not_in_transit', messages.dropPointReturnNotWaiting);
  }
  await assertOpen(ctx.db, parcel.drop_point_id);
  const leg = { id: parcel.id, seq: parcel.custody_seq, party: 'runner_return' } as const;
  await assertPin({ key: ctx.pinKey, limits: ctx.limits }, leg, pin);
  return takeFromDropPoint(ctx.changes, parcel.id, runner, parcel.custody_seq);
}

/**
 * The receiver refused the parcel at the counter: its staff sends it back to its sender (who may
 * collect it there, or a runner takes it to their door).
 */
export async function refuseAtDropPoint(ctx: DropPointsContext, staff: AccountRow, parcelId: string) {
  const parcel = await parcelForStaff(ctx.db, staff, parcelId);
  const refusal = refuse('parcel_not_in_transit', messages.refusedAtDropPointNotNow);
  if (parcel.status !== 'at_drop_point' || parcel.returning !== 0) throw finishedRefusal(parcel.status) ?? refusal;
  const turned = await returnFromDropPoint(ctx.changes, parcel.id, parcel.custody_seq, { refusedBefore: staff });
  if (!turned) throw refuse('parcel_changed_meanwhile', messages.parcelChangedMeanwhile);
  return turned;
}
