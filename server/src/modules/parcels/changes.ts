import { type AttemptReason, returnsAtOnce } from '@csomag/domain/attempts';
import type { LocationPoint, Position } from '@csomag/domain/delivery';
import { distanceMetres } from '@csomag/domain/geo';
import type { IncidentKind } from '@csomag/domain/incidents';
import { RELAY_OFFER_KIND } from '@csomag/domain/live';
import { RECEIVER_NEAR_METRES } from '@csomag/domain/mail';
import { messages } from '@csomag/domain/messages';
import type { ParcelEventKind, ParcelStatus } from '@csomag/domain/parcel';
import { photoWindowOpen } from '@csomag/domain/proof';
import type { CustodyHolderKind, CustodyHow } from '@csomag/domain/relay';
import { type ExpressionBuilder, type Kysely, sql, type Transaction, type Updateable } from 'kysely';
import type { ChangeFeed, ParcelChange, PublishChange } from '../../db/change-feed.ts';
import { compiledPerStore } from '../../db/compiled-once.ts';
import { nowIso, onPostgres, sendBehind } from '../../db/database.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import type { AccountRow, Database, ParcelRow, ParcelsTable, ProofsTable } from '../../db/schema.ts';
import { type AppError, refuse, refuseField } from '../../errors.ts';
import { precisionColumns } from '../places/precision.ts';
import {
  CUSTODY_COLUMNS,
  type CustodyEventRow,
  custodyEvent,
  holderColumns,
  holderOf,
  sameParty,
} from '../relay/chain.ts';
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

/** A timeline event's columns, in the order record's compiled INSERTs take them (a custody event's: CUSTODY_COLUMNS). */
const EVENT_COLUMNS = ['parcel_id', 'at', 'kind', 'actor_id', 'data', 'occurred_at'] as const;
const rowOf = (columns: readonly string[], values: readonly unknown[]) =>
  Object.fromEntries(columns.map((column, i) => [column, values[i]])) as never;

/** The timeline event's INSERT, and on PostgreSQL the custody event's with it in one statement, each compiled once. */
const eventInsert = compiledPerStore(EVENT_COLUMNS.length, (db: Kysely<Database>, ...values: unknown[]) =>
  db.insertInto('parcel_events').values(rowOf(EVENT_COLUMNS, values)),
);
const custodyAndEventInsert = compiledPerStore(
  CUSTODY_COLUMNS.length + EVENT_COLUMNS.length,
  (db: Kysely<Database>, ...values: unknown[]) =>
    db
      .with('custody', (db) => db.insertInto('custody_events').values(rowOf(CUSTODY_COLUMNS, values)))
      .insertInto('parcel_events')
      .values(rowOf(EVENT_COLUMNS, values.slice(CUSTODY_COLUMNS.length))),
);

/** The last step of every command: one timeline event, one change message, inside its transaction. */
async function record(
  trx: Trx,
  publish: PublishChange,
  change: {
    /** The change of hands it makes, if any (custodyEvent's), written with the timeline event. */
    custody?: CustodyEventRow | undefined;
    kind: ParcelEventKind;
    parcel: ParcelWithNames;
    before: Before;
    /** Who did it; null: a rule of time (a drop point's collection deadline). */
    actor: AccountRow | null;
    data?: Record<string, unknown> | null;
    /** When it happened, if the row already says (a new parcel's created_at); else now. */
    at?: string;
    /** When the person says it happened (sent later from the offline outbox, ADR 0017); else at `at`. */
    occurredAt?: string | undefined;
    /** Decided by the back office (an incident's decision): told as such, not as what a rule of time does. */
    byBackOffice?: boolean;
  },
) {
  const { kind, parcel, actor, data, custody } = change;
  const event = {
    parcel_id: parcel.id,
    at: change.at ?? nowIso(),
    kind,
    actor_id: actor?.id ?? null,
    data: data ? JSON.stringify(data) : null,
    occurred_at: change.occurredAt ?? null,
  };
  // Sent behind (on PostgreSQL with the change's next statement): a round trip costs its app more than the statement (ADR 0033).
  const eventValues = EVENT_COLUMNS.map((column) => event[column]);
  if (custody && onPostgres(trx)) {
    const custodyValues = CUSTODY_COLUMNS.map((column) => custody[column]);
    await sendBehind(trx, custodyAndEventInsert.compile(trx, ...custodyValues, ...eventValues));
  } else {
    // SQLite has no INSERT in WITH: the custody event first, on its own.
    if (custody) await trx.insertInto('custody_events').values(custody).execute();
    await sendBehind(trx, eventInsert.compile(trx, ...eventValues));
  }
  await publish({
    kind,
    parcelId: parcel.id,
    status: parcel.status,
    runner: parcel.runner_user_name,
    senderUser: parcel.sender_user_name,
    receiverKey: parcel.receiver_key,
    previous: change.before,
    ...(change.byBackOffice ? { byBackOffice: true as const } : {}),
  });
}

/** Why a precondition failed, told from the parcel as it is now (inside the same transaction). */
function explainRefusal(trx: Trx, parcelId: string, wanted: 'waiting' | 'in_transit') {
  const otherwise =
    wanted === 'waiting'
      ? refuse('parcel_taken', messages.parcelTaken)
      : refuse('parcel_not_in_transit', messages.parcelNotInTransit);
  return refusalNow(trx, parcelId, otherwise);
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
  return finishedRefusal(parcel.status) ?? refuse('parcel_not_in_transit', messages.parcelNotInTransit);
}

/** A parcel whose journey is over (delivered, back with its sender, written off) takes no more changes of hands. */
export function finishedRefusal(status: ParcelStatus): AppError | null {
  if (status === 'delivered') return refuse('parcel_already_delivered', messages.parcelAlreadyDelivered);
  if (status === 'returned') return refuse('parcel_already_delivered', messages.returnedParcel);
  if (status === 'lost') return refuse('parcel_not_in_transit', messages.lostParcel);
  return null;
}

/** Why a conditional write matched nothing: gone, its journey over, or else `otherwise` (from the row as it is now). */
async function refusalNow(trx: Trx, parcelId: string, otherwise: AppError) {
  const current = await trx.selectFrom('parcels').select('status').where('id', '=', parcelId).executeTakeFirst();
  if (!current) return refuse('parcel_not_found', messages.parcelNotFound);
  return finishedRefusal(current.status) ?? otherwise;
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
 * A refusal of a change a parcel on its way back does not take: `returning` when that is the one
 * reason (everything else — whose, which state — in order), else the refusal as explained.
 */
async function unlessReturning(trx: Trx, parcelId: string, refusal: AppError, returning: AppError) {
  const current = await trx.selectFrom('parcels').select('returning').where('id', '=', parcelId).executeTakeFirst();
  return current?.returning === 1 && refusal.code === 'parcel_not_in_transit' ? returning : refusal;
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
    eb
      .selectFrom('drop_points')
      .select('name')
      .whereRef('drop_points.id', '=', 'parcels.drop_point_id')
      .$asScalar()
      .$castTo<string | null>()
      .as('drop_point_name'),
    eb
      .selectFrom('drop_points')
      .select('address')
      .whereRef('drop_points.id', '=', 'parcels.drop_point_id')
      .$asScalar()
      .$castTo<string | null>()
      .as('drop_point_address'),
    // The hash a custody event appended after this change follows (seq is the changed row's): read
    // here, it costs the change no round trip of its own (issue 31).
    eb
      .selectFrom('custody_events')
      .select('hash')
      .whereRef('custody_events.parcel_id', '=', 'parcels.id')
      .whereRef('custody_events.seq', '=', eb('parcels.custody_seq', '-', 1))
      .$asScalar()
      .$castTo<string | null>()
      .as('custody_prev_hash'),
  ] as const;

/** What a parcel starts with beside its own facts: nothing attempted, nothing asked (issue 28), nobody mailed yet (29). */
export const NO_ATTEMPTS = {
  attempts: 0,
  returning: 0,
  redelivery_from: null,
  redelivery_until: null,
  neighbour_name: null,
  neighbour_door: null,
  neighbour_wish_name: null,
  neighbour_wish_door: null,
  drop_point_id: null,
  at_drop_point_since: null,
  receiver_mail_stopped_at: null,
  receiver_near_mailed_at: null,
} as const;

/** A parcel row before custody and what comes after sending: insertParcel fills those in. */
export type NewParcelRow = Omit<
  ParcelRow,
  'holder_kind' | 'holder_id' | 'custody_seq' | 'runner_handovers' | keyof typeof NO_ATTEMPTS
>;

/** A change message's parcel where its drop point's names are not read (they are not in the message). */
const NO_DROP_POINT_NAMES = { drop_point_name: null, drop_point_address: null } as const;

/** A new waiting parcel (`created`). The caller draws the id; a clash is a unique violation it retries. */
export function insertParcel(
  changes: Changes,
  newRow: NewParcelRow,
  sender: AccountRow,
  actor: AccountRow,
  occurredAt?: string,
  /** The drop point the sender chose instead of the door (its point is already the row's destination). */
  dropPoint?: { id: number; name: string; address: string },
) {
  return changes.transaction(async (trx, publish) => {
    const row: ParcelRow = {
      ...newRow,
      holder_kind: 'sender',
      holder_id: sender.id,
      custody_seq: 0,
      runner_handovers: 0,
      ...NO_ATTEMPTS,
      drop_point_id: dropPoint?.id ?? null,
    };
    await trx.insertInto('parcels').values(row).execute();
    const custody = await custodyEvent(trx, {
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
    const parcel: ParcelWithNames = {
      ...row,
      sender_user_name: sender.user_name,
      runner_user_name: null,
      drop_point_name: dropPoint?.name ?? null,
      drop_point_address: dropPoint?.address ?? null,
    };
    await record(trx, publish, {
      custody,
      kind: 'created',
      parcel,
      before: null,
      actor,
      at: row.created_at,
      occurredAt,
    });
    return parcel;
  });
}

/** claimParcel's UPDATE: the hottest write there is, built and compiled once (compiled-once.ts). */
const claimWrite = compiledPerStore(3, (db: Kysely<Database>, parcelId: string, runnerId: number, at: string) =>
  db
    .updateTable('parcels')
    .set((eb) => ({
      status: 'in_transit',
      runner_id: runnerId,
      picked_up_at: at,
      version: eb('version', '+', 1),
      ...holderColumns({ kind: 'runner', id: runnerId }),
      custody_seq: eb('custody_seq', '+', 1),
    }))
    .where('id', '=', parcelId)
    .where('status', '=', 'waiting')
    .returningAll()
    .returning(withNames),
);

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
    const [parcel] = await claimWrite(trx, parcelId, runner.id, nowIso());
    if (!parcel) throw await explainRefusal(trx, parcelId, 'waiting');
    const custody = await custodyEvent(trx, {
      parcel_id: parcel.id,
      prev_hash: parcel.custody_prev_hash,
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
    await record(trx, publish, {
      custody,
      kind,
      parcel,
      before,
      actor,
      data,
      occurredAt,
    });
    return parcel;
  });
}

/**
 * The parcel reaches the person it is for now, as one SET: its receiver (delivered), or on its way
 * back (issue 28) its sender (returned) — decided by the row itself, in the statement that writes it.
 */
const reachesItsPerson = (eb: ExpressionBuilder<Database, 'parcels'>, at = nowIso()) => {
  const back = eb('returning', '=', 1);
  return {
    status: eb.case().when(back).then('returned').else('delivered').end().$castTo<ParcelStatus>(),
    delivered_at: at,
    version: eb('version', '+', 1),
    holder_kind: eb.case().when(back).then('sender').else('receiver').end().$castTo<CustodyHolderKind>(),
    holder_id: eb.case().when(back).then(eb.ref('sender_id')).else(null).end(),
    custody_seq: eb('custody_seq', '+', 1),
  };
};

/** deliverParcel's UPDATE (in_transit → its person), compiled once for each condition it takes (compiled-once.ts). */
const deliveryWrite = (db: Kysely<Database>, parcelId: string, at: string) =>
  db
    .updateTable('parcels')
    .set((eb) => reachesItsPerson(eb, at))
    .where('id', '=', parcelId)
    .where('status', '=', 'in_transit');
const deliveryWrites = {
  any: compiledPerStore(2, (db: Kysely<Database>, parcelId: string, at: string) =>
    deliveryWrite(db, parcelId, at).returningAll().returning(withNames),
  ),
  /** Only by the runner carrying it. */
  byCarrier: compiledPerStore(3, (db: Kysely<Database>, parcelId: string, at: string, runnerId: number) =>
    deliveryWrite(db, parcelId, at).where('runner_id', '=', runnerId).returningAll().returning(withNames),
  ),
  /** At the custody seq the hand-over was checked at. */
  atSeq: compiledPerStore(3, (db: Kysely<Database>, parcelId: string, at: string, expectedSeq: number) =>
    deliveryWrite(db, parcelId, at).where('custody_seq', '=', expectedSeq).returningAll().returning(withNames),
  ),
  byCarrierAtSeq: compiledPerStore(
    4,
    (db: Kysely<Database>, parcelId: string, at: string, runnerId: number, expectedSeq: number) =>
      deliveryWrite(db, parcelId, at)
        .where('runner_id', '=', runnerId)
        .where('custody_seq', '=', expectedSeq)
        .returningAll()
        .returning(withNames),
  ),
};

/** How a delivery's custody event says it was confirmed: by whom it reached, or by the runner or the back office. */
function howHandedOver(kind: 'delivered' | 'handed_over_qr' | 'handed_over_pin', returned: boolean, byRunner: boolean) {
  if (kind === 'handed_over_qr') return returned ? 'sender_qr' : 'receiver_qr';
  if (kind === 'handed_over_pin') return returned ? 'sender_pin' : 'receiver_pin';
  return byRunner ? 'runner' : 'admin';
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
    kind: 'delivered' | 'handed_over_qr' | 'handed_over_pin';
    /** The custody seq the hand-over was checked at (the PIN's leg): a change of hands since refuses it. */
    expectedSeq?: number;
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
    // On its way back (issue 28), the same hand-over at the sender's door returns it to them.
    const { runnerId, expectedSeq } = options;
    const at = nowIso();
    const [parcel] =
      runnerId === undefined
        ? expectedSeq === undefined
          ? await deliveryWrites.any(trx, parcelId, at)
          : await deliveryWrites.atSeq(trx, parcelId, at, expectedSeq)
        : expectedSeq === undefined
          ? await deliveryWrites.byCarrier(trx, parcelId, at, runnerId)
          : await deliveryWrites.byCarrierAtSeq(trx, parcelId, at, runnerId, expectedSeq);
    if (!parcel) {
      throw options.runnerId === undefined
        ? await explainRefusal(trx, parcelId, 'in_transit')
        : await explainCarrierRefusal(trx, parcelId, options.runnerId);
    }
    const returned = parcel.status === 'returned';
    // Checked on the row this transaction holds: a photo deleted or a flag set meanwhile cannot slip
    // through; thrown here, the delivery above is rolled back. The sender's wish is for the receiver's door.
    if (
      !returned &&
      options.photoRequiredCheck &&
      parcel.photo_required === 1 &&
      !(await hasPhoto(trx, parcel.id, parcel.runner_id))
    ) {
      throw refuse('photo_required', messages.proofPhotoRequired);
    }
    if (options.signature) await storeProof(trx, parcel.id, options.signature);

    const custody = await custodyEvent(trx, {
      parcel_id: parcel.id,
      prev_hash: parcel.custody_prev_hash,
      seq: parcel.custody_seq,
      kind: returned ? 'returned' : options.kind,
      from_kind: 'runner',
      from_id: parcel.runner_id,
      to_kind: returned ? 'sender' : 'receiver',
      to_id: returned ? parcel.sender_id : null,
      lat: options.place?.lat ?? null,
      lng: options.place?.lng ?? null,
      confirmed_by: options.confirmedBy === undefined ? actor.id : options.confirmedBy,
      how: howHandedOver(options.kind, returned, options.runnerId !== undefined),
    });
    const before = beforeOf('in_transit', parcel.runner_user_name, parcel.receiver_key);
    const { occurredAt } = options;
    const data = {
      ...options.data,
      ...(options.signature ? { signatureSha256: options.signature.sha256 } : {}),
      // How a return was handed over: by position or by the sender's QR confirmation.
      ...(returned ? { handover: options.kind } : {}),
    };
    const kind = returned ? 'returned' : options.kind;
    await record(trx, publish, {
      custody,
      kind,
      parcel,
      before,
      actor,
      data: Object.keys(data).length ? data : null,
      occurredAt,
    });
    return parcel;
  });
}

/** A failed attempt as the carrier records it (issue 28): the service has checked where they stand. */
export interface AttemptFacts {
  reason: AttemptReason;
  note: string | null;
  position: Position;
  occurredAt?: string | undefined;
  /** After this many failed attempts the parcel goes back to its sender (config). */
  returnAfter: number;
}

/**
 * A failed delivery attempt ('Nem sikerült kézbesíteni'), by the runner carrying the parcel: it
 * stays in their hands (a custody event from them to them, where they stood), the attempt is
 * counted, and the window asked for it is used up. A refusal, or the `returnAfter`-th failed
 * attempt, turns it back to its sender in the same write; on the way back the attempts at the
 * sender's door are only counted. Conditional on the status and the carrier, like a delivery.
 */
export function recordAttempt(changes: Changes, parcelId: string, runner: AccountRow, attempt: AttemptFacts) {
  return changes.transaction(async (trx, publish) => {
    const turnsBack = (eb: ExpressionBuilder<Database, 'parcels'>) =>
      eb.and([
        eb('returning', '=', 0),
        returnsAtOnce(attempt.reason) ? eb.lit(true) : eb('attempts', '>=', attempt.returnAfter - 1),
      ]);
    const parcel = await trx
      .updateTable('parcels')
      .set((eb) => ({
        attempts: eb
          .case()
          .when(turnsBack(eb))
          .then(0)
          .else(eb('attempts', '+', 1))
          .end(),
        returning: eb.case().when(turnsBack(eb)).then(1).else(eb.ref('returning')).end(),
        redelivery_from: null,
        redelivery_until: null,
        version: eb('version', '+', 1),
        custody_seq: eb('custody_seq', '+', 1),
      }))
      .where('id', '=', parcelId)
      .where('status', '=', 'in_transit')
      .where('runner_id', '=', runner.id)
      .returningAll()
      .returning(withNames)
      .executeTakeFirst();
    if (!parcel) throw await explainCarrierRefusal(trx, parcelId, runner.id);
    // Counting from 1 on the way back: a return that starts here has counted nothing yet.
    const startedReturn = parcel.returning === 1 && parcel.attempts === 0;
    const last = await trx
      .selectFrom('delivery_attempts')
      .select((eb) => eb.fn.max('number').as('number'))
      .where('parcel_id', '=', parcel.id)
      .executeTakeFirst();
    const number = Number(last?.number ?? 0) + 1;
    const at = nowIso();
    const { lat, lng, accuracy } = attempt.position;
    await trx
      .insertInto('delivery_attempts')
      .values({
        parcel_id: parcel.id,
        number,
        runner_id: runner.id,
        reason: attempt.reason,
        note: attempt.note,
        lat,
        lng,
        accuracy,
        at,
        occurred_at: attempt.occurredAt ?? null,
        started_return: startedReturn ? 1 : 0,
      })
      .execute();
    const custody = await custodyEvent(trx, {
      parcel_id: parcel.id,
      prev_hash: parcel.custody_prev_hash,
      seq: parcel.custody_seq,
      kind: 'attempted',
      from_kind: 'runner',
      from_id: runner.id,
      to_kind: 'runner',
      to_id: runner.id,
      lat,
      lng,
      confirmed_by: runner.id,
      how: 'runner',
      reason: attempt.reason,
    });
    const before = beforeOf('in_transit', runner.user_name, parcel.receiver_key);
    const data = { number, reason: attempt.reason, startedReturn };
    await record(trx, publish, {
      custody,
      kind: 'attempted',
      parcel,
      before,
      actor: runner,
      data,
      at,
      occurredAt: attempt.occurredAt,
    });
    return { parcel, number, startedReturn };
  });
}

/**
 * 'Szomszédnál hagyom': the carrier leaves the parcel with the receiver's neighbour, who
 * confirmed by typing their name on the carrier's phone. Custody moves to the neighbour (no
 * account: named in the event's reason); the runner stays its runner of record. Conditional on
 * the carrier and on its going to the receiver (not on its way back).
 */
export function leaveWithNeighbour(
  changes: Changes,
  parcelId: string,
  runner: AccountRow,
  neighbour: { name: string; door: string; position: Position; occurredAt?: string | undefined },
) {
  return changes.transaction(async (trx, publish) => {
    const parcel = await trx
      .updateTable('parcels')
      .set((eb) => ({
        status: 'with_neighbour',
        neighbour_name: neighbour.name,
        neighbour_door: neighbour.door,
        redelivery_from: null,
        redelivery_until: null,
        version: eb('version', '+', 1),
        ...holderColumns({ kind: 'neighbour', id: null }),
        custody_seq: eb('custody_seq', '+', 1),
      }))
      .where('id', '=', parcelId)
      .where('status', '=', 'in_transit')
      .where('runner_id', '=', runner.id)
      .where('returning', '=', 0)
      .returningAll()
      .returning(withNames)
      .executeTakeFirst();
    if (!parcel) {
      const refusal = await explainCarrierRefusal(trx, parcelId, runner.id);
      throw await unlessReturning(
        trx,
        parcelId,
        refusal,
        refuse('parcel_not_in_transit', messages.neighbourNotForReturn),
      );
    }
    const custody = await custodyEvent(trx, {
      parcel_id: parcel.id,
      prev_hash: parcel.custody_prev_hash,
      seq: parcel.custody_seq,
      kind: 'left_with_neighbour',
      from_kind: 'runner',
      from_id: runner.id,
      to_kind: 'neighbour',
      to_id: null,
      lat: neighbour.position.lat,
      lng: neighbour.position.lng,
      // Confirmed by the neighbour, who has no account: their name stands in the reason.
      confirmed_by: null,
      how: 'neighbour_name',
      reason: `${neighbour.name} (${neighbour.door})`,
    });
    const before = beforeOf('in_transit', runner.user_name, parcel.receiver_key);
    await record(trx, publish, {
      custody,
      kind: 'left_with_neighbour',
      parcel,
      before,
      actor: runner,
      data: { name: neighbour.name, door: neighbour.door },
      occurredAt: neighbour.occurredAt,
    });
    return parcel;
  });
}

/**
 * The parcel goes to a drop point instead of the door (issue 28): chosen by its receiver or sender
 * after a failed attempt, or by its carrier who cannot finish ('Visszaadom'). The destination's
 * point becomes the drop point's (where the carrier hands it over and trips reckon with); the
 * receiver's address stays (it says whose it is). Nothing changes hands: no custody event.
 */
export function chooseDropPoint(
  changes: Changes,
  parcelId: string,
  /** null: the receiver through the link in their mail (issue 29). */
  actor: AccountRow | null,
  point: { id: number; name: string; lat: number; lng: number },
  carrierId: number | null,
) {
  return changes.transaction(async (trx, publish) => {
    let update = trx
      .updateTable('parcels')
      .set((eb) => ({
        drop_point_id: point.id,
        receiver_lat: point.lat,
        receiver_lng: point.lng,
        ...precisionColumns('receiver', 'manual'),
        redelivery_from: null,
        redelivery_until: null,
        version: eb('version', '+', 1),
      }))
      .where('id', '=', parcelId)
      .where('status', '=', 'in_transit')
      .where('returning', '=', 0);
    // Its carrier at any time; its receiver or sender once an attempt failed.
    update = carrierId === null ? update.where('attempts', '>', 0) : update.where('runner_id', '=', carrierId);
    const parcel = await update.returningAll().returning(withNames).executeTakeFirst();
    if (!parcel) throw await refusalNow(trx, parcelId, refuse('parcel_not_in_transit', messages.dropPointNotNow));
    const before = beforeOf('in_transit', parcel.runner_user_name, parcel.receiver_key);
    const data = { dropPointId: point.id, name: point.name };
    await record(trx, publish, { kind: 'drop_point_chosen', parcel, before, actor, data });
    return parcel;
  });
}

/**
 * The runner leaves the parcel at its drop point, with the code the point's staff read out
 * (checked by the caller at `expectedSeq`): custody to the drop point, the collection deadline
 * running from now.
 */
export function dropOffParcel(changes: Changes, parcelId: string, runner: AccountRow, expectedSeq: number) {
  return changes.transaction(async (trx, publish) => {
    const parcel = await trx
      .updateTable('parcels')
      .set((eb) => ({
        status: 'at_drop_point',
        at_drop_point_since: nowIso(),
        version: eb('version', '+', 1),
        holder_kind: 'drop_point',
        holder_id: eb.ref('drop_point_id'),
        custody_seq: eb('custody_seq', '+', 1),
      }))
      .where('id', '=', parcelId)
      .where('status', '=', 'in_transit')
      .where('runner_id', '=', runner.id)
      .where('custody_seq', '=', expectedSeq)
      .where('drop_point_id', 'is not', null)
      .returningAll()
      .returning(withNames)
      .executeTakeFirst();
    if (!parcel) throw await explainCarrierRefusal(trx, parcelId, runner.id);
    const custody = await custodyEvent(trx, {
      parcel_id: parcel.id,
      prev_hash: parcel.custody_prev_hash,
      seq: parcel.custody_seq,
      kind: 'dropped_off',
      from_kind: 'runner',
      from_id: runner.id,
      to_kind: 'drop_point',
      to_id: parcel.drop_point_id,
      confirmed_by: runner.id,
      how: 'drop_point_pin',
    });
    const before = beforeOf('in_transit', runner.user_name, parcel.receiver_key);
    await record(trx, publish, {
      custody,
      kind: 'dropped_off',
      parcel,
      before,
      actor: runner,
      data: { dropPointId: parcel.drop_point_id },
    });
    return parcel;
  });
}

/**
 * The parcel leaves a neighbour or a drop point for its receiver — or, waiting at a drop point on
 * its way back, its sender — who showed their code (checked by the caller at `expectedSeq`).
 * `confirmer` is who typed the code in: the receiver themself at a neighbour's, the staff at a
 * drop point.
 */
export function collectParcel(
  changes: Changes,
  parcelId: string,
  /** null: the receiver through the link in their mail (issue 29). */
  confirmer: AccountRow | null,
  expectedSeq: number,
  from: 'with_neighbour' | 'at_drop_point',
) {
  return changes.transaction(async (trx, publish) => {
    const parcel = await trx
      .updateTable('parcels')
      .set(reachesItsPerson)
      .where('id', '=', parcelId)
      .where('status', '=', from)
      .where('custody_seq', '=', expectedSeq)
      .returningAll()
      .returning(withNames)
      .executeTakeFirst();
    if (!parcel) {
      const notThere = from === 'at_drop_point' ? messages.dropPointNotHere : messages.notWithNeighbour;
      throw await refusalNow(trx, parcelId, refuse('parcel_not_in_transit', notThere));
    }
    const returned = parcel.status === 'returned';
    const atDropPoint = from === 'at_drop_point';
    const custody = await custodyEvent(trx, {
      parcel_id: parcel.id,
      prev_hash: parcel.custody_prev_hash,
      seq: parcel.custody_seq,
      kind: returned ? 'returned' : 'collected',
      from_kind: atDropPoint ? 'drop_point' : 'neighbour',
      from_id: atDropPoint ? parcel.drop_point_id : null,
      to_kind: returned ? 'sender' : 'receiver',
      to_id: returned ? parcel.sender_id : null,
      confirmed_by: confirmer?.id ?? null,
      how: returned ? 'sender_pin' : 'receiver_pin',
    });
    const before = beforeOf(from, parcel.runner_user_name, parcel.receiver_key);
    const kind = returned ? 'returned' : atDropPoint ? 'collected_at_drop_point' : 'collected';
    const data = atDropPoint ? { dropPointId: parcel.drop_point_id } : null;
    await record(trx, publish, {
      custody,
      kind,
      parcel,
      before,
      actor: confirmer,
      data,
    });
    return parcel;
  });
}

/**
 * Why a parcel waiting at a drop point goes back to its sender (issue 28): its receiver let the
 * days pass (a rule of time: nobody acts), or refused it at the counter (its staff say so).
 */
export type DropPointReturnCause =
  | { uncollectedDays: number }
  | { refusedBefore: AccountRow }
  /** An incident's decision (the staff reported it damaged there), made with the incident's own write. */
  | { backOffice: AccountRow; reason: string; also: Also };

/**
 * A parcel waiting at a drop point for its receiver goes back to its sender: it stays where it
 * is, its sender may collect it there, and a runner may take it to their door. Conditional on
 * still waiting for its receiver at the seq read; null when it changed meanwhile.
 */
export function returnFromDropPoint(
  changes: Changes,
  parcelId: string,
  expectedSeq: number,
  cause: DropPointReturnCause,
) {
  return changes.transaction(async (trx, publish) => {
    const parcel = await trx
      .updateTable('parcels')
      // The attempts counted were at the receiver's door; on the way back they count afresh.
      .set((eb) => ({
        returning: 1,
        attempts: 0,
        version: eb('version', '+', 1),
        custody_seq: eb('custody_seq', '+', 1),
      }))
      .where('id', '=', parcelId)
      .where('status', '=', 'at_drop_point')
      .where('returning', '=', 0)
      .where('custody_seq', '=', expectedSeq)
      .returningAll()
      .returning(withNames)
      .executeTakeFirst();
    if (!parcel) return null;
    const said: { actor: AccountRow | null; how: CustodyHow; reason: string; data: Record<string, unknown> } =
      'uncollectedDays' in cause
        ? { actor: null, how: 'deadline', reason: `uncollected ${cause.uncollectedDays} days`, data: cause }
        : 'refusedBefore' in cause
          ? {
              actor: cause.refusedBefore,
              how: 'drop_point_staff',
              reason: 'refused at the drop point',
              data: { refusedAtDropPoint: true },
            }
          : { actor: cause.backOffice, how: 'admin', reason: cause.reason, data: { reason: cause.reason } };
    const custody = await custodyEvent(trx, {
      parcel_id: parcel.id,
      prev_hash: parcel.custody_prev_hash,
      seq: parcel.custody_seq,
      kind: 'return_started',
      from_kind: 'drop_point',
      from_id: parcel.drop_point_id,
      to_kind: 'drop_point',
      to_id: parcel.drop_point_id,
      confirmed_by: said.actor?.id ?? null,
      how: said.how,
      reason: said.reason,
    });
    const before = beforeOf('at_drop_point', parcel.runner_user_name, parcel.receiver_key);
    const byBackOffice = 'backOffice' in cause;
    await record(trx, publish, {
      custody,
      kind: 'return_started',
      parcel,
      before,
      actor: said.actor,
      data: said.data,
      byBackOffice,
    });
    if (byBackOffice) await cause.also(trx);
    return parcel;
  });
}

/**
 * A runner takes a parcel waiting at a drop point on its way back to carry it to its sender's door
 * (issue 28), with the code the point's staff read out (checked by the caller at `expectedSeq`):
 * custody from the drop point to the runner, who carries it as any return.
 */
export function takeFromDropPoint(changes: Changes, parcelId: string, runner: AccountRow, expectedSeq: number) {
  return changes.transaction(async (trx, publish) => {
    // The runner who left it there, as lists knew it before (their list hears it leave).
    const before = await trx
      .selectFrom('parcels')
      .leftJoin('accounts', 'accounts.id', 'parcels.runner_id')
      .select(['accounts.user_name'])
      .where('parcels.id', '=', parcelId)
      .executeTakeFirst();
    const parcel = await trx
      .updateTable('parcels')
      .set((eb) => ({
        status: 'in_transit',
        runner_id: runner.id,
        picked_up_at: nowIso(),
        at_drop_point_since: null,
        version: eb('version', '+', 1),
        ...holderColumns({ kind: 'runner', id: runner.id }),
        custody_seq: eb('custody_seq', '+', 1),
      }))
      .where('id', '=', parcelId)
      .where('status', '=', 'at_drop_point')
      .where('returning', '=', 1)
      .where('custody_seq', '=', expectedSeq)
      .returningAll()
      .returning(withNames)
      .executeTakeFirst();
    if (!parcel) throw await refusalNow(trx, parcelId, refuse('parcel_taken', messages.dropPointReturnTaken));
    const custody = await custodyEvent(trx, {
      parcel_id: parcel.id,
      prev_hash: parcel.custody_prev_hash,
      seq: parcel.custody_seq,
      kind: 'picked_up',
      from_kind: 'drop_point',
      from_id: parcel.drop_point_id,
      to_kind: 'runner',
      to_id: runner.id,
      confirmed_by: runner.id,
      how: 'drop_point_pin',
    });
    await record(trx, publish, {
      custody,
      kind: 'taken_from_drop_point',
      parcel,
      before: beforeOf('at_drop_point', before?.user_name ?? null, parcel.receiver_key),
      actor: runner,
      data: { dropPointId: parcel.drop_point_id },
    });
    return parcel;
  });
}

/**
 * 'Visszaviszem a feladónak': the carrier turns the parcel back to its sender, saying why. It stays
 * in their hands (they may still hand it to another runner); the sender's door is now where it
 * is delivered. Conditional on the carrier and on its not being on its way back already.
 */
export function startReturn(
  changes: Changes,
  parcelId: string,
  actor: AccountRow,
  reason: string,
  options: { byBackOffice?: { also: Also } } = {},
) {
  const { byBackOffice } = options;
  return changes.transaction(async (trx, publish) => {
    let update = trx
      .updateTable('parcels')
      .set((eb) => ({
        returning: 1,
        attempts: 0,
        redelivery_from: null,
        redelivery_until: null,
        version: eb('version', '+', 1),
        custody_seq: eb('custody_seq', '+', 1),
      }))
      .where('id', '=', parcelId)
      .where('status', '=', 'in_transit')
      .where('returning', '=', 0);
    // The back office turns back whatever runner carries it; a runner only their own.
    if (!byBackOffice) update = update.where('runner_id', '=', actor.id);
    const parcel = await update.returningAll().returning(withNames).executeTakeFirst();
    if (!parcel) {
      const refusal = byBackOffice
        ? await explainRefusal(trx, parcelId, 'in_transit')
        : await explainCarrierRefusal(trx, parcelId, actor.id);
      throw await unlessReturning(trx, parcelId, refusal, refuse('already_returning', messages.alreadyReturning));
    }
    const custody = await custodyEvent(trx, {
      parcel_id: parcel.id,
      prev_hash: parcel.custody_prev_hash,
      seq: parcel.custody_seq,
      kind: 'return_started',
      from_kind: 'runner',
      from_id: parcel.runner_id,
      to_kind: 'runner',
      to_id: parcel.runner_id,
      confirmed_by: actor.id,
      how: byBackOffice ? 'admin' : 'runner',
      reason,
    });
    const before = beforeOf('in_transit', parcel.runner_user_name, parcel.receiver_key);
    await record(trx, publish, {
      custody,
      kind: 'return_started',
      parcel,
      before,
      actor,
      data: { reason },
    });
    await byBackOffice?.also(trx);
    return parcel;
  });
}

/** A companion write inside a change's transaction: an incident's decision with the parcel change it makes. */
export type Also = (trx: Trx) => Promise<void>;

/**
 * Who reports a problem: the runner carrying the parcel, or the staff of the drop point where it
 * waits (the caller checked they staff it).
 */
export type IncidentReporter = { runner: AccountRow } | { staff: AccountRow; dropPointId: number };

/**
 * A problem reported by whoever has the parcel in hand ('Probléma bejelentése'): the incident and
 * its timeline event, the parcel itself unchanged. One open incident per parcel (its partial
 * unique index refuses a second, even at once). Conditional on the parcel still being in their
 * hands: in transit with that runner, or waiting at that drop point.
 */
export function reportIncident(
  changes: Changes,
  parcelId: string,
  reporter: IncidentReporter,
  incident: { kind: IncidentKind; description: string },
) {
  const account = 'runner' in reporter ? reporter.runner : reporter.staff;
  return changes.transaction(async (trx, publish) => {
    let held = trx.selectFrom('parcels').selectAll().select(withNames).where('id', '=', parcelId);
    held =
      'runner' in reporter
        ? held.where('status', '=', 'in_transit').where('runner_id', '=', account.id)
        : held.where('status', '=', 'at_drop_point').where('drop_point_id', '=', reporter.dropPointId);
    const parcel = await held.executeTakeFirst();
    if (!parcel) {
      throw 'runner' in reporter
        ? await explainCarrierRefusal(trx, parcelId, account.id)
        : await refusalNow(trx, parcelId, refuse('parcel_not_in_transit', messages.incidentNotAtDropPoint));
    }
    const open = await trx
      .selectFrom('incidents')
      .select('id')
      .where('parcel_id', '=', parcelId)
      .where('resolved_at', 'is', null)
      .executeTakeFirst();
    if (open) throw refuse('incident_open', messages.incidentOpen);
    const at = nowIso();
    const inserted = trx
      .insertInto('incidents')
      .values({
        parcel_id: parcel.id,
        kind: incident.kind,
        description: incident.description,
        reporter_id: account.id,
        created_at: at,
        decision: null,
        note: null,
        resolved_by: null,
        resolved_at: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
      // Two reports at once: the partial unique index lets one in.
      .catch((error: unknown) => {
        throw isUniqueViolation(error) ? refuse('incident_open', messages.incidentOpen) : error;
      });
    const { id } = await inserted;
    const before = beforeOf(parcel.status, parcel.runner_user_name, parcel.receiver_key);
    await record(trx, publish, {
      kind: 'incident_reported',
      parcel,
      before,
      actor: account,
      at,
      data: { incidentId: id, kind: incident.kind },
    });
    return id;
  });
}

/**
 * The back office writes a parcel off as lost: its chain ends with `lost`, from whoever held it to
 * nobody. Only a parcel away from its sender and not yet arrived (a runner, a neighbour or a drop
 * point holds it); compare-and-swap on the custody seq read in the same transaction.
 */
export function writeOff(changes: Changes, parcelId: string, admin: AccountRow, reason: string, also: Also) {
  return changes.transaction(async (trx, publish) => {
    const held = await trx
      .selectFrom('parcels')
      .select(['status', 'holder_kind', 'holder_id', 'custody_seq'])
      .where('id', '=', parcelId)
      .executeTakeFirst();
    if (!held) throw refuse('parcel_not_found', messages.parcelNotFound);
    if (!['in_transit', 'with_neighbour', 'at_drop_point'].includes(held.status)) {
      throw refuse('incident_decision_impossible', messages.incidentWriteOffNotPossible);
    }
    const parcel = await trx
      .updateTable('parcels')
      .set((eb) => ({
        status: 'lost',
        version: eb('version', '+', 1),
        holder_kind: 'none',
        holder_id: null,
        custody_seq: eb('custody_seq', '+', 1),
      }))
      .where('id', '=', parcelId)
      .where('custody_seq', '=', held.custody_seq)
      .returningAll()
      .returning(withNames)
      .executeTakeFirst();
    if (!parcel) throw refuse('parcel_changed_meanwhile', messages.parcelChangedMeanwhile);
    const custody = await custodyEvent(trx, {
      parcel_id: parcel.id,
      prev_hash: parcel.custody_prev_hash,
      seq: parcel.custody_seq,
      kind: 'lost',
      from_kind: held.holder_kind,
      from_id: held.holder_id,
      to_kind: 'none',
      to_id: null,
      confirmed_by: admin.id,
      how: 'admin',
      reason,
    });
    const before = beforeOf(held.status, parcel.runner_user_name, parcel.receiver_key);
    await record(trx, publish, {
      custody,
      kind: 'lost',
      parcel,
      before,
      actor: admin,
      data: { reason },
    });
    await also(trx);
    return parcel;
  });
}

/**
 * What the receiver (or the sender) asks for after a failed attempt and before the parcel turns
 * back: the next attempt in a window, or that it be left with a named neighbour. Nothing changes
 * hands: no custody event; the carrier sees it with the parcel.
 */
export type AfterAttemptWish =
  | { kind: 'redelivery_requested'; from: string; until: string }
  | { kind: 'neighbour_requested'; name: string; door: string };

export function requestAfterAttempt(
  changes: Changes,
  parcelId: string,
  /** null: the receiver through the link in their mail (issue 29). */
  actor: AccountRow | null,
  wish: AfterAttemptWish,
) {
  const { kind, ...data } = wish;
  const columns =
    wish.kind === 'redelivery_requested'
      ? { redelivery_from: wish.from, redelivery_until: wish.until }
      : { neighbour_wish_name: wish.name, neighbour_wish_door: wish.door };
  return changes.transaction(async (trx, publish) => {
    const parcel = await trx
      .updateTable('parcels')
      .set((eb) => ({ ...columns, version: eb('version', '+', 1) }))
      .where('id', '=', parcelId)
      .where('status', '=', 'in_transit')
      .where('returning', '=', 0)
      .where('attempts', '>', 0)
      .returningAll()
      .returning(withNames)
      .executeTakeFirst();
    if (!parcel) throw await refusalNow(trx, parcelId, refuse('redelivery_not_now', messages.redeliveryNotNow));
    const before = beforeOf('in_transit', parcel.runner_user_name, parcel.receiver_key);
    await record(trx, publish, { kind, parcel, before, actor, data });
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
    const custody = await custodyEvent(trx, {
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
    const parcel = { ...row, sender_user_name: sender.user_name, runner_user_name: null, ...NO_DROP_POINT_NAMES };
    await record(trx, publish, {
      custody,
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
    let custody: CustodyEventRow | undefined;
    if (row && movesCustody) {
      custody = await custodyEvent(trx, {
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
      drop_point_name: current.drop_point_name,
      drop_point_address: current.drop_point_address,
    };
    const before = beforeOf(current.status, current.runner_user_name, current.receiver_key);
    const fields = edit.fields.length > 0 ? { fields: edit.fields } : {};
    await record(trx, publish, {
      custody,
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
    const custody = await custodyEvent(trx, {
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
      custody,
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

/** A door photo as stored (attempts/service.ts has encoded it without metadata). */
export interface NewAttemptPhoto {
  image: Buffer;
  mime: string;
  sha256: string;
  width: number;
  height: number;
}

/**
 * The photo of the door for a failed attempt (issue 28), by the runner who recorded it while the
 * parcel is still in their hands (the caller found the attempt); a second photo replaces the first.
 * One `attempt_photo` event naming the hash, one message, so an open page shows the new photo. The
 * parcel itself does not change.
 */
export function addAttemptPhoto(
  changes: Changes,
  parcelId: string,
  attempt: { id: number; number: number },
  runner: AccountRow,
  photo: NewAttemptPhoto,
) {
  return changes.transaction(async (trx, publish) => {
    const parcel = await trx
      .selectFrom('parcels')
      .selectAll()
      .select(withNames)
      .where('id', '=', parcelId)
      .executeTakeFirstOrThrow();
    await trx
      .updateTable('delivery_attempts')
      .set({
        photo: photo.image,
        photo_mime: photo.mime,
        photo_sha256: photo.sha256,
        photo_width: photo.width,
        photo_height: photo.height,
        photo_at: nowIso(),
        photo_removed_at: null,
      })
      .where('id', '=', attempt.id)
      .execute();
    await record(trx, publish, {
      kind: 'attempt_photo',
      parcel,
      before: beforeOf(parcel.status, parcel.runner_user_name, parcel.receiver_key),
      actor: runner,
      data: { attempt: attempt.number, sha256: photo.sha256 },
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
      parcel: {
        ...row,
        sender_user_name: senderName.get(row.sender_id) ?? '',
        runner_user_name: null,
        ...NO_DROP_POINT_NAMES,
      },
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
 * issued before the parcel last changed hands, are refused with nothing changed. `how`: by the
 * link's QR code, or by the code the carrier read out (the caller checked it at `seq`).
 */
export function relayParcel(
  changes: Changes,
  parcelId: string,
  expected: { issuerId: number; seq: number },
  taker: AccountRow,
  place: { lat: number; lng: number } | undefined,
  how: Extract<CustodyHow, 'runner_qr' | 'runner_pin'> = 'runner_qr',
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
    const custody = await custodyEvent(trx, {
      parcel_id: parcel.id,
      prev_hash: parcel.custody_prev_hash,
      seq: parcel.custody_seq,
      kind: 'relayed',
      from_kind: 'runner',
      from_id: expected.issuerId,
      to_kind: 'runner',
      to_id: taker.id,
      lat: place?.lat ?? null,
      lng: place?.lng ?? null,
      confirmed_by: taker.id,
      how,
    });
    const issuer = await trx
      .selectFrom('accounts')
      .select('user_name')
      .where('id', '=', expected.issuerId)
      .executeTakeFirst();
    const before = beforeOf('in_transit', issuer?.user_name ?? null, parcel.receiver_key);
    await record(trx, publish, {
      custody,
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
    const custody = await custodyEvent(trx, {
      parcel_id: parcel.id,
      prev_hash: parcel.custody_prev_hash,
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
      custody,
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
/** The receiver is told once that the runner is near: the first report that marks it wins. */
async function markReceiverTold(trx: Trx, parcelId: string): Promise<boolean> {
  const marked = await trx
    .updateTable('parcels')
    .set({ receiver_near_mailed_at: nowIso() })
    .where('id', '=', parcelId)
    .where('receiver_near_mailed_at', 'is', null)
    .executeTakeFirst();
  return Number(marked.numUpdatedRows) === 1;
}

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
      .select([
        'parcels.id',
        'parcels.receiver_key',
        'sender.user_name as sender_user_name',
        'parcels.receiver_lat',
        'parcels.receiver_lng',
        // Whether its receiver still waits to hear the runner is near (issue 29): a mail address, not told yet.
        sql<number>`case when parcels.receiver_email is not null and parcels.receiver_near_mailed_at is null
          and parcels.receiver_mail_stopped_at is null and ${sql.ref('parcels.returning')} = 0
          and parcels.drop_point_id is null then 1 else 0 end`.as('near_untold'),
      ])
      .where('parcels.runner_id', '=', runner.id)
      .where('parcels.status', '=', 'in_transit')
      .execute();
    for (const parcel of carried) {
      const unchanged = beforeOf('in_transit', runner.user_name, parcel.receiver_key);
      const nearReceiver =
        Number(parcel.near_untold) === 1 &&
        distanceMetres(point, { lat: parcel.receiver_lat, lng: parcel.receiver_lng }) <= RECEIVER_NEAR_METRES &&
        (await markReceiverTold(trx, parcel.id));
      await publish({
        kind: 'runner_located',
        parcelId: parcel.id,
        status: 'in_transit',
        runner: runner.user_name,
        senderUser: parcel.sender_user_name,
        receiverKey: parcel.receiver_key,
        previous: unchanged,
        ...(nearReceiver ? { nearReceiver: true as const } : {}),
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
