import { describe, expect, it } from 'vitest';
import { parseTopics } from './live-schemas.ts';

describe('live topics', () => {
  it('reads a comma-separated list, normalising parcel ids and dropping repeats', () => {
    expect(parseTopics('me, parcels,parcel:abcdefghjk,parcel:ABCDEFGHJK')).toEqual([
      'me',
      'parcels',
      'parcel:ABCDEFGHJK',
    ]);
  });

  it.each(['', ' ', 'mindent', 'parcel:', 'parcel:ILOU000000', 'parcels,,me', 'runner:anna'])('refuses %j', (raw) => {
    expect(parseTopics(raw)).toBeNull();
  });

  it('allows at most 20 topics', () => {
    const ids = Array.from({ length: 21 }, (_, i) => `parcel:${String(i).padStart(10, '0')}`);
    expect(parseTopics(ids.slice(0, 20).join(','))).toHaveLength(20);
    expect(parseTopics(ids.join(','))).toBeNull();
  });
});
