import { describe, expect, it } from 'vitest';
import { addressKey, foldAccents, HUNGARIAN_ACCENT_FOLDS } from './address.ts';

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

describe('foldAccents', () => {
  it('drops accents and case, and keeps spacing and punctuation', () => {
    expect(foldAccents('Ádám, ŐRSÉG-Űrhajó')).toBe('adam, orseg-urhajo');
  });

  it('agrees with the table the stores fold by in SQL', () => {
    for (const [accented, plain] of HUNGARIAN_ACCENT_FOLDS) expect(foldAccents(accented), accented).toBe(plain);
    expect(HUNGARIAN_ACCENT_FOLDS.map(([accented]) => accented).join('')).toBe('ÁáÉéÍíÓóÖöŐőÚúÜüŰű');
  });
});
