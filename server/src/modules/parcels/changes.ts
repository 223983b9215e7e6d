import type { LocationPoint } from '@csomag/domain/delivery';
import { messages } from '@csomag/domain/messages';
import type { ParcelEventKind, ParcelStatus } from '@csomag/domain/parcel';
import type { ExpressionBuilder, Transaction, Updateable } from 'kysely';
import type { ChangeFeed, ParcelChange, PublishChange } from '../../db/change-feed.ts';
import { nowIso } from '../../db/database.ts';
import type { AccountRow, Database, ParcelRow, ParcelsTable } from '../../db/schema.ts';
import { type AppError, refuse, refuseField } from '../../errors.ts';
import type { ParcelWithNames } from './present.ts';

/**
 * The one write path for parcels. Every change a parcel goes through is a command here: it checks
 * its precondition in the same statement that writes (a conditional UPDATE or DELETE), writes the
 * parcel row and exactly one timeline event in one transaction, and publishes exactly one change
 * message, which listeners hear only after the commit. Nothing else in the server writes
 * `parcel_events` or publishes (changes.test.ts checks both). Services decide *whether* a change is
 * wanted (geocoding, distances, policies); this module makes it happen atomically.
 */

type Changes = Pick<ChangeFeed, 'transaction'>;
type Trx = Transaction<Database>;
type Before = ParcelChange['previous'];

const beforeOf = (status: ParcelStatus, runner: string | null, receiverKey: string): Before => ({
  status,
  runner,
  receiverKey,
});

/** The last step of every command: one timeline event, one change message, inside its transaction. */
async function record(
  trx: Trx,
  publish: PublishChange,
  change: {
    kind: ParcelEventKind;
    parcel: ParcelWithNames;
    before: Before;
    actor: AccountRow;
    data?: Record<string, unknown> | null;
    /** When it happened, if the row already says (a new parcel's created_at); else now. */
    at?: string;
    /** When the person says it happened (sent later from the offline outbox, ADR 0017); else at `at`. */
    occurredAt?: string | undefined;
  },
) {
  const { kind, parcel, actor, data } = change;
  await trx
    .insertInto('parcel_events')
    .values({
      parcel_id: parcel.id,
      at: change.at ?? nowIso(),
      kind,
      actor_id: actor.id,
      data: data ? JSON.stringify(data) : null,
      occurred_at: change.occurredAt ?? null,
    })
    .execute();
  await publish({
    kind,
    parcelId: parcel.id,
    status: parcel.status,
    runner: parcel.runner_user_name,
    senderUser: parcel.sender_user_name,
    receiverKey: parcel.receiver_key,
    previous: change.before,
  });
}

/** Why a precondition failed, told from the parcel as it is now (inside the same transaction). */
async function explainRefusal(trx: Trx, parcelId: string, wanted: 'waiting' | 'in_transit') {
  const current = await trx.selectFrom('parcels').select('status').where('id', '=', parcelId).executeTakeFirst();
  if (!current) return refuse('parcel_not_found', messages.parcelNotFound);
  if (current.status === 'delivered') return refuse('parcel_already_delivered', messages.parcelAlreadyDelivered);
  if (wanted === 'waiting') return refuse('parcel_taken', messages.parcelTaken);
  return refuse('parcel_not_in_transit', messages.parcelNotInTransit);
}

/** What a change only the carrier may make can be refused with (routes list them). */
export const CARRIER_REFUSALS = [
  'parcel_not_found',
  'not_your_parcel',
  'parcel_already_delivered',
  'parcel_not_in_transit',
] as const;

/**
 * Why a change only the carrier may make cannot be made to the parcel as it is (null: it can):
 * whose it is before which state it is in, so another runner learns nothing more about it.
 */
export function carrierRefusal(parcel: { status: ParcelStatus } | undefined, carries: boolean): AppError | null {
  if (!parcel) return refuse('parcel_not_found', messages.parcelNotFound);
  if (parcel.status === 'in_transit') return carries ? null : refuse('not_your_parcel', messages.notYourParcel);
  if (parcel.status === 'delivered') return refuse('parcel_already_delivered', messages.parcelAlreadyDelivered);
  return refuse('parcel_not_in_transit', messages.parcelNotInTransit);
}

/** Why a carrier's conditional write matched nothing, told from the row as it is now. */
async function explainCarrierRefusal(trx: Trx, parcelId: string, runnerId: number) {
  const current = await trx
    .selectFrom('parcels')
    .select(['status', 'runner_id'])
    .where('id', '=', parcelId)
    .executeTakeFirst();
  return (
    carrierRefusal(current, current?.runner_id === runnerId) ??
    refuse('parcel_not_in_transit', messages.parcelNotInTransit)
  );
}

/**
 * The user names a change message carries, read by the statement that makes the change: one
 * statement fewer per change (on PostgreSQL, one round trip). Sender and runner as they are after it.
 */
const withNames = (eb: ExpressionBuilder<Database, 'parcels'>) =>
  [
    eb
      .selectFrom('accounts')
      .select('user_name')
      .whereRef('accounts.id', '=', 'parcels.sender_id')
      .$asScalar()
      .as('sender_user_name'),
    eb
      .selectFrom('accounts')
      .select('user_name')
      .whereRef('accounts.id', '=', 'parcels.runner_id')
      .$asScalar()
      .$castTo<string | null>()
      .as('runner_user_name'),
  ] as const;

/** A new waiting parcel (`created`). The caller draws the id; a clash is a unique violation it retries. */
export function insertParcel(
  changes: Changes,
  row: ParcelRow,
  sender: AccountRow,
  actor: AccountRow,
  occurredAt?: string,
) {
  return changes.transaction(async (trx, publish) => {
    await trx.insertInto('parcels').values(row).execute();
    const parcel: ParcelWithNames = { ...row, sender_user_name: sender.user_name, runner_user_name: null };
    await record(trx, publish, { kind: 'created', parcel, before: null, actor, at: row.created_at, occurredAt });
    return parcel;
  });
}

/**
 * waiting → in_transit for `runner`, as one conditional UPDATE: of any number of simultaneous
 * pickups (or a pickup racing the superadmin's assignment) exactly one matches the row; the
 * others get 409 and change nothing (DESIGN §3).
 */
export function claimParcel(
  changes: Changes,
  parcelId: string,
  runner: AccountRow,
  actor: AccountRow,
  kind: 'picked_up' | 'assigned',
  occurredAt?: string,
): Promise<ParcelWithNames> {
  return changes.transaction(async (trx, publish) => {
    const parcel = await trx
      .updateTable('parcels')
      .set((eb) => ({
        status: 'in_transit',
        runner_id: runner.id,
        picked_up_at: nowIso(),
        version: eb('version', '+', 1),
      }))
      .where('id', '=', parcelId)
      .where('status', '=', 'waiting')
      .returningAll()
      .returning(withNames)
      .executeTakeFirst();
    if (!parcel) throw await explainRefusal(trx, parcelId, 'waiting');
    const data = kind === 'assigned' ? { runner: runner.user_name } : null;
    const before = beforeOf('waiting', null, parcel.receiver_key);
    await record(trx, publish, { kind, parcel, before, actor, data, occurredAt });
    return parcel;
  });
}

/**
 * in_transit → delivered, conditional on the status and, with `runnerId`, on that runner carrying
 * it. `kind` says how: within 15 m (`delivered`), by the receiver's QR confirmation
 * (`handed_over_qr`), or by the superadmin.
 */
export function deliverParcel(
  changes: Changes,
  parcelId: string,
  actor: AccountRow,
  options: {
    kind: 'delivered' | 'handed_over_qr';
    runnerId?: number;
    data?: Record<string, unknown>;
    occurredAt?: string | undefined;
  },
): Promise<ParcelWithNames> {
  return changes.transaction(async (trx, publish) => {
    let update = trx
      .updateTable('parcels')
      .set((eb) => ({ status: 'delivered', delivered_at: nowIso(), version: eb('version', '+', 1) }))
      .where('id', '=', parcelId)
      .where('status', '=', 'in_transit');
    if (options.runnerId !== undefined) update = update.where('runner_id', '=', options.runnerId);
    const parcel = await update.returningAll().returning(withNames).executeTakeFirst();
    if (!parcel) {
      throw options.runnerId === undefined
        ? await explainRefusal(trx, parcelId, 'in_transit')
        : await explainCarrierRefusal(trx, parcelId, options.runnerId);
    }
    const before = beforeOf('in_transit', parcel.runner_user_name, parcel.receiver_key);
    const { kind, occurredAt } = options;
    await record(trx, publish, { kind, parcel, before, actor, data: options.data ?? null, occurredAt });
    return parcel;
  });
}

/**
 * in_transit → waiting by the runner who carries it ('Visszaadom'), with their reason: back in the
 * pool for anyone, as one conditional UPDATE (a delivery or another change in between wins).
 */
export function giveBackParcel(changes: Changes, parcelId: string, runner: AccountRow, reason: string) {
  return changes.transaction(async (trx, publish) => {
    const parcel = await trx
      .updateTable('parcels')
      .set((eb) => ({ status: 'waiting', runner_id: null, picked_up_at: null, version: eb('version', '+', 1) }))
      .where('id', '=', parcelId)
      .where('status', '=', 'in_transit')
      .where('runner_id', '=', runner.id)
      .returningAll()
      .returning(withNames)
      .executeTakeFirst();
    if (!parcel) throw await explainCarrierRefusal(trx, parcelId, runner.id);
    const before = beforeOf('in_transit', runner.user_name, parcel.receiver_key);
    await record(trx, publish, { kind: 'given_back', parcel, before, actor: runner, data: { reason } });
    return parcel;
  });
}

/**
 * The sender withdraws a parcel nobody has picked up ('Feladás visszavonása'): it leaves every
 * list; its timeline stays and ends with `cancelled`. Conditional on waiting, so a pickup that
 * came first wins.
 */
export function cancelParcel(changes: Changes, parcelId: string, sender: AccountRow) {
  return changes.transaction(async (trx, publish) => {
    const row = await trx
      .deleteFrom('parcels')
      .where('id', '=', parcelId)
      .where('sender_id', '=', sender.id)
      .where('status', '=', 'waiting')
      .returningAll()
      .executeTakeFirst();
    if (!row) {
      const current = await trx
        .selectFrom('parcels')
        .select(['status', 'sender_id'])
        .where('id', '=', parcelId)
        .executeTakeFirst();
      // Someone else's parcel is no more visible here than anywhere else.
      if (!current || current.sender_id !== sender.id) throw refuse('parcel_not_found', messages.parcelNotFound);
      throw refuse('parcel_not_waiting', messages.cancelNotWaiting);
    }
    const parcel = { ...row, sender_user_name: sender.user_name, runner_user_name: null };
    await record(trx, publish, {
      kind: 'cancelled',
      parcel,
      before: beforeOf('waiting', null, row.receiver_key),
      actor: sender,
    });
  });
}

/** A back-office edit as planned from the parcel as it was read (admin-service.ts planEdit). */
export interface ParcelEdit {
  set: Updateable<ParcelsTable>;
  /** API names of the edited fields, for the timeline. */
  fields: string[];
  status: { from: ParcelStatus; to: ParcelStatus; reason?: string } | null;
}

/**
 * The superadmin's edit, saved only if nobody changed the parcel since `current` was read (its
 * version), so a runner's pickup meanwhile is never overwritten. One timeline event: a status
 * change (`status_changed`, naming the other edited fields too) or else `edited`.
 */
export function editParcel(changes: Changes, current: ParcelWithNames, edit: ParcelEdit, admin: AccountRow) {
  return changes.transaction(async (trx, publish) => {
    const row = await trx
      .updateTable('parcels')
      .set((eb) => ({ ...edit.set, version: eb('version', '+', 1) }))
      .where('id', '=', current.id)
      .where('version', '=', current.version)
      .returningAll()
      .executeTakeFirst();
    if (!row) {
      const exists = await trx.selectFrom('parcels').select('id').where('id', '=', current.id).executeTakeFirst();
      throw exists
        ? refuse('parcel_changed_meanwhile', messages.parcelChangedMeanwhile)
        : refuse('parcel_not_found', messages.parcelNotFound);
    }
    // The runner only ever stays or goes here, so the names read before still hold.
    const parcel: ParcelWithNames = {
      ...row,
      sender_user_name: current.sender_user_name,
      runner_user_name: row.runner_id === null ? null : current.runner_user_name,
    };
    const before = beforeOf(current.status, current.runner_user_name, current.receiver_key);
    const fields = edit.fields.length > 0 ? { fields: edit.fields } : {};
    await record(trx, publish, {
      kind: edit.status ? 'status_changed' : 'edited',
      parcel,
      before,
      actor: admin,
      data: edit.status ? { ...edit.status, ...fields } : fields,
    });
    return parcel;
  });
}

/**
 * Deletes a parcel in any state: it leaves every list at once, the runner's too. One that a runner
 * carries needs a reason, decided on the row as deleted (a pickup may have committed since it was
 * read). Its timeline stays and ends with `deleted` saying what it was (no foreign key to parcels).
 */
export function deleteParcel(changes: Changes, parcelId: string, admin: AccountRow, reason: string | undefined) {
  return changes.transaction(async (trx, publish) => {
    const parcel = await trx
      .deleteFrom('parcels')
      .where('id', '=', parcelId)
      .returningAll()
      .returning(withNames)
      .executeTakeFirst();
    if (!parcel) throw refuse('parcel_not_found', messages.parcelNotFound);
    // Thrown inside the transaction: the delete is rolled back.
    if (parcel.status === 'in_transit' && !reason) {
      throw refuseField(
        'reason_required',
        'reason',
        messages.deleteInTransitNeedsReason(parcel.runner_user_name ?? '?'),
      );
    }
    await record(trx, publish, {
      kind: 'deleted',
      parcel,
      before: beforeOf(parcel.status, parcel.runner_user_name, parcel.receiver_key),
      actor: admin,
      data: {
        status: parcel.status,
        category: parcel.category,
        senderUser: parcel.sender_user_name,
        runner: parcel.runner_user_name,
        ...(reason ? { reason } : {}),
      },
    });
  });
}

/**
 * A runner's account is being deleted (inside that transaction): every parcel they ever carried
 * keeps its history but loses its runner, with an `edited` event naming who carried it and one
 * change message each, so the back office's lists follow. The caller has refused a runner who
 * still carries parcels in transit.
 */
export async function detachDeletedRunner(trx: Trx, publish: PublishChange, runner: AccountRow, admin: AccountRow) {
  // Exactly the rows this statement changed get an event, whatever committed before it.
  const carried = await trx
    .updateTable('parcels')
    .set((eb) => ({ runner_id: null, version: eb('version', '+', 1) }))
    .where('runner_id', '=', runner.id)
    .returningAll()
    .execute();
  const senderIds = [...new Set(carried.map((row) => row.sender_id))];
  const senders =
    senderIds.length === 0
      ? []
      : await trx.selectFrom('accounts').select(['id', 'user_name']).where('id', 'in', senderIds).execute();
  const senderName = new Map(senders.map((sender) => [sender.id, sender.user_name]));
  for (const row of carried) {
    await record(trx, publish, {
      kind: 'edited',
      parcel: { ...row, sender_user_name: senderName.get(row.sender_id) ?? '', runner_user_name: null },
      before: beforeOf(row.status, runner.user_name, row.receiver_key),
      actor: admin,
      data: { runnerDeleted: runner.user_name },
    });
  }
  // SQLite may hand a deleted row's id to the next account: the timeline must not name them.
  await trx.updateTable('parcel_events').set({ actor_id: null }).where('actor_id', '=', runner.id).execute();
}

/**
 * The point of a batch that says where the runner is now: the newest (a point without a time is
 * now), its time no later than now (a phone's clock may run ahead).
 */
function newestPoint(first: LocationPoint, rest: readonly LocationPoint[]) {
  const now = nowIso();
  const timed = (point: LocationPoint) => ({
    point,
    at: point.occurredAt && point.occurredAt < now ? point.occurredAt : now,
  });
  return rest.map(timed).reduce((newest, candidate) => (candidate.at > newest.at ? candidate : newest), timed(first));
}

/**
 * Stores where the runner is and tells the tracking page of every parcel they carry to look
 * again: one `runner_located` message per carried parcel and no timeline event (a position every
 * few seconds is not history). Nothing is announced for a runner carrying nothing: nobody may see
 * where they are. Of a batch (points recorded offline) only the newest counts, and only when it is
 * newer than the position already stored: a late batch never moves the runner back, and older
 * points are never announced as live.
 */
export function reportLocation(changes: Changes, runner: AccountRow, first: LocationPoint, ...rest: LocationPoint[]) {
  const { point, at } = newestPoint(first, rest);
  return changes.transaction(async (trx, publish) => {
    const moved = await trx
      .updateTable('accounts')
      .set({ last_lat: point.lat, last_lng: point.lng, last_accuracy: point.accuracy, located_at: at })
      .where('id', '=', runner.id)
      .where((eb) => eb.or([eb('located_at', 'is', null), eb('located_at', '<=', at)]))
      .executeTakeFirst();
    if (Number(moved.numUpdatedRows) === 0) return;
    const carried = await trx
      .selectFrom('parcels')
      .innerJoin('accounts as sender', 'sender.id', 'parcels.sender_id')
      .select(['parcels.id', 'parcels.receiver_key', 'sender.user_name as sender_user_name'])
      .where('parcels.runner_id', '=', runner.id)
      .where('parcels.status', '=', 'in_transit')
      .execute();
    for (const parcel of carried) {
      const unchanged = beforeOf('in_transit', runner.user_name, parcel.receiver_key);
      await publish({
        kind: 'runner_located',
        parcelId: parcel.id,
        status: 'in_transit',
        runner: runner.user_name,
        senderUser: parcel.sender_user_name,
        receiverKey: parcel.receiver_key,
        previous: unchanged,
      });
    }
  });
}
