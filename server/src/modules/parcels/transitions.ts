import { messages } from '@csomag/domain/messages';
import type { ParcelEventKind } from '@csomag/domain/parcel';
import type { Transaction } from 'kysely';
import type { ChangeFeed, PublishChange } from '../../db/change-feed.ts';
import { nowIso } from '../../db/database.ts';
import type { AccountRow, Database, ParcelRow } from '../../db/schema.ts';
import { conflict, forbidden, notFound } from '../../errors.ts';
import type { ParcelWithNames } from './present.ts';

type Changes = Pick<ChangeFeed, 'transaction'>;

/** Why a precondition failed, told from the parcel as it is now (inside the same transaction). */
async function explainRefusal(trx: Transaction<Database>, parcelId: string, wanted: 'waiting' | 'in_transit') {
  const current = await trx.selectFrom('parcels').select('status').where('id', '=', parcelId).executeTakeFirst();
  if (!current) return notFound(messages.parcelNotFound);
  if (current.status === 'delivered') return conflict(messages.parcelAlreadyDelivered);
  if (wanted === 'waiting') return conflict(messages.parcelTaken);
  return conflict(messages.parcelNotInTransit);
}

/** Why a change only the carrier may make failed: someone else carries it, or it is not in transit. */
async function explainCarrierRefusal(trx: Transaction<Database>, parcelId: string, runnerId: number) {
  const current = await trx
    .selectFrom('parcels')
    .select(['status', 'runner_id'])
    .where('id', '=', parcelId)
    .executeTakeFirst();
  if (current?.status === 'in_transit' && current.runner_id !== runnerId) return forbidden(messages.notYourParcel);
  return explainRefusal(trx, parcelId, 'in_transit');
}

async function withNames(trx: Transaction<Database>, row: ParcelRow): Promise<ParcelWithNames> {
  const names = await trx
    .selectFrom('accounts as sender')
    .leftJoin('accounts as runner', (join) => join.on('runner.id', '=', row.runner_id ?? -1))
    .select(['sender.user_name as sender_user_name', 'runner.user_name as runner_user_name'])
    .where('sender.id', '=', row.sender_id)
    .executeTakeFirstOrThrow();
  return { ...row, ...names };
}

async function record(
  trx: Transaction<Database>,
  publish: PublishChange,
  before: { status: ParcelRow['status']; runner: string | null; receiverKey: string },
  parcel: ParcelWithNames,
  kind: ParcelEventKind,
  actor: AccountRow,
  data: Record<string, unknown> | null,
) {
  await trx
    .insertInto('parcel_events')
    .values({
      parcel_id: parcel.id,
      at: nowIso(),
      kind,
      actor_id: actor.id,
      data: data ? JSON.stringify(data) : null,
    })
    .execute();
  await publish({
    kind,
    parcelId: parcel.id,
    status: parcel.status,
    runner: parcel.runner_user_name,
    senderUser: parcel.sender_user_name,
    receiverKey: parcel.receiver_key,
    previous: before,
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
): Promise<ParcelWithNames> {
  return changes.transaction(async (trx, publish) => {
    const row = await trx
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
      .executeTakeFirst();
    if (!row) throw await explainRefusal(trx, parcelId, 'waiting');
    const parcel = await withNames(trx, row);
    const before = { status: 'waiting' as const, runner: null, receiverKey: row.receiver_key };
    await record(trx, publish, before, parcel, kind, actor, kind === 'assigned' ? { runner: runner.user_name } : null);
    return parcel;
  });
}

/**
 * in_transit → delivered, conditional on the status and, for a runner, on carrying it.
 * `kind` says how: within 15 m (`delivered`), by the receiver's QR confirmation
 * (`handed_over_qr`), or by the superadmin.
 */
export function deliverParcel(
  changes: Changes,
  parcelId: string,
  actor: AccountRow,
  options: { kind: 'delivered' | 'handed_over_qr'; runnerId?: number; data?: Record<string, unknown> },
): Promise<ParcelWithNames> {
  return changes.transaction(async (trx, publish) => {
    let update = trx
      .updateTable('parcels')
      .set((eb) => ({ status: 'delivered', delivered_at: nowIso(), version: eb('version', '+', 1) }))
      .where('id', '=', parcelId)
      .where('status', '=', 'in_transit');
    if (options.runnerId !== undefined) update = update.where('runner_id', '=', options.runnerId);
    const row = await update.returningAll().executeTakeFirst();
    if (!row) {
      throw options.runnerId === undefined
        ? await explainRefusal(trx, parcelId, 'in_transit')
        : await explainCarrierRefusal(trx, parcelId, options.runnerId);
    }
    const parcel = await withNames(trx, row);
    const before = { status: 'in_transit' as const, runner: parcel.runner_user_name, receiverKey: row.receiver_key };
    await record(trx, publish, before, parcel, options.kind, actor, options.data ?? null);
    return parcel;
  });
}

/**
 * in_transit → waiting by the runner who carries it ('Visszaadom'), with their reason: back in the
 * pool for anyone, as one conditional UPDATE (a delivery or another change in between wins).
 */
export function giveBackParcel(changes: Changes, parcelId: string, runner: AccountRow, reason: string) {
  return changes.transaction(async (trx, publish) => {
    const row = await trx
      .updateTable('parcels')
      .set((eb) => ({ status: 'waiting', runner_id: null, picked_up_at: null, version: eb('version', '+', 1) }))
      .where('id', '=', parcelId)
      .where('status', '=', 'in_transit')
      .where('runner_id', '=', runner.id)
      .returningAll()
      .executeTakeFirst();
    if (!row) throw await explainCarrierRefusal(trx, parcelId, runner.id);
    const parcel = await withNames(trx, row);
    const before = { status: 'in_transit' as const, runner: runner.user_name, receiverKey: row.receiver_key };
    await record(trx, publish, before, parcel, 'given_back', runner, { reason });
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
      if (!current || current.sender_id !== sender.id) throw notFound(messages.parcelNotFound);
      throw conflict(messages.cancelNotWaiting);
    }
    const parcel = { ...row, sender_user_name: sender.user_name, runner_user_name: null };
    const before = { status: 'waiting' as const, runner: null, receiverKey: row.receiver_key };
    await record(trx, publish, before, parcel, 'cancelled', sender, null);
  });
}
