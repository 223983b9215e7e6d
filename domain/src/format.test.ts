import { describe, expect, it } from 'vitest';
import {
  budapestClock,
  budapestDateTimeInput,
  budapestDay,
  budapestInstant,
  budapestParts,
  formatAge,
  formatDistance,
  formatTimestamp,
  formatWeight,
} from './format.ts';
import { en } from './messages-en.ts';

describe('formatTimestamp', () => {
  it('shows Budapest time with the real month (the original showed January as 00)', () => {
    expect(formatTimestamp('2026-01-05T08:09:10.000Z')).toBe('2026-01-05 09:09:10');
  });

  it('follows daylight saving time', () => {
    expect(formatTimestamp('2026-07-31T22:30:00.000Z')).toBe('2026-08-01 00:30:00');
  });

  it('pads every part to two digits', () => {
    expect(formatTimestamp(new Date('2026-12-01T00:00:05.000Z'))).toBe('2026-12-01 01:00:05');
  });

  it('is written day first in English, the same Budapest moment (issue 30)', () => {
    const p = budapestParts('2026-01-05T08:09:10.000Z');
    const two = (n: number) => String(n).padStart(2, '0');
    const clock = `${two(p.hour)}:${two(p.minute)}:${two(p.second)}`;
    expect(en.timestamp(String(p.year), two(p.month), two(p.day), clock)).toBe('05/01/2026, 09:09:10');
  });
});

describe('formatWeight', () => {
  it('shows whole grams with a space before the unit', () => {
    expect(formatWeight(123)).toBe('123 g');
  });
});

describe('formatAge', () => {
  const now = new Date('2026-11-22T12:00:00.000Z');
  it.each([
    ['2026-11-22T11:59:30.000Z', 'most'],
    ['2026-11-22T11:55:00.000Z', '5 perce'],
    ['2026-11-22T10:00:00.000Z', '2 órája'],
    ['2026-11-19T12:00:00.000Z', '3 napja'],
  ])('says %s is %s', (at, expected) => {
    expect(formatAge(at, now)).toBe(expected);
  });
});

describe('formatDistance', () => {
  it('shows metres under a kilometre and kilometres with a decimal comma above', () => {
    expect(formatDistance(349.6)).toBe('350 m');
    expect(formatDistance(999.7)).toBe('1,0 km');
    expect(formatDistance(1234)).toBe('1,2 km');
    expect(formatDistance(161_800)).toBe('162 km');
  });
});

describe('the Budapest wall clock', () => {
  it('reads an instant as Budapest sees it: day, clock, a datetime-local value, the ISO weekday', () => {
    const at = Date.parse('2026-03-28T23:30:00.000Z'); // Sunday 00:30 in winter time
    expect(budapestDateTimeInput(at)).toBe('2026-03-29T00:30');
    expect(budapestDay(at)).toBe('2026-03-29');
    expect(budapestClock(at)).toBe('00:30');
    expect(budapestParts(at).weekday).toBe(7);
  });

  it('finds the instant of a wall-clock time on both sides of each clock change', () => {
    expect(new Date(budapestInstant(2026, 1, 15, 14, 32)).toISOString()).toBe('2026-01-15T13:32:00.000Z');
    expect(new Date(budapestInstant(2026, 7, 15, 14, 32)).toISOString()).toBe('2026-07-15T12:32:00.000Z');
    // 29 March 2026, 02:30 never happens: the same wall-clock time an hour later.
    expect(new Date(budapestInstant(2026, 3, 29, 2, 30)).toISOString()).toBe('2026-03-29T01:30:00.000Z');
    // 25 October 2026, 02:30 happens twice: the earlier one.
    expect(new Date(budapestInstant(2026, 10, 25, 2, 30)).toISOString()).toBe('2026-10-25T00:30:00.000Z');
  });

  it('reads back every datetime-local value it writes', () => {
    for (let at = Date.parse('2026-03-28T00:00:00Z'); at < Date.parse('2026-03-30T00:00:00Z'); at += 15 * 60_000) {
      const value = budapestDateTimeInput(at);
      const [date = '', time = ''] = value.split('T');
      const [year, month, day] = date.split('-').map(Number) as [number, number, number];
      const [hour, minute] = time.split(':').map(Number) as [number, number];
      expect(budapestInstant(year, month, day, hour, minute)).toBe(at);
    }
  });
});
