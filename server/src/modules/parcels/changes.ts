import type { LocationPoint } from '@csomag/domain/delivery';
import { RELAY_OFFER_KIND } from '@csomag/domain/live';
import { messages } from '@csomag/domain/messages';
import type { ParcelEventKind, ParcelStatus } from '@csomag/domain/parcel';
import { photoWindowOpen } from '@csomag/domain/proof';
import type { ExpressionBuilder, Transaction, Updateable } from 'kysely';
import type { ChangeFeed, ParcelChange, PublishChange } from '../../db/change-feed.ts';
import { nowIso } from '../../db/database.ts';
import type { AccountRow, Database, ParcelRow, ParcelsTable, ProofsTable } from '../../db/schema.ts';
import { type AppError, refuse, refuseField } from '../../errors.ts';
import { appendCustody, holderColumns, holderOf, sameParty } from '../relay/chain.ts';
import { relayPlaceName } from '../relay/place.ts';
import { linkRelationship } from '../relay/policy.ts';
import { mayParcel, type ParcelFacts, relationship } from './policy.ts';
import type { ParcelWithNames } from './present.ts';

/**
 * The one write path for parcels. Every change a parcel goes through is a command here: it checks
 * its precondition in the same statement that writes (a conditional UPDATE or DELETE), writes the
 * parcel row and exactly one timeline event in one transaction, and publishes exactly one change
 * message, which listeners hear only after the commit. Nothing else in the server writes
 * `parcel_events` or publishes (changes.test.ts checks both). A change of hands also moves the
 * parcel's holder and custody_seq in that same statement and appends its hash-chained custody
 * event (docs/decisions/0022): the unique (parcel, seq) lets only one change follow each event.
 * Services decide *whether* a change is wanted (geocoding, distances, policies); this module makes
 * it happen atomically. The one message without a timeline event is a relay offer's
 * (announceRelayOffer): the parcel itself does not change.
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
export function carrierStateRefusal(parcel: { status: ParcelStatus } | undefined, carries: boolean): AppError | null {
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
    carrierStateRefusal(current, current !== undefined && relationship.carrier({ id: runnerId }, current)) ??
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

/** A parcel row before custody: insertParcel makes the sender its holder. */
export type NewParcelRow = Omit<ParcelRow, 'holder_kind' | 'holder_id' | 'custody_seq' | 'runner_handovers'>;

/** A new waiting parcel (`created`). The caller draws the id; a clash is a unique violation it retries. */
export function insertParcel(
  changes: Changes,
  newRow: NewParcelRow,
  sender: AccountRow,
  actor: AccountRow,
  occurredAt?: string,
) {
  return changes.transaction(async (trx, publish) => {
    const row: ParcelRow = {
      ...newRow,
      holder_kind: 'sender',
      holder_id: sender.id,
      custody_seq: 0,
      runner_handovers: 0,
    };
    await trx.insertInto('parcels').values(row).execute();
    await appendCustody(trx, {
      parcel_id: row.id,
      seq: 0,
      kind: 'created',
      from_kind: 'none',
      from_id: null,
      to_kind: 'sender',
      to_id: sender.id,
      at: row.created_at,
      confirmed_by: actor.id,
      how: relationship.sender(actor, row) ? 'sender' : 'admin',
    });
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
        ...holderColumns({ kind: 'runner', id: runner.id }),
        custody_seq: eb('custody_seq', '+', 1),
      }))
      .where('id', '=', parcelId)
      .where('status', '=', 'waiting')
      .returningAll()
      .returning(withNames)
      .executeTakeFirst();
    if (!parcel) throw await explainRefusal(trx, parcelId, 'waiting');
    await appendCustody(trx, {
      parcel_id: parcel.id,
      seq: parcel.custody_seq,
      kind,
      from_kind: 'sender',
      from_id: parcel.sender_id,
      to_kind: 'runner',
      to_id: runner.id,
      confirmed_by: actor.id,
      how: kind === 'assigned' ? 'admin' : 'runner',
    });
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
    /** Where it was handed over, when known (the runner's position). */
    place?: { lat: number; lng: number } | undefined;
    /** The 15 m path: a parcel whose sender asked for a photo needs one stored first (issue 15). */
    photoRequiredCheck?: boolean;
    /** The receiver's signature at the QR handover, stored with the delivery (the event names its hash). */
    signature?: NewProof | undefined;
    /**
     * Who confirmed it, when not the actor: the QR handover's signed-in account, or null for
     * someone holding the link without an account (issue 27). The custody event records it.
     */
    confirmedBy?: number | null;
  },
): Promise<ParcelWithNames> {
  return changes.transaction(async (trx, publish) => {
    let update = trx
      .updateTable('parcels')
      .set((eb) => ({
        status: 'delivered',
        delivered_at: nowIso(),
        version: eb('version', '+', 1),
        ...holderColumns({ kind: 'receiver', id: null }),
        custody_seq: eb('custody_seq', '+', 1),
      }))
      .where('id', '=', parcelId)
      .where('status', '=', 'in_transit');
    if (options.runnerId !== undefined) update = update.where('runner_id', '=', options.runnerId);
    const parcel = await update.returningAll().returning(withNames).executeTakeFirst();
    if (!parcel) {
      throw options.runnerId === undefined
        ? await explainRefusal(trx, parcelId, 'in_transit')
        : await explainCarrierRefusal(trx, parcelId, options.runnerId);
    }
    // Checked on the row this transaction holds: a photo deleted or a flag set meanwhile cannot slip
    // through; thrown here, the delivery above is rolled back.
    if (
      options.photoRequiredCheck &&
      parcel.photo_required === 1 &&
      !(await hasPhoto(trx, parcel.id, parcel.runner_id))
    ) {
      throw refuse('photo_required', messages.proofPhotoRequired);
    }
    if (options.signature) await storeProof(trx, parcel.id, options.signature);
    await appendCustody(trx, {
      parcel_id: parcel.id,
      seq: parcel.custody_seq,
      kind: options.kind,
      from_kind: 'runner',
      from_id: parcel.runner_id,
      to_kind: 'receiver',
      to_id: null,
      lat: options.place?.lat ?? null,
      lng: options.place?.lng ?? null,
      confirmed_by: options.confirmedBy === undefined ? actor.id : options.confirmedBy,
      how: options.kind === 'handed_over_qr' ? 'receiver_qr' : options.runnerId === undefined ? 'admin' : 'runner',
    });
    const before = beforeOf('in_transit', parcel.runner_user_name, parcel.receiver_key);
    const { kind, occurredAt } = options;
    const data = options.signature
      ? { ...options.data, signatureSha256: options.signature.sha256 }
      : (options.data ?? null);
    await record(trx, publish, { kind, parcel, before, actor, data, occurredAt });
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
      .set((eb) => ({
        status: 'waiting',
        runner_id: null,
        picked_up_at: null,
        version: eb('version', '+', 1),
        holder_kind: 'sender',
        holder_id: eb.ref('sender_id'),
        custody_seq: eb('custody_seq', '+', 1),
      }))
      .where('id', '=', parcelId)
      .where('status', '=', 'in_transit')
      .where('runner_id', '=', runner.id)
      .returningAll()
      .returning(withNames)
      .executeTakeFirst();
    if (!parcel) throw await explainCarrierRefusal(trx, parcelId, runner.id);
    await appendCustody(trx, {
      parcel_id: parcel.id,
      seq: parcel.custody_seq,
      kind: 'given_back',
      from_kind: 'runner',
      from_id: runner.id,
      to_kind: 'sender',
      to_id: parcel.sender_id,
      confirmed_by: runner.id,
      how: 'runner',
      reason,
    });
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
      if (!current || !relationship.sender(sender, current)) throw refuse('parcel_not_found', messages.parcelNotFound);
      throw refuse('parcel_not_waiting', messages.cancelNotWaiting);
    }
    await appendCustody(trx, {
      parcel_id: row.id,
      seq: row.custody_seq + 1,
      kind: 'cancelled',
      from_kind: 'sender',
      from_id: sender.id,
      to_kind: 'none',
      to_id: null,
      confirmed_by: sender.id,
      how: 'sender',
    });
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
  const from = holderOf(current.status, current.runner_id, current.sender_id);
  const to = holderOf(
    edit.set.status ?? current.status,
    edit.set.runner_id === undefined ? current.runner_id : edit.set.runner_id,
    current.sender_id,
  );
  const movesCustody = !sameParty(from, to);
  return changes.transaction(async (trx, publish) => {
    const row = await trx
      .updateTable('parcels')
      .set((eb) => ({
        ...edit.set,
        version: eb('version', '+', 1),
        ...(movesCustody ? { ...holderColumns(to), custody_seq: eb('custody_seq', '+', 1) } : {}),
      }))
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
    if (row && movesCustody) {
      await appendCustody(trx, {
        parcel_id: row.id,
        seq: row.custody_seq,
        kind: 'status_changed',
        from_kind: from.kind,
        from_id: from.id,
        to_kind: to.kind,
        to_id: to.id,
        confirmed_by: admin.id,
        how: 'admin',
        reason: edit.status?.reason ?? null,
      });
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
    // Its proof, ratings and reports go with the parcel (issue 15); the timeline's `deleted` event stays.
    for (const table of ['proofs', 'ratings', 'not_received_reports'] as const) {
      await trx.deleteFrom(table).where('parcel_id', '=', parcel.id).execute();
    }
    const holder = holderOf(parcel.status, parcel.runner_id, parcel.sender_id);
    await appendCustody(trx, {
      parcel_id: parcel.id,
      seq: parcel.custody_seq + 1,
      kind: 'deleted',
      from_kind: holder.kind,
      from_id: holder.id,
      to_kind: 'none',
      to_id: null,
      confirmed_by: admin.id,
      how: 'admin',
      reason: reason ?? null,
    });
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

/** A proof ready to store: re-encoded without metadata (modules/proofs/image.ts). */
export interface NewProof {
  kind: ProofsTable['kind'];
  image: Buffer;
  mime: string;
  sha256: string;
  width: number;
  height: number;
  strokes: string | null;
  createdBy: number | null;
}

/** A photo by the runner delivering: one taken by an earlier runner (before a give-back) does not count. */
const hasPhoto = async (trx: Trx, parcelId: string, runnerId: number | null) =>
  (await trx
    .selectFrom('proofs')
    .select('id')
    .where('parcel_id', '=', parcelId)
    .where('kind', '=', 'photo')
    .where('created_by', '=', runnerId ?? -1)
    .where('image', 'is not', null)
    .executeTakeFirst()) !== undefined;

/** One proof per parcel and kind: a new one replaces the old (a retaken photo). */
async function storeProof(trx: Trx, parcelId: string, proof: NewProof) {
  await trx.deleteFrom('proofs').where('parcel_id', '=', parcelId).where('kind', '=', proof.kind).execute();
  await trx
    .insertInto('proofs')
    .values({
      parcel_id: parcelId,
      kind: proof.kind,
      image: proof.image,
      mime: proof.mime,
      sha256: proof.sha256,
      width: proof.width,
      height: proof.height,
      strokes: proof.strokes,
      created_by: proof.createdBy,
      created_at: nowIso(),
      removed_at: null,
    })
    .execute();
}

/**
 * Refuses `runner` adding the delivery photo to the parcel as it is: not theirs (the runner of
 * record), then past the window (domain's photoWindowOpen).
 */
export function assertPhotoAllowed<P extends ParcelFacts & Pick<ParcelRow, 'status' | 'delivered_at'>>(
  runner: AccountRow,
  parcel: P | undefined,
  now: number,
): asserts parcel is P {
  if (!parcel) throw refuse('parcel_not_found', messages.parcelNotFound);
  if (!mayParcel(runner, 'addPhoto', parcel)) throw refuse('not_your_parcel', messages.notYourParcel);
  if (!photoWindowOpen(parcel.status, parcel.delivered_at, now)) {
    throw refuse('parcel_not_in_transit', messages.proofNotAllowed);
  }
}

/**
 * The runner's photo of the delivery (issue 15): the runner carrying the parcel, or its last runner
 * shortly after the delivery (the QR handover confirms first). Checked on the row in the same
 * transaction that stores it (photoRefusal); one `proof_photo` event naming the hash, one message.
 * The parcel itself does not change (no new version: a back-office form open on it stays valid).
 */
export function addPhotoProof(
  changes: Changes,
  parcelId: string,
  runner: AccountRow,
  proof: NewProof,
  now: number,
): Promise<ParcelWithNames> {
  return changes.transaction(async (trx, publish) => {
    const parcel = await trx
      .selectFrom('parcels')
      .selectAll()
      .select(withNames)
      .where('id', '=', parcelId)
      .executeTakeFirst();
    assertPhotoAllowed(runner, parcel, now);
    await storeProof(trx, parcel.id, proof);
    await record(trx, publish, {
      kind: 'proof_photo',
      parcel,
      before: beforeOf(parcel.status, parcel.runner_user_name, parcel.receiver_key),
      actor: runner,
      data: { sha256: proof.sha256, width: proof.width, height: proof.height, bytes: proof.image.length },
    });
    return parcel;
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

/** Why a relay's compare-and-swap matched nothing, from the row as it is now (relay_link_used when it moved on). */
async function explainRelayRefusal(trx: Trx, parcelId: string, taker: AccountRow) {
  const current = await trx
    .selectFrom('parcels')
    .select(['status', 'runner_id'])
    .where('id', '=', parcelId)
    .executeTakeFirst();
  if (!current) return refuse('parcel_not_found', messages.parcelNotFound);
  if (current.status === 'in_transit' && relationship.carrier(taker, current)) {
    return refuse('relay_own_parcel', messages.relayOwnParcel);
  }
  return refuse('relay_link_used', messages.relayLinkUsed);
}

/**
 * Runner → runner hand-over (issue 14): custody moves from `issuerId` to `taker` by one
 * compare-and-swap naming the expected holder and custody_seq (both from the signed link), so of
 * any number of runners confirming the same link exactly one matches; the others, and any link
 * issued before the parcel last changed hands, are refused with nothing changed.
 */
export function relayParcel(
  changes: Changes,
  parcelId: string,
  expected: { issuerId: number; seq: number },
  taker: AccountRow,
  place: { lat: number; lng: number } | undefined,
): Promise<ParcelWithNames> {
  return changes.transaction(async (trx, publish) => {
    if (linkRelationship.issuer(taker, expected)) throw refuse('relay_own_parcel', messages.relayOwnParcel);
    const placeName = await relayPlaceName(trx, parcelId, expected, taker, place);
    const parcel = await trx
      .updateTable('parcels')
      .set((eb) => ({
        runner_id: taker.id,
        version: eb('version', '+', 1),
        ...holderColumns({ kind: 'runner', id: taker.id }),
        custody_seq: eb('custody_seq', '+', 1),
        runner_handovers: eb('runner_handovers', '+', 1),
      }))
      .where('id', '=', parcelId)
      .where('status', '=', 'in_transit')
      .where('runner_id', '=', expected.issuerId)
      .where('holder_kind', '=', 'runner')
      .where('holder_id', '=', expected.issuerId)
      .where('custody_seq', '=', expected.seq)
      .returningAll()
      .returning(withNames)
      .executeTakeFirst();
    if (!parcel) throw await explainRelayRefusal(trx, parcelId, taker);
    await appendCustody(trx, {
      parcel_id: parcel.id,
      seq: parcel.custody_seq,
      kind: 'relayed',
      from_kind: 'runner',
      from_id: expected.issuerId,
      to_kind: 'runner',
      to_id: taker.id,
      lat: place?.lat ?? null,
      lng: place?.lng ?? null,
      confirmed_by: taker.id,
      how: 'runner_qr',
    });
    const issuer = await trx
      .selectFrom('accounts')
      .select('user_name')
      .where('id', '=', expected.issuerId)
      .executeTakeFirst();
    const before = beforeOf('in_transit', issuer?.user_name ?? null, parcel.receiver_key);
    await record(trx, publish, {
      kind: 'relayed',
      parcel,
      before,
      actor: taker,
      data: { from: issuer?.user_name ?? null, to: taker.user_name, ...(place ? { place } : {}), placeName },
    });
    return parcel;
  });
}

/**
 * The superadmin's explicit correction of who carries an in-transit parcel, with a reason: a
 * compare-and-swap on the custody_seq read in the same transaction, recorded as an `override`
 * custody event and a `custody_override` timeline event.
 */
export function overrideCustody(
  changes: Changes,
  parcelId: string,
  runner: AccountRow,
  admin: AccountRow,
  reason: string,
): Promise<ParcelWithNames> {
  return changes.transaction(async (trx, publish) => {
    const current = await trx
      .selectFrom('parcels')
      .select(['status', 'runner_id', 'holder_kind', 'holder_id', 'custody_seq'])
      .select(withNames)
      .where('id', '=', parcelId)
      .executeTakeFirst();
    if (!current) throw refuse('parcel_not_found', messages.parcelNotFound);
    if (current.status !== 'in_transit') {
      throw refuse('parcel_not_in_transit', messages.custodyOverrideNotInTransit);
    }
    if (relationship.carrier(runner, current)) throw refuse('custody_unchanged', messages.custodyOverrideSameRunner);
    const parcel = await trx
      .updateTable('parcels')
      .set((eb) => ({
        runner_id: runner.id,
        version: eb('version', '+', 1),
        ...holderColumns({ kind: 'runner', id: runner.id }),
        custody_seq: eb('custody_seq', '+', 1),
        runner_handovers: eb('runner_handovers', '+', 1),
      }))
      .where('id', '=', parcelId)
      .where('status', '=', 'in_transit')
      .where('custody_seq', '=', current.custody_seq)
      .returningAll()
      .returning(withNames)
      .executeTakeFirst();
    if (!parcel) throw refuse('parcel_changed_meanwhile', messages.parcelChangedMeanwhile);
    await appendCustody(trx, {
      parcel_id: parcel.id,
      seq: parcel.custody_seq,
      kind: 'override',
      from_kind: current.holder_kind,
      from_id: current.holder_id,
      to_kind: 'runner',
      to_id: runner.id,
      confirmed_by: admin.id,
      how: 'admin',
      reason,
    });
    const before = beforeOf('in_transit', current.runner_user_name, parcel.receiver_key);
    await record(trx, publish, {
      kind: 'custody_override',
      parcel,
      before,
      actor: admin,
      data: { from: current.runner_user_name, to: runner.user_name, reason },
    });
    return parcel;
  });
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

/**
 * Tells the runners that the relay offer `offerId` changed (relay/relay-offers.ts), inside the transaction
 * that changed it, with no timeline event: its
 * parcel stays in transit with the offerer (previous null: no list loses or gains the parcel).
 */
export async function announceRelayOffer(trx: Trx, publish: PublishChange, offerId: number) {
  const row = await trx
    .selectFrom('relay_offers')
    .innerJoin('parcels', 'parcels.id', 'relay_offers.parcel_id')
    .innerJoin('accounts as offerer', 'offerer.id', 'relay_offers.runner_id')
    .innerJoin('accounts as sender', 'sender.id', 'parcels.sender_id')
    .select([
      'relay_offers.parcel_id',
      'parcels.receiver_key',
      'offerer.user_name as runner_user_name',
      'sender.user_name as sender_user_name',
    ])
    .where('relay_offers.id', '=', offerId)
    .executeTakeFirstOrThrow();
  await publish({
    kind: RELAY_OFFER_KIND,
    parcelId: row.parcel_id,
    status: 'in_transit',
    runner: row.runner_user_name,
    senderUser: row.sender_user_name,
    receiverKey: row.receiver_key,
    previous: null,
  });
}

/**
 * The back office changes a runner's trust (issue 15): approved, suspended with a reason, or
 * reinstated. One `runner_trust` change message in the same transaction, so every instance's live
 * streams of that runner narrow or widen at once (issue 24); no parcel changes, no timeline event.
 */
export function setRunnerTrust(
  changes: Changes,
  runnerId: number,
  patch: Partial<Pick<AccountRow, 'approved_at' | 'suspended_at' | 'suspended_reason'>>,
): Promise<AccountRow> {
  return changes.transaction(async (trx, publish) => {
    const runner = await trx
      .updateTable('accounts')
      .set({ ...patch, updated_at: nowIso() })
      .where('id', '=', runnerId)
      .returningAll()
      .executeTakeFirstOrThrow();
    await publish({
      kind: 'runner_trust',
      runner: runner.user_name.toLowerCase(),
      approvedAt: runner.approved_at,
      suspendedAt: runner.suspended_at,
    });
    return runner;
  });
}
