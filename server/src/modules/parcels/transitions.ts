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
      if (options.runnerId !== undefined) {
        const current = await trx
          .selectFrom('parcels')
          .select(['status', 'runner_id'])
          .where('id', '=', parcelId)
          .executeTakeFirst();
        if (current?.status === 'in_transit' && current.runner_id !== options.runnerId) {
          throw forbidden(messages.notYourParcel);
        }
      }
      throw await explainRefusal(trx, parcelId, 'in_transit');
    }
    const parcel = await withNames(trx, row);
    const before = { status: 'in_transit' as const, runner: parcel.runner_user_name, receiverKey: row.receiver_key };
    await record(trx, publish, before, parcel, options.kind, actor, options.data ?? null);
    return parcel;
  });
}
