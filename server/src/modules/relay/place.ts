import { distanceMetres } from '@csomag/domain/geo';
import { messages } from '@csomag/domain/messages';
import { RELAY_MEETING_RADIUS_M } from '@csomag/domain/relay';
import type { Transaction } from 'kysely';
import { nowIso } from '../../db/database.ts';
import type { AccountRow, Database } from '../../db/schema.ts';
import { refuse } from '../../errors.ts';
import { placeNameNear } from '../places/geocoder.ts';
import { offerRelationship } from './policy.ts';

type Point = { lat: number; lng: number };

/**
 * What a relay learns from the carrier's open offer ('Továbbadnám') made at the custody seq the
 * link names: an offer reserved by another runner refuses the hand-over (the reservation holds
 * until the window ends; the carrier may withdraw the offer), and the place's name is the
 * meeting point's label when the hand-over happens there, else the nearest imported street,
 * station or landmark's, else the nearest settlement's.
 */
export async function relayPlaceName(
  trx: Transaction<Database>,
  parcelId: string,
  expected: { issuerId: number; seq: number },
  taker: AccountRow,
  place: Point | undefined,
): Promise<string | null> {
  const offer = await trx
    .selectFrom('relay_offers')
    .select(['lat', 'lng', 'place_label', 'taken_by'])
    .where('parcel_id', '=', parcelId)
    .where('runner_id', '=', expected.issuerId)
    .where('custody_seq', '=', expected.seq)
    .where('closed_at', 'is', null)
    .where('window_until', '>', nowIso())
    .executeTakeFirst();
  if (offer && offer.taken_by !== null && !offerRelationship.reservedFor(taker, offer)) {
    throw refuse('relay_offer_reserved', messages.relayOfferReservedForOther);
  }
  const atMeetingPoint = offer && (!place || distanceMetres(place, offer) <= RELAY_MEETING_RADIUS_M);
  if (atMeetingPoint && offer.place_label) return offer.place_label;
  const where = place ?? (atMeetingPoint ? offer : undefined);
  return where ? placeNameNear(trx, where) : null;
}
