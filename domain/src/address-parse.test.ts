import { describe, expect, it } from 'vitest';
import { foldAccents } from './address.ts';
import { canonicalAddressKey, houseNumberKey, type ParsedAddress, parseAddress } from './address-parse.ts';

const SETTLEMENTS = [
  'Budapest',
  'Szeged',
  'Győr',
  'Tata',
  'Hollókő',
  'Kapolcs',
  'Őriszentpéter',
  'Szentendre',
  'Debrecen',
  'Pécs',
  'Érd',
  'Hódmezővásárhely',
  'Balatonfüred',
  'Nagyvázsony',
];
const known = new Map(SETTLEMENTS.map((name) => [foldAccents(name), name]));
const lookup = (folded: string) => known.get(folded);
const parse = (text: string) => parseAddress(text, lookup);

type Expected = Partial<ParsedAddress>;
const at = (
  settlement: string | null,
  street: string | null,
  streetType: string | null,
  houseNumber: string | null,
  more: Expected = {},
): Expected => ({ settlement, street, streetType, houseNumber, ...more });

describe('parseAddress', () => {
  it.each<[string, Expected]>([
    [
      '1114 Budapest, Bartók Béla út 15.',
      at('Budapest', 'Bartók Béla', 'ut', '15', { postalCode: '1114', district: 11 }),
    ],
    [
      'Bartók Béla út 15., Budapest, 1114',
      at('Budapest', 'Bartók Béla', 'ut', '15', { postalCode: '1114', district: 11 }),
    ],
    ['1114 Budapest Bartók Béla út 15', at('Budapest', 'Bartók Béla', 'ut', '15', { district: 11 })],
    ['1114 budapest bartok bela ut 15', at('Budapest', 'bartok bela', 'ut', '15', { district: 11 })],
    [
      'Budapest XI. kerület, Bartók Béla út 15',
      at('Budapest', 'Bartók Béla', 'ut', '15', { district: 11, postalCode: null }),
    ],
    ['Bp. XI., Bartók Béla út 15', at('Budapest', 'Bartók Béla', 'ut', '15', { district: 11 })],
    ['11. kerület, Fehérvári út 3', at('Budapest', 'Fehérvári', 'ut', '3', { district: 11 })],
    ['Budapest, XIII. ker., Váci út 40', at('Budapest', 'Váci', 'ut', '40', { district: 13 })],
    ['1074 Budapest, Dohány u. 20.', at('Budapest', 'Dohány', 'utca', '20', { district: 7 })],
    ['Budapest VII., Dohány u. 20', at('Budapest', 'Dohány', 'utca', '20', { district: 7 })],
    ['Dohany u 20/A', at(null, 'Dohany', 'utca', '20/a')],
    ['1074 Budapest, Dohány utca 20. 3. em. 12.', at('Budapest', 'Dohány', 'utca', '20', { unit: '3 em 12' })],
    ['1137 Budapest, Szent István krt. 1.', at('Budapest', 'Szent István', 'korut', '1', { district: 13 })],
    ['1157 Budapest, Zsókavár u. 5. fsz. 2.', at('Budapest', 'Zsókavár', 'utca', '5', { unit: 'fsz 2' })],
    ['6720 Szeged, Kárász utca 5', at('Szeged', 'Kárász', 'utca', '5', { postalCode: '6720', district: null })],
    ['Szeged, Tisza Lajos krt. 2-4.', at('Szeged', 'Tisza Lajos', 'korut', '2-4')],
    ['Debrecen, Piac utca 1234', at('Debrecen', 'Piac', 'utca', '1234', { postalCode: null })],
    ['Tata utca 5, Győr', at('Győr', 'Tata', 'utca', '5')],
    ['Október 6. utca 7., Szeged', at('Szeged', 'Október 6.', 'utca', '7')],
    ['3176 Hollókő, Kossuth út 82.', at('Hollókő', 'Kossuth', 'ut', '82', { postalCode: '3176' })],
    ['Kapolcs, Petőfi utca 1', at('Kapolcs', 'Petőfi', 'utca', '1')],
    ['Őriszentpéter', at('Őriszentpéter', null, null, null)],
    ['oriszentpeter', at('Őriszentpéter', null, null, null)],
    ['6720 Szeged', at('Szeged', null, null, null, { postalCode: '6720' })],
    ['Budapest, Keleti pályaudvar', at('Budapest', 'Keleti', 'palyaudvar', null)],
    ['Budapest Nyugati pu.', at('Budapest', 'Nyugati', 'palyaudvar', null)],
    ['Budapest, Hősök tere', at('Budapest', 'Hősök', 'tere', null)],
    ['2000 Szentendre, Fő tér 1., Magyarország', at('Szentendre', 'Fő', 'ter', '1')],
    ['8230 Balatonfüred, Tagore sétány 1', at('Balatonfüred', 'Tagore', 'setany', '1')],
    ['Pécs, Uranváros ltp. 3', at('Pécs', 'Uranváros', 'lakotelep', '3')],
    ['Érd, Budai út 14/b', at('Érd', 'Budai', 'ut', '14/b')],
    ['Hódmezővásárhely, Andrássy út 5 A', at('Hódmezővásárhely', 'Andrássy', 'ut', '5/a')],
    ['9400 Sopron, Várkerület 1', at('Sopron', 'Várkerület', null, '1', { postalCode: '9400' })],
    ['Nincsilyen falu, Sehol utca 1', at('Nincsilyen falu', 'Sehol', 'utca', '1')],
  ])('%s', (text, expected) => {
    expect(parse(text)).toMatchObject(expected);
  });

  it('never throws, whatever it is given', () => {
    for (const text of ['', ',,,', '12345', '🏠 utca 1', '!!!', 'a'.repeat(5000), '1. 2. 3. 4.', 'utca', 'Bp.']) {
      expect(() => parse(text)).not.toThrow();
      expect(() => parseAddress(text)).not.toThrow();
    }
  });
});

describe('houseNumberKey', () => {
  it.each([
    ['15.', '15'],
    ['20/A', '20/a'],
    ['20 A', '20/a'],
    ['20a', '20/a'],
    ['3-5.', '3-5'],
    ['12/b.', '12/b'],
  ])('%s → %s', (written, key) => expect(houseNumberKey(written)).toBe(key));
});

describe('canonicalAddressKey', () => {
  const key = (text: string) => canonicalAddressKey(parse(text));

  it.each([
    ['Budapest VII., Dohány u. 20', '1074 Budapest, Dohány utca 20.'],
    ['Dohány utca 20., Budapest, 1074', '1074 Budapest Dohány utca 20'],
    ['1114 budapest bartok bela ut 15', '1114 Budapest, Bartók Béla út 15.'],
    ['Szeged, Kárász u. 5.', '6720 SZEGED, KÁRÁSZ UTCA 5'],
  ])('"%s" and "%s" are one door', (a, b) => expect(key(a)).toBe(key(b)));

  it.each([
    ['1074 Budapest, Dohány utca 20.', '1074 Budapest, Dohány utca 22.'],
    ['1074 Budapest, Dohány utca 20. 3. em. 12.', '1074 Budapest, Dohány utca 20. 3. em. 13.'],
    ['1074 Budapest, Dohány utca 20.', '1114 Budapest, Dohány utca 20.'],
    ['Kapolcs, Petőfi utca 1', 'Kapolcs, Petőfi tér 1'],
  ])('"%s" and "%s" are not', (a, b) => expect(key(a)).not.toBe(key(b)));

  it('is empty without a settlement', () => expect(key('Dohány utca 20')).toBe(''));
});
