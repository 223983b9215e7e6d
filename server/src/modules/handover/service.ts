import type { HandoverBody, HandoverLink, HandoverSummary } from '@csomag/domain/delivery';
import type { ErrorCode } from '@csomag/domain/errors';
import { messages } from '@csomag/domain/messages';
import { isFinal, type ParcelStatus } from '@csomag/domain/parcel';
import type { Kysely } from 'kysely';
import type { ChangeFeed } from '../../db/change-feed.ts';
import type { AccountRow, Database } from '../../db/schema.ts';
import { AppError, refuse } from '../../errors.ts';
import { deliverParcel } from '../parcels/changes.ts';
import type { ParcelWithNames } from '../parcels/present.ts';
import { assertCarrierMay, selectParcels } from '../parcels/service.ts';
import { encodeSignature } from '../proofs/image.ts';
import { signHandoverToken, verifyHandoverToken } from './token.ts';

export interface HandoverContext {
  db: Kysely<Database>;
  changes: Pick<ChangeFeed, 'transaction'>;
  key: Buffer;
  now: () => number;
}

/** SPEC 2.1's receiver page; its query names are SPEC's too. */
export const HANDOVER_PAGE_PATH = '/Csomagatvetel';

const findParcel = (db: Kysely<Database>, parcelId: string) =>
  selectParcels(db).where('parcels.id', '=', parcelId).executeTakeFirst();

/**
 * The link the runner's QR code shows the receiver: on the public origin, naming the runner,
 * the sender and the parcel as SPEC's page expects, with a token only this server can sign.
 */
export async function createHandoverLink(
  ctx: HandoverContext,
  runner: AccountRow,
  parcelId: string,
  origin: string,
): Promise<HandoverLink> {
  const parcel = await findParcel(ctx.db, parcelId);
  assertCarrierMay(runner, 'showHandoverCode', parcel);
  const { token, expiresAt } = signHandoverToken(ctx.key, { parcelId: parcel.id, runnerId: runner.id }, ctx.now());
  const url = new URL(HANDOVER_PAGE_PATH, origin);
  url.searchParams.set('futar', runner.user_name);
  url.searchParams.set('felado', parcel.sender_user_name);
  url.searchParams.set('csomagid', parcel.id);
  url.searchParams.set('token', token);
  return { url: url.toString(), expiresAt: expiresAt.toISOString() };
}

const invalid = () => refuse('handover_link_invalid', messages.handoverInvalid);

/**
 * The parcel a token was signed for, while the runner it names still has it. Forged, expired
 * and other parcels' tokens are all the same 403 to the holder.
 */
async function parcelForToken(ctx: HandoverContext, parcelId: string, token: string) {
  const parcel = await findParcel(ctx.db, parcelId);
  if (!parcel) throw refuse('parcel_not_found', messages.parcelNotFound);
  const runnerId = parcel.runner_id;
  if (runnerId === null || parcel.runner_user_name === null) throw invalid();
  if (verifyHandoverToken(ctx.key, { parcelId: parcel.id, runnerId }, token, ctx.now()) !== 'valid') throw invalid();
  return { ...parcel, runner_id: runnerId, runner_user_name: parcel.runner_user_name };
}

const presentSummary = (parcel: ParcelWithNames & { runner_user_name: string }): HandoverSummary => ({
  id: parcel.id,
  category: parcel.category,
  weightGrams: parcel.weight_grams,
  senderUser: parcel.sender_user_name,
  runner: parcel.runner_user_name,
  status: parcel.status,
});

/** What the receiver's page shows before 'Átvétel'; status `delivered` once it has been handed over. */
export async function getHandoverSummary(ctx: HandoverContext, parcelId: string, token: string) {
  return presentSummary(await parcelForToken(ctx, parcelId, token));
}

const sameUser = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/**
 * Why a valid link cannot hand the parcel over now: a delivered parcel is done (the receiver
 * opened a used link, or confirmed twice), otherwise the parcel is no longer on this runner's way.
 */
const refusalFor = (status: ParcelStatus | undefined) =>
  status !== undefined && isFinal(status)
    ? refuse('handover_link_used', messages.parcelAlreadyHandedOver)
    : refuse('handover_link_stale', messages.handoverInvalid);

/** What the delivery says when the parcel changed after the link was checked. */
const CHANGED_MEANWHILE = new Set<ErrorCode>(['parcel_already_delivered', 'parcel_not_in_transit', 'not_your_parcel']);

/**
 * The receiver confirms with the runner's QR link: in transit → delivered (`handed_over_qr`),
 * recorded as the runner's act, with who confirmed it (issue 27): `confirmer`, the account signed
 * in on that phone, or — null — whoever holds the link, by the name they typed and their
 * signature. A used link (the parcel already delivered) is refused as such.
 */
export async function handOver(
  ctx: HandoverContext,
  parcelId: string,
  body: HandoverBody,
  confirmer: AccountRow | null,
): Promise<HandoverSummary> {
  const parcel = await parcelForToken(ctx, parcelId, body.token);
  if (!sameUser(body.futar, parcel.runner_user_name) || !sameUser(body.felado, parcel.sender_user_name)) {
    throw invalid();
  }
  if (parcel.status !== 'in_transit') throw refusalFor(parcel.status);
  const runner = await ctx.db
    .selectFrom('accounts')
    .selectAll()
    .where('id', '=', parcel.runner_id)
    .executeTakeFirstOrThrow();
  // Re-encoded before the transaction (CPU work holds no locks); a bad image refuses the whole
  // confirmation, so the receiver can sign again rather than lose the signature silently.
  const signature = body.signature && {
    ...(await encodeSignature(body.signature.image)),
    kind: 'signature' as const,
    strokes: JSON.stringify(body.signature.strokes),
    // Signed without an account, nobody to name.
    createdBy: confirmer?.id ?? null,
  };
  try {
    const delivered = await deliverParcel(ctx.changes, parcel.id, runner, {
      kind: 'handed_over_qr',
      runnerId: runner.id,
      occurredAt: body.occurredAt,
      signature,
      confirmedBy: confirmer?.id ?? null,
      // The user name as it is now: the timeline keeps it when the account goes (parcels/present.ts).
      data: {
        confirmedBy: {
          accountId: confirmer?.id ?? null,
          account: confirmer?.user_name ?? null,
          name: body.name ?? null,
        },
      },
    });
    return presentSummary({ ...delivered, runner_user_name: parcel.runner_user_name });
  } catch (error) {
    // The parcel changed between the check above and the update (confirmed twice at once, given
    // back, reassigned): the transition let the other change through; say why from the row as it is now.
    if (error instanceof AppError && CHANGED_MEANWHILE.has(error.code)) {
      throw refusalFor((await findParcel(ctx.db, parcel.id))?.status);
    }
    throw error;
  }
}
