import { distanceMetres } from '@csomag/domain/geo';
import type { Coordinates } from '@csomag/domain/parcel';
import {
  nextDeparture,
  RELAY_MEETING_MAX_WAIT_MS,
  RELAY_MEETING_POINTS_MAX,
  type RelayMeetingPoints,
  type RelayMeetingQuery,
} from '@csomag/domain/trip-api';
import { relayGetsCloser } from '@csomag/domain/trips';
import type { Kysely, Selectable } from 'kysely';
import type { AccountRow, Database, SavedTripsTable } from '../../db/schema.ts';
import { selectParcels } from '../parcels/service.ts';
import type { StopAt } from '../timetable/timetable.ts';
import type { TravelTimes } from '../timetable/travel-times.ts';
import { mayTrip } from '../trips/policy.ts';
import { savedTripFacts } from '../trips/service.ts';
import { assertHolder } from './service.ts';

/** A trip that left this long before the window may still be under way in it. */
const UNDER_WAY_MS = 3 * 3_600_000;
/** Two stops this close with one name are one meeting point (a feed's platforms, two feeds' copies). */
const SAME_STOP_M = 150;
/** Other runners' trips looked at, the nearest in time first: a bound on the searches per request. */
const TRIPS_LOOKED_AT = 200;

type SavedTripRow = Selectable<SavedTripsTable>;

/** A saved trip's occurrence that may be under way in the window: its facts and departure. */
function occurrence(row: SavedTripRow, window: { from: number }) {
  const trip = savedTripFacts(row, window.from);
  return { trip, departAt: nextDeparture(trip, window.from - UNDER_WAY_MS) };
}

/** The stops an occurrence passes in the window by the timetable, with their times; null when no timetable answers it. */
async function stopsPassed(
  travelTimes: TravelTimes,
  { trip, departAt }: ReturnType<typeof occurrence>,
  window: { from: number; until: number },
): Promise<StopAt[] | null> {
  if (departAt > window.until) return [];
  const times = await travelTimes.forTrip(trip.from, trip.to, trip.mode, departAt);
  if (times.source === 'straight-line') return null;
  const stops = (times.journey?.legs ?? []).flatMap((leg) => (leg.kind === 'ride' ? leg.stops : []));
  return stops.filter((stop) => stop.at >= window.from && stop.at <= window.until);
}

const sameStop = (a: StopAt, b: StopAt) => a.name === b.name && distanceMetres(a.position, b.position) <= SAME_STOP_M;

/**
 * Where the carrier could hand the parcel on (issue 26 item 6): stops their saved trip passes in the
 * offer's window that another trusted runner's saved trip passes too, within RELAY_MEETING_MAX_WAIT_MS
 * of each other, whose trip then ends nearer the parcel's destination. Earliest first; for each, the
 * time both can be there and how many runners' trips fit — never who.
 */
export async function findMeetingPoints(
  db: Kysely<Database>,
  travelTimes: TravelTimes,
  runner: AccountRow,
  parcelId: string,
  query: RelayMeetingQuery,
  now: number,
): Promise<RelayMeetingPoints> {
  const parcel = await selectParcels(db).where('parcels.id', '=', parcelId).executeTakeFirst();
  assertHolder(runner, parcel);
  const destination: Coordinates = { lat: parcel.receiver_lat, lng: parcel.receiver_lng };
  const window = { from: Math.max(now, Date.parse(query.from)), until: Date.parse(query.until) };
  const own = await db
    .selectFrom('saved_trips')
    .selectAll()
    .where('account_id', '=', runner.id)
    .where('paused', '=', 0)
    .execute();
  if (own.length === 0) return { points: [], reason: 'no_trip' };
  const carrierStops: StopAt[] = [];
  let answered = false;
  for (const row of own) {
    const stops = await stopsPassed(travelTimes, occurrence(row, window), window);
    if (stops === null) continue;
    answered = true;
    carrierStops.push(...stops);
  }
  if (!answered) return { points: [], reason: 'no_timetable' };
  if (carrierStops.length === 0) return { points: [], reason: null };

  const others = await db
    .selectFrom('saved_trips')
    .innerJoin('accounts', 'accounts.id', 'saved_trips.account_id')
    .selectAll('saved_trips')
    .select([
      'accounts.role',
      'accounts.address_key',
      'accounts.user_name',
      'accounts.approved_at',
      'accounts.suspended_at',
    ])
    .where('saved_trips.account_id', '!=', runner.id)
    .where('saved_trips.paused', '=', 0)
    .execute();
  const candidates = others
    .filter((row) => mayTrip({ ...row, id: row.account_id }, 'receiveOffers', row))
    .map((row) => ({ row, occurs: occurrence(row, window) }))
    .filter(({ occurs }) => occurs.departAt <= window.until)
    .sort((a, b) => a.occurs.departAt - b.occurs.departAt)
    .slice(0, TRIPS_LOOKED_AT);

  const points: { stop: StopAt; at: number; runners: Set<number> }[] = [];
  for (const { row, occurs } of candidates) {
    const stops = await stopsPassed(travelTimes, occurs, window);
    if (!stops) continue;
    const end = { lat: row.to_lat, lng: row.to_lng };
    for (const theirs of stops) {
      for (const mine of carrierStops) {
        if (!sameStop(mine, theirs) || Math.abs(mine.at - theirs.at) > RELAY_MEETING_MAX_WAIT_MS) continue;
        if (!relayGetsCloser(theirs.position, end, destination)) continue;
        const at = Math.max(mine.at, theirs.at);
        const known = points.find((point) => sameStop(point.stop, theirs));
        if (known) {
          known.at = Math.min(known.at, at);
          known.runners.add(row.account_id);
        } else points.push({ stop: theirs, at, runners: new Set([row.account_id]) });
      }
    }
  }
  points.sort((a, b) => a.at - b.at || b.runners.size - a.runners.size);
  return {
    points: points.slice(0, RELAY_MEETING_POINTS_MAX).map((point) => ({
      name: point.stop.name,
      position: point.stop.position,
      at: new Date(point.at).toISOString(),
      runners: point.runners.size,
    })),
    reason: null,
  };
}
