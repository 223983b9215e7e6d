import { describe, expect, it } from 'vitest';
import {
  FIXED_POINT,
  interpolatedAddresses,
  MAX_INTERPOLATED_PER_WAY,
  type PlaceRecord,
  type Tags,
} from './extract.ts';

/** An interpolation line due east along 47° N, one node per house number given (null: no number). */
function interpolate(kind: string, numbers: (number | null)[], nodeTags: Tags = { 'addr:street': 'Fő utca' }) {
  const lats = numbers.map(() => 47 * FIXED_POINT);
  const lngs = numbers.map((_, i) => (19 + i * 0.001) * FIXED_POINT);
  const out: PlaceRecord[] = [];
  interpolatedAddresses(
    { 'addr:interpolation': kind },
    { lats, lngs, count: numbers.length },
    (i) => (numbers[i] === null ? undefined : { ...nodeTags, 'addr:housenumber': String(numbers[i]) }),
    out,
  );
  return out;
}

describe('address interpolation', () => {
  it('steps by two on an even line, leaving out the ends that are addresses already', () => {
    expect(interpolate('even', [2, 10]).map((r) => r.houseNumber)).toEqual(['4', '6', '8']);
  });

  it('steps by one on an "all" line, counting down when the numbers fall', () => {
    expect(interpolate('all', [5, 1]).map((r) => r.houseNumber)).toEqual(['4', '3', '2']);
  });

  it('interpolates each stretch between numbered nodes along the line', () => {
    const out = interpolate('odd', [1, null, 5, 11]);
    expect(out.map((r) => r.houseNumber)).toEqual(['3', '7', '9']);
    // 3 is half-way from 1 (node 0) to 5 (node 2): on node 1.
    expect(out[0]?.lng).toBe(19.001);
  });

  it('emits the ends too when they have a number but no street of their own', () => {
    const out: PlaceRecord[] = [];
    interpolatedAddresses(
      { 'addr:interpolation': 'odd', 'addr:street': 'Petőfi utca' },
      { lats: [47e7, 47e7], lngs: [19e7, 19.001e7], count: 2 },
      (i) => ({ 'addr:housenumber': i === 0 ? '1' : '5', 'addr:city': 'Tata' }),
      out,
    );
    expect(out.map((r) => [r.street, r.houseNumber, r.settlement])).toEqual([
      ['Petőfi utca', '1', 'Tata'],
      ['Petőfi utca', '5', 'Tata'],
      ['Petőfi utca', '3', 'Tata'],
    ]);
  });

  it(`gives up a stretch that would make more than ${MAX_INTERPOLATED_PER_WAY} addresses`, () => {
    expect(interpolate('odd', [1, 1001])).toEqual([]);
    expect(interpolate('all', [1, MAX_INTERPOLATED_PER_WAY + 2])).toHaveLength(MAX_INTERPOLATED_PER_WAY);
  });

  it('skips numbers that are not plain numbers, and lines of other kinds', () => {
    expect(interpolate('odd', [1, null])).toEqual([]);
    expect(interpolate('alphabetic', [1, 5])).toEqual([]);
  });
});
