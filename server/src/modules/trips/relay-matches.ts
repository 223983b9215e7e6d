import type { Coordinates } from '@csomag/domain/parcel';
import { TRIP_MATCHES_MAX, type TripRelayOffer } from '@csomag/domain/trip-api';
import { type LatLngBox, relayCloserKm, relayGetsCloser, wholeMinutes } from '@csomag/domain/trips';
import type { Kysely } from 'kysely';
import type { AccountRow, Database } from '../../db/schema.ts';
import { presentOffer, selectOffers } from '../relay/relay-offers.ts';
import type { TripReach, TripTimes } from '../timetable/travel-times.ts';

const MINUTE = 60_000;

/**
 * The open relay offers a trip passes (issue 14 item 3, ADR 0029): other runners' offers,
 * unreserved or reserved by this runner, whose meeting point lies in the box the trip's model can
 * reach within the allowed minutes — read from relay_offers, then joined to each offer's own parcel
 * by id, never a scan of the parcels. Then the exact rules: the runner reaches the meeting point before
 * its window ends (waiting for it to open if early — waiting delays them as much as a detour), the
 * trip's end is still reached within the allowed minutes, and it brings the parcel closer to its
 * destination (domain relayGetsCloser).
 */
export async function findRelayOffers(
  db: Kysely<Database>,
  runner: AccountRow,
  times: TripTimes,
  trip: { from: Coordinates; to: Coordinates; departAt: number; arriveAt: number },
  limits: { box: LatLngBox; reach: TripReach; deadline: number; now: number },
): Promise<TripRelayOffer[]> {
  const { box } = limits;
  const nowIso = new Date(limits.now).toISOString();
  // The open offers in the box, from relay_offers alone first: joined to the parcels straight away,
  // SQLite (no statistics for a table that was empty at its last ANALYZE) walked every parcel in
  // transit instead (28 ms per trip query at 1 M parcels, bench:timetable); there are usually none.
  const inBox = await db
    .selectFrom('relay_offers')
    .select('id')
    .where('closed_at', 'is', null)
    .where('window_until', '>', nowIso)
    .where('runner_id', '!=', runner.id)
    .where('lat', '>=', box.minLat)
    .where('lat', '<=', box.maxLat)
    .where('lng', '>=', box.minLng)
    .where('lng', '<=', box.maxLng)
    .execute();
  if (inBox.length === 0) return [];
  const rows = await selectOffers(db, nowIso)
    .where(
      'relay_offers.id',
      'in',
      inBox.map((row) => row.id),
    )
    .where((eb) => eb.or([eb('relay_offers.taken_by', 'is', null), eb('relay_offers.taken_by', '=', runner.id)]))
    .execute();
  const offers = rows.map(presentOffer).filter((offer) => relayGetsCloser(offer.place, trip.to, offer.destination));
  const arrivals = limits.reach.arrivals(offers.map((offer) => offer.place));
  const fitting: TripRelayOffer[] = [];
  for (const [i, offer] of offers.entries()) {
    const arrives = arrivals[i] ?? Number.NaN;
    // NaN compares false: a point the search did not answer is not offered.
    if (!(arrives <= Date.parse(offer.until))) continue;
    const leaves = Math.max(arrives, Date.parse(offer.from));
    const atEnd = await times.arrival(offer.place, trip.to, leaves, limits.deadline + 1);
    if (!(atEnd <= limits.deadline + 1)) continue;
    fitting.push({
      ...offer,
      addedMinutes: wholeMinutes(Math.max(0, (atEnd - trip.arriveAt) / MINUTE)),
      closerKm: Math.floor(relayCloserKm(offer.place, trip.to, offer.destination) * 10) / 10,
    });
  }
  fitting.sort((a, b) => a.addedMinutes - b.addedMinutes || b.closerKm - a.closerKm || a.id - b.id);
  return fitting.slice(0, TRIP_MATCHES_MAX);
}
