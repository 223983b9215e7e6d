import { createHmac, timingSafeEqual } from 'node:crypto';
import {
  HANDOVER_PIN_LENGTH,
  HANDOVER_PIN_MAX_TRIES,
  HANDOVER_PIN_WINDOW_MS,
  type HandoverPin,
  type PinHandoverBody,
} from '@csomag/domain/handover-pin';
import { messages } from '@csomag/domain/messages';
import type { Kysely } from 'kysely';
import type { ChangeFeed } from '../../db/change-feed.ts';
import type { WindowCounter } from '../../db/rate-limits.ts';
import type { AccountRow, Database, ParcelRow } from '../../db/schema.ts';
import { AppError, refuse } from '../../errors.ts';
import { derivedKey } from '../../signed-token.ts';
import { readForCarrier } from '../delivery/service.ts';
import { deliverParcel, dropOffParcel } from '../parcels/changes.ts';
import { assertMayParcel, PARCEL_FACT_COLUMNS, type ReceiverByLink, relationship } from '../parcels/policy.ts';
import { assertCarrierMay } from '../parcels/service.ts';

/**
 * The handover PIN (issue 28, docs/decisions/0030): the person a parcel is brought to reads out a
 * 6-digit code the carrier types in. The code is not stored: it is an HMAC of the parcel, its
 * custody seq and whose door it is, so it is new for every leg and dead once the parcel changes
 * hands (single use). Tries are counted per leg in the abuse-limit windows (shared on PostgreSQL),
 * each try before it is checked, so concurrent guesses cannot slip past the count.
 */

export const handoverPinKey = (sessionSecret: string) => derivedKey(sessionSecret, 'csomagkuldo/handover-pin/v1');

/**
 * Whose code: the person at the door (receiver or sender), the neighbour a parcel was left with,
 * the drop point a runner brings it to, the runner who takes it from a drop point back to its
 * sender (`runner_return`: the staff read it out, so the runner's typing it proves the hand-over),
 * or the next runner a carrier hands it to (`next_runner`: likewise read out by the giving side).
 */
export type PinParty = HandoverPin['for'] | 'neighbour' | 'drop_point' | 'runner_return' | 'next_runner';

/** The leg's code: the first 48 bits of the HMAC, modulo 10^6 (a bias of under 10^-8), zero-padded. */
export function pinFor(key: Buffer, parcelId: string, seq: number, party: PinParty): string {
  const digest = createHmac('sha256', key).update(`${parcelId}|${seq}|${party}`).digest();
  return String(digest.readUIntBE(0, 6) % 10 ** HANDOVER_PIN_LENGTH).padStart(HANDOVER_PIN_LENGTH, '0');
}

export interface PinContext {
  db: Kysely<Database>;
  changes: Pick<ChangeFeed, 'transaction'>;
  key: Buffer;
  limits: WindowCounter;
}

/** Whose door a carried parcel goes to: its sender's on the way back, else its receiver's. */
const partyOf = (parcel: { returning: number }): HandoverPin['for'] => (parcel.returning === 1 ? 'sender' : 'receiver');

/**
 * The code for the person the parcel is being brought to, and only them: the receiver (the
 * incoming list's rule), or the sender once it is on its way back — on its way to their door, or
 * waiting for them at a drop point. Nobody else sees it — not the carrier, who must hear it, nor
 * the back office. On its way to a drop point it has none yet: the drop point's staff take it.
 */
export async function handoverPinOf(ctx: Pick<PinContext, 'db' | 'key'>, actor: AccountRow, parcelId: string) {
  const parcel = await ctx.db
    .selectFrom('parcels')
    .select([...PARCEL_FACT_COLUMNS, 'id', 'status', 'returning', 'custody_seq', 'drop_point_id'])
    .where('id', '=', parcelId)
    .executeTakeFirst();
  if (!parcel) throw refuse('parcel_not_found', messages.parcelNotFound);
  assertMayParcel(actor, 'seeHandoverPin', parcel);
  const party = partyOf(parcel);
  const theirs = party === 'sender' ? relationship.sender(actor, parcel) : relationship.receiver(actor, parcel);
  if (!theirs) throw refuse('forbidden', messages.handoverPinNotYours);
  return currentCode(ctx.key, parcel, party);
}

/** The leg's code while one is due: on its way to a door, or waiting at a drop point. */
function currentCode(
  key: Buffer,
  parcel: Pick<ParcelRow, 'id' | 'status' | 'drop_point_id' | 'returning' | 'custody_seq'>,
  party: HandoverPin['for'],
): HandoverPin {
  const toTheDoor = parcel.status === 'in_transit' && (parcel.drop_point_id === null || parcel.returning === 1);
  if (!toTheDoor && parcel.status !== 'at_drop_point') {
    throw refuse('parcel_not_in_transit', messages.handoverPinNotNow);
  }
  return { pin: pinFor(key, parcel.id, parcel.custody_seq, party), for: party };
}

/**
 * The receiver's code through the link in their mail (issue 29; the link checked by
 * `receiverByLink`): only the receiver's own code, and only on the way to them (never the sender's
 * on the way back).
 */
export async function receiverCodeByLink(
  ctx: Pick<PinContext, 'db' | 'key'>,
  link: ReceiverByLink,
): Promise<HandoverPin> {
  const parcel = await ctx.db
    .selectFrom('parcels')
    .select(['id', 'status', 'returning', 'custody_seq', 'drop_point_id'])
    .where('id', '=', link.receiverOf)
    .executeTakeFirst();
  if (!parcel) throw refuse('receiver_link_invalid', messages.receiverLinkInvalid);
  if (parcel.returning === 1) throw refuse('parcel_not_in_transit', messages.handoverPinNotNow);
  return currentCode(ctx.key, parcel, 'receiver');
}

const sameCode = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/**
 * Refuses `pin` unless it is the leg's code for `party`. The try is counted first (a wrong code
 * says how many are left; past the limit the leg's code is locked for the window, the right one too).
 */
export async function assertPin(
  ctx: Pick<PinContext, 'key' | 'limits'>,
  leg: { id: string; seq: number; party: PinParty },
  pin: string,
) {
  const tries = await ctx.limits.hit(`handover-pin:${leg.id}:${leg.seq}`, HANDOVER_PIN_WINDOW_MS);
  if (tries.count > HANDOVER_PIN_MAX_TRIES) throw refuse('handover_pin_locked', messages.handoverPinLocked);
  if (!sameCode(pin, pinFor(ctx.key, leg.id, leg.seq, leg.party))) {
    const left = HANDOVER_PIN_MAX_TRIES - tries.count;
    throw left > 0
      ? refuse('handover_pin_wrong', messages.handoverPinWrong(left))
      : refuse('handover_pin_locked', messages.handoverPinLocked);
  }
}

/**
 * The carrier hands the parcel over with the code the person at the door read out: delivered,
 * or returned on the way back. The try is counted first; a wrong code says how many are left,
 * the last one locks the leg's PIN for the window (the QR code still works). The delivery is
 * conditional on the leg the code was checked for: of two confirmations at once, one wins.
 */
export async function handOverByPin(ctx: PinContext, runner: AccountRow, parcelId: string, body: PinHandoverBody) {
  const parcel = await ctx.db
    .selectFrom('parcels')
    .select([...PARCEL_FACT_COLUMNS, 'id', 'status', 'returning', 'custody_seq', 'drop_point_id'])
    .where('id', '=', parcelId)
    .executeTakeFirst();
  assertCarrierMay(runner, 'handOverByPin', parcel);
  const seq = parcel.custody_seq;
  // Bound for a drop point (not on its way back): its staff's code leaves it there.
  const toDropPoint = parcel.drop_point_id !== null && parcel.returning === 0;
  await assertPin(ctx, { id: parcel.id, seq, party: toDropPoint ? 'drop_point' : partyOf(parcel) }, body.pin);
  try {
    if (toDropPoint) return await dropOffParcel(ctx.changes, parcel.id, runner, seq);
    return await deliverParcel(ctx.changes, parcel.id, runner, {
      kind: 'handed_over_pin',
      runnerId: runner.id,
      expectedSeq: seq,
      occurredAt: body.occurredAt,
    });
  } catch (error) {
    // Still this carrier's and on its way, yet not at the seq checked: it changed hands meanwhile.
    const now = await readForCarrier(ctx.db, parcel.id);
    if (error instanceof AppError && error.code === 'parcel_not_in_transit' && now?.status === 'in_transit') {
      throw refuse('handover_link_stale', messages.handoverPinStale);
    }
    throw error;
  }
}
