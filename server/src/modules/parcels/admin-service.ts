import { addressKey } from '@csomag/domain/address';
import type { AdminParcelList, AdminParcelListQuery, ParcelAdminUpdate } from '@csomag/domain/admin';
import { messages } from '@csomag/domain/messages';
import { backOfficeStatusChange, type Coordinates, type Parcel } from '@csomag/domain/parcel';
import { type Kysely, sql } from 'kysely';
import { nowIso } from '../../db/database.ts';
import type { AccountRow, Database } from '../../db/schema.ts';
import { refuse, refuseField } from '../../errors.ts';
import { findAccountByUserName, findRunnerByUserName } from '../auth/accounts.ts';
import type { Geocoder } from '../geo/geocoder.ts';
import { type PlacedPoint, placeEnd, placeEnds } from '../places/ends.ts';
import { matchKeyOf } from '../places/match-key.ts';
import { precisionColumns } from '../places/precision.ts';
import { claimParcel, editParcel, type ParcelEdit } from './changes.ts';
import { parcelRefusal } from './policy.ts';
import { type ParcelWithNames, presentParcel } from './present.ts';
import { newestFirst, type ParcelsContext, selectParcels, whereState } from './service.ts';

const emptyPage: AdminParcelList = { items: [], nextCursor: null };

/**
 * Handed from runner to runner at least once (a relay or an override). Written with a literal 0:
 * only then may SQLite and PostgreSQL's prepared statements use the partial indexes
 * parcels_multi_leg_created and parcels_multi_leg_status_created (migration 0015), whose condition this is.
 */
const multiLeg = sql<boolean>`parcels.runner_handovers > 0`;

/** Every parcel, newest first; each filter walks its own (…, created_at, id) index. */
export async function listAllParcels(db: Kysely<Database>, query: AdminParcelListQuery): Promise<AdminParcelList> {
  let parcels = selectParcels(db);
  if (query.status) parcels = whereState(parcels, query.status);
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
  if (query.multiLeg) parcels = parcels.where(multiLeg);
  return newestFirst(parcels, query, (row) => ({ ...presentParcel(row), multiLeg: row.runner_handovers > 0 }));
}

const findParcel = (db: Kysely<Database>, id: string) =>
  selectParcels(db).where('parcels.id', '=', id).executeTakeFirst();

type End = 'sender' | 'receiver';

/**
 * Where an edited end of the parcel now lies: a moved pin (in Hungary, under the address it is
 * saved with), else the new address geocoded; undefined when neither changed. A form that echoes
 * the stored pin with a new address gets the address placed. Both ends are placed before anything
 * is saved, so a 422 saves nothing.
 */
async function placeEditedEnds(
  geocoder: Geocoder,
  current: ParcelWithNames,
  patch: ParcelAdminUpdate,
): Promise<Record<End, PlacedPoint | undefined>> {
  const place = async (
    field: 'senderAddress' | 'receiverAddress',
    address: string | undefined,
    stored: string,
    pin: Coordinates | undefined,
    at: Coordinates,
  ): Promise<PlacedPoint | undefined> => {
    // A pin moved by hand is where the back office put it.
    if (pin && (pin.lat !== at.lat || pin.lng !== at.lng)) {
      return placeEnd(geocoder, address ?? stored, field, pin, 'manual');
    }
    if (address === undefined || address === stored) return undefined;
    return placeEnd(geocoder, address, field, undefined, undefined);
  };
  const [sender, receiver] = await placeEnds([
    place('senderAddress', patch.senderAddress, current.sender_address, patch.senderCoordinates, {
      lat: current.sender_lat,
      lng: current.sender_lng,
    }),
    place('receiverAddress', patch.receiverAddress, current.receiver_address, patch.receiverCoordinates, {
      lat: current.receiver_lat,
      lng: current.receiver_lng,
    }),
  ]);
  return { sender, receiver };
}

/** What the patch changes, with the status rules applied; fields sent back unchanged are no change. */
function planEdit(current: ParcelWithNames, patch: ParcelAdminUpdate, ends: Record<End, PlacedPoint | undefined>) {
  const plan: ParcelEdit = { set: {}, fields: [], status: null };
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
    Object.assign(plan.set, precisionColumns('sender', ends.sender.precision));
    plan.fields.push('senderCoordinates');
  }
  if (patch.receiverAddress !== undefined && patch.receiverAddress !== current.receiver_address) {
    plan.set.receiver_address = patch.receiverAddress;
    // Who sees it as incoming follows the address.
    plan.set.receiver_key = matchKeyOf(patch.receiverAddress);
    plan.fields.push('receiverAddress');
  }
  if (ends.receiver && (ends.receiver.lat !== current.receiver_lat || ends.receiver.lng !== current.receiver_lng)) {
    plan.set.receiver_lat = ends.receiver.lat;
    plan.set.receiver_lng = ends.receiver.lng;
    Object.assign(plan.set, precisionColumns('receiver', ends.receiver.precision));
    plan.fields.push('receiverCoordinates');
  }
  const to = patch.status;
  if (to !== undefined && to !== current.status) {
    const rule = backOfficeStatusChange(current.status, to);
    // A return ends only at the sender's door, and 'delivered' would say the receiver has it.
    if (rule === 'own_flow' || (current.returning === 1 && to === 'delivered')) {
      const message =
        current.status === 'returned' ? messages.backOfficeCannotLeaveReturned : messages.statusReachedOnlyByItsFlow;
      throw refuseField('status_own_flow', 'status', message);
    }
    // A parcel delivered long ago by data that predates runners on every parcel still needs one.
    if (rule === 'needs_runner' || (to !== 'waiting' && current.runner_id === null)) {
      const message = to === 'delivered' ? messages.deliveredNeedsRunner : messages.parcelNeedsRunner;
      throw refuseField('parcel_needs_runner', 'status', message);
    }
    if (rule === 'needs_reason' && !patch.reason) {
      throw refuseField('reason_required', 'reason', messages.statusChangeNeedsReason);
    }
    plan.status = { from: current.status, to, ...(patch.reason ? { reason: patch.reason } : {}) };
    plan.set.status = to;
    if (to === 'waiting') {
      // Back in the pool: nobody carries it and it was never picked up; its attempts are history.
      plan.set.runner_id = null;
      plan.set.picked_up_at = null;
      plan.set.delivered_at = null;
      Object.assign(plan.set, { attempts: 0, returning: 0, redelivery_from: null, redelivery_until: null });
    } else {
      plan.set.delivered_at = to === 'delivered' ? nowIso() : null;
    }
  }
  return plan;
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
  if (!current) throw refuse('parcel_not_found', messages.parcelNotFound);
  // The form showed an older parcel: someone picked it up or edited it since (ADR 0006).
  if (patch.version !== undefined && patch.version !== current.version) {
    throw refuse('parcel_changed_meanwhile', messages.parcelChangedMeanwhile);
  }
  const plan = planEdit(current, patch, await placeEditedEnds(ctx.geocoder, current, patch));
  if (plan.fields.length === 0 && !plan.status) return presentParcel(current);

  return presentParcel(await editParcel(ctx.changes, current, plan, admin));
}

/** waiting → in transit for the named runner; a pickup that came first wins (409, nothing overwritten). */
export async function assignParcel(
  ctx: Pick<ParcelsContext, 'db' | 'changes'>,
  admin: AccountRow,
  id: string,
  runnerUserName: string,
): Promise<Parcel> {
  const runner = await findRunnerByUserName(ctx.db, runnerUserName);
  if (!runner) throw refuseField('assignee_not_runner', 'runner', messages.runnerNotFound);
  const refusal = parcelRefusal(runner, 'beAssigned', undefined, 'assignee');
  if (refusal) throw refusal;
  return presentParcel(await claimParcel(ctx.changes, id, runner, admin, 'assigned'));
}
