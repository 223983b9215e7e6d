import { messages } from '@csomag/domain/messages';
import type { RelayOffer, RelayOfferBody, RelayOfferList } from '@csomag/domain/relay';
import type { ExpressionBuilder, Kysely } from 'kysely';
import type { ChangeFeed } from '../../db/change-feed.ts';
import { nowIso } from '../../db/database.ts';
import type { AccountRow, Database } from '../../db/schema.ts';
import { refuse } from '../../errors.ts';
import { announceRelayOffer } from '../parcels/changes.ts';
import { assertMayParcel, mayParcel } from '../parcels/policy.ts';
import { selectParcels } from '../parcels/service.ts';
import { offerRelationship } from './policy.ts';
import { assertHolder } from './service.ts';

/**
 * Relay offers ('Továbbadnám', docs/decisions/0022): the holder offers the parcel at a meeting
 * point within a time window; another runner reserves it until the window ends. An offer is open
 * while not withdrawn, before its `until`, and while the offering runner still holds the parcel
 * at the custody seq it was made at, so any change of hands (the relay itself, a give-back, a
 * delivery, an override) ends it without a write. The hand-over itself still needs the QR link.
 * Making, withdrawing and reserving one publish a `relay_offer` change message (live for every
 * runner's `parcels`, every instance) but write no timeline event: the parcel itself is unchanged.
 */

type Changes = Pick<ChangeFeed, 'transaction'>;

/** The offer's parcel is still held by the offerer at the offer's seq. */
export const stillHeld = (eb: ExpressionBuilder<Database, 'relay_offers' | 'parcels'>) =>
  eb.and([
    eb('parcels.status', '=', 'in_transit'),
    eb('parcels.holder_kind', '=', 'runner'),
    eb('parcels.holder_id', '=', eb.ref('relay_offers.runner_id')),
    eb('parcels.custody_seq', '=', eb.ref('relay_offers.custody_seq')),
  ]);

export const selectOffers = (db: Kysely<Database>, now: string) =>
  db
    .selectFrom('relay_offers')
    .innerJoin('parcels', 'parcels.id', 'relay_offers.parcel_id')
    .innerJoin('accounts as offerer', 'offerer.id', 'relay_offers.runner_id')
    .leftJoin('accounts as taker', 'taker.id', 'relay_offers.taken_by')
    .select([
      'relay_offers.id',
      'relay_offers.parcel_id',
      'relay_offers.runner_id',
      'relay_offers.lat',
      'relay_offers.lng',
      'relay_offers.place_label',
      'relay_offers.window_from',
      'relay_offers.window_until',
      'relay_offers.taken_by',
      'parcels.category',
      'parcels.weight_grams',
      'parcels.receiver_lat',
      'parcels.receiver_lng',
      'offerer.user_name as runner_user_name',
      'taker.user_name as taker_user_name',
    ])
    .where('relay_offers.closed_at', 'is', null)
    .where('relay_offers.window_until', '>', now)
    .where(stillHeld);

export type OfferRow = Awaited<ReturnType<ReturnType<typeof selectOffers>['execute']>>[number];

export const presentOffer = (row: OfferRow): RelayOffer => ({
  id: row.id,
  parcelId: row.parcel_id,
  category: row.category,
  weightGrams: row.weight_grams,
  runner: row.runner_user_name,
  place: { lat: row.lat, lng: row.lng },
  placeLabel: row.place_label,
  from: row.window_from,
  until: row.window_until,
  destination: { lat: row.receiver_lat, lng: row.receiver_lng },
  takenBy: row.taker_user_name,
});

/** The holder offers the parcel; a new offer replaces their open one for the parcel. */
export async function createRelayOffer(
  db: Kysely<Database>,
  changes: Changes,
  runner: AccountRow,
  parcelId: string,
  body: RelayOfferBody,
): Promise<RelayOffer> {
  assertMayParcel(runner, 'offerForRelay');
  const parcel = await selectParcels(db).where('parcels.id', '=', parcelId).executeTakeFirst();
  assertHolder(runner, parcel);
  const now = nowIso();
  const id = await changes.transaction(async (trx, publish) => {
    await trx
      .updateTable('relay_offers')
      .set({ closed_at: now })
      .where('parcel_id', '=', parcel.id)
      .where('closed_at', 'is', null)
      .execute();
    const row = await trx
      .insertInto('relay_offers')
      .values({
        parcel_id: parcel.id,
        runner_id: runner.id,
        custody_seq: parcel.custody_seq,
        lat: body.place.lat,
        lng: body.place.lng,
        place_label: body.placeLabel || null,
        window_from: body.from,
        window_until: body.until,
        taken_by: null,
        taken_at: null,
        closed_at: null,
        created_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    // One message for both: the replaced offer's readers refetch the list that shows the new one.
    await announceRelayOffer(trx, publish, row.id);
    return row.id;
  });
  const offer = await selectOffers(db, now).where('relay_offers.id', '=', id).executeTakeFirst();
  // Changed hands in between: the offer was made for a seq that is no longer current.
  if (!offer) throw refuse('relay_offer_unavailable', messages.relayOfferUnavailable);
  return presentOffer(offer);
}

/** The holder withdraws their open offer for the parcel (204 also when there was none). */
export async function withdrawRelayOffer(changes: Changes, runner: AccountRow, parcelId: string) {
  await changes.transaction(async (trx, publish) => {
    const closed = await trx
      .updateTable('relay_offers')
      .set({ closed_at: nowIso() })
      .where('parcel_id', '=', parcelId)
      .where('runner_id', '=', runner.id)
      .where('closed_at', 'is', null)
      .returning('id')
      .execute();
    // Nothing was open: nothing to tell (at most one is, the partial unique index).
    for (const { id } of closed) await announceRelayOffer(trx, publish, id);
  });
}

/**
 * Open offers for a runner: other runners' offers that nobody has reserved or that this runner
 * reserved, soonest ending first, and the runner's own (so their list shows what they offered).
 */
export async function listRelayOffers(db: Kysely<Database>, runner: AccountRow): Promise<RelayOfferList> {
  // A runner who may not take one on (suspended, not approved) sees only their own (relay/policy.ts `list`).
  const othersToo = mayParcel(runner, 'takeOver');
  const rows = await selectOffers(db, nowIso())
    .where((eb) =>
      eb.or([
        ...(othersToo ? [eb('relay_offers.taken_by', 'is', null), eb('relay_offers.taken_by', '=', runner.id)] : []),
        // Their own also once reserved: their card says by whom.
        eb('relay_offers.runner_id', '=', runner.id),
      ]),
    )
    .orderBy('relay_offers.window_until')
    .orderBy('relay_offers.id')
    .limit(200)
    .execute();
  return { items: rows.map(presentOffer) };
}

/**
 * A runner reserves an open offer until its window ends: one conditional UPDATE, so of runners
 * taking it at once exactly one gets it; the rest 409.
 */
export async function takeRelayOffer(
  db: Kysely<Database>,
  changes: Changes,
  runner: AccountRow,
  offerId: number,
): Promise<RelayOffer> {
  assertMayParcel(runner, 'takeOver');
  const now = nowIso();
  const current = await selectOffers(db, now).where('relay_offers.id', '=', offerId).executeTakeFirst();
  if (!current) throw refuse('relay_offer_not_found', messages.relayOfferNotFound);
  if (offerRelationship.offerer(runner, current)) throw refuse('relay_own_parcel', messages.relayOwnParcel);
  await changes.transaction(async (trx, publish) => {
    const taken = await trx
      .updateTable('relay_offers')
      .set({ taken_by: runner.id, taken_at: now })
      .where('id', '=', offerId)
      .where('closed_at', 'is', null)
      .where('window_until', '>', now)
      .where((eb) => eb.or([eb('taken_by', 'is', null), eb('taken_by', '=', runner.id)]))
      .where((eb) =>
        eb.exists(
          eb
            .selectFrom('parcels')
            .select('parcels.id')
            .whereRef('parcels.id', '=', 'relay_offers.parcel_id')
            .where('parcels.status', '=', 'in_transit')
            .whereRef('parcels.holder_id', '=', 'relay_offers.runner_id')
            .whereRef('parcels.custody_seq', '=', 'relay_offers.custody_seq'),
        ),
      )
      .executeTakeFirst();
    if (Number(taken.numUpdatedRows) === 0) throw refuse('relay_offer_unavailable', messages.relayOfferUnavailable);
    await announceRelayOffer(trx, publish, offerId);
  });
  const offer = await selectOffers(db, now).where('relay_offers.id', '=', offerId).executeTakeFirstOrThrow();
  return presentOffer(offer);
}
