import { describe, expect, it } from 'vitest';
import { NodeIdCollector } from './node-coordinates.ts';

describe('the needed node ids', () => {
  it('are deduplicated as they are collected and found by id in any order', () => {
    const collector = new NodeIdCollector();
    // More than the first buffer holds, most of them repeated.
    for (let round = 0; round < 3; round++) for (let id = 200_000; id > 0; id -= 2) collector.add(id * 1000);
    const coordinates = collector.finish();
    expect(coordinates.size).toBe(100_000);
    for (const id of [2000, 200_000_000, 4000, 101_000]) coordinates.set(coordinates.indexOf(id), id % 997, 1);
    expect(coordinates.indexOf(3000)).toBe(-1);
    const lats = new Int32Array(1);
    const lngs = new Int32Array(1);
    expect(coordinates.copyTo(200_000_000, lats, lngs, 0)).toBe(true);
    expect(lats[0]).toBe(200_000_000 % 997);
    // Needed but not (yet) seen in the file.
    expect(coordinates.copyTo(6000, lats, lngs, 0)).toBe(false);
  });

  it('tell apart ids beyond 2^32 and negative ones from those with the same low bits', () => {
    const ids = [5, 2 ** 32 + 5, 3 * 2 ** 32 + 5, 13_000_000_000, -5, -(2 ** 32) - 5];
    const collector = new NodeIdCollector();
    const refs = Float64Array.from([...ids, ids[0] as number]);
    collector.addAll(refs, refs.length);
    const coordinates = collector.finish();
    expect(coordinates.size).toBe(ids.length);
    ids.forEach((id, i) => {
      coordinates.set(coordinates.indexOf(id), i, -i);
    });
    const lats = new Int32Array(ids.length);
    const lngs = new Int32Array(ids.length);
    ids.forEach((id, i) => {
      expect(coordinates.copyTo(id, lats, lngs, i)).toBe(true);
    });
    expect([...lats]).toEqual([0, 1, 2, 3, 4, 5]);
    expect(coordinates.indexOf(2 ** 33 + 5)).toBe(-1);
  });
});
