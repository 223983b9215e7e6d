import { describe, expect, it } from 'vitest';
import { dropPointBodySchema, isOpenAt, parseOpeningHours } from './drop-points.ts';
import { messages } from './messages.ts';

describe('opening hours', () => {
  it('reads days, ranges, lists and several intervals', () => {
    const week = parseOpeningHours('H-P 8:00-18:00; Szo 9:00-12:00');
    expect(week).toEqual([[[480, 1080]], [[480, 1080]], [[480, 1080]], [[480, 1080]], [[480, 1080]], [[540, 720]], []]);
    expect(parseOpeningHours('H,Sze 10:00-12:00,14:00-18:00')?.[2]).toEqual([
      [600, 720],
      [840, 1080],
    ]);
    expect(parseOpeningHours('h-v 0:00-24:00')?.every((day) => day.length === 1)).toBe(true);
  });

  it.each([
    '',
    'nyitva',
    'H-P',
    'P-H 8:00-10:00',
    'Hé 8:00-10:00',
    'H 8:00',
    'H 10:00-8:00',
    'H 8:00-25:00',
    'H 8:60-9:00',
    'H-K-Sze 8:00-9:00',
  ])('refuses %j', (text) => {
    expect(parseOpeningHours(text)).toBeNull();
    const parsed = dropPointBodySchema.shape.openingHours.safeParse(text);
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.message).toBe(messages.openingHoursInvalid);
  });

  it('is open in Budapest time, the closing minute excluded, across a daylight saving change', () => {
    const week = parseOpeningHours('H-P 8:00-18:00') ?? [];
    // Monday 2026-03-30 (summer time, UTC+2) 08:00 Budapest = 06:00Z.
    expect(isOpenAt(week, new Date('2026-03-30T06:00:00Z'))).toBe(true);
    expect(isOpenAt(week, new Date('2026-03-30T05:59:00Z'))).toBe(false);
    expect(isOpenAt(week, new Date('2026-03-30T16:00:00Z'))).toBe(false);
    // Monday 2026-03-23 (winter time, UTC+1) 08:00 Budapest = 07:00Z.
    expect(isOpenAt(week, new Date('2026-03-23T07:00:00Z'))).toBe(true);
    expect(isOpenAt(week, new Date('2026-03-23T06:30:00Z'))).toBe(false);
    // Saturday: closed.
    expect(isOpenAt(week, new Date('2026-03-28T10:00:00Z'))).toBe(false);
  });
});
