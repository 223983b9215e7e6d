import { addressKey } from '@csomag/domain/address';
import type { AdminParcelListQuery, ParcelAdminUpdate } from '@csomag/domain/admin';
import { messages } from '@csomag/domain/messages';
import {
  backOfficeStatusChange,
  type Coordinates,
  type Parcel,
  type ParcelEventKind,
  type ParcelList,
  type PointPrecision,
} from '@csomag/domain/parcel';
import type { Kysely, Transaction, Updateable } from 'kysely';
import type { ParcelChange, PublishChange } from '../../db/change-feed.ts';
import { nowIso } from '../../db/database.ts';
import type { AccountRow, Database, ParcelsTable } from '../../db/schema.ts';
import { badRequest, conflict, notFound, unprocessable } from '../../errors.ts';
import { findAccountByUserName } from '../auth/accounts.ts';
import type { Geocoder } from '../geo/geocoder.ts';
import { type ParcelWithNames, presentParcel } from './present.ts';
import { newestFirst, type ParcelsContext, selectParcels } from './service.ts';
import { claimParcel } from './transitions.ts';

const emptyPage: ParcelList = { items: [], nextCursor: null };

/** Every parcel, newest first; each filter walks its own (…, created_at, id) index. */
export async function listAllParcels(db: Kysely<Database>, query: AdminParcelListQuery): Promise<ParcelList> {
  let parcels = selectParcels(db);
  if (query.status) parcels = parcels.where('parcels.status', '=', query.status);
  // A user name nobody has matches no parcel: an empty page, not an error.
  if (query.runner) {
    const runner = await findAccountByUserName(db, query.runner);
    if (!runner) return emptyPage;
    parcels = parcels.where('parcels.runner_id', '=', runner.id);
  }
  if (query.sender) {
    const sender = await findAccountByUserName(db, query.sender);
    if (!sender) return emptyPage;
    parcels = parcels.where('parcels.sender_id', '=', sender.id);
  }
  return newestFirst(parcels, query);
}

const findParcel = (db: Kysely<Database>, id: string) =>
  selectParcels(db).where('parcels.id', '=', id).executeTakeFirst();

type End = 'sender' | 'receiver';
type PlacedPoint = Coordinates & { precision: PointPrecision };

/**
 * Where an edited end of the parcel now lies: a moved pin, else the new address geocoded; undefined
 * when neither changed. A form that echoes the stored pin with a new address gets the address placed.
 * Both ends are placed before anything is saved, so a 422 saves nothing.
 */
async function placeEditedEnds(
  geocoder: Geocoder,
  current: ParcelWithNames,
  patch: ParcelAdminUpdate,
): Promise<Record<End, PlacedPoint | undefined>> {
  const place = async (
    address: string | undefined,
    stored: string,
    pin: Coordinates | undefined,
    at: Coordinates,
  ): Promise<PlacedPoint | null | undefined> => {
    // A pin moved by hand is where the back office put it.
    if (pin && (pin.lat !== at.lat || pin.lng !== at.lng)) return { ...pin, precision: 'manual' };
    if (address === undefined || address === stored) return undefined;
    const found = await geocoder.geocode(address);
    return found ? { lat: found.lat, lng: found.lng, precision: found.precision } : null;
  };
  const [sender, receiver] = await Promise.all([
    place(patch.senderAddress, current.sender_address, patch.senderCoordinates, {
      lat: current.sender_lat,
      lng: current.sender_lng,
    }),
    place(patch.receiverAddress, current.receiver_address, patch.receiverCoordinates, {
      lat: current.receiver_lat,
      lng: current.receiver_lng,
    }),
  ]);
  if (sender === null || receiver === null) {
    throw unprocessable(messages.geocodeFailed, {
      ...(sender === null ? { senderAddress: messages.geocodeFailed } : {}),
      ...(receiver === null ? { receiverAddress: messages.geocodeFailed } : {}),
    });
  }
  return { sender, receiver };
}

interface PlannedEdit {
  set: Updateable<ParcelsTable>;
  /** API names of the edited fields, for the timeline. */
  fields: string[];
  status: { from: Parcel['status']; to: Parcel['status']; reason?: string } | null;
}

/** What the patch changes, with the status rules applied; fields sent back unchanged are no change. */
function planEdit(current: ParcelWithNames, patch: ParcelAdminUpdate, ends: Record<End, PlacedPoint | undefined>) {
  const plan: PlannedEdit = { set: {}, fields: [], status: null };
  if (patch.category !== undefined && patch.category !== current.category) {
    plan.set.category = patch.category;
    plan.fields.push('category');
  }
  if (patch.weightGrams !== undefined && patch.weightGrams !== current.weight_grams) {
    plan.set.weight_grams = patch.weightGrams;
    plan.fields.push('weightGrams');
  }
  if (patch.senderAddress !== undefined && patch.senderAddress !== current.sender_address) {
    plan.set.sender_address = patch.senderAddress;
    plan.set.sender_key = addressKey(patch.senderAddress);
    plan.fields.push('senderAddress');
  }
  if (ends.sender && (ends.sender.lat !== current.sender_lat || ends.sender.lng !== current.sender_lng)) {
    plan.set.sender_lat = ends.sender.lat;
    plan.set.sender_lng = ends.sender.lng;
    plan.set.sender_precision = ends.sender.precision;
    plan.fields.push('senderCoordinates');
  }
  if (patch.receiverAddress !== undefined && patch.receiverAddress !== current.receiver_address) {
    plan.set.receiver_address = patch.receiverAddress;
    // Who sees it as incoming follows the address.
    plan.set.receiver_key = addressKey(patch.receiverAddress);
    plan.fields.push('receiverAddress');
  }
  if (ends.receiver && (ends.receiver.lat !== current.receiver_lat || ends.receiver.lng !== current.receiver_lng)) {
    plan.set.receiver_lat = ends.receiver.lat;
    plan.set.receiver_lng = ends.receiver.lng;
    plan.set.receiver_precision = ends.receiver.precision;
    plan.fields.push('receiverCoordinates');
  }
  const to = patch.status;
  if (to !== undefined && to !== current.status) {
    const rule = backOfficeStatusChange(current.status, to);
    // A parcel delivered long ago by data that predates runners on every parcel still needs one.
    if (rule === 'needs_runner' || (to !== 'waiting' && current.runner_id === null)) {
      const message = to === 'delivered' ? messages.deliveredNeedsRunner : messages.parcelNeedsRunner;
      throw conflict(message, { status: message });
    }
    if (rule === 'needs_reason' && !patch.reason) {
      throw unprocessable(messages.statusChangeNeedsReason, { reason: messages.statusChangeNeedsReason });
    }
    plan.status = { from: current.status, to, ...(patch.reason ? { reason: patch.reason } : {}) };
    plan.set.status = to;
    if (to === 'waiting') {
      // Back in the pool: nobody carries it and it was never picked up.
      plan.set.runner_id = null;
      plan.set.picked_up_at = null;
      plan.set.delivered_at = null;
    } else {
      plan.set.delivered_at = to === 'delivered' ? nowIso() : null;
    }
  }
  return plan;
}

async function recordEvent(
  trx: Transaction<Database>,
  publish: PublishChange,
  change: Omit<ParcelChange, 'kind'> & { kind: ParcelEventKind },
  actor: AccountRow,
  data: Record<string, unknown>,
) {
  await trx
    .insertInto('parcel_events')
    .values({
      parcel_id: change.parcelId,
      at: nowIso(),
      kind: change.kind,
      actor_id: actor.id,
      data: JSON.stringify(data),
    })
    .execute();
  await publish(change);
}

/**
 * The superadmin's edit (SPEC §2.8): category, weight, addresses (placed again), status. Saved only
 * if nobody changed the parcel since it was read (its version), so a runner's pickup meanwhile is
 * never overwritten; the timeline gets `edited` and/or `status_changed`, the change feed both.
 */
export async function updateParcel(
  ctx: ParcelsContext,
  admin: AccountRow,
  id: string,
  patch: ParcelAdminUpdate,
): Promise<Parcel> {
  const current = await findParcel(ctx.db, id);
  if (!current) throw notFound(messages.parcelNotFound);
  const plan = planEdit(current, patch, await placeEditedEnds(ctx.geocoder, current, patch));
  if (plan.fields.length === 0 && !plan.status) return presentParcel(current);

  return ctx.changes.transaction(async (trx, publish) => {
    const row = await trx
      .updateTable('parcels')
      .set((eb) => ({ ...plan.set, version: eb('version', '+', 1) }))
      .where('id', '=', id)
      .where('version', '=', current.version)
      .returningAll()
      .executeTakeFirst();
    if (!row) {
      const exists = await trx.selectFrom('parcels').select('id').where('id', '=', id).executeTakeFirst();
      throw exists ? conflict(messages.parcelChangedMeanwhile) : notFound(messages.parcelNotFound);
    }
    // The runner only ever stays or goes here, so the names read before still hold.
    const parcel: ParcelWithNames = {
      ...row,
      sender_user_name: current.sender_user_name,
      runner_user_name: row.runner_id === null ? null : current.runner_user_name,
    };
    const change = {
      parcelId: id,
      status: parcel.status,
      runner: parcel.runner_user_name,
      senderUser: parcel.sender_user_name,
      receiverKey: parcel.receiver_key,
      previous: { status: current.status, runner: current.runner_user_name, receiverKey: current.receiver_key },
    };
    if (plan.fields.length > 0) {
      await recordEvent(trx, publish, { ...change, kind: 'edited' }, admin, { fields: plan.fields });
    }
    if (plan.status) await recordEvent(trx, publish, { ...change, kind: 'status_changed' }, admin, plan.status);
    return presentParcel(parcel);
  });
}

/**
 * Deletes a parcel in any state: it leaves every list at once, the runner's too. One that a runner
 * carries needs a reason. Its timeline stays and ends with a `deleted` entry saying what it was
 * (parcel_events has no foreign key to parcels).
 */
export async function deleteParcel(
  ctx: ParcelsContext,
  admin: AccountRow,
  id: string,
  reason: string | undefined,
): Promise<void> {
  await ctx.changes.transaction(async (trx, publish) => {
    // What was deleted, not what was read before: a pickup may have committed in between.
    const row = await trx.deleteFrom('parcels').where('id', '=', id).returningAll().executeTakeFirst();
    if (!row) throw notFound(messages.parcelNotFound);
    const names = await trx
      .selectFrom('accounts as sender')
      .leftJoin('accounts as runner', (join) => join.on('runner.id', '=', row.runner_id ?? -1))
      .select(['sender.user_name as senderUser', 'runner.user_name as runner'])
      .where('sender.id', '=', row.sender_id)
      .executeTakeFirstOrThrow();
    // Thrown inside the transaction: the delete is rolled back.
    if (row.status === 'in_transit' && !reason) {
      const message = messages.deleteInTransitNeedsReason(names.runner ?? '?');
      throw unprocessable(message, { reason: message });
    }
    const previous = { status: row.status, runner: names.runner, receiverKey: row.receiver_key };
    await recordEvent(
      trx,
      publish,
      { kind: 'deleted', parcelId: id, ...previous, senderUser: names.senderUser, previous },
      admin,
      {
        status: row.status,
        category: row.category,
        senderUser: names.senderUser,
        runner: names.runner,
        ...(reason ? { reason } : {}),
      },
    );
  });
}

/** waiting → in transit for the named runner; a pickup that came first wins (409, nothing overwritten). */
export async function assignParcel(
  ctx: Pick<ParcelsContext, 'db' | 'changes'>,
  admin: AccountRow,
  id: string,
  runnerUserName: string,
): Promise<Parcel> {
  const runner = await findAccountByUserName(ctx.db, runnerUserName);
  if (runner?.role !== 'runner') throw badRequest(messages.runnerNotFound, { runner: messages.runnerNotFound });
  return presentParcel(await claimParcel(ctx.changes, id, runner, admin, 'assigned'));
}
