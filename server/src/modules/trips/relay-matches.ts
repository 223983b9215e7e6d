import { TRIP_MATCHES_MAX, type TripRelayOffer } from '@csomag/domain/trip-api';
import {
  type LatLngBox,
  relayFit,
  straightLineModel,
  type TravelTimeModel,
  type TripLegs,
  wholeMinutes,
  withinEllipse,
} from '@csomag/domain/trips';
import type { Kysely } from 'kysely';
import type { AccountRow, Database } from '../../db/schema.ts';
import { presentOffer, selectOffers } from '../relay/relay-offers.ts';

/**
 * The open relay offers a trip passes (issue 14 item 3): other runners' offers, unreserved or
 * reserved by this runner, whose meeting point lies in the trip's ellipse box (the same bound as
 * the parcels' pickup: a point outside it adds more than the minutes allowed) — read from
 * relay_offers, joined to each offer's own parcel by id, never a scan of the parcels. Then the
 * exact rules (domain relayFit): the detour plus any wait fits, the window is reached in time,
 * and the trip's end brings the parcel closer to its destination.
 */
export async function findRelayOffers(
  db: Kysely<Database>,
  runner: AccountRow,
  trip: TripLegs,
  limits: { maxDetourMinutes: number; sumMetres: number; box: LatLngBox; departure: number; now: number },
  model: TravelTimeModel = straightLineModel,
): Promise<TripRelayOffer[]> {
  const { box } = limits;
  const rows = await selectOffers(db, new Date(limits.now).toISOString())
    .where('relay_offers.runner_id', '!=', runner.id)
    .where((eb) => eb.or([eb('relay_offers.taken_by', 'is', null), eb('relay_offers.taken_by', '=', runner.id)]))
    .where('relay_offers.lat', '>=', box.minLat)
    .where('relay_offers.lat', '<=', box.maxLat)
    .where('relay_offers.lng', '>=', box.minLng)
    .where('relay_offers.lng', '<=', box.maxLng)
    .execute();
  const fitting: TripRelayOffer[] = [];
  for (const row of rows) {
    const offer = presentOffer(row);
    if (!withinEllipse(trip, offer.place, limits.sumMetres)) continue;
    const fit = relayFit(
      trip,
      limits.maxDetourMinutes,
      limits.departure,
      {
        place: offer.place,
        destination: offer.destination,
        from: Date.parse(offer.from),
        until: Date.parse(offer.until),
      },
      model,
    );
    if (!fit) continue;
    fitting.push({
      ...offer,
      addedMinutes: wholeMinutes(fit.addedMinutes),
      closerKm: Math.floor(fit.closerKm * 10) / 10,
    });
  }
  fitting.sort((a, b) => a.addedMinutes - b.addedMinutes || b.closerKm - a.closerKm || a.id - b.id);
  return fitting.slice(0, TRIP_MATCHES_MAX);
}
