import { describe, expect, it } from 'vitest';
import { addressKey } from './address.ts';
import {
  canonicalAddressKey,
  houseNumberKey,
  type ParsedAddress,
  parseAddress,
  STREET_TYPES,
} from './address-parse.ts';

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
  'Szakonyfalu',
  'Nagyvázsony',
  'Csesznek',
  'Érd',
  'Hódmezővásárhely',
  'Balatonfüred',
  // A village in Baranya, and the first word of 'Erzsébet királyné útja' in Budapest.
  'Erzsébet',
];
const known = new Map(SETTLEMENTS.map((name) => [addressKey(name), name]));
const lookup = (folded: string) => known.get(folded);
const parse = (text: string) => parseAddress(text, lookup);

type Expected = Partial<ParsedAddress>;
/** A row's expectation; every field it does not name is null, and the keys follow from the names. */
const at = (
  settlement: string | null,
  street: string | null,
  streetType: string | null,
  houseNumber: string | null,
  more: Expected = {},
): ParsedAddress => ({
  postalCode: null,
  settlement,
  settlementKey: settlement === null ? null : addressKey(settlement),
  district: null,
  street,
  streetKey: street === null ? null : addressKey(street),
  streetType,
  houseNumber,
  unit: null,
  ...more,
});

describe('parseAddress', () => {
  it.each<[string, ParsedAddress]>([
    // Budapest: postal code first, last, without commas; districts written every way.
    [
      '1114 Budapest, Bartók Béla út 15.',
      at('Budapest', 'Bartók Béla', 'ut', '15', { postalCode: '1114', district: 11 }),
    ],
    [
      'Bartók Béla út 15., Budapest, 1114',
      at('Budapest', 'Bartók Béla', 'ut', '15', { postalCode: '1114', district: 11 }),
    ],
    [
      '1114 Budapest Bartók Béla út 15',
      at('Budapest', 'Bartók Béla', 'ut', '15', { postalCode: '1114', district: 11 }),
    ],
    [
      '1114 budapest bartok bela ut 15',
      at('Budapest', 'bartok bela', 'ut', '15', { postalCode: '1114', district: 11 }),
    ],
    [
      'H-1114 Budapest, Bartók Béla út 15',
      at('Budapest', 'Bartók Béla', 'ut', '15', { postalCode: '1114', district: 11 }),
    ],
    [
      'Budapest 1114 Bartók Béla út 15',
      at('Budapest', 'Bartók Béla', 'ut', '15', { postalCode: '1114', district: 11 }),
    ],
    ['Budapest XI. kerület, Bartók Béla út 15', at('Budapest', 'Bartók Béla', 'ut', '15', { district: 11 })],
    ['Bp. XI., Bartók B. út 15', at('Budapest', 'Bartók B.', 'ut', '15', { district: 11 })],
    ['Bp. XI., Bartók Béla út 15', at('Budapest', 'Bartók Béla', 'ut', '15', { district: 11 })],
    ['Budapest, XI. ker., Bartók Béla út 15.', at('Budapest', 'Bartók Béla', 'ut', '15', { district: 11 })],
    ['Budapest XI Bartók Béla út 15', at('Budapest', 'Bartók Béla', 'ut', '15', { district: 11 })],
    ['XI.ker. Bartók Béla út 15', at('Budapest', 'Bartók Béla', 'ut', '15', { district: 11 })],
    ['bp 11. ker bartok bela ut 15', at('Budapest', 'bartok bela', 'ut', '15', { district: 11 })],
    ['11. kerület, Fehérvári út 3', at('Budapest', 'Fehérvári', 'ut', '3', { district: 11 })],
    ['Budapest, XIII. ker., Váci út 40', at('Budapest', 'Váci', 'ut', '40', { district: 13 })],
    ['Budapest, I. kerület, Fő utca 1', at('Budapest', 'Fő', 'utca', '1', { district: 1 })],
    [
      '1074 Budapest VII. ker. Dohány utca 20',
      at('Budapest', 'Dohány', 'utca', '20', { postalCode: '1074', district: 7 }),
    ],
    ['1074 Budapest, Dohány u. 20.', at('Budapest', 'Dohány', 'utca', '20', { postalCode: '1074', district: 7 })],
    ['Budapest VII., Dohány u. 20', at('Budapest', 'Dohány', 'utca', '20', { district: 7 })],
    ['Budapest, VII. Dohány u. 20', at('Budapest', 'Dohány', 'utca', '20', { district: 7 })],
    ['Dohany u 20, Budapest VII.', at('Budapest', 'Dohany', 'utca', '20', { district: 7 })],
    ['Bajcsy-Zs. út 5, Budapest V.', at('Budapest', 'Bajcsy-Zs.', 'ut', '5', { district: 5 })],
    ['budapest dohany utca 20', at('Budapest', 'dohany', 'utca', '20')],
    ['BUDAPEST, DOHÁNY UTCA 20.', at('Budapest', 'DOHÁNY', 'utca', '20')],
    ['Dohány 20, Budapest', at('Budapest', 'Dohány', null, '20')],
    ['Dohany u 20/A', at(null, 'Dohany', 'utca', '20/a')],
    // Only Budapest's postal codes begin with 1.
    ['1074 Dohány utca 20', at('Budapest', 'Dohány', 'utca', '20', { postalCode: '1074', district: 7 })],
    // A roman numeral the postal code contradicts is part of the street's name.
    [
      'Budapest, II. Rákóczi Ferenc út 100, 1211',
      at('Budapest', 'II. Rákóczi Ferenc', 'ut', '100', { postalCode: '1211', district: 21 }),
    ],
    [
      '1051 Erzsébet királyné útja 5',
      at('Budapest', 'Erzsébet királyné', 'utja', '5', { postalCode: '1051', district: 5 }),
    ],
    // House numbers, floors and doors.
    ['1074 Budapest, Dohány utca 20 A', at('Budapest', 'Dohány', 'utca', '20/a', { postalCode: '1074', district: 7 })],
    ['1074 Budapest, Dohány utca 20a', at('Budapest', 'Dohány', 'utca', '20/a', { postalCode: '1074', district: 7 })],
    [
      '1074 Budapest, Dohány utca 20/a. 3. em. 12.',
      at('Budapest', 'Dohány', 'utca', '20/a', { postalCode: '1074', district: 7, unit: '3 em 12' }),
    ],
    [
      '1074 Budapest, Dohány utca 20. 3. em. 12.',
      at('Budapest', 'Dohány', 'utca', '20', { postalCode: '1074', district: 7, unit: '3 em 12' }),
    ],
    [
      '1074 Budapest Dohány utca 20 I. em 3',
      at('Budapest', 'Dohány', 'utca', '20', { postalCode: '1074', district: 7, unit: '1 em 3' }),
    ],
    ['1061 Budapest, Andrássy út 3-5.', at('Budapest', 'Andrássy', 'ut', '3-5', { postalCode: '1061', district: 6 })],
    [
      '1095 Budapest, Soroksári út 30–34',
      at('Budapest', 'Soroksári', 'ut', '30-34', { postalCode: '1095', district: 9 }),
    ],
    [
      '1052 Budapest, Váci utca 12/b. fsz. 2.',
      at('Budapest', 'Váci', 'utca', '12/b', { postalCode: '1052', district: 5, unit: 'fsz 2' }),
    ],
    [
      '1157 Budapest, Zsókavár u. 5. fsz. 2.',
      at('Budapest', 'Zsókavár', 'utca', '5', { postalCode: '1157', district: 15, unit: 'fsz 2' }),
    ],
    ['Debrecen, Piac utca 20. II. emelet 5. ajtó', at('Debrecen', 'Piac', 'utca', '20', { unit: '2 em 5' })],
    ['Debrecen, Piac utca 20, fszt. 3', at('Debrecen', 'Piac', 'utca', '20', { unit: 'fsz 3' })],
    ['Pécs, Széchenyi tér 1, 2. em. 3.', at('Pécs', 'Széchenyi', 'ter', '1', { unit: '2 em 3' })],
    ['Győr, Baross Gábor út 1. 3/12', at('Győr', 'Baross Gábor', 'ut', '1', { unit: '3 12' })],
    ['Debrecen, Kassai út 26/B', at('Debrecen', 'Kassai', 'ut', '26/b')],
    ['Szeged, Mars tér 1/A', at('Szeged', 'Mars', 'ter', '1/a')],
    ['Hódmezővásárhely, Andrássy út 5 A', at('Hódmezővásárhely', 'Andrássy', 'ut', '5/a')],
    ['Érd, Budai út 14/b', at('Érd', 'Budai', 'ut', '14/b')],
    // Four digits after a street type are a house number.
    ['Debrecen, Piac utca 1234', at('Debrecen', 'Piac', 'utca', '1234')],
    ['4025 Debrecen, Piac utca 12345/7', at('Debrecen', 'Piac', 'utca', '12345/7', { postalCode: '4025' })],
    // Abbreviated and written-out types.
    [
      '1137 Budapest, Szent István krt. 14.',
      at('Budapest', 'Szent István', 'korut', '14', { postalCode: '1137', district: 13 }),
    ],
    ['Szeged, Tisza Lajos krt. 2-4.', at('Szeged', 'Tisza Lajos', 'korut', '2-4')],
    ['1011 Budapest, Bem rkp. 6', at('Budapest', 'Bem', 'rakpart', '6', { postalCode: '1011', district: 1 })],
    [
      '1181 Budapest, Havanna ltp. 5',
      at('Budapest', 'Havanna', 'lakotelep', '5', { postalCode: '1181', district: 18 }),
    ],
    ['Pécs, Uranváros ltp. 3', at('Pécs', 'Uranváros', 'lakotelep', '3')],
    ['Szeged, Kossuth Lajos sgt. 10', at('Szeged', 'Kossuth Lajos', 'sugarut', '10')],
    ['Balatonfüred, Tagore stny. 1', at('Balatonfüred', 'Tagore', 'setany', '1')],
    ['8230 Balatonfüred, Tagore sétány 1', at('Balatonfüred', 'Tagore', 'setany', '1', { postalCode: '8230' })],
    ['Szeged, Kossuth L. u. 5.', at('Szeged', 'Kossuth L.', 'utca', '5')],
    ['Budapest, Városligeti fasor 4', at('Budapest', 'Városligeti', 'fasor', '4')],
    ['Szeged, Fő fasor 3, Hungary', at('Szeged', 'Fő', 'fasor', '3')],
    ['Budapest, Erzsébet krt. 9-11.', at('Budapest', 'Erzsébet', 'korut', '9-11')],
    ['9400 Sopron, Várkerület 1', at('Sopron', 'Várkerület', null, '1', { postalCode: '9400' })],
    // Street names with numbers in them.
    [
      '1051 Budapest, Október 6. utca 7.',
      at('Budapest', 'Október 6.', 'utca', '7', { postalCode: '1051', district: 5 }),
    ],
    ['Október 6. utca 7., Szeged', at('Szeged', 'Október 6.', 'utca', '7')],
    ['IV. Béla út 3, Szeged', at('Szeged', 'IV. Béla', 'ut', '3')],
    ['Tata, 1-es út', at('Tata', '1-es', 'ut', null)],
    // Stations and landmarks: no house number.
    ['Budapest, Keleti pályaudvar', at('Budapest', 'Keleti', 'palyaudvar', null)],
    ['Budapest-Keleti pályaudvar', at('Budapest', 'Keleti', 'palyaudvar', null)],
    ['Budapest Nyugati pu.', at('Budapest', 'Nyugati', 'palyaudvar', null)],
    ['Keleti pu, Budapest', at('Budapest', 'Keleti', 'palyaudvar', null)],
    ['Nyugati pályaudvar', at(null, 'Nyugati', 'palyaudvar', null)],
    ['Kelenföld vasútállomás', at(null, 'Kelenföld', 'vasutallomas', null)],
    ['Hősök tere', at(null, 'Hősök', 'tere', null)],
    ['Budapest, Hősök tere', at('Budapest', 'Hősök', 'tere', null)],
    ['Budapest, Margit híd', at('Budapest', 'Margit híd', null, null)],
    // Towns and villages.
    ['3176 Hollókő, Kossuth út 82.', at('Hollókő', 'Kossuth', 'ut', '82', { postalCode: '3176' })],
    ['Kossuth út 82, 3176 Hollókő', at('Hollókő', 'Kossuth', 'ut', '82', { postalCode: '3176' })],
    ['Kapolcs, Petőfi utca 1', at('Kapolcs', 'Petőfi', 'utca', '1')],
    ['Kapolcs Petőfi utca 1', at('Kapolcs', 'Petőfi', 'utca', '1')],
    ['Petőfi utca 1, Kapolcs', at('Kapolcs', 'Petőfi', 'utca', '1')],
    [
      '8291 Nagyvázsony Kinizsi utca 5 2. em 4',
      at('Nagyvázsony', 'Kinizsi', 'utca', '5', { postalCode: '8291', unit: '2 em 4' }),
    ],
    ['Nagyvázsony Kinizsi u. 5', at('Nagyvázsony', 'Kinizsi', 'utca', '5')],
    ['Csesznek, Vár utca 1', at('Csesznek', 'Vár', 'utca', '1')],
    ['2030 Érd, Budai út 20', at('Érd', 'Budai', 'ut', '20', { postalCode: '2030' })],
    ['6800 Hódmezővásárhely, Andrássy út 1', at('Hódmezővásárhely', 'Andrássy', 'ut', '1', { postalCode: '6800' })],
    ['2000 Szentendre, Fő tér 1., Magyarország', at('Szentendre', 'Fő', 'ter', '1', { postalCode: '2000' })],
    ['Szentendre Fő tér 5', at('Szentendre', 'Fő', 'ter', '5')],
    ['Magyarország, 7621 Pécs, Király utca 10', at('Pécs', 'Király', 'utca', '10', { postalCode: '7621' })],
    ['Pécs 7621 Király u. 10', at('Pécs', 'Király', 'utca', '10', { postalCode: '7621' })],
    ['Zsolnay Vilmos utca 37, Pécs', at('Pécs', 'Zsolnay Vilmos', 'utca', '37')],
    ['6720 Szeged, Kárász utca 5', at('Szeged', 'Kárász', 'utca', '5', { postalCode: '6720' })],
    ['6720 Szeged Kárász u. 5.', at('Szeged', 'Kárász', 'utca', '5', { postalCode: '6720' })],
    ['Kárász utca 5 Szeged 6720', at('Szeged', 'Kárász', 'utca', '5', { postalCode: '6720' })],
    ['6720 Szeged, Dóm tér 1., Magyarország', at('Szeged', 'Dóm', 'ter', '1', { postalCode: '6720' })],
    ['Dóm tér 1, Szeged, Hungary', at('Szeged', 'Dóm', 'ter', '1')],
    // A settlement's name may also be a street's: 'Tata utca' is in Győr.
    ['Tata utca 5, Győr', at('Győr', 'Tata', 'utca', '5')],
    ['Győr Tata utca 5 fsz. 1', at('Győr', 'Tata', 'utca', '5', { unit: 'fsz 1' })],
    ['Tata utca 5, 9021 Győr', at('Győr', 'Tata', 'utca', '5', { postalCode: '9021' })],
    ['Budapest utca 5, Érd', at('Érd', 'Budapest', 'utca', '5')],
    // Settlement only.
    ['Őriszentpéter', at('Őriszentpéter', null, null, null)],
    ['oriszentpeter', at('Őriszentpéter', null, null, null)],
    ['9983 Szakonyfalu', at('Szakonyfalu', null, null, null, { postalCode: '9983' })],
    ['Szeged', at('Szeged', null, null, null)],
    ['6720 Szeged', at('Szeged', null, null, null, { postalCode: '6720' })],
    // Unknown to the lookup: the name beside the postal code, or a part that is only a name.
    ['Nincsilyen falu, Sehol utca 1', at('Nincsilyen falu', 'Sehol', 'utca', '1')],
    ['Szegedd, Kárász utca 5', at('Szegedd', 'Kárász', 'utca', '5')],
    ['6720 Kárász utca 5', at(null, 'Kárász', 'utca', '5', { postalCode: '6720' })],
  ])('%s', (text, expected) => {
    expect(parse(text)).toEqual(expected);
  });

  it.each<[string, ParsedAddress]>([
    [
      '1114 Budapest, Bartók Béla út 15.',
      at('Budapest', 'Bartók Béla', 'ut', '15', { postalCode: '1114', district: 11 }),
    ],
    ['3176 Hollókő, Kossuth út 82.', at('Hollókő', 'Kossuth', 'ut', '82', { postalCode: '3176' })],
    ['3176 Hollókő Kossuth út 82', at('Hollókő', 'Kossuth', 'ut', '82', { postalCode: '3176' })],
    ['Kapolcs, Petőfi utca 1', at('Kapolcs', 'Petőfi', 'utca', '1')],
    ['Petőfi utca 1, Kapolcs', at('Kapolcs', 'Petőfi', 'utca', '1')],
    ['Kárász utca 5 Szeged 6720', at('Szeged', 'Kárász', 'utca', '5', { postalCode: '6720' })],
    ['Őriszentpéter', at('Őriszentpéter', null, null, null)],
  ])('reads %s without a lookup', (text, expected) => {
    expect(parseAddress(text)).toEqual(expected);
  });

  it('keeps the lookup’s spelling of a settlement and folds the keys', () => {
    expect(parse('1114 BUDAPEST, Bartók Béla út 15.')).toMatchObject({
      settlement: 'Budapest',
      settlementKey: 'budapest',
      streetKey: 'bartok bela',
    });
    expect(parse('holloko, Kossuth ut 82')).toMatchObject({ settlement: 'Hollókő', settlementKey: 'holloko' });
  });

  it('never throws, whatever it is given', () => {
    const odd = [
      '',
      ' ',
      ',,,',
      ';;\n,',
      '12345',
      '!!!',
      '🏠 utca 1',
      '🙂🙂🙂',
      '1. 2. 3. 4.',
      'utca',
      'Bp.',
      'XI. ker.',
      '-',
      '/',
      '1114',
      'a'.repeat(5000),
      'Budapest, '.repeat(1000),
      '1 '.repeat(3000),
      '\u0000\uD800 ütca 1',
    ];
    for (const text of odd) {
      expect(() => parse(text)).not.toThrow();
      expect(() => parseAddress(text)).not.toThrow();
      expect(() => canonicalAddressKey(parse(text))).not.toThrow();
    }
    expect(parseAddress(undefined as unknown as string)).toEqual(at(null, null, null, null));
  });

  it('reads nothing from text with no address in it', () => {
    for (const text of ['', ',,,', '12345', '!!!', '🙂🙂🙂', '1. 2. 3. 4.']) {
      expect(parse(text), text).toEqual(at(null, null, null, null));
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
    ['3–5', '3-5'],
  ])('%s → %s', (written, key) => expect(houseNumberKey(written)).toBe(key));
});

describe('STREET_TYPES', () => {
  it('writes out the abbreviations and folds the written-out words', () => {
    for (const [written, type] of [
      ['u', 'utca'],
      ['krt', 'korut'],
      ['ltp', 'lakotelep'],
      ['pu', 'palyaudvar'],
      ['rkp', 'rakpart'],
      ['stny', 'setany'],
      ['sgt', 'sugarut'],
      ['ter', 'ter'],
      ['ut', 'ut'],
      ['utja', 'utja'],
    ]) {
      expect(STREET_TYPES.get(written as string), written).toBe(type);
    }
  });

  it('maps every type to a written-out type of its own', () => {
    for (const type of STREET_TYPES.values()) expect(STREET_TYPES.get(type)).toBe(type);
  });
});

describe('canonicalAddressKey', () => {
  const key = (text: string) => canonicalAddressKey(parse(text));

  it.each([
    ['Budapest VII., Dohány u. 20', '1074 Budapest, Dohány utca 20.'],
    ['Dohány utca 20., Budapest, 1074', '1074 Budapest Dohány utca 20'],
    ['1114 budapest bartok bela ut 15', '1114 Budapest, Bartók Béla út 15.'],
    ['Szeged, Kárász u. 5.', '6720 SZEGED, KÁRÁSZ UTCA 5'],
    ['1074 Budapest, Dohány utca 20/A', 'Budapest VII. ker., Dohány u. 20 a'],
    ['1074 Budapest, Dohány utca 20. 3. em. 12.', 'Budapest, VII., Dohány u. 20., 3. emelet 12.'],
    ['Budapest, Keleti pu.', 'Keleti pályaudvar, Budapest'],
    ['3176 Hollókő, Kossuth út 82.', 'Kossuth ut 82, holloko'],
  ])('"%s" and "%s" are one door', (a, b) => expect(key(a)).toBe(key(b)));

  it.each([
    ['1074 Budapest, Dohány utca 20.', '1074 Budapest, Dohány utca 22.'],
    ['1074 Budapest, Dohány utca 20. 3. em. 12.', '1074 Budapest, Dohány utca 20. 3. em. 13.'],
    ['1074 Budapest, Dohány utca 20.', '1114 Budapest, Dohány utca 20.'],
    ['Budapest VII., Dohány u. 20', 'Budapest VIII., Dohány u. 20'],
    ['Kapolcs, Petőfi utca 1', 'Kapolcs, Petőfi tér 1'],
    ['Kapolcs, Petőfi utca 1', 'Tata, Petőfi utca 1'],
    ['Szeged, Mars tér 1/A', 'Szeged, Mars tér 1/B'],
  ])('"%s" and "%s" are not', (a, b) => expect(key(a)).not.toBe(key(b)));

  it('spells out what it compares', () => {
    expect(key('Budapest VII., Dohány u. 20/a, 3. em. 12.')).toBe('budapest|7|dohany|utca|20/a|3 em 12');
    expect(key('Kapolcs')).toBe('kapolcs');
  });

  it('falls back to what is left when nothing reads as a street', () => {
    expect(key('Budapest, Margit híd')).toBe('budapest||margit hid');
  });

  it('is empty without a settlement', () => {
    expect(key('Dohány utca 20')).toBe('');
    expect(key('')).toBe('');
  });
});
