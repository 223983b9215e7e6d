import { messages } from '@csomag/domain/messages';
import type { Coordinates } from '@csomag/domain/parcel';
import {
  departuresAfter,
  isTripActive,
  SAVED_TRIPS_MAX,
  type SavedTrip,
  type SavedTripBody,
  type SavedTripPatch,
  savedTripBodySchema,
  TRIP_MATCHES_MAX,
  type TripLeg,
  type TripMatch,
  type TripMatchesResponse,
  type TripPlan,
  type TripQuery,
} from '@csomag/domain/trip-api';
import { type LatLngBox, WHOLE_MINUTE_SLACK, wholeMinutes } from '@csomag/domain/trips';
import { type Kysely, type Selectable, sql } from 'kysely';
import type { Store } from '../../db/database.ts';
import type { AccountRow, Database, SavedTripsTable } from '../../db/schema.ts';
import { AppError, refuse } from '../../errors.ts';
import { presentParcel } from '../parcels/present.ts';
import { selectParcels } from '../parcels/service.ts';
import { nearestPlaceName } from '../places/geocoder.ts';
import type { StopAt } from '../timetable/timetable.ts';
import type { BoundedLeg, TravelTimes, TripReach, TripTimes } from '../timetable/travel-times.ts';
import { ageKey } from './age-key.ts';
import { findRelayOffers } from './relay-matches.ts';
import type { WaitingPoint, WaitingPool } from './waiting-pool.ts';

/** The waiting parcels whose pickup lies in `pickups` and delivery point in `deliveries`, from the database. */
async function waitingWithin(store: Pick<Store, 'db' | 'dialect'>, pickups: LatLngBox, deliveries: LatLngBox) {
  // SQLite's statistics make the (status, sender_lat, sender_lng) index look better; it reads every
  // candidate's row for its delivery point (60 ms against 13 ms at 1 M parcels, Budapest → Győr).
  const index = store.dialect === 'sqlite' ? sql`indexed by parcels_waiting_points` : sql``;
  // The status as a literal: a partial index is used only where the query says what it says.
  const { rows } = await sql<WaitingPoint>`
    select id, sender_lat, sender_lng, receiver_lat, receiver_lng, created_at from parcels ${index}
    where status = 'waiting'
      and sender_lat between ${pickups.minLat} and ${pickups.maxLat}
      and sender_lng between ${pickups.minLng} and ${pickups.maxLng}
      and receiver_lat between ${deliveries.minLat} and ${deliveries.maxLat}
      and receiver_lng between ${deliveries.minLng} and ${deliveries.maxLng}
  `.execute(store.db);
  return rows;
}

const MINUTE = 60_000;
/** A millisecond of slack on the deadline: a parcel exactly on the edge is not lost to rounding. */
const EDGE_MS = 1;

/**
 * How much later (unrounded minutes) the runner reaches the trip's end collecting at `pickup` and
 * delivering at `delivery`, by the trip's own model — walks, waits and rides included — or null
 * when that is after `deadline`. `pickupArrival` and `deliveryLeaveBy`, when a TripReach already
 * knows them, spare a search; so does `leaveOnTime`, the latest departure from the delivery point
 * that still arrives as planned (0 whole minutes added): leaving by then answers 0.
 */
export async function addedByParcel(
  times: TripTimes,
  trip: { to: Coordinates; arriveAt: number; departAt: number; from: Coordinates },
  deadline: number,
  pickup: Coordinates,
  delivery: Coordinates,
  known?: { pickupArrival: number; deliveryLeaveBy: number; leaveOnTime?: () => Promise<number> },
): Promise<number | null> {
  const by = deadline + EDGE_MS;
  const atPickup = known?.pickupArrival ?? (await times.arrival(trip.from, pickup, trip.departAt, by));
  if (!(atPickup <= by)) return null;
  const deliveryBy = deliveryDeadline(deadline, known?.deliveryLeaveBy ?? deadline);
  const onTime = known?.leaveOnTime ? await known.leaveOnTime() : Number.NEGATIVE_INFINITY;
  // Reaching the delivery point by then is all 0 minutes needs: the search may end at the first such arrival.
  const atDelivery = await times.arrival(pickup, delivery, atPickup, deliveryBy, Math.min(onTime, deliveryBy));
  const told = byDelivery(atDelivery, deliveryBy, onTime);
  return told === 'end' ? byEnd(trip, deadline, await times.arrival(delivery, trip.to, atDelivery, by)) : told;
}

/** One parcel on one trip, for addedByParcels. */
export interface TripParcel {
  trip: { to: Coordinates; arriveAt: number; departAt: number; from: Coordinates };
  deadline: number;
  pickup: Coordinates;
  delivery: Coordinates;
}

/**
 * addedByParcel (without `known`) for many parcels on trips answered by one engine (TripTimes'
 * `arrivalsEach`): the same minutes, or null, each, from three rounds of legs — to the pickups,
 * on to the delivery points, on to the ends — asked together instead of a search per leg.
 */
export async function addedByParcels(
  arrivalsEach: (legs: readonly BoundedLeg[]) => Promise<Float64Array>,
  pairs: readonly TripParcel[],
): Promise<(number | null)[]> {
  const answers: (number | null)[] = pairs.map(() => null);
  const atPickup = await arrivalsEach(
    pairs.map(({ trip, deadline, pickup }) => ({
      from: trip.from,
      to: pickup,
      at: trip.departAt,
      by: deadline + EDGE_MS,
    })),
  );
  const picked = pairs.flatMap((pair, i) => ((atPickup[i] as number) <= pair.deadline + EDGE_MS ? [i] : []));
  const atDelivery = await arrivalsEach(
    picked.map((i) => {
      const { pickup, delivery, deadline } = pairs[i] as TripParcel;
      return { from: pickup, to: delivery, at: atPickup[i] as number, by: deliveryDeadline(deadline, deadline) };
    }),
  );
  const delivered = picked.flatMap((i, k) => {
    const { deadline } = pairs[i] as TripParcel;
    const at = atDelivery[k] as number;
    return byDelivery(at, deliveryDeadline(deadline, deadline), Number.NEGATIVE_INFINITY) === 'end' ? [{ i, at }] : [];
  });
  const atEnd = await arrivalsEach(
    delivered.map(({ i, at }) => {
      const { trip, delivery, deadline } = pairs[i] as TripParcel;
      return { from: delivery, to: trip.to, at, by: deadline + EDGE_MS };
    }),
  );
  for (const [k, { i }] of delivered.entries()) {
    const { trip, deadline } = pairs[i] as TripParcel;
    answers[i] = byEnd(trip, deadline, atEnd[k] as number);
  }
  return answers;
}

/** By when the delivery point must be reached: the deadline, or when it must be left for the end (a millisecond's slack each). */
const deliveryDeadline = (deadline: number, deliveryLeaveBy: number) =>
  Math.min(deadline + EDGE_MS, deliveryLeaveBy + EDGE_MS);

/**
 * What the arrival at the delivery point tells (addedByParcel): the parcel does not fit (null), it
 * adds none (left no later than the trip's on-time departure from there), or the end decides.
 */
function byDelivery(atDelivery: number, deliveryBy: number, onTime: number): null | 0 | 'end' {
  if (!(atDelivery <= deliveryBy)) return null;
  return atDelivery <= onTime ? 0 : 'end';
}

/** The unrounded minutes added by arriving at the end at `atEnd`, or null when that is after the deadline. */
function byEnd(trip: { arriveAt: number }, deadline: number, atEnd: number): number | null {
  if (!(atEnd <= deadline + EDGE_MS)) return null;
  return Math.max(0, (atEnd - trip.arriveAt) / MINUTE);
}

/** The trip as the runner reads it: minutes, arrival, legs, and who answered (tripPlanSchema). */
export function presentTripPlan(times: TripTimes, departAt: number, validUntil: string | null): TripPlan {
  const { journey } = times;
  const iso = (at: number) => new Date(at).toISOString();
  return {
    minutes: journey ? wholeMinutes((journey.arriveAt - departAt) / MINUTE) : null,
    departAt: iso(departAt),
    arriveAt: journey ? iso(journey.arriveAt) : null,
    source: times.source,
    fallback: times.fallback ?? null,
    timetableValidUntil: times.fallback === 'timetable_expired' ? validUntil : null,
    legs: (journey?.legs ?? []).map((leg): TripLeg => {
      if (leg.kind === 'walk') {
        return {
          kind: 'walk',
          departAt: iso(leg.departAt),
          arriveAt: iso(leg.arriveAt),
          minutes: wholeMinutes((leg.arriveAt - leg.departAt) / MINUTE),
        };
      }
      const stop = (s: StopAt) => ({ name: s.name, position: s.position, at: iso(s.at) });
      return {
        kind: 'ride',
        route: leg.route,
        routeType: leg.routeType,
        headsign: leg.headsign,
        from: stop(leg.from),
        to: stop(leg.to),
        path: leg.stops.map((s) => s.position),
      };
    }),
  };
}

/**
 * The fewest whole minutes a parcel can add to the trip, or null when it cannot fit, from what the
 * trip's two searches know of its points (`pickupArrival`: the earliest arrival at the pickup;
 * `deliveryLeaveBy`: the latest departure from the delivery point still reaching the end in time)
 * and the model's least times between them: the pickup reached, then the delivery point at the
 * least no later than it must be left, then the end at the least. `deliveryAt`: a lower bound of
 * the arrival at the delivery point known otherwise. Necessary, not sufficient.
 */
export function leastAdded(
  times: TripTimes,
  trip: { to: Coordinates; arriveAt: number },
  pickup: Coordinates,
  delivery: Coordinates,
  pickupArrival: number,
  deliveryLeaveBy: number,
  deliveryAt = Number.NEGATIVE_INFINITY,
): number | null {
  // NaN compares false: a point the search did not answer is not offered.
  if (!(pickupArrival <= deliveryLeaveBy + EDGE_MS)) return null;
  const atDelivery = Math.max(pickupArrival + times.leastMs(pickup, delivery), deliveryAt);
  if (!(atDelivery <= deliveryLeaveBy + EDGE_MS)) return null;
  const atEnd = atDelivery + times.leastMs(delivery, trip.to);
  return wholeMinutes(Math.max(0, (atEnd - trip.arriveAt) / MINUTE));
}

/** Fewer candidates than this are searched one by one at once: one search for them all costs about two. */
const SEARCH_TOGETHER_FROM = 4;
/** Delivery points left for the trip's end this far apart or more are searched for apart (mayAddNone). */
const SEARCH_GAP_MS = 30 * MINUTE;

/**
 * The candidates' arrivals at their delivery points, bounded from below by one search from all their
 * pickups at once (when the model offers it): a candidate whose delivery point no ride from any
 * pickup reaches in time is dropped, and the rest's least minutes rise to what it says.
 */
export async function closerBounds(
  times: TripTimes,
  trip: { to: Coordinates; arriveAt: number },
  deadline: number,
  candidates: Passing[],
): Promise<Passing[]> {
  if (!times.leastArrivals || candidates.length < SEARCH_TOGETHER_FROM) return candidates;
  let latest = Number.NEGATIVE_INFINITY;
  for (const candidate of candidates) latest = Math.max(latest, candidate.deliveryLeaveBy);
  const arrivals = await times.leastArrivals(
    candidates.map(({ pickup, delivery, pickupArrival }) => ({ from: pickup, to: delivery, at: pickupArrival })),
    Math.min(deadline, latest) + EDGE_MS,
  );
  return candidates.flatMap((candidate, i) => {
    const { pickup, delivery, pickupArrival, deliveryLeaveBy } = candidate;
    const deliveryAt = arrivals[i] ?? Number.NEGATIVE_INFINITY;
    const least = leastAdded(times, trip, pickup, delivery, pickupArrival, deliveryLeaveBy, deliveryAt);
    // A bound known before (mayAddNone's minute) still holds.
    return least === null ? [] : [{ ...candidate, least: Math.max(least, candidate.least) }];
  });
}

/**
 * Of candidates at 0 least minutes, those that may still add none, and the rest (at least 1 minute,
 * or more as closerBounds finds), without those that cannot fit. Adding none is leaving the delivery
 * point by the latest departure that still reaches the end as planned (ExactMinutes.departuresOnTime;
 * leaving later arrives later): one search from a group's pickups, stopped at its group's latest
 * such departure, tells which delivery points none of them reaches by it — far fewer than reach
 * them by the deadline when the trip has time to spare where it ends (a delivery point in Győr for a
 * trip from Budapest: a pickup in Budapest catching the trip's own train reaches it before the
 * deadline, but seldom by the time the trip's end must be left for).
 */
export async function mayAddNone(
  times: TripTimes,
  trip: { to: Coordinates; arriveAt: number },
  deadline: number,
  candidates: Passing[],
  exact: ExactMinutes,
): Promise<{ none: Passing[]; some: Passing[] }> {
  const none: Passing[] = [];
  const some: Passing[] = [];
  const onTime = exact.departuresOnTime(times, trip);
  const { leastArrivals } = times;
  if (!onTime || !leastArrivals || candidates.length < SEARCH_TOGETHER_FROM) {
    for (const candidate of await closerBounds(times, trip, deadline, candidates)) {
      (candidate.least === 0 ? none : some).push(candidate);
    }
    return { none, some };
  }
  const leaveOnTime = (await onTime)(candidates.map((candidate) => candidate.delivery));
  const order = candidates.map((_, i) => i).sort((a, b) => (leaveOnTime[a] as number) - (leaveOnTime[b] as number));
  const arrivals = new Float64Array(candidates.length).fill(Number.NEGATIVE_INFINITY);
  for (let start = 0, end = 1; start < order.length; start = end++) {
    const first = leaveOnTime[order[start] as number] as number;
    while (
      end < order.length &&
      (leaveOnTime[order[end] as number] as number) < (leaveOnTime[order[end - 1] as number] as number) + SEARCH_GAP_MS
    ) {
      end++;
    }
    // A delivery point the end cannot be reached from as planned needs no search.
    if (end - start < SEARCH_TOGETHER_FROM || first === Number.NEGATIVE_INFINITY) continue;
    const group = order.slice(start, end);
    const legs = group.map((i) => {
      const { pickup, delivery, pickupArrival } = candidates[i] as Passing;
      return { from: pickup, to: delivery, at: pickupArrival };
    });
    const latest = leaveOnTime[order[end - 1] as number] as number;
    const found = await leastArrivals(legs, Math.min(deadline, latest) + EDGE_MS);
    for (const [k, i] of group.entries()) arrivals[i] = found[k] ?? Number.NEGATIVE_INFINITY;
  }
  for (const [i, candidate] of candidates.entries()) {
    const by = leaveOnTime[i] as number;
    const deliveryAt = arrivals[i] as number;
    if (by === Number.NEGATIVE_INFINITY || !(deliveryAt <= by)) {
      // Not by then (the search may have stopped before it arrives): at least a minute, maybe more.
      some.push({ ...candidate, least: Math.max(1, candidate.least) });
      continue;
    }
    const { pickup, delivery, pickupArrival, deliveryLeaveBy } = candidate;
    const least = leastAdded(times, trip, pickup, delivery, pickupArrival, deliveryLeaveBy, deliveryAt);
    if (least !== null) (least === 0 ? none : some).push({ ...candidate, least });
  }
  return { none, some };
}

/** A candidate past the bounds: what they know of it, and the fewest whole minutes it can add. */
export interface Passing {
  id: string;
  createdAt: string;
  pickup: Coordinates;
  delivery: Coordinates;
  pickupArrival: number;
  deliveryLeaveBy: number;
  least: number;
}

/** A match's order: whole minutes added first (what the runner sees), then the longest waiting. */
export type Ranked = { id: string; added: number; createdAt: string };
export const ranking = (a: Ranked, b: Ranked) =>
  a.added - b.added || byText(a.createdAt, b.createdAt) || byText(a.id, b.id);
/** ISO instants and ids in the order of their characters (an instant's text orders as its time). */
const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * What a request's exact evaluations keep between rounds (findMatches' oldest-first chunks): each
 * parcel's whole minutes (null: it does not fit) and the trip's on-time departures search.
 */
export class ExactMinutes {
  readonly known = new Map<string, number | null>();
  /** Whole minutes some add at least, found on the way (not reaching the delivery point in time for none). */
  readonly atLeast = new Map<string, number>();
  private onTimeDepartures: Promise<(points: readonly Coordinates[]) => Float64Array> | undefined;

  /**
   * The latest departures from points that still reach the trip's end as planned (0 whole minutes
   * added), one backward search made at the first ask; undefined where the model has none.
   */
  departuresOnTime(
    times: TripTimes,
    trip: { arriveAt: number },
  ): Promise<(points: readonly Coordinates[]) => Float64Array> | undefined {
    if (!times.departuresBy) return undefined;
    this.onTimeDepartures ??= times.departuresBy(onTimeBy(trip));
    return this.onTimeDepartures;
  }
}

/** By when the trip's end must be reached for a parcel to add 0 whole minutes. */
const onTimeBy = (trip: { arriveAt: number }) => trip.arriveAt + Math.floor(WHOLE_MINUTE_SLACK * MINUTE);

/**
 * The `limit` best fitting candidates, in ranking order, and how many were evaluated exactly (not
 * known to `exact` already). They are evaluated in the order of their least minutes (then age),
 * which stops once the next one, even at its least, ranks after the last of a full list; a
 * delivery point left in time for the trip's own arrival adds 0 without the search to the end (one
 * backward search for them all, when the model offers it). Where the model searches many legs at
 * once, the next `limit` not known are evaluated together (in whole searches), then as many as
 * the rate of those fitting says the list still needs (at most twice as many), and so on; one found
 * not to add 0 minutes as its least said moves on to its place at a minute, evaluated only if it
 * is reached there. None is evaluated whose least minutes are over `upTo`.
 */
export async function bestFitting(
  times: TripTimes,
  trip: { from: Coordinates; to: Coordinates; departAt: number; arriveAt: number },
  deadline: number,
  candidates: Passing[],
  limit = TRIP_MATCHES_MAX,
  exact = new ExactMinutes(),
  upTo = Number.POSITIVE_INFINITY,
): Promise<{ best: Ranked[]; evaluated: number }> {
  type Queued = { candidate: Passing; rank: Ranked };
  const queued = (found: Passing): Queued => {
    const candidate = { ...found, least: Math.max(found.least, exact.atLeast.get(found.id) ?? 0) };
    return { candidate, rank: { id: candidate.id, added: candidate.least, createdAt: candidate.createdAt } };
  };
  const queue = candidates.map(queued).sort((a, b) => ranking(a.rank, b.rank));
  // Each candidate's place in the queue (one moved on leaves its old place behind).
  const placed = new Map(queue.map((entry) => [entry.candidate.id, entry]));
  const best: Ranked[] = [];
  const knownBefore = exact.known.size;
  const width = times.legsAtOnce ?? 1;
  let together = times.arrivalsEach ? wholeSearches(limit, width) : 1;
  // Evaluated together so far, for the rate of those fitting.
  let asked = 0;
  for (let k = 0; k < queue.length; k++) {
    const entry = queue[k] as Queued;
    const { candidate, rank } = entry;
    if (placed.get(candidate.id) !== entry) continue;
    const last = best.length === limit ? best[best.length - 1] : undefined;
    if ((last && ranking(rank, last) > 0) || rank.added > upTo) break;
    if (!exact.known.has(candidate.id)) {
      const next: Passing[] = [];
      const needed = limit - best.length;
      // As many as the rate of those fitting so far says the list still needs, in whole searches,
      // but at most twice as many as the last time (none fitting: twice as many).
      if (asked > 0 && times.arrivalsEach) {
        const rated = best.length === 0 ? Number.POSITIVE_INFINITY : (needed * asked) / best.length;
        together = Math.min(2 * together, wholeSearches(rated, width));
      }
      // The next ones not known, as many as may be needed, or as far as the least minutes of the
      // last taken once that many are taken.
      for (let j = k; j < queue.length && next.length < together; j++) {
        const other = queue[j] as Queued;
        const previous = next[next.length - 1];
        if (next.length >= needed && previous && other.candidate.least > previous.least) break;
        if (placed.get(other.candidate.id) === other && !exact.known.has(other.candidate.id))
          next.push(other.candidate);
      }
      const movedOn = await evaluate(times, trip, deadline, next, exact);
      asked += next.length;
      for (const moved of movedOn) {
        const entry = queued(moved);
        placed.set(moved.id, entry);
        let at = k + 1;
        while (at < queue.length && ranking((queue[at] as Queued).rank, entry.rank) <= 0) at++;
        queue.splice(at, 0, entry);
      }
      if (placed.get(candidate.id) !== entry) continue;
    }
    const added = exact.known.get(candidate.id);
    if (added === null || added === undefined) continue;
    const fitting = { ...rank, added };
    const at = best.findIndex((other) => ranking(fitting, other) < 0);
    best.splice(at < 0 ? best.length : at, 0, fitting);
    if (best.length > limit) best.pop();
  }
  return { best, evaluated: exact.known.size - knownBefore };
}

/** `count` rounded up to whole searches of `width` legs (at least one). */
const wholeSearches = (count: number, width: number) => Math.max(width, Math.ceil(count / width) * width);

/**
 * Each candidate's whole minutes added (addedByParcel's answer, null when it does not fit) into
 * `exact.known`. For many at once where the model searches many legs together: those that may add
 * none first only as far as their on-time departure (a short search), and those that do not make
 * it are answered at a minute at least, not evaluated (moved on); the rest's legs to their delivery
 * points in one search, then the legs on to the end of those that need it in another.
 */
async function evaluate(
  times: TripTimes,
  trip: { from: Coordinates; to: Coordinates; departAt: number; arriveAt: number },
  deadline: number,
  candidates: Passing[],
  exact: ExactMinutes,
): Promise<Passing[]> {
  const onTime = exact.departuresOnTime(times, trip);
  const leaveOnTime = onTime ? (await onTime)(candidates.map((candidate) => candidate.delivery)) : undefined;
  const onTimeOf = (i: number) => leaveOnTime?.[i] ?? Number.NEGATIVE_INFINITY;
  const { arrivalsEach } = times;
  if (!arrivalsEach || candidates.length < SEARCH_TOGETHER_FROM) {
    for (const [i, candidate] of candidates.entries()) {
      const { id, pickup, delivery, pickupArrival, deliveryLeaveBy } = candidate;
      const minutes = await addedByParcel(times, trip, deadline, pickup, delivery, {
        pickupArrival,
        deliveryLeaveBy,
        leaveOnTime: async () => onTimeOf(i),
      });
      exact.known.set(id, minutes === null ? null : wholeMinutes(minutes));
    }
    return [];
  }
  const movedOn: Passing[] = [];
  // Each with its on-time departure: those that may add none, and the rest.
  const maybeNone: { candidate: Passing; onTime: number }[] = [];
  const rest: { candidate: Passing; onTime: number }[] = [];
  for (const [i, candidate] of candidates.entries()) {
    const onTime = onTimeOf(i);
    (candidate.least === 0 && onTime > Number.NEGATIVE_INFINITY ? maybeNone : rest).push({ candidate, onTime });
  }
  // Both kinds in one ask: whole scans of legs, where asked apart a few of each took a scan each.
  const asked = await arrivalsEach([
    // Any arrival by then will do.
    ...maybeNone.map(({ candidate, onTime }) => {
      const by = Math.min(deliveryDeadline(deadline, candidate.deliveryLeaveBy), onTime);
      return { from: candidate.pickup, to: candidate.delivery, at: candidate.pickupArrival, by, enough: by };
    }),
    ...rest.map(({ candidate }) => ({
      from: candidate.pickup,
      to: candidate.delivery,
      at: candidate.pickupArrival,
      by: deliveryDeadline(deadline, candidate.deliveryLeaveBy),
    })),
  ]);
  const byOnTime = asked.subarray(0, maybeNone.length);
  const found = asked.subarray(maybeNone.length);
  for (const [k, { candidate, onTime }] of maybeNone.entries()) {
    if ((byOnTime[k] as number) <= onTime) exact.known.set(candidate.id, 0);
    else {
      exact.atLeast.set(candidate.id, 1);
      movedOn.push({ ...candidate, least: 1 });
    }
  }
  const told = rest.map(({ candidate, onTime }, k) => {
    const atDelivery = found[k] as number;
    const said = byDelivery(atDelivery, deliveryDeadline(deadline, candidate.deliveryLeaveBy), onTime);
    return { candidate, atDelivery, said };
  });
  const onward = told.filter(({ said }) => said === 'end');
  const ends = await arrivalsEach(
    onward.map(({ candidate, atDelivery }) => ({
      from: candidate.delivery,
      to: trip.to,
      at: atDelivery,
      by: deadline + EDGE_MS,
    })),
  );
  const atEnd = new Map(onward.map(({ candidate }, i) => [candidate, ends[i] as number]));
  for (const { candidate, said } of told) {
    const minutes = said === 'end' ? byEnd(trip, deadline, atEnd.get(candidate) as number) : said;
    exact.known.set(candidate.id, minutes === null ? null : wholeMinutes(minutes));
  }
  return movedOn;
}

/**
 * The best TRIP_MATCHES_MAX of the candidates in the box, and how many each step kept. Many are
 * taken oldest first in chunks (OldestFirst; the next one as large as the rate of those adding no
 * minute so far says is needed, nextChunk), and before the last chunk only those that may add no
 * minute are evaluated: when the best of those taken all add no minute, nobody newer can rank before
 * them, and the rest is never looked at (an intercity trip with an hour to spare in the city finds
 * its 50 in the first 7–8 k of 19 k). They are searched for (mayAddNone) only once enough may add
 * none to fill the list; fewer wait for the next chunk's. The last chunk evaluates all that are
 * left, as one chunk would.
 */
export async function bestOfCandidates(
  times: TripTimes,
  reach: TripReach,
  trip: { from: Coordinates; to: Coordinates; departAt: number; arriveAt: number },
  deadline: number,
  candidates: WaitingPoint[],
  limit = TRIP_MATCHES_MAX,
  chunkFrom = CHUNK_FROM,
): Promise<{ best: Ranked[]; counts: StepCounts }> {
  const exact = new ExactMinutes();
  const counts: StepCounts = { bounds: [0, 0], closer: [0, 0], evaluated: [0, 0] };
  let at = performance.now();
  const count = (step: keyof StepCounts, kept: number) => {
    const now = performance.now();
    counts[step] = [counts[step][0] + kept, counts[step][1] + now - at];
    at = now;
  };
  // Past every bound: those still at 0 least minutes, and those above it.
  const zeros: Passing[] = [];
  const above: Passing[] = [];
  // Past the bounds above 0 least minutes before the last chunk (and mayAddNone's at least 1): searched
  // from their pickups in the last, as one chunk would.
  const unsearched: Passing[] = [];
  // Past the bounds at 0 least minutes, not yet searched (mayAddNone).
  const atNone: Passing[] = [];
  const oldest = candidates.length > chunkFrom ? new OldestFirst(candidates) : null;
  for (let size = chunkFrom; ; ) {
    const chunk = oldest ? oldest.next(size) : candidates;
    const passing = await passingBounds(times, reach, trip, deadline, chunk);
    count('bounds', passing.length);
    if (!oldest || oldest.left === 0) {
      const searched = await closerBounds(times, trip, deadline, [...unsearched, ...above, ...atNone, ...passing]);
      count('closer', searched.length);
      const found = await bestFitting(times, trip, deadline, [...zeros, ...searched], limit, exact);
      count('evaluated', found.evaluated);
      return { best: found.best, counts };
    }
    for (const candidate of passing) (candidate.least === 0 ? atNone : unsearched).push(candidate);
    if (zeros.length + atNone.length < limit) {
      // Too few to fill the list even if all add none (a trip with little time to spare): searched
      // with the next chunk's (or the last chunk's rest), not now.
      size = nextChunk(candidates.length - oldest.left, zeros.length + atNone.length, limit, chunkFrom);
      continue;
    }
    const { none, some } = await mayAddNone(times, trip, deadline, atNone.splice(0), exact);
    count('closer', none.length);
    zeros.push(...none);
    above.push(...some);
    const found = await bestFitting(times, trip, deadline, zeros, limit, exact, 0);
    count('evaluated', found.evaluated);
    const fitting = found.best.filter((match) => match.added === 0).length;
    if (fitting === limit) return { best: found.best, counts };
    size = nextChunk(candidates.length - oldest.left, fitting, limit, chunkFrom);
  }
}

/**
 * How many to take next, `taken` so far having given `found` of the `limit` adding no minute: as
 * many as that rate says the rest needs, and a quarter more, but no more than twice those taken
 * (as chunks grew before) nor less than a quarter of the first chunk. Any size keeps the answer; a
 * good guess spares the bounds of candidates newer than the last one needed, and further rounds.
 */
function nextChunk(taken: number, found: number, limit: number, chunkFrom: number): number {
  const needed = found === 0 ? Number.POSITIVE_INFINITY : (((limit - found) * taken) / found) * 1.25;
  return Math.max(Math.ceil(chunkFrom / 4), Math.ceil(Math.min(2 * taken, needed)));
}

/** How many each of bestOfCandidates' steps kept, and the ms it took, over all chunks. */
type StepCounts = Record<'bounds' | 'closer' | 'evaluated', [kept: number, ms: number]>;

/**
 * More candidates than this are taken oldest first, in chunks from it (nextChunk). A round costs
 * searches (from the pickups, and on time) of ~5 ms; 2,000 more candidates' bounds ~2 ms, by cell.
 * The boxes hold only where a detour can fit (TimetableRouter.forwardBox): an intercity trip's
 * oldest 4,000 hold about as many that fit as its oldest 8,000 did without that.
 */
const CHUNK_FROM = 4_000;

/**
 * The candidates oldest first, taken a chunk at a time: each chunk the next `count` of them, and any
 * as old as its newest with it. Only the chunks follow the ranking's order of age (then id), not
 * the candidates within one: bestFitting orders what it evaluates.
 */
export class OldestFirst {
  /** Each candidate's ageKey; null when an age is written otherwise (the texts sorted instead). */
  private readonly keys: Float64Array | null = null;
  /** The keys: those taken first, in any order, then the rest (select's); or the candidates sorted. */
  private readonly order: Float64Array | WaitingPoint[];
  private taken = 0;
  /** The newest key taken. */
  private newest = Number.NEGATIVE_INFINITY;

  constructor(private readonly candidates: WaitingPoint[]) {
    const keys = new Float64Array(candidates.length);
    for (let i = 0; i < candidates.length; i++) {
      const row = candidates[i] as WaitingPoint;
      const key = row.age ?? ageKey(row.created_at);
      if (Number.isNaN(key)) {
        // The ranking's own order of the texts (age, then id), sorted.
        this.order = [...candidates].sort((a, b) => byText(a.created_at, b.created_at) || byText(a.id, b.id));
        return;
      }
      keys[i] = key;
    }
    this.keys = keys;
    this.order = keys.slice();
  }

  /** How many are left to take. */
  get left(): number {
    return this.candidates.length - this.taken;
  }

  /** The next `count` (at least one) oldest, or all that are left. */
  next(count: number): WaitingPoint[] {
    const from = this.taken;
    let end = Math.min(this.candidates.length, from + Math.max(1, count));
    const { keys, order } = this;
    if (!keys) {
      this.taken = end;
      return (order as WaitingPoint[]).slice(from, end);
    }
    // The chunk's newest key in its place, the older before it (no sort: the chunk is all that is needed).
    const left = order as Float64Array;
    select(left, from, end - 1);
    const newest = left[end - 1] as number;
    // Those as old as the newest come along, moved up to it.
    for (let i = end; i < left.length; i++) {
      if (left[i] === newest) {
        left[i] = left[end] as number;
        left[end++] = newest;
      }
    }
    const after = this.newest;
    this.taken = end;
    this.newest = newest;
    const chunk: WaitingPoint[] = [];
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i] as number;
      if (key > after && key <= newest) chunk.push(this.candidates[i] as WaitingPoint);
    }
    return chunk;
  }
}

/**
 * Puts the `k`-th least of `keys[from…]` at `k`, none greater before it and none less after it
 * (Hoare's selection): linear, where sorting 19 k keys takes 1.5 ms.
 */
function select(keys: Float64Array, from: number, k: number) {
  let low = from;
  let high = keys.length - 1;
  while (low < high) {
    const pivot = keys[(low + high) >>> 1] as number;
    let i = low;
    let j = high;
    while (i <= j) {
      while ((keys[i] as number) < pivot) i++;
      while ((keys[j] as number) > pivot) j--;
      if (i <= j) {
        const swap = keys[i] as number;
        keys[i++] = keys[j] as number;
        keys[j--] = swap;
      }
    }
    if (k <= j) high = j;
    else if (k >= i) low = i;
    else return;
  }
}

/**
 * The candidates past the searches' bound and the least times, with their least minutes: the pickup
 * reached from the start, and from there, at the least the model allows, the delivery point no
 * later than it must be left for the end — one look-up each in the two searches (necessary: the
 * runner reaches the pickup no earlier than anyone could, and leaves the delivery point no later
 * than the end allows), the delivery point's only for pickups reached at all.
 */
async function passingBounds(
  times: TripTimes,
  reach: TripReach,
  trip: { to: Coordinates; arriveAt: number },
  deadline: number,
  all: WaitingPoint[],
): Promise<Passing[]> {
  // Most candidates fail already by their points' 1 km cells: pickups not reached by the deadline,
  // or reached after the delivery point must be left, or too late to get there at the least (as
  // leastAdded's tests, at the bounds); only the rest have their two points looked up.
  const near = reach.nearBounds;
  const candidates = near
    ? all.filter((row) => {
        const pickup = { lat: row.sender_lat, lng: row.sender_lng };
        const reached = near.arrivalAtLeast(pickup);
        if (!(reached <= deadline + EDGE_MS)) return false;
        const delivery = { lat: row.receiver_lat, lng: row.receiver_lng };
        const leaveBy = near.departureAtMost(delivery) + EDGE_MS;
        return reached <= leaveBy && reached + times.leastMs(pickup, delivery) <= leaveBy;
      })
    : all;
  const pickupArrivals = reach.arrivals(candidates.map((row) => ({ lat: row.sender_lat, lng: row.sender_lng })));
  const reachable = candidates.flatMap((row, i) => {
    const pickupArrival = pickupArrivals[i] ?? Number.POSITIVE_INFINITY;
    return pickupArrival <= deadline + EDGE_MS ? [{ row, pickupArrival }] : [];
  });
  const deliveryDepartures = reach.departures(
    reachable.map(({ row }) => ({ lat: row.receiver_lat, lng: row.receiver_lng })),
  );
  return reachable.flatMap(({ row, pickupArrival }, i) => {
    const deliveryLeaveBy = deliveryDepartures[i] ?? Number.NaN;
    const pickup = { lat: row.sender_lat, lng: row.sender_lng };
    const delivery = { lat: row.receiver_lat, lng: row.receiver_lng };
    const least = leastAdded(times, trip, pickup, delivery, pickupArrival, deliveryLeaveBy);
    return least === null
      ? []
      : [{ id: row.id, createdAt: row.created_at, pickup, delivery, pickupArrival, deliveryLeaveBy, least }];
  });
}

/**
 * Told each step of findMatches as it ends, with how many it kept and, for steps taken in chunks,
 * the ms they took together (bench:timetable shows where the time goes).
 */
export type MatchSteps = (step: MatchStep, kept?: number, ms?: number) => void;
export type MatchStep = 'journey' | 'reach' | 'relay offers' | 'candidates' | 'bounds' | 'closer bounds' | 'exact';

/**
 * POST /api/trips/matches (ADR 0021, 0029): the trip's times by its model (the timetable for public
 * transport when one is loaded and covers it), then the waiting parcels whose pickup and delivery
 * lie in the boxes the model can reach and leave within the allowed minutes, from the waiting
 * pool in memory (`pool`, waiting-pool.ts) or else the partial index of waiting parcels' points
 * (0014); then bounds, and the exact added minutes for the few past them, best first, oldest first
 * among equals (bestOfCandidates, ADR 0029 "Matching at scale"). Only the matches shown are read
 * in full. Besides, the open relay offers on the way (relay-matches.ts).
 */
export async function findMatches(
  store: Pick<Store, 'db' | 'dialect'>,
  travelTimes: TravelTimes,
  runner: AccountRow,
  query: TripQuery,
  now: number = Date.now(),
  validUntil: string | null = null,
  { pool, steps }: { pool?: WaitingPool; steps?: MatchSteps } = {},
): Promise<TripMatchesResponse> {
  const { db } = store;
  const departAt = query.departure === 'now' ? now : Date.parse(query.departure);
  const times = await travelTimes.forTrip(query.from, query.to, query.mode, departAt);
  const plan = presentTripPlan(times, departAt, validUntil);
  const { journey } = times;
  steps?.('journey');
  if (!journey) return { matches: [], relayOffers: [], trip: plan };
  const trip = { from: query.from, to: query.to, departAt, arriveAt: journey.arriveAt };
  const deadline = journey.arriveAt + query.maxDetourMinutes * MINUTE;
  // The on-time departures (ExactMinutes) from the reach's own backward search.
  const reach = await times.reach(deadline + EDGE_MS, onTimeBy(trip));
  const { reached, leaving } = reach;
  steps?.('reach');
  const relayOffers = reach.box
    ? await findRelayOffers(db, runner, times, trip, { box: reach.box, reach, deadline, now })
    : [];
  steps?.('relay offers', relayOffers.length);
  if (!reached || !leaving) return { matches: [], relayOffers, trip: plan };
  const candidates = (await pool?.within(reached, leaving)) ?? (await waitingWithin(store, reached, leaving));
  steps?.('candidates', candidates.length);
  const { best: shown, counts } = await bestOfCandidates(times, reach, trip, deadline, candidates);
  steps?.('bounds', ...counts.bounds);
  steps?.('closer bounds', ...counts.closer);
  steps?.('exact', ...counts.evaluated);
  if (shown.length === 0) return { matches: [], relayOffers, trip: plan };
  const rows = await selectParcels(db)
    .where(
      'parcels.id',
      'in',
      shown.map((s) => s.id),
    )
    .execute();
  const byId = new Map(rows.map((row) => [row.id, row]));
  const matches: TripMatch[] = shown.flatMap((s) => {
    const row = byId.get(s.id);
    // Picked up between the two reads: no longer waiting, not offered.
    return row && row.status === 'waiting' ? [{ ...presentParcel(row), addedMinutes: s.added }] : [];
  });
  return { matches, relayOffers, trip: plan };
}

type SavedTripRow = Selectable<SavedTripsTable>;

/** A saved trip's facts, without naming its ends (the change-feed offers read these for every new parcel). */
export function savedTripFacts(
  row: SavedTripRow,
  now: number,
  departures = departuresAfter(now),
): Omit<SavedTrip, 'fromPlace' | 'toPlace'> {
  const weekdays = row.weekdays.split(',').map(Number);
  const paused = row.paused === 1 || (row.paused as unknown) === true;
  const departAt = departures({ weekdays, time: row.time });
  return {
    id: String(row.id),
    label: row.label,
    from: { lat: row.from_lat, lng: row.from_lng },
    to: { lat: row.to_lat, lng: row.to_lng },
    mode: row.mode,
    maxDetourMinutes: row.max_detour_minutes,
    weekdays,
    time: row.time,
    paused,
    nextDepartureAt: new Date(departAt).toISOString(),
    active: isTripActive({ weekdays, time: row.time, paused }, now, departAt),
    createdAt: row.created_at,
  };
}

/** A saved trip as its owner reads it: its ends named too, so a list of trips says where each goes. */
export function presentSavedTrip(row: SavedTripRow, now: number): SavedTrip {
  const facts = savedTripFacts(row, now);
  return { ...facts, fromPlace: nearestPlaceName(facts.from), toPlace: nearestPlaceName(facts.to) };
}

const columnsOf = (body: SavedTripBody) => ({
  label: body.label,
  from_lat: body.from.lat,
  from_lng: body.from.lng,
  to_lat: body.to.lat,
  to_lng: body.to.lng,
  mode: body.mode,
  max_detour_minutes: body.maxDetourMinutes,
  weekdays: body.weekdays.join(','),
  time: body.time,
  paused: body.paused ? 1 : 0,
});

export async function listSavedTrips(db: Kysely<Database>, runner: AccountRow, now: number) {
  const rows = await db
    .selectFrom('saved_trips')
    .selectAll()
    .where('account_id', '=', runner.id)
    .orderBy('time')
    .orderBy('id')
    .execute();
  return { items: rows.map((row) => presentSavedTrip(row, now)) };
}

/** At most SAVED_TRIPS_MAX per runner: counted and inserted in one transaction. */
export async function createSavedTrip(db: Kysely<Database>, runner: AccountRow, body: SavedTripBody, now: number) {
  const row = await db.transaction().execute(async (trx) => {
    // Serialises one runner's concurrent saves on PostgreSQL (the account row's lock).
    await trx.updateTable('accounts').set({ id: runner.id }).where('id', '=', runner.id).execute();
    const { count } = await trx
      .selectFrom('saved_trips')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('account_id', '=', runner.id)
      .executeTakeFirstOrThrow();
    if (Number(count) >= SAVED_TRIPS_MAX) {
      throw refuse('saved_trips_limit', messages.tripLimitReached(SAVED_TRIPS_MAX));
    }
    return trx
      .insertInto('saved_trips')
      .values({ account_id: runner.id, ...columnsOf(body), created_at: new Date(now).toISOString() })
      .returningAll()
      .executeTakeFirstOrThrow();
  });
  return presentSavedTrip(row, now);
}

const ownTrip = (db: Kysely<Database>, runner: AccountRow, id: string) =>
  db.selectFrom('saved_trips').selectAll().where('id', '=', Number(id)).where('account_id', '=', runner.id);

const notFound = () => refuse('trip_not_found', messages.tripNotFound);

/** Edits, pauses or resumes the runner's own trip; the merged trip is checked as a new one would be. */
export async function updateSavedTrip(
  db: Kysely<Database>,
  runner: AccountRow,
  id: string,
  patch: SavedTripPatch,
  now: number,
) {
  const existing = await ownTrip(db, runner, id).executeTakeFirst();
  if (!existing) throw notFound();
  const current = savedTripFacts(existing, now);
  const merged = savedTripBodySchema.safeParse({
    label: patch.label ?? current.label,
    from: patch.from ?? current.from,
    to: patch.to ?? current.to,
    mode: patch.mode ?? current.mode,
    maxDetourMinutes: patch.maxDetourMinutes ?? current.maxDetourMinutes,
    weekdays: patch.weekdays ?? current.weekdays,
    time: patch.time ?? current.time,
    paused: patch.paused ?? current.paused,
  });
  if (!merged.success) {
    const fields = Object.fromEntries(merged.error.issues.map((issue) => [issue.path.join('.'), issue.message]));
    throw new AppError('invalid_body', merged.error.issues[0]?.message ?? messages.invalidBody, fields);
  }
  const row = await db
    .updateTable('saved_trips')
    .set(columnsOf(merged.data))
    .where('id', '=', existing.id)
    .where('account_id', '=', runner.id)
    .returningAll()
    .executeTakeFirst();
  if (!row) throw notFound();
  return presentSavedTrip(row, now);
}

export async function deleteSavedTrip(db: Kysely<Database>, runner: AccountRow, id: string) {
  const deleted = await db
    .deleteFrom('saved_trips')
    .where('id', '=', Number(id))
    .where('account_id', '=', runner.id)
    .executeTakeFirst();
  if (Number(deleted.numDeletedRows) === 0) throw notFound();
}
