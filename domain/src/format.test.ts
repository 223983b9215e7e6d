import { describe, expect, it } from 'vitest';
import { formatAge, formatDistance, formatTimestamp, formatWeight } from './format.ts';

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
