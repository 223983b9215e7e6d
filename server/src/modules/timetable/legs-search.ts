import type { Coordinates } from '@csomag/domain/parcel';
import type { NearStops, StopGrid } from './stop-grid.ts';
import { earliestStream, newStreams, openForward, type Streams } from './streams.ts';
import { ACCESS_WALK_MAX_M, type Timetable } from './timetable.ts';
import type { BoundedLeg } from './travel-times.ts';
import { grown } from './typed-arrays.ts';

const SECOND = 1_000;
const INFINITY = Number.POSITIVE_INFINITY;
/** Legs one search answers: a bit each of a 32-bit set. */
export const LEGS_AT_ONCE = 32;
/** Connections between two looks at which legs can still improve. */
const LIVE_CHECK_EVERY = 512;

/** How a set reached a stop: on foot from another stop, or by a ride or its start's walk (from which a footpath leads). */
const ON_FOOT = 0;
const RIDDEN = 1;
/** By its start's walk, with the footpaths from there already walked. */
const STARTED = 2;

/** What the router lends the search: its grid of stops, its walking model, a scratch list of stops. */
export interface LegsSearchParts {
  timetable: Timetable;
  grid: StopGrid;
  near: NearStops;
  walkMs(from: Coordinates, to: Coordinates): number;
  walkMsFor(metres: number): number;
}

/**
 * Up to 32 legs' earliest arrivals from one scan (issue 26, ADR 0029 "Matching at scale"): each leg
 * leaving its own point at its own time for its own point, answered as `TimetableRouter.arrival`
 * answers it alone (with `enough`, any arrival no later than it may answer) — the searches trip
 * matching made one parcel at a time (a pickup to its delivery point, a delivery point to the
 * trip's end), 32 at once.
 *
 * A bit-parallel Connection Scan: where the router keeps a time per stop and per trip, this keeps
 * the set of legs there (a bit each). A set reaching a stop at a time is an arrival, kept by the
 * second it falls in until the scan's departures reach it; it then joins the stop's sets, and the
 * trips leaving the stop take them on. As in the router, a stop has two sets: the legs there by a
 * ride or the walk from their start (from which one footpath leads on), and the legs there at all
 * (who board). A leg's arrival at its own end is the earliest arrival carrying its bit at a stop
 * within a walk of that end, plus the walk, or its walk all the way: noted when the arrival is made
 * (the scan goes by departures; arrivals come in any order). A leg starts when the scan reaches its
 * time, with its walks to the stops near it and a footpath on worked out as the router does; it
 * stops spreading once no connection still to come can improve on its arrival or bring it by its
 * `by`, and the scan ends when none spreads.
 */
export class LegsSearch {
  private readonly timetable: Timetable;
  private generation = 0;

  /**
   * Per stop, stamped in this search: the legs there by a ride or start (main) and at all, by the
   * scan's time; the legs any arrival kept brings (main, at all), and the latest such arrival — an
   * arrival no earlier than every one kept brings nothing new for those.
   */
  private readonly stopStamp: Uint32Array;
  private readonly mainSet: Int32Array;
  private readonly atSet: Int32Array;
  private readonly keptMain: Int32Array;
  private readonly keptAt: Int32Array;
  private readonly keptLatest: Float64Array;

  /** Arrivals kept: time, stop, how, the set, and the next in their second's list. */
  private arrivalTime = new Float64Array(1024);
  private arrivalStop = new Int32Array(1024);
  private arrivalHow = new Uint8Array(1024);
  private arrivalSet = new Int32Array(1024);
  private arrivalNext = new Int32Array(1024);
  private arrivalCount = 0;
  /** Per second from `firstSecond`: its first arrival kept (−1: none). */
  private seconds = new Int32Array(0);
  private firstSecond = 0;
  /** Seconds before this one are joined to the stops' sets, and those of its own by `joinedAt`. */
  private joinedSecond = 0;
  private joinedAt = Number.NEGATIVE_INFINITY;
  /** Arrivals being joined (scratch). */
  private joining = new Int32Array(64);

  /** Per (stream, trip): boarded in this search, and the set aboard. */
  private tripStamp = new Uint32Array(0);
  private tripSet = new Int32Array(0);

  /** Per stop: the legs whose end is within a walk of it, as a set and as a list (which leg, the walk). */
  private readonly egressStamp: Uint32Array;
  private readonly egressSet: Int32Array;
  private readonly egressHead: Int32Array;
  private egressNext = new Int32Array(1024);
  private egressLeg = new Int32Array(1024);
  private egressWalk = new Float64Array(1024);
  private egressCount = 0;

  /** A leg's own walks from its start (scratch): stamped, the walk there, and a footpath on included. */
  private readonly accessStamp: Uint32Array;
  private readonly accessMain: Float64Array;
  private readonly accessAt: Float64Array;
  private accessed = new Int32Array(256);
  private accessGeneration = 0;

  private readonly streams: Streams;

  /** This search's legs, their arrivals so far, the least walk to their ends from a stop, the live ones. */
  private legs: readonly BoundedLeg[] = [];
  private best = new Float64Array(0);
  private egressLeast = new Float64Array(0);
  /** Per leg, an arrival no later than this answers it (an arrival after `by` is none: never enough). */
  private enough = new Float64Array(0);
  private live = 0;
  /** The legs in order of leaving, and how many have left. */
  private leaving = new Int32Array(0);
  private left = 0;
  /** The latest `by`: nothing arriving later counts. */
  private by = 0;

  constructor(private readonly parts: LegsSearchParts) {
    const { timetable } = parts;
    this.timetable = timetable;
    const stops = timetable.stopCount;
    this.stopStamp = new Uint32Array(stops);
    this.mainSet = new Int32Array(stops);
    this.atSet = new Int32Array(stops);
    this.keptMain = new Int32Array(stops);
    this.keptAt = new Int32Array(stops);
    this.keptLatest = new Float64Array(stops);
    this.egressStamp = new Uint32Array(stops);
    this.egressSet = new Int32Array(stops);
    this.egressHead = new Int32Array(stops);
    this.accessStamp = new Uint32Array(stops);
    this.accessMain = new Float64Array(stops);
    this.accessAt = new Float64Array(stops);
    this.streams = newStreams(timetable);
  }

  /** Each leg's earliest arrival (ms) at its `to` (with `enough`, maybe any no later); Infinity when not by its `by`. */
  arrivals(legs: readonly BoundedLeg[]): Float64Array {
    const count = legs.length;
    if (count > LEGS_AT_ONCE) throw new Error(`LegsSearch: at most ${LEGS_AT_ONCE} legs at once`);
    const best = new Float64Array(count);
    if (count === 0) return best;
    const { grid, near, walkMs, walkMsFor } = this.parts;
    const generation = this.nextGeneration();
    const { egressStamp, egressHead, egressSet } = this;

    // Each leg's walk all the way, and per stop within a walk of a leg's end, the leg and the walk
    // (a leg with no stop near its end is walked or not at all). Legs going to one point share its stops.
    const egressLeast = new Float64Array(count).fill(INFINITY);
    const targets = new Map<string, number[]>();
    for (let i = 0; i < count; i++) {
      const leg = legs[i] as BoundedLeg;
      best[i] = leg.at + walkMs(leg.from, leg.to);
      const key = `${leg.to.lat},${leg.to.lng}`;
      const going = targets.get(key);
      if (going) going.push(i);
      else targets.set(key, [i]);
    }
    this.egressCount = 0;
    for (const going of targets.values()) {
      const stops = grid.within((legs[going[0] as number] as BoundedLeg).to, ACCESS_WALK_MAX_M, near);
      for (let k = 0; k < stops; k++) {
        const stop = near.stops[k] as number;
        if (egressStamp[stop] !== generation) {
          egressStamp[stop] = generation;
          egressHead[stop] = -1;
          egressSet[stop] = 0;
        }
        const walk = walkMsFor(near.metres[k] as number);
        for (const i of going) {
          this.addEgress(stop, i, walk);
          egressSet[stop] = (egressSet[stop] as number) | (1 << i);
          if (walk < (egressLeast[i] as number)) egressLeast[i] = walk;
        }
      }
    }
    this.live = 0;
    let by = Number.NEGATIVE_INFINITY;
    for (let i = 0; i < count; i++) {
      if (egressLeast[i] === INFINITY) continue;
      this.live |= 1 << i;
      by = Math.max(by, (legs[i] as BoundedLeg).by);
    }
    this.enough = Float64Array.from(legs, (leg) => Math.min(leg.enough ?? Number.NEGATIVE_INFINITY, leg.by));
    this.legs = legs;
    this.best = best;
    this.egressLeast = egressLeast;
    this.by = by;
    this.leaving = Int32Array.from(legs.keys()).sort((a, b) => (legs[a] as BoundedLeg).at - (legs[b] as BoundedLeg).at);
    this.left = 0;
    this.arrivalCount = 0;

    const first = legs[this.leaving[0] as number] as BoundedLeg;
    if (this.updateLive(first.at) < INFINITY) {
      this.openSeconds(first.at, by);
      this.scan(first.at);
      // What the scan did not reach: the arrivals kept (a footpath on from each) and the legs
      // leaving after its last connection (a walk to a stop, a footpath on, a walk to the end).
      this.leave(INFINITY);
    }
    for (let i = 0; i < count; i++) if (!((best[i] as number) <= (legs[i] as BoundedLeg).by)) best[i] = INFINITY;
    this.legs = [];
    return best;
  }

  /**
   * Drops from the live set the legs that cannot improve at `now` (a ride leaving then arrives no
   * sooner, and the walk from a stop to the end takes at least the least one) or have arrived soon
   * enough. Answers when the next may drop (Infinity: none live).
   */
  private updateLive(now: number): number {
    const { best, egressLeast, legs } = this;
    let next = INFINITY;
    for (let i = 0; i < legs.length; i++) {
      if (((this.live >>> i) & 1) === 0) continue;
      const leg = legs[i] as BoundedLeg;
      const beforeBest = (best[i] as number) - (egressLeast[i] as number);
      const inTime = leg.by - (egressLeast[i] as number);
      if (now >= beforeBest || now > inTime || (best[i] as number) <= (this.enough[i] as number)) {
        this.live &= ~(1 << i);
      } else next = Math.min(next, beforeBest, inTime);
    }
    return next;
  }

  /** The scan of the connections departing from `from`, nothing arriving after the latest `by`. */
  private scan(from: number) {
    const tt = this.timetable;
    const { generation, stopStamp, atSet, streams, by } = this;
    const count = openForward(tt, streams, from, by);
    this.tripSlots(count);
    const { tripStamp, tripSet } = this;
    const {
      connectionCount: n,
      connectionDeparture,
      connectionArrival,
      connectionFrom,
      connectionTo,
      connectionTrip,
      tripService,
      serviceDays,
      dayCount,
      tripCount,
    } = tt;
    const { day: streamDay, base: streamBase, next: streamNext } = streams;
    let checkAt = this.updateLive(from);
    let sinceCheck = 0;
    let left = Number.NaN;
    for (;;) {
      const stream = earliestStream(tt, streams, count);
      const { first, second } = streams;
      if (stream < 0 || first > by) return;
      const day = streamDay[stream] as number;
      const base = streamBase[stream] as number;
      const slots = stream * tripCount;
      const until = Math.floor((Math.min(second, by) - base) / SECOND);
      let c = streamNext[stream] as number;
      for (; c < n; c++) {
        const seconds = connectionDeparture[c] as number;
        if (seconds > until) break;
        const departure = base + seconds * SECOND;
        // Many connections leave at once.
        if (departure !== left) {
          this.leave(departure);
          left = departure;
        }
        if (departure > checkAt || ++sinceCheck === LIVE_CHECK_EVERY) {
          sinceCheck = 0;
          checkAt = this.updateLive(departure);
          if (checkAt === INFINITY) return;
        }
        const slot = slots + (connectionTrip[c] as number);
        const boarding = connectionFrom[c] as number;
        let aboard = tripStamp[slot] === generation;
        if (stopStamp[boarding] === generation) {
          const boards = (atSet[boarding] as number) & this.live;
          if (boards !== 0) {
            if (!aboard) {
              // Whether the trip runs that day is asked once, when it is first boarded.
              if (serviceDays[(tripService[connectionTrip[c] as number] as number) * dayCount + day] === 0) continue;
              tripStamp[slot] = generation;
              tripSet[slot] = 0;
              aboard = true;
            }
            tripSet[slot] = (tripSet[slot] as number) | boards;
          }
        }
        if (!aboard) continue;
        const arrival = base + (connectionArrival[c] as number) * SECOND;
        // The trip's later stops arrive later still.
        if (arrival > by) continue;
        const riding = (tripSet[slot] as number) & this.live;
        if (riding !== 0) this.arriveMain(connectionTo[c] as number, arrival, riding, RIDDEN, departure);
      }
      streamNext[stream] = c;
    }
  }

  /** The scan is at `now`: the arrivals by then join their stops' sets, then the legs leaving by then start. */
  private leave(now: number) {
    this.join(now);
    this.start(now);
  }

  /**
   * The live legs leaving by `now` start: each one's walks to the stops near it and one footpath on
   * from each (as the router's search begins), the earliest per stop, arrive (started, so no
   * footpath is walked again from them).
   */
  private start(now: number) {
    const { legs, leaving, accessStamp, accessMain, accessAt } = this;
    const { grid, near, walkMsFor } = this.parts;
    const { footStart, footTo, footSeconds } = this.timetable;
    for (; this.left < leaving.length; this.left++) {
      const i = leaving[this.left] as number;
      const leg = legs[i] as BoundedLeg;
      if (leg.at > now) break;
      if (((this.live >>> i) & 1) === 0) continue;
      const generation = this.nextAccessGeneration();
      let touched = 0;
      const stops = grid.within(leg.from, ACCESS_WALK_MAX_M, near);
      for (let k = 0; k < stops; k++) {
        const time = leg.at + walkMsFor(near.metres[k] as number);
        if (time > leg.by) continue;
        const stop = near.stops[k] as number;
        accessStamp[stop] = generation;
        accessMain[stop] = time;
        accessAt[stop] = time;
        touched = this.touch(touched, stop);
      }
      for (let k = 0, walkedTo = touched; k < walkedTo; k++) {
        const stop = this.accessed[k] as number;
        for (let f = footStart[stop] as number, end = footStart[stop + 1] as number; f < end; f++) {
          const walked = (accessMain[stop] as number) + (footSeconds[f] as number) * SECOND;
          if (walked > leg.by) continue;
          const next = footTo[f] as number;
          if (accessStamp[next] !== generation) {
            accessStamp[next] = generation;
            accessMain[next] = INFINITY;
            accessAt[next] = INFINITY;
            touched = this.touch(touched, next);
          }
          if (walked < (accessAt[next] as number)) accessAt[next] = walked;
        }
      }
      const bit = 1 << i;
      for (let k = 0; k < touched; k++) {
        const stop = this.accessed[k] as number;
        const walked = accessMain[stop] as number;
        if (walked < INFINITY) this.arriveMain(stop, walked, bit, STARTED, now);
        if ((accessAt[stop] as number) < walked) this.arriveOnFoot(stop, accessAt[stop] as number, bit, now);
      }
    }
  }

  /** Adds `stop` to the start's list of stops reached; answers the new count. */
  private touch(count: number, stop: number): number {
    if (count === this.accessed.length) this.accessed = grown(this.accessed, count * 2);
    this.accessed[count] = stop;
    return count + 1;
  }

  /**
   * The legs of `set` reach `stop` at `time` (the scan being at `now`) by a ride or their start's
   * walk: noted for the legs whose end is near, and kept until the scan reaches `time`, without
   * those there already or brought no later by an arrival kept. An arrival by `now` joins the
   * stop's sets at once, whole: what joined before may have arrived later.
   */
  private arriveMain(stop: number, time: number, set: number, how: number, now: number) {
    this.stamp(stop);
    let kept = set;
    if (time <= now) this.joinMain(stop, time, set, false, how === RIDDEN, now);
    else {
      kept &= ~(this.mainSet[stop] as number);
      if (time >= (this.keptLatest[stop] as number)) kept &= ~(this.keptMain[stop] as number);
      if (kept === 0) return;
      this.keptMain[stop] = (this.keptMain[stop] as number) | kept;
      this.keptAt[stop] = (this.keptAt[stop] as number) | kept;
      this.store(stop, time, how, kept);
    }
    if (this.egressStamp[stop] === this.generation) this.noteEnds(stop, time, kept);
  }

  /** As arriveMain, on foot from another stop: no footpath leads on. */
  private arriveOnFoot(stop: number, time: number, set: number, now: number) {
    this.stamp(stop);
    let kept = set;
    if (time <= now) this.atSet[stop] = (this.atSet[stop] as number) | set;
    else {
      kept &= ~(this.atSet[stop] as number);
      if (time >= (this.keptLatest[stop] as number)) kept &= ~(this.keptAt[stop] as number);
      if (kept === 0) return;
      this.keptAt[stop] = (this.keptAt[stop] as number) | kept;
      this.store(stop, time, ON_FOOT, kept);
    }
    if (this.egressStamp[stop] === this.generation) this.noteEnds(stop, time, kept);
  }

  /**
   * The legs of `set` are at `stop` from `time` by a ride or start. With `walk`, one footpath leads
   * on, walked by the legs new there (`onlyNew`: the stop's earlier arrivals joined first) or by all.
   */
  private joinMain(stop: number, time: number, set: number, onlyNew: boolean, walk: boolean, now: number) {
    const fresh = onlyNew ? set & ~(this.mainSet[stop] as number) : set;
    this.mainSet[stop] = (this.mainSet[stop] as number) | set;
    this.atSet[stop] = (this.atSet[stop] as number) | set;
    if (!walk || fresh === 0) return;
    const { footStart, footTo, footSeconds } = this.timetable;
    for (let f = footStart[stop] as number, end = footStart[stop + 1] as number; f < end; f++) {
      const walked = time + (footSeconds[f] as number) * SECOND;
      if (walked <= this.by) this.arriveOnFoot(footTo[f] as number, walked, fresh, now);
    }
  }

  /** Each leg of `set` whose end is within a walk of `stop` may arrive there at `time` plus the walk. */
  private noteEnds(stop: number, time: number, set: number) {
    if ((set & (this.egressSet[stop] as number)) === 0) return;
    const { best, egressLeg, egressWalk, egressNext } = this;
    for (let e = this.egressHead[stop] as number; e >= 0; e = egressNext[e] as number) {
      const i = egressLeg[e] as number;
      if (((set >>> i) & 1) === 0) continue;
      const arrival = time + (egressWalk[e] as number);
      if (arrival >= (best[i] as number)) continue;
      best[i] = arrival;
      // Soon enough: the leg is answered.
      if (arrival <= (this.enough[i] as number)) this.live &= ~(1 << i);
    }
  }

  /** Keeps an arrival in its second's list. */
  private store(stop: number, time: number, how: number, set: number) {
    if (time > (this.keptLatest[stop] as number)) this.keptLatest[stop] = time;
    if (this.arrivalCount === this.arrivalTime.length) this.growArrivals();
    const arrival = this.arrivalCount++;
    this.arrivalTime[arrival] = time;
    this.arrivalStop[arrival] = stop;
    this.arrivalHow[arrival] = how;
    this.arrivalSet[arrival] = set;
    const second = Math.floor(time / SECOND) - this.firstSecond;
    this.arrivalNext[arrival] = this.seconds[second] as number;
    this.seconds[second] = arrival;
  }

  /** Joins the arrivals kept by `now` to their stops' sets, in time order. */
  private join(now: number) {
    const { seconds } = this;
    const second = Math.min(Math.floor(now / SECOND) - this.firstSecond, seconds.length - 1);
    for (; this.joinedSecond < second; this.joinedSecond++) {
      this.joinSecond(this.joinedSecond, INFINITY, now);
      seconds[this.joinedSecond] = -1;
    }
    // Within the second the scan is in, those by `now` (once a departure time: many leave at once).
    if (second >= 0 && now !== this.joinedAt) this.joinSecond(second, now, now);
    this.joinedAt = now;
  }

  /** Joins the arrivals of a second by `until`, earliest first, and takes them off its list. */
  private joinSecond(second: number, until: number, now: number) {
    const { seconds, arrivalNext, arrivalTime } = this;
    let count = 0;
    let previous = -1;
    for (let a = seconds[second] as number; a >= 0; a = arrivalNext[a] as number) {
      if ((arrivalTime[a] as number) > until) {
        previous = a;
        continue;
      }
      if (count === this.joining.length) this.joining = grown(this.joining, count * 2);
      this.joining[count++] = a;
      if (previous < 0) seconds[second] = arrivalNext[a] as number;
      else arrivalNext[previous] = arrivalNext[a] as number;
    }
    // Earliest first (an insertion sort: a second holds few).
    const joining = this.joining;
    for (let k = 1; k < count; k++) {
      const a = joining[k] as number;
      const time = arrivalTime[a] as number;
      let j = k - 1;
      for (; j >= 0 && (arrivalTime[joining[j] as number] as number) > time; j--) joining[j + 1] = joining[j] as number;
      joining[j + 1] = a;
    }
    const { arrivalStop, arrivalHow, arrivalSet } = this;
    for (let k = 0; k < count; k++) {
      const a = joining[k] as number;
      const stop = arrivalStop[a] as number;
      const how = arrivalHow[a] as number;
      if (how === ON_FOOT) this.atSet[stop] = (this.atSet[stop] as number) | (arrivalSet[a] as number);
      else this.joinMain(stop, arrivalTime[a] as number, arrivalSet[a] as number, true, how === RIDDEN, now);
    }
  }

  /** A list per second from `from` to `by` for the arrivals kept. */
  private openSeconds(from: number, by: number) {
    this.firstSecond = Math.floor(from / SECOND);
    const size = Math.floor(by / SECOND) - this.firstSecond + 1;
    if (this.seconds.length < size) this.seconds = new Int32Array(size);
    this.seconds.fill(-1, 0, size);
    this.joinedSecond = 0;
    this.joinedAt = Number.NEGATIVE_INFINITY;
  }

  /** A stop first reached in this search: no sets, nothing kept. */
  private stamp(stop: number) {
    if (this.stopStamp[stop] === this.generation) return;
    this.stopStamp[stop] = this.generation;
    this.mainSet[stop] = 0;
    this.atSet[stop] = 0;
    this.keptMain[stop] = 0;
    this.keptAt[stop] = 0;
    this.keptLatest[stop] = Number.NEGATIVE_INFINITY;
  }

  private addEgress(stop: number, leg: number, walk: number) {
    if (this.egressCount === this.egressNext.length) {
      const size = this.egressCount * 2;
      this.egressNext = grown(this.egressNext, size);
      this.egressLeg = grown(this.egressLeg, size);
      this.egressWalk = grown(this.egressWalk, size);
    }
    const e = this.egressCount++;
    this.egressLeg[e] = leg;
    this.egressWalk[e] = walk;
    this.egressNext[e] = this.egressHead[stop] as number;
    this.egressHead[stop] = e;
  }

  private growArrivals() {
    const size = this.arrivalTime.length * 2;
    this.arrivalTime = grown(this.arrivalTime, size);
    this.arrivalStop = grown(this.arrivalStop, size);
    this.arrivalHow = grown(this.arrivalHow, size);
    this.arrivalSet = grown(this.arrivalSet, size);
    this.arrivalNext = grown(this.arrivalNext, size);
  }

  /** Room for per-(stream, trip) state of `streams` streams. */
  private tripSlots(streams: number) {
    const size = streams * this.timetable.tripCount;
    if (this.tripStamp.length >= size) return;
    this.tripStamp = grown(this.tripStamp, size);
    this.tripSet = grown(this.tripSet, size);
  }

  /** A fresh stamp: everything stamped earlier reads as unset. */
  private nextGeneration(): number {
    if (this.generation === 0xffffffff) {
      this.stopStamp.fill(0);
      this.egressStamp.fill(0);
      this.tripStamp.fill(0);
      this.generation = 0;
    }
    return ++this.generation;
  }

  private nextAccessGeneration(): number {
    if (this.accessGeneration === 0xffffffff) {
      this.accessStamp.fill(0);
      this.accessGeneration = 0;
    }
    return ++this.accessGeneration;
  }
}
