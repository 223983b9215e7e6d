import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { budapestInstant, budapestParts } from './format.ts';
import { departuresAfter, isTripActive, nextDeparture, TRIP_ACTIVE_WINDOW_MS } from './trip-api.ts';

const MINUTE = 60_000;

/** The next departure found minute by minute: the first Budapest minute at or after `now` on a weekday at the time. */
function byMinutes(trip: { weekdays: number[]; time: string }, now: number): number {
  const start = Math.ceil(now / MINUTE) * MINUTE;
  for (let at = start; at < now + 9 * 86_400_000; at += MINUTE) {
    const p = budapestParts(at);
    const clock = `${String(p.hour).padStart(2, '0')}:${String(p.minute).padStart(2, '0')}`;
    if (trip.weekdays.includes(p.weekday) && clock === trip.time) return at;
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
          expect(nextDeparture(t, now)).toBe(byMinutes(t, now));
        },
      ),
      { numRuns: 60 },
    );
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
