import { describe, expect, it } from 'vitest';
import { addressKey } from './address.ts';

describe('addressKey', () => {
  it('ignores case, accents, spacing and punctuation', () => {
    expect(addressKey('1052 Budapest, Váci utca 12.')).toBe(addressKey('  1052 BUDAPEST  vaci utca 12 '));
  });

  it('keeps different doors apart', () => {
    expect(addressKey('1052 Budapest, Váci utca 12')).not.toBe(addressKey('1052 Budapest, Váci utca 13'));
  });

  it('produces a plain, searchable key', () => {
    expect(addressKey('Győr, Széchenyi tér 1/A')).toBe('gyor szechenyi ter 1 a');
  });
});
