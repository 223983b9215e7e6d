import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { budapestInstant, budapestParts } from './format.ts';
import { departuresAfter, isTripActive, nextDeparture, TRIP_ACTIVE_WINDOW_MS } from './trip-api.ts';

const MINUTE = 60_000;

/**
 * The next departure found the slow way: every Budapest minute at or after `now` that reads as the
 * trip's time on one of its weekdays, the first one. Budapest's offsets from UTC are whole hours,
 * so its minute is UTC's: the candidates are an hour apart from the first instant on that minute.
 */
function byClock(trip: { weekdays: number[]; time: string }, now: number): number {
  const [hour = 0, minute = 0] = trip.time.split(':').map(Number);
  let at = Math.ceil(now / MINUTE) * MINUTE;
  while (new Date(at).getUTCMinutes() !== minute) at += MINUTE;
  for (; at < now + 9 * 86_400_000; at += 60 * MINUTE) {
    const p = budapestParts(at);
    if (trip.weekdays.includes(p.weekday) && p.hour === hour && p.minute === minute) return at;
  }
  throw new Error('no departure within nine days');
}

const trip = fc.record({
  weekdays: fc.uniqueArray(fc.integer({ min: 1, max: 7 }), { minLength: 1, maxLength: 7 }),
  time: fc
    .tuple(fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }))
    .map(([h, m]) => `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`),
});

describe('a saved trip’s next departure', () => {
  it('is the first of its weekdays at its time in Budapest, across the clock changes', () => {
    // 2026's clock changes in Budapest: 29 March (02:00 → 03:00) and 25 October (03:00 → 02:00).
    const spring = budapestInstant(2026, 3, 27, 12, 0);
    const autumn = budapestInstant(2026, 10, 23, 12, 0);
    fc.assert(
      fc.property(
        trip.filter((t) => t.time < '02:00' || t.time >= '03:00'),
        fc.constantFrom(spring, autumn),
        fc.integer({ min: 0, max: 4 * 24 * 60 }),
        (t, base, minutes) => {
          const now = base + minutes * MINUTE;
          expect(nextDeparture(t, now)).toBe(byClock(t, now));
        },
      ),
      { numRuns: 300 },
    );
    // 24 hours on from Saturday 23:00 before the spring change is Monday 00:00: Sunday is a day, not 24 hours.
    const saturdayNight = budapestInstant(2026, 3, 28, 23, 0);
    expect(nextDeparture({ weekdays: [7], time: '00:00' }, saturdayNight)).toBe(budapestInstant(2026, 3, 29, 0, 0));
    // And the autumn's 25-hour Sunday: from Saturday 00:30, Saturday's 23:45 and then Sunday's.
    const saturdayEarly = budapestInstant(2026, 10, 24, 0, 30);
    expect(nextDeparture({ weekdays: [6], time: '23:45' }, saturdayEarly)).toBe(budapestInstant(2026, 10, 24, 23, 45));
    expect(nextDeparture({ weekdays: [7], time: '23:45' }, saturdayEarly)).toBe(budapestInstant(2026, 10, 25, 23, 45));
  });

  it('is the same for many trips at one instant as for each alone (the offers’ shared clock)', () => {
    fc.assert(
      fc.property(
        fc.array(trip, { minLength: 1, maxLength: 30 }),
        fc.integer({ min: 0, max: 400 * 24 * 60 }),
        (trips, minutes) => {
          const now = budapestInstant(2026, 1, 1, 0, 0) + minutes * MINUTE;
          const departures = departuresAfter(now);
          for (const t of trips) expect(departures(t)).toBe(nextDeparture(t, now));
        },
      ),
    );
  });

  it('makes a trip active within the hour before it leaves, unless paused', () => {
    const now = budapestInstant(2026, 6, 1, 7, 0);
    const weekdays = [1, 2, 3, 4, 5, 6, 7];
    expect(isTripActive({ weekdays, time: '07:40', paused: false }, now)).toBe(true);
    expect(isTripActive({ weekdays, time: '07:40', paused: true }, now)).toBe(false);
    expect(isTripActive({ weekdays, time: '08:01', paused: false }, now)).toBe(false);
    expect(isTripActive({ weekdays, time: '08:00', paused: false }, now, now + TRIP_ACTIVE_WINDOW_MS)).toBe(true);
  });
});
