import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  RATING_COMMENT_MAX,
  RATING_DEFAULT_MEAN,
  ratingBodySchema,
  ratingEditableUntil,
  ratingSummary,
  shrunkAverage,
} from './ratings.ts';

describe('ratingBodySchema', () => {
  it('takes 1–5 whole stars and a trimmed, optional comment', () => {
    expect(ratingBodySchema.parse({ stars: 5 })).toEqual({ stars: 5, comment: null });
    expect(ratingBodySchema.parse({ stars: 1, comment: '  gyors volt  ' })).toEqual({
      stars: 1,
      comment: 'gyors volt',
    });
    expect(ratingBodySchema.parse({ stars: 3, comment: '   ' })).toEqual({ stars: 3, comment: null });
    expect(ratingBodySchema.parse({ stars: 3, comment: 'x'.repeat(RATING_COMMENT_MAX) }).comment).toHaveLength(500);
  });

  it.each([[6], [0], ['abc'], [4.5], [null], [undefined]])('refuses %j stars with a Hungarian message', (stars) => {
    const result = ratingBodySchema.safeParse({ stars });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe('Az értékelés 1 és 5 csillag közötti egész szám lehet.');
  });

  it('refuses a comment over 500 characters', () => {
    const result = ratingBodySchema.safeParse({ stars: 4, comment: 'x'.repeat(RATING_COMMENT_MAX + 1) });
    expect(result.error?.issues[0]?.message).toBe('A megjegyzés legfeljebb 500 karakter lehet.');
  });
});

describe('shrunk average', () => {
  it('one 1-star review does not make a 1-star runner', () => {
    expect(ratingSummary(1, 1, 4.5)).toEqual({ average: 3.9, count: 1 });
    expect(ratingSummary(1, 1, null)).toEqual({ average: 3.5, count: 1 });
  });

  it('many ratings outweigh the prior', () => {
    expect(ratingSummary(5 * 200, 200, 3)).toEqual({ average: 5, count: 200 });
  });

  it('is null while nobody rated', () => {
    expect(ratingSummary(0, 0, 4)).toBeNull();
  });

  it('lies between the overall mean and the sample mean, and within 1–5', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 5 }), { minLength: 1, maxLength: 300 }),
        fc.double({ min: 1, max: 5, noNaN: true }),
        (stars, mean) => {
          const sum = stars.reduce((a, b) => a + b, 0);
          const sampleMean = sum / stars.length;
          const shrunk = shrunkAverage(sum, stars.length, mean);
          expect(shrunk).toBeGreaterThanOrEqual(Math.min(mean, sampleMean) - 1e-9);
          expect(shrunk).toBeLessThanOrEqual(Math.max(mean, sampleMean) + 1e-9);
        },
      ),
    );
  });

  it('defaults to a mean of 4 with a prior weight of 5', () => {
    expect(shrunkAverage(5, 1)).toBeCloseTo((5 * RATING_DEFAULT_MEAN + 5) / 6);
  });
});

it('a rating may be edited for 24 hours after it was first given', () => {
  expect(ratingEditableUntil('2025-03-01T10:00:00.000Z')).toBe('2025-03-02T10:00:00.000Z');
});
