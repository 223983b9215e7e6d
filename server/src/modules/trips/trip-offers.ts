import { TIME_ZONE } from '@csomag/domain/constants';
import { departuresAfter, TRIP_ACTIVE_WINDOW_MS } from '@csomag/domain/trip-api';
import { type LatLngBox, wholeMinutes, withinEllipse } from '@csomag/domain/trips';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import { type ChangeFeed, isParcelEntry, type LoggedChange, type ParcelChange } from '../../db/change-feed.ts';
import { HandledThrough } from '../../db/handled-through.ts';
import type { Database } from '../../db/schema.ts';
import { bump, trim } from '../../lru.ts';
import { TimeSlice } from '../../time-slice.ts';
import { BoundedQueue } from '../push/queue.ts';
import {
  type BoundedLeg,
  inBox,
  type ReachBounds,
  type TravelTimes,
  type TripTimes,
} from '../timetable/travel-times.ts';
import { mayTrip } from './policy.ts';
import { addedByParcel, addedByParcels, leastAdded, savedTripFacts, type TripParcel } from './service.ts';

/** One runner told that a new parcel fits one of their saved trips. */
export interface TripOffer {
  changeId: number;
  parcelId: string;
  accountId: number;
  /** Lower case, as the live hub's subscribers hold it. */
  userName: string;
  tripId: string;
  label: string;
  addedMinutes: number;
}

export type OfferListener = (offer: TripOffer) => void;

/** Changes waiting to be looked at beyond this are dropped (logged), never memory without end. */
const OFFER_QUEUE_LIMIT = 10_000;
/** The offers of this many recent changes are remembered, so the live side and the push side share one look-up. */
const REMEMBERED = 256;
/** The longest the offers' searches hold the event loop before letting other work run. */
const YIELD_AFTER_MS = 10;
/** An active saved trip with its runner, as offeredTrips reads it. */
type OfferedTrip = Awaited<ReturnType<TripOffers['activeTrips']>>[number];
type Saved = ReturnType<typeof savedTripFacts>;

/** Legs asked of an engine at a time (the router scans 32 together): other work runs between. */
const LEGS_A_TURN = 32;
/** How often the active trips' plans are worked out ahead (only those without one). */
const WARM_EVERY_MS = 60_000;
/** Saved trips' plans at their next departure, kept while that departure stays the next one. */
const TRIP_PLANS_KEPT = 20_000;

/**
 * A saved trip at one departure: its times, arrival, the deadline its detour allows, its reach's
 * boxes and, where the model keeps them, the compact bounds of its reach (a few KB a trip).
 */
interface SavedTripPlan {
  times: TripTimes;
  arriveAt: number;
  deadline: number;
  reached: LatLngBox | null;
  leaving: LatLngBox | null;
  bounds: ReachBounds | null;
}

/**
 * An engine's answers to many legs (TripTimes.arrivalsEach), asked LEGS_A_TURN at a time in the
 * order of their `by` (legs searched together end about together), letting other requests run
 * between turns once YIELD_AFTER_MS have passed.
 */
async function inTurns(
  arrivalsEach: NonNullable<TripTimes['arrivalsEach']>,
  legs: readonly BoundedLeg[],
): Promise<Float64Array> {
  const order = Array.from(legs.keys()).sort((a, b) => (legs[a] as BoundedLeg).by - (legs[b] as BoundedLeg).by);
  const found = new Float64Array(legs.length);
  const slice = new TimeSlice(YIELD_AFTER_MS);
  for (let start = 0; start < order.length; start += LEGS_A_TURN) {
    if (slice.due) await slice.pause();
    const turn = order.slice(start, start + LEGS_A_TURN);
    const answers = await arrivalsEach(turn.map((i) => legs[i] as BoundedLeg));
    for (const [k, i] of turn.entries()) found[i] = answers[k] as number;
  }
  return found;
}

const clockFormat = new Intl.DateTimeFormat('en-GB', {
  timeZone: TIME_ZONE,
  hourCycle: 'h23',
  hour: '2-digit',
  minute: '2-digit',
});
const budapestClock = (at: number) => clockFormat.format(new Date(at));

/**
 * Live trip offers (docs/decisions/0021). Off the change feed — never inside the request that
 * created the parcel — each new parcel ('created') is matched against the saved trips departing
 * within the hour, and each fitting trip's runner is offered it: on this instance's event streams
 * (every instance does this for the streams it holds) and, once across instances, by push (the
 * notifier asks offersFor the same change; the answer is shared).
 */
export class TripOffers {
  /** The clock deciding which trips are active; tests set it. */
  now: () => number = Date.now;
  private readonly listeners = new Set<OfferListener>();
  private readonly queue = new BoundedQueue(1, OFFER_QUEUE_LIMIT);
  private readonly remembered = new Map<number, Promise<TripOffer[]>>();
  private unsubscribe: (() => void) | undefined;
  /** The changes heard (settledThrough). */
  private readonly handled = new HandledThrough();
  private warmer: NodeJS.Timeout | undefined;
  private warming: Promise<number> | null = null;
  private closing = false;
  /** Saved trips' plans by trip, departure and model (planOf), least recently used first. */
  private readonly tripPlans = new Map<string, Promise<SavedTripPlan | null>>();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly changeFeed: ChangeFeed,
    private readonly log: Pick<FastifyBaseLogger, 'warn' | 'error' | 'debug'>,
    private readonly travelTimes: TravelTimes,
  ) {}

  start() {
    this.unsubscribe ??= this.changeFeed.subscribe((entry) => {
      this.heard(entry);
      this.handled.heard(entry.id);
    });
    // The active trips' plans are worked out ahead, so the first new parcel after a start or a
    // departure's turn does not wait for thousands of searches.
    this.warmer ??= setInterval(() => void this.warm(), WARM_EVERY_MS).unref();
    void this.warm();
  }

  /**
   * Works out the plan of every active trip that has none yet (yielding as the offers do);
   * answers how many it worked out. One at a time; never while nobody listens for offers.
   */
  warm(): Promise<number> {
    this.warming ??= (async () => {
      let planned = 0;
      try {
        if (this.listeners.size === 0) return 0;
        for await (const { saved, departAt } of this.offeredTrips(this.now())) {
          if (this.closing) break;
          if (this.tripPlans.has(this.planKey(saved, departAt))) continue;
          await this.planOf(saved, departAt);
          planned++;
        }
      } catch (error) {
        this.log.error({ err: error }, 'working out the saved trips ahead failed');
      } finally {
        this.warming = null;
      }
      return planned;
    })();
    return this.warming;
  }

  private heard(entry: LoggedChange) {
    if (!isParcelEntry(entry) || entry.change.kind !== 'created' || this.listeners.size === 0) return;
    const taken = this.queue.push(async () => {
      try {
        for (const offer of await this.offersFor(entry)) for (const listener of this.listeners) listener(offer);
      } catch (error) {
        this.log.error({ err: error, changeId: entry.id }, 'trip offers for a change failed');
      }
    });
    if (!taken) this.log.warn({ changeId: entry.id }, 'trip offer queue full: change not offered');
  }

  async close() {
    this.closing = true;
    this.unsubscribe?.();
    clearInterval(this.warmer);
    await this.warming;
    await this.queue.idle();
  }

  /** Live offers go to `listener` (the event streams of this instance). */
  onOffer(listener: OfferListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Resolves once this instance has heard the change `changeId` (or a later one) and offered all it heard: for tests. */
  settledThrough(changeId: number): Promise<void> {
    return this.handled.settled(changeId, () => this.queue.idle());
  }

  /** The runners a created parcel is offered to; [] for any other change. */
  offersFor(entry: LoggedChange): Promise<TripOffer[]> {
    if (!isParcelEntry(entry) || entry.change.kind !== 'created') return Promise.resolve([]);
    let offers = this.remembered.get(entry.id);
    if (!offers) {
      offers = this.find(entry);
      this.remembered.set(entry.id, offers);
      if (this.remembered.size > REMEMBERED) {
        const oldest = this.remembered.keys().next().value;
        if (oldest !== undefined) this.remembered.delete(oldest);
      }
    }
    return offers;
  }

  /**
   * A saved trip's times at `departAt`, its deadline and the box its reach leaves (one search each
   * way, once per trip and departure): a new parcel is checked against many trips.
   */
  private planKey(saved: Saved, departAt: number): string {
    const { from, to, mode, maxDetourMinutes } = saved;
    return [
      this.travelTimes.version(),
      saved.id,
      departAt,
      mode,
      maxDetourMinutes,
      from.lat,
      from.lng,
      to.lat,
      to.lng,
    ].join('|');
  }

  private planOf(saved: Saved, departAt: number): Promise<SavedTripPlan | null> {
    const { from, to, mode, maxDetourMinutes } = saved;
    const id = this.planKey(saved, departAt);
    let plan = this.tripPlans.get(id);
    if (!plan) {
      plan = (async () => {
        const times = await this.travelTimes.forTrip(from, to, mode, departAt);
        if (!times.journey) return null;
        const deadline = times.journey.arriveAt + maxDetourMinutes * 60_000;
        const reach = await times.reach(deadline + 1);
        const { reached, leaving } = reach;
        return {
          times,
          arriveAt: times.journey.arriveAt,
          deadline,
          reached,
          leaving,
          bounds: reach.bounds?.() ?? null,
        };
      })();
      // A failure is not kept: the next parcel asks again.
      plan.catch(() => this.tripPlans.delete(id));
    }
    bump(this.tripPlans, id, plan);
    trim(this.tripPlans, TRIP_PLANS_KEPT);
    return plan;
  }

  /** The saved trips departing within the hour of `now`, with their runners. */
  private activeTrips(now: number) {
    // The time of day between now and an hour on (round midnight too); the weekday is checked by
    // offeredTrips. Served by saved_trips_paused_time.
    const from = budapestClock(now);
    const until = budapestClock(now + TRIP_ACTIVE_WINDOW_MS);
    return this.db
      .selectFrom('saved_trips')
      .innerJoin('accounts', 'accounts.id', 'saved_trips.account_id')
      .selectAll('saved_trips')
      .select([
        'accounts.user_name',
        'accounts.role',
        'accounts.address_key',
        'accounts.approved_at',
        'accounts.suspended_at',
      ])
      .where('saved_trips.paused', '=', 0)
      .where((eb) =>
        from <= until
          ? eb.and([eb('saved_trips.time', '>=', from), eb('saved_trips.time', '<=', until)])
          : eb.or([eb('saved_trips.time', '>=', from), eb('saved_trips.time', '<=', until)]),
      )
      .execute();
  }

  /**
   * The trips active at `now` whose runners may be offered parcels, with their facts and next
   * departure. Their searches are CPU work: other requests are served between them, not after all.
   */
  private async *offeredTrips(now: number): AsyncGenerator<{ trip: OfferedTrip; saved: Saved; departAt: number }> {
    const slice = new TimeSlice(YIELD_AFTER_MS);
    const departures = departuresAfter(now);
    for (const trip of await this.activeTrips(now)) {
      if (slice.due) await slice.pause();
      // The runner as the trip policy sees them: suspended or not approved, they are offered nothing.
      const runner = { ...trip, id: trip.account_id };
      if (!mayTrip(runner, 'receiveOffers', trip)) continue;
      const saved = savedTripFacts(trip, now, departures);
      if (saved.active) yield { trip, saved, departAt: Date.parse(saved.nextDepartureAt) };
    }
  }

  private async find(entry: LoggedChange<ParcelChange>): Promise<TripOffer[]> {
    const parcel = await this.db
      .selectFrom('parcels')
      .select(['id', 'status', 'sender_lat', 'sender_lng', 'receiver_lat', 'receiver_lng'])
      .where('id', '=', entry.change.parcelId)
      .executeTakeFirst();
    if (parcel?.status !== 'waiting') return [];
    const pickup = { lat: parcel.sender_lat, lng: parcel.sender_lng };
    const delivery = { lat: parcel.receiver_lat, lng: parcel.receiver_lng };
    // Each trip that may fit, in the order found: its minutes, worked out at once or, where its
    // engine takes many legs together, with the other trips of that engine (addedByParcels).
    type Fitting = { trip: OfferedTrip; added: number | null };
    const fitting: Fitting[] = [];
    const together = new Map<NonNullable<TripTimes['arrivalsEach']>, { pair: TripParcel; fits: Fitting }[]>();
    for await (const { trip, saved, departAt } of this.offeredTrips(this.now())) {
      const plan = await this.planOf(saved, departAt);
      // The pickup where the trip reaches, the delivery point where it still leaves for its end, both
      // in the ellipse of the model's fastest speed (when it has one): lossless (ADR 0029), and
      // spares the searches for trips far away.
      if (!plan || !inBox(plan.reached, pickup) || !inBox(plan.leaving, delivery)) continue;
      const sum = ((plan.deadline - departAt) / 3_600_000) * plan.times.fastestKmh * 1000;
      const legs = { from: saved.from, to: saved.to, mode: saved.mode };
      if (Number.isFinite(sum) && !(withinEllipse(legs, pickup, sum) && withinEllipse(legs, delivery, sum))) continue;
      const route = { from: saved.from, to: saved.to, departAt, arriveAt: plan.arriveAt };
      // By its reach's bounds and the model's least times the trip reaches the pickup, the delivery
      // point and its end in time.
      const { times, bounds } = plan;
      const pickupBy = Math.max(
        departAt + times.leastMs(saved.from, pickup),
        bounds?.arrivalAtLeast(pickup) ?? Number.NEGATIVE_INFINITY,
      );
      const leaveBy = Math.min(
        plan.deadline - times.leastMs(delivery, saved.to),
        bounds?.departureAtMost(delivery) ?? Number.POSITIVE_INFINITY,
      );
      if (leastAdded(times, route, pickup, delivery, pickupBy, leaveBy) === null) continue;
      const fits: Fitting = { trip, added: null };
      fitting.push(fits);
      const pair = { trip: route, deadline: plan.deadline, pickup, delivery };
      if (times.arrivalsEach) {
        const group = together.get(times.arrivalsEach) ?? [];
        group.push({ pair, fits });
        together.set(times.arrivalsEach, group);
      } else fits.added = await addedByParcel(times, route, plan.deadline, pickup, delivery);
    }
    for (const [arrivalsEach, group] of together) {
      const added = await addedByParcels(
        (legs) => inTurns(arrivalsEach, legs),
        group.map(({ pair }) => pair),
      );
      for (const [k, { fits }] of group.entries()) fits.added = added[k] ?? null;
    }
    // One offer per runner: the trip it adds the fewest minutes to (the first found among equals).
    const offers = new Map<number, TripOffer>();
    for (const { trip, added } of fitting) {
      if (added === null) continue;
      const minutes = wholeMinutes(added);
      const known = offers.get(trip.account_id);
      if (known && known.addedMinutes <= minutes) continue;
      offers.set(trip.account_id, {
        changeId: entry.id,
        parcelId: parcel.id,
        accountId: trip.account_id,
        userName: trip.user_name.toLowerCase(),
        tripId: String(trip.id),
        label: trip.label,
        addedMinutes: minutes,
      });
    }
    this.log.debug({ changeId: entry.id, offers: offers.size }, 'trip offers found');
    return [...offers.values()];
  }
}
