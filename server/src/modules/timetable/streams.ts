import type { Timetable } from './timetable.ts';

const SECOND = 1_000;

/**
 * Where a forward scan reads each service day (TimetableRouter, LegsSearch): a day is the one
 * sorted array of connections shifted by its base, so a scan merges one stream per day.
 */
export interface Streams {
  day: Int32Array;
  base: Float64Array;
  /** The stream's next connection. */
  next: Int32Array;
  /** Set by earliestStream: when its stream's next connection departs, and the runner-up's. */
  first: number;
  second: number;
}

export function newStreams(timetable: Timetable): Streams {
  const days = timetable.dayCount;
  return {
    day: new Int32Array(days),
    base: new Float64Array(days),
    next: new Int32Array(days),
    first: Number.POSITIVE_INFINITY,
    second: Number.POSITIVE_INFINITY,
  };
}

/**
 * The open stream (of `count`) whose next connection departs first, −1 when all are read; its
 * departure and the runner-up's in `first` and `second` (a scan reads that stream up to the second).
 */
export function earliestStream(timetable: Timetable, streams: Streams, count: number): number {
  const { connectionCount: n, connectionDeparture } = timetable;
  let stream = -1;
  let first = Number.POSITIVE_INFINITY;
  let second = Number.POSITIVE_INFINITY;
  for (let s = 0; s < count; s++) {
    const next = streams.next[s] as number;
    if (next >= n) continue;
    const departure = (streams.base[s] as number) + (connectionDeparture[next] as number) * SECOND;
    if (departure < first) {
      second = first;
      first = departure;
      stream = s;
    } else if (departure < second) second = departure;
  }
  streams.first = first;
  streams.second = second;
  return stream;
}

/**
 * Opens a stream per day with a connection departing within [at, by], at its first such; answers
 * how many.
 */
export function openForward(timetable: Timetable, streams: Streams, at: number, by: number): number {
  const { connectionCount: n, connectionDeparture, dayBase, dayCount } = timetable;
  if (n === 0) return 0;
  const earliest = (connectionDeparture[0] as number) * SECOND;
  const latest = (connectionDeparture[n - 1] as number) * SECOND;
  let count = 0;
  for (let day = 0; day < dayCount; day++) {
    const base = dayBase[day] as number;
    if (base + latest < at || base + earliest > by) continue;
    // The first connection departing at or after `at`.
    const from = Math.ceil((at - base) / SECOND);
    let low = 0;
    let high = n;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((connectionDeparture[middle] as number) < from) low = middle + 1;
      else high = middle;
    }
    streams.day[count] = day;
    streams.base[count] = base;
    streams.next[count] = low;
    count++;
  }
  return count;
}
