import type { Coordinates } from '@csomag/domain/parcel';
import { straightLineModel, type TravelMode } from '@csomag/domain/trips';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { LEGS_AT_ONCE } from './legs-search.ts';
import { type BackwardSearch, TimetableRouter, walkMs } from './router.ts';
import { activeTimetableId, loadTimetable } from './store.ts';
import { SEARCH_HORIZON_MS } from './timetable.ts';
import {
  type BoundedLeg,
  boxesMeet,
  type FallbackReason,
  straightLineTimes,
  type TravelTimes,
  type TripTimes,
} from './travel-times.ts';

/**
 * Public-transport times from the imported timetable (ADR 0029), the straight line otherwise. Every
 * instance loads the active import at start and, at most every `checkMs` as trips ask, notices a newer
 * one and loads it in the background, answering from the old one meanwhile: a new import is in use
 * everywhere within TIMETABLE_CHECK_SECONDS (30) of its swap plus its loading, and a query never
 * sees half of one.
 */
export class TimetableTravelTimes implements TravelTimes {
  private current: { id: number; router: TimetableRouter } | null = null;
  private checkedAt = Number.NEGATIVE_INFINITY;
  private checking: Promise<void> | null = null;
  /** The clock deciding when to check again; tests set it. */
  now: () => number = Date.now;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly log: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>,
    private readonly checkMs: number,
  ) {}

  /** The router in use (null without a timetable). */
  get router(): TimetableRouter | null {
    return this.current?.router ?? null;
  }

  version() {
    return `timetable:${this.current?.id ?? 'none'}`;
  }

  /** The last day the timetable in use covers ('YYYY-MM-DD'), null without one. */
  validUntil(): string | null {
    const days = (this.current?.router.timetable.feeds ?? []).map((feed) => feed.validUntil).sort();
    return days.at(-1) ?? null;
  }

  /** Loads the active import now if it is not the one in use (start-up, tests, the back office's view). */
  refresh(): Promise<void> {
    this.checking ??= this.check().finally(() => {
      this.checking = null;
    });
    return this.checking;
  }

  private async check() {
    this.checkedAt = this.now();
    try {
      const id = await activeTimetableId(this.db);
      if (id === (this.current?.id ?? null)) return;
      if (id === null) {
        this.current = null;
        return;
      }
      const timetable = await loadTimetable(this.db, id);
      if (!timetable) return;
      this.current = { id, router: new TimetableRouter(timetable) };
      this.log.info(
        { timetableId: id, connections: timetable.connectionCount, stops: timetable.stopCount },
        'timetable loaded',
      );
    } catch (error) {
      this.log.error({ err: error }, 'loading the timetable failed: the one in use is kept');
    }
  }

  async forTrip(
    from: Coordinates,
    to: Coordinates,
    mode: TravelMode,
    at: number,
    fallback?: FallbackReason,
  ): Promise<TripTimes> {
    if (this.now() - this.checkedAt >= this.checkMs) void this.refresh();
    if (mode !== 'transit') return straightLineTimes(from, to, mode, at, fallback);
    const router = this.router;
    if (!router) return straightLineTimes(from, to, mode, at, fallback ?? 'no_timetable');
    if (router.dayIndex(at) === null) return straightLineTimes(from, to, mode, at, fallback ?? 'timetable_expired');
    if (!router.covers(from) || !router.covers(to)) {
      return straightLineTimes(from, to, mode, at, fallback ?? 'outside_timetable');
    }
    return timetableTimes(router, from, to, at);
  }
}

/** One `arrivalsEach` per router: trips by the same timetable may ask their legs together (TripTimes). */
const routerLegs = new WeakMap<TimetableRouter, (legs: readonly BoundedLeg[]) => Promise<Float64Array>>();
function legsOf(router: TimetableRouter) {
  let answer = routerLegs.get(router);
  if (!answer) {
    answer = async (legs) => router.arrivalsEach(legs);
    routerLegs.set(router, answer);
  }
  return answer;
}

/** A trip's times from the router: its journey, and reach and arrivals for the matching. */
export function timetableTimes(router: TimetableRouter, from: Coordinates, to: Coordinates, at: number): TripTimes {
  // The latest departures for a deadline searched with the reach's (departuresBy).
  let searchedBy: { deadline: number; backward: BackwardSearch } | null = null;
  return {
    source: 'timetable',
    journey: router.journey(from, to, at, at + SEARCH_HORIZON_MS),
    // Walking between stops is the other way of moving: no leg beats the faster of the two.
    fastestKmh: Math.max(router.timetable.fastestKmh, straightLineModel.fastestKmh('walk')),
    async reach(deadline, departuresBy) {
      const forward = router.forward(from, at, deadline);
      let backward: BackwardSearch;
      if (departuresBy !== undefined && departuresBy <= deadline) {
        const [late, early] = router.backwardTwice(to, deadline, departuresBy, at);
        backward = late;
        searchedBy = { deadline: departuresBy, backward: early };
      } else backward = router.backward(to, deadline, at);
      // Only where a fitting detour can pass: the other end still reachable in time.
      const reached = router.forwardBox(forward, { point: to, by: deadline });
      const leaving = router.backwardBox(backward, { point: from, at });
      return {
        reached,
        leaving,
        box: boxesMeet(reached, leaving),
        arrivals: (points) => Float64Array.from(points, (point) => forward.arrivalAt(point)),
        departures: (points) => Float64Array.from(points, (point) => backward.departureAt(point)),
        bounds: () => router.reachBounds(forward, backward),
        nearBounds: {
          arrivalAtLeast: (point) => forward.arrivalAtLeast(point),
          departureAtMost: (point) => backward.departureAtMost(point),
        },
      };
    },
    async arrival(a, b, start, by, enough) {
      return router.arrival(a, b, start, by, enough);
    },
    leastMs: (a, b) => router.leastMs(a, b),
    async leastArrivals(legs, by) {
      const arrivals = router.forwardFrom(
        legs.map((leg) => ({ point: leg.from, at: leg.at })),
        by,
      )(legs.map((leg) => leg.to));
      // A leg's own walk straight there is not among the rides (forwardFrom).
      return arrivals.map((arrival, i) => {
        const leg = legs[i] as (typeof legs)[number];
        const walked = leg.at + walkMs(leg.from, leg.to);
        return Math.min(arrival, walked <= by ? walked : Number.POSITIVE_INFINITY);
      });
    },
    arrivalsEach: legsOf(router),
    legsAtOnce: LEGS_AT_ONCE,
    async departuresBy(deadline) {
      const backward = searchedBy?.deadline === deadline ? searchedBy.backward : router.backward(to, deadline, at);
      return (points) => Float64Array.from(points, (point) => backward.departureAt(point));
    },
  };
}
