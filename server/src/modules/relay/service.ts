import { messages } from '@csomag/domain/messages';
import { paths } from '@csomag/domain/paths';
import type { CustodyChain, CustodyOverrideBody, RelayBody, RelayLink, RelaySummary } from '@csomag/domain/relay';
import type { Kysely } from 'kysely';
import type { ChangeFeed } from '../../db/change-feed.ts';
import type { AccountRow, Database, ParcelRow } from '../../db/schema.ts';
import { refuse, refuseField } from '../../errors.ts';
import { findRunnerByUserName } from '../auth/accounts.ts';
import { assertPin, type PinContext, pinFor } from '../handover/pin.ts';
import { overrideCustody, relayParcel } from '../parcels/changes.ts';
import { assertMayParcel, type ParcelFacts, relationship } from '../parcels/policy.ts';
import type { ParcelWithNames } from '../parcels/present.ts';
import { assertCarrierMay, selectParcels } from '../parcels/service.ts';
import { firstBadSeq, readChain } from './chain.ts';
import { linkRelationship } from './policy.ts';
import { signRelayToken, verifyRelayToken } from './token.ts';

export interface RelayContext {
  db: Kysely<Database>;
  changes: Pick<ChangeFeed, 'transaction'>;
  key: Buffer;
  now: () => number;
  /** The hand-over codes' key and their tries (handover/pin.ts): the code read out instead of the QR. */
  pins: Pick<PinContext, 'key' | 'limits'>;
}

const findParcel = (db: Kysely<Database>, parcelId: string) =>
  selectParcels(db).where('parcels.id', '=', parcelId).executeTakeFirst();

/**
 * The runner holds this in-transit parcel and may hand it on (the next runner's link, an offer):
 * the carrier's refusals first (whose it is before its state), then the custody chain's holder.
 */
export function assertHolder<P extends Pick<ParcelRow, 'status'> & ParcelFacts>(
  runner: AccountRow,
  parcel: P | undefined,
): asserts parcel is P {
  assertCarrierMay(runner, 'showHandoverCode', parcel);
  if (!relationship.holder(runner, parcel)) throw refuse('not_your_parcel', messages.relayNotHolder);
}

/**
 * The carrier's link for the next runner ('Átadás másik futárnak'): only the runner who holds
 * an in-transit parcel gets one; it names the custody seq, so it dies when the parcel changes hands.
 */
export async function createRelayLink(
  ctx: RelayContext,
  runner: AccountRow,
  parcelId: string,
  origin: string,
): Promise<RelayLink> {
  const parcel = await findParcel(ctx.db, parcelId);
  assertHolder(runner, parcel);
  const claims = { parcelId: parcel.id, issuerId: runner.id, seq: parcel.custody_seq };
  const { token, expiresAt } = signRelayToken(ctx.key, claims, ctx.now());
  const url = new URL(paths.runnerTakeOver, origin);
  url.searchParams.set('csomag', parcel.id);
  url.searchParams.set('token', token);
  const pin = pinFor(ctx.pins.key, parcel.id, parcel.custody_seq, 'next_runner');
  return { url: url.toString(), expiresAt: expiresAt.toISOString(), pin };
}

/**
 * The parcel a link was signed for and who issued it, checked for `taker`: forged or other
 * parcels' links 403 relay_link_invalid; the carrier's own 403 relay_own_parcel; past expiry 403
 * relay_link_expired; the parcel moved on since (this link used, or any other change of hands)
 * 409 relay_link_used.
 */
async function checkLink(ctx: RelayContext, taker: AccountRow, parcelId: string, token: string) {
  const parcel = await findParcel(ctx.db, parcelId);
  if (!parcel) throw refuse('parcel_not_found', messages.parcelNotFound);
  const checked = verifyRelayToken(ctx.key, parcel.id, token, ctx.now());
  if (checked.verdict === 'invalid') throw refuse('relay_link_invalid', messages.relayLinkInvalid);
  if (linkRelationship.issuer(taker, checked)) throw refuse('relay_own_parcel', messages.relayOwnParcel);
  if (checked.verdict === 'expired') throw refuse('relay_link_expired', messages.relayLinkExpired);
  const issuer = { id: checked.issuerId };
  const stillIssuers =
    parcel.status === 'in_transit' &&
    relationship.carrier(issuer, parcel) &&
    relationship.holder(issuer, parcel) &&
    parcel.custody_seq === checked.seq;
  if (!stillIssuers) {
    // The taker opening a link they already confirmed: say so as "used", not as their own parcel.
    throw refuse('relay_link_used', messages.relayLinkUsed);
  }
  return { parcel, issuerId: checked.issuerId, seq: checked.seq };
}

const presentSummary = (parcel: ParcelWithNames): RelaySummary => ({
  id: parcel.id,
  category: parcel.category,
  weightGrams: parcel.weight_grams,
  senderUser: parcel.sender_user_name,
  runner: parcel.runner_user_name ?? '',
  status: parcel.status,
  senderAddress: parcel.sender_address,
  receiverAddress: parcel.receiver_address,
  custodySeq: parcel.custody_seq,
});

/** What the next runner's page shows before 'Átveszem'. */
export async function getRelaySummary(ctx: RelayContext, taker: AccountRow, parcelId: string, token: string) {
  return presentSummary((await checkLink(ctx, taker, parcelId, token)).parcel);
}

/**
 * 'Átveszem': custody moves from the link's issuer to `taker` (relayParcel's compare-and-swap on
 * holder and seq). Answers the parcel as the taker now sees it (the in-progress list's shape).
 */
export async function takeOver(ctx: RelayContext, taker: AccountRow, parcelId: string, body: RelayBody) {
  assertMayParcel(taker, 'takeOver');
  const byCode = body.pin !== undefined;
  const { parcel, issuerId, seq } = byCode
    ? await checkCode(ctx, taker, parcelId, body.pin ?? '')
    : await checkLink(ctx, taker, parcelId, body.token ?? '');
  return relayParcel(ctx.changes, parcel.id, { issuerId, seq }, taker, body.place, byCode ? 'runner_pin' : 'runner_qr');
}

/**
 * The code the holder read out instead of showing the QR code (issue 28): the leg's `next_runner`
 * code at the parcel's seq now, its tries counted like every hand-over code's. Its holder is the
 * issuer; relayParcel's compare-and-swap on holder and seq makes it single use.
 */
async function checkCode(ctx: RelayContext, taker: AccountRow, parcelId: string, pin: string) {
  const parcel = await findParcel(ctx.db, parcelId);
  if (!parcel) throw refuse('parcel_not_found', messages.parcelNotFound);
  if (relationship.holder(taker, parcel)) throw refuse('relay_own_parcel', messages.relayOwnParcel);
  if (parcel.status !== 'in_transit' || parcel.holder_kind !== 'runner' || parcel.holder_id === null) {
    throw refuse('relay_link_used', messages.relayLinkUsed);
  }
  await assertPin(ctx.pins, { id: parcel.id, seq: parcel.custody_seq, party: 'next_runner' }, pin);
  return { parcel, issuerId: parcel.holder_id, seq: parcel.custody_seq };
}

/** The superadmin's recorded correction of the holder. */
export async function overrideHolder(
  ctx: RelayContext,
  admin: AccountRow,
  parcelId: string,
  body: CustodyOverrideBody,
) {
  const runner = await findRunnerByUserName(ctx.db, body.runner);
  if (!runner) throw refuseField('assignee_not_runner', 'runner', messages.runnerNotFound);
  return overrideCustody(ctx.changes, parcelId, runner, admin, body.reason);
}

/**
 * User names of the accounts a chain names, as they were: SQLite may give a deleted account's id
 * to a later one, so an account created after the event is not the one it names (null: deleted).
 */
async function namesAsOf(db: Kysely<Database>, ids: (number | null)[]) {
  const wanted = [...new Set(ids)].filter((id): id is number => id !== null);
  const accounts =
    wanted.length === 0
      ? []
      : await db.selectFrom('accounts').select(['id', 'user_name', 'created_at']).where('id', 'in', wanted).execute();
  const byId = new Map(accounts.map((account) => [account.id, account]));
  return (id: number | null, at: string) => {
    const account = id === null ? undefined : byId.get(id);
    return account && account.created_at <= at ? account.user_name : null;
  };
}

/** Drop points' names by id (issue 28). */
async function dropPointNames(db: Kysely<Database>, ids: (number | null)[]) {
  const wanted = [...new Set(ids)].filter((id): id is number => id !== null);
  const rows =
    wanted.length === 0
      ? []
      : await db.selectFrom('drop_points').select(['id', 'name']).where('id', 'in', wanted).execute();
  return new Map(rows.map((row) => [row.id, row.name]));
}

/** The whole chain with names, and whether it verifies (the superadmin's view). */
export async function getCustodyChain(db: Kysely<Database>, parcelId: string): Promise<CustodyChain> {
  const events = await readChain(db, parcelId);
  if (events.length === 0 && !(await findParcel(db, parcelId))) {
    throw refuse('parcel_not_found', messages.parcelNotFound);
  }
  // A drop point's id names the place (issue 28), every other party's an account.
  const isAccount = (kind: string) => kind !== 'drop_point';
  const nameOf = await namesAsOf(
    db,
    events.flatMap((event) => [
      isAccount(event.from_kind) ? event.from_id : null,
      isAccount(event.to_kind) ? event.to_id : null,
    ]),
  );
  const placeIds = events.flatMap((event) => [
    event.from_kind === 'drop_point' ? event.from_id : null,
    event.to_kind === 'drop_point' ? event.to_id : null,
  ]);
  const places = await dropPointNames(db, placeIds);
  const party = (kind: (typeof events)[number]['from_kind'], id: number | null, at: string) => ({
    kind,
    userName: isAccount(kind) ? nameOf(id, at) : id === null ? null : (places.get(id) ?? null),
  });
  return {
    events: events.map((event) => ({
      seq: event.seq,
      kind: event.kind,
      from: party(event.from_kind, event.from_id, event.at),
      to: party(event.to_kind, event.to_id, event.at),
      place: event.lat === null || event.lng === null ? null : { lat: event.lat, lng: event.lng },
      at: event.at,
      how: event.how,
      reason: event.reason,
      hash: event.hash,
    })),
    firstBadSeq: firstBadSeq(events),
  };
}
