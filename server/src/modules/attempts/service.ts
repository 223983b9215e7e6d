import type { Attempt, AttemptBody, AttemptList, NeighbourBody } from '@csomag/domain/attempts';
import { messages } from '@csomag/domain/messages';
import { isDoorKnown } from '@csomag/domain/parcel';
import type { Kysely } from 'kysely';
import type { ChangeFeed } from '../../db/change-feed.ts';
import type { WindowCounter } from '../../db/rate-limits.ts';
import type { AccountRow, Database } from '../../db/schema.ts';
import { refuse } from '../../errors.ts';
import { assertAtDoor, destinationOf, readForCarrier } from '../delivery/service.ts';
import { assertPin, pinFor } from '../handover/pin.ts';
import {
  type AfterAttemptWish,
  addAttemptPhoto as addAttemptPhotoChange,
  collectParcel,
  finishedRefusal,
  leaveWithNeighbour,
  recordAttempt,
  requestAfterAttempt,
  startReturn,
} from '../parcels/changes.ts';
import { assertMayParcel, assertPartyMay, PARCEL_FACT_COLUMNS, type Party } from '../parcels/policy.ts';
import { assertCarrierMay } from '../parcels/service.ts';
import { encodePhoto } from '../proofs/image.ts';
import { assertMaySeeProof } from '../proofs/service.ts';

/**
 * When a delivery does not go to plan (issue 28, docs/decisions/0030): the carrier's failed
 * attempt and its photo, the new time asked for, the return to the sender. The changes are
 * changes.ts's; this decides whether they are wanted.
 */

export interface AttemptsContext {
  db: Kysely<Database>;
  changes: Pick<ChangeFeed, 'transaction'>;
  /** After this many failed attempts the parcel turns back (config RETURN_AFTER_ATTEMPTS). */
  returnAfter: number;
}

/**
 * 'Nem sikerült kézbesíteni': the runner carrying it says why, where they stand. With the door's
 * place known the 15 m rule of delivery holds for being there; with only a street or a town
 * known, nothing can show the door, and the position is recorded as given.
 */
export async function recordAttemptAt(ctx: AttemptsContext, runner: AccountRow, parcelId: string, body: AttemptBody) {
  const parcel = await readForCarrier(ctx.db, parcelId);
  assertCarrierMay(runner, 'recordAttempt', parcel);
  const destination = destinationOf(parcel);
  if (isDoorKnown(destination.precision)) assertAtDoor(body.position, destination, messages.attemptTooFar);
  return recordAttempt(ctx.changes, parcelId, runner, {
    reason: body.reason,
    note: body.note || null,
    position: body.position,
    occurredAt: body.occurredAt,
    returnAfter: ctx.returnAfter,
  });
}

/** 'Visszaviszem a feladónak': the carrier's own return (a refusal's is the attempt's). */
export async function startReturnOf(ctx: AttemptsContext, runner: AccountRow, parcelId: string, reason: string) {
  const parcel = await readForCarrier(ctx.db, parcelId);
  assertCarrierMay(runner, 'startReturn', parcel);
  return startReturn(ctx.changes, parcelId, runner, reason);
}

/** A parcel's facts for the policy, or 404. */
async function partiesOf(db: Kysely<Database>, parcelId: string) {
  const parcel = await db
    .selectFrom('parcels')
    .select([...PARCEL_FACT_COLUMNS, 'status'])
    .where('id', '=', parcelId)
    .executeTakeFirst();
  if (!parcel) throw refuse('parcel_not_found', messages.parcelNotFound);
  return parcel;
}

/** The receiver (or the sender) asks for the next attempt within a window, or that it be left with a neighbour. */
export async function askAfterAttempt(ctx: AttemptsContext, party: Party, parcelId: string, wish: AfterAttemptWish) {
  const actor = assertPartyMay(party, 'requestRedelivery', parcelId, await partiesOf(ctx.db, parcelId));
  return requestAfterAttempt(ctx.changes, parcelId, actor, wish);
}

/** A parcel's failed attempts, first first: for its sender, receiver, carrier and the back office. */
export async function listAttempts(db: Kysely<Database>, party: Party, parcelId: string, returnAfter: number) {
  assertPartyMay(party, 'seeAttempts', parcelId, await partiesOf(db, parcelId));
  const rows = await db
    .selectFrom('delivery_attempts')
    .leftJoin('accounts', 'accounts.id', 'delivery_attempts.runner_id')
    .select([
      'delivery_attempts.number',
      'delivery_attempts.at',
      'delivery_attempts.occurred_at',
      'delivery_attempts.reason',
      'delivery_attempts.note',
      'delivery_attempts.started_return',
      'delivery_attempts.photo_sha256',
      'delivery_attempts.photo_removed_at',
      'accounts.user_name',
    ])
    .where('delivery_attempts.parcel_id', '=', parcelId)
    .orderBy('delivery_attempts.number')
    .execute();
  const items = rows.map(
    (row): Attempt => ({
      number: row.number,
      at: row.at,
      occurredAt: row.occurred_at,
      reason: row.reason,
      note: row.note,
      runner: row.user_name,
      photo: row.photo_sha256 !== null && row.photo_removed_at === null,
      photoSha256: row.photo_removed_at === null ? row.photo_sha256 : null,
      startedReturn: row.started_return === 1,
    }),
  );
  return { items, returnAfter } satisfies AttemptList;
}

/**
 * The photo of the door for attempt `number`, by the runner who recorded it while the parcel is
 * still in their hands; a second photo replaces the first. Re-encoded without metadata like a
 * delivery's (proofs/image.ts).
 */
export async function addAttemptPhoto(
  ctx: Pick<AttemptsContext, 'db' | 'changes'>,
  runner: AccountRow,
  parcelId: string,
  number: number,
  readPhoto: () => Promise<Buffer>,
) {
  // Checked before the upload is read: strangers do not make the server decode images.
  const parcel = await partiesOf(ctx.db, parcelId);
  assertCarrierMay(runner, 'addPhoto', parcel);
  const attempt = await ctx.db
    .selectFrom('delivery_attempts')
    .select(['id', 'number'])
    .where('parcel_id', '=', parcelId)
    .where('number', '=', number)
    // Only the runner who recorded it: another's attempt is not theirs to illustrate.
    .where('runner_id', '=', runner.id)
    .executeTakeFirst();
  if (!attempt) throw refuse('attempt_not_found', messages.attemptNotFound);
  const bytes = await readPhoto();
  const encoded = await encodePhoto(bytes);
  await addAttemptPhotoChange(ctx.changes, parcelId, attempt, runner, encoded);
  return bytes.length;
}

/** The photo of attempt `number`: its sender, receiver and the back office (as a delivery's proof). */
export async function readAttemptPhoto(db: Kysely<Database>, party: Party, parcelId: string, number: number) {
  await assertMaySeeProof(db, party, parcelId);
  const row = await db
    .selectFrom('delivery_attempts')
    .select(['photo', 'photo_mime', 'photo_sha256'])
    .where('parcel_id', '=', parcelId)
    .where('number', '=', number)
    .executeTakeFirst();
  if (!row?.photo || !row.photo_mime || !row.photo_sha256) throw refuse('attempt_not_found', messages.attemptNotFound);
  return { image: Buffer.from(row.photo), mime: row.photo_mime, sha256: row.photo_sha256 };
}

/**
 * 'Szomszédnál hagyom': at the receiver's door (the 15 m rule where the door is known), the
 * neighbour having typed their name. The route answers with the code the receiver collects it
 * with (neighbourPin) — the carrier writes it on the notice for the neighbour to hand on.
 */
export async function leaveWithNeighbourAt(
  ctx: AttemptsContext,
  runner: AccountRow,
  parcelId: string,
  body: NeighbourBody,
) {
  const parcel = await readForCarrier(ctx.db, parcelId);
  assertCarrierMay(runner, 'leaveWithNeighbour', parcel);
  const destination = destinationOf(parcel);
  if (isDoorKnown(destination.precision)) assertAtDoor(body.position, destination, messages.attemptTooFar);
  return leaveWithNeighbour(ctx.changes, parcelId, runner, body);
}

/** The code the receiver collects a parcel from its neighbour with: the neighbour's leg's. */
export const neighbourPin = (pinKey: Buffer, parcel: { id: string; custody_seq: number }) =>
  pinFor(pinKey, parcel.id, parcel.custody_seq, 'neighbour');

/** The neighbour's code again, for the runner who left it there, while it is with them. */
export async function neighbourPinOf(db: Kysely<Database>, pinKey: Buffer, runner: AccountRow, parcelId: string) {
  const parcel = await db
    .selectFrom('parcels')
    .select([...PARCEL_FACT_COLUMNS, 'id', 'status', 'custody_seq'])
    .where('id', '=', parcelId)
    .executeTakeFirst();
  if (!parcel) throw refuse('parcel_not_found', messages.parcelNotFound);
  assertMayParcel(runner, 'seeNeighbourPin', parcel);
  if (parcel.status !== 'with_neighbour') throw refuse('parcel_not_in_transit', messages.notWithNeighbour);
  return { pin: neighbourPin(pinKey, parcel) };
}

/** The receiver collects it from the neighbour with the code the neighbour was given. */
export async function collectWithPin(
  ctx: Pick<AttemptsContext, 'db' | 'changes'> & { pinKey: Buffer; limits: WindowCounter },
  party: Party,
  parcelId: string,
  pin: string,
) {
  const parcel = await ctx.db
    .selectFrom('parcels')
    .select([...PARCEL_FACT_COLUMNS, 'id', 'status', 'custody_seq'])
    .where('id', '=', parcelId)
    .executeTakeFirst();
  if (!parcel) throw refuse('parcel_not_found', messages.parcelNotFound);
  const receiver = assertPartyMay(party, 'collect', parcelId, parcel);
  if (parcel.status !== 'with_neighbour') {
    throw finishedRefusal(parcel.status) ?? refuse('parcel_not_in_transit', messages.notWithNeighbour);
  }
  await assertPin(
    { key: ctx.pinKey, limits: ctx.limits },
    { id: parcel.id, seq: parcel.custody_seq, party: 'neighbour' },
    pin,
  );
  return collectParcel(ctx.changes, parcel.id, receiver, parcel.custody_seq, 'with_neighbour');
}
