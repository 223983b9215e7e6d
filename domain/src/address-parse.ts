import { foldAccents } from './address.ts';

/** A Hungarian address read into its parts (issue 25); any part may be missing. */
export interface ParsedAddress {
  postalCode: string | null;
  /** As written ('Budapest', 'Hollókő'); the lookup's spelling when it knows the settlement. */
  settlement: string | null;
  settlementKey: string | null;
  /** Budapest's district, 1–23: from a 1XYZ postal code or 'XI. kerület' / 'Bp. XI.' / '11. kerület'. */
  district: number | null;
  /** The street's name without its type ('Bartók Béla', 'Október 6.'), or a place's name ('Keleti'). */
  street: string | null;
  streetKey: string | null;
  /** The type written out and folded: 'ut', 'utca', 'ter', 'korut', 'palyaudvar'… */
  streetType: string | null;
  /** '15', '20/a', '3-5'. */
  houseNumber: string | null;
  /** Floor and door after the house number, folded: '3 em 12', 'fsz 2'. */
  unit: string | null;
}

/** Looks a folded settlement name up: its proper name, or undefined when there is no such settlement. */
export type SettlementLookup = (foldedName: string) => string | undefined;

/** A street type as written (folded, without its dot) → written out. */
export const STREET_TYPES: ReadonlyMap<string, string> = new Map([
  ...(
    [
      'utca',
      'ut',
      'utja',
      'ter',
      'tere',
      'korut',
      'koz',
      'sor',
      'setany',
      'lakotelep',
      'rakpart',
      'fasor',
      'park',
      'liget',
      'lejto',
      'udvar',
      'dulo',
      'sugarut',
      'tanya',
      'telep',
      'lepcso',
      'kert',
      'hegy',
      'palyaudvar',
      'vasutallomas',
      'allomas',
      'megallo',
      'megallohely',
    ] as const
  ).map((type) => [type, type] as const),
  ['u', 'utca'],
  ['krt', 'korut'],
  ['ltp', 'lakotelep'],
  ['pu', 'palyaudvar'],
  ['rkp', 'rakpart'],
  ['stny', 'setany'],
  ['sgt', 'sugarut'],
]);

const ROMAN = [
  'i',
  'ii',
  'iii',
  'iv',
  'v',
  'vi',
  'vii',
  'viii',
  'ix',
  'x',
  'xi',
  'xii',
  'xiii',
  'xiv',
  'xv',
  'xvi',
  'xvii',
  'xviii',
  'xix',
  'xx',
  'xxi',
  'xxii',
  'xxiii',
];
const COUNTRY = new Set(['magyarorszag', 'hungary', 'hu']);
const DISTRICT_WORDS = new Set(['ker', 'kerulet']);
const BUDAPEST = 'Budapest';

/** A word folded for comparison: no accents, lower case, no punctuation around it. */
const fold = (word: string) => foldAccents(word).replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '');

/** '15.' → '15', '20/A' and '20 A' and '20a' → '20/a', '3-5.' → '3-5'. */
export function houseNumberKey(written: string): string {
  const compact = foldAccents(written).replace(/\s+/g, '').replace(/\.+$/, '');
  const match = /^(\d+(?:-\d+)?)\/?([a-z])?\.?$/.exec(compact);
  if (!match) return compact;
  return match[2] ? `${match[1]}/${match[2]}` : (match[1] ?? compact);
}

const isHouseNumber = (word: string) => /^\d+(?:-\d+)?(?:\/?[a-zA-Z0-9]{1,2})?\.?,?$/.test(word);

interface Word {
  text: string;
  key: string;
  /** A comma came before this word. */
  afterComma: boolean;
  used: boolean;
}

function words(text: string): Word[] {
  const out: Word[] = [];
  let afterComma = false;
  for (const token of text.replace(/,/g, ' , ').split(/\s+/)) {
    if (!token) continue;
    if (token === ',') {
      afterComma = true;
      continue;
    }
    out.push({ text: token, key: fold(token), afterComma, used: false });
    afterComma = false;
  }
  return out;
}

/** The district a roman or arabic numeral names ('XI.' → 11, '11.' → 11), or null. */
function districtNumber(key: string): number | null {
  const roman = ROMAN.indexOf(key);
  if (roman !== -1) return roman + 1;
  const arabic = Number(key);
  return Number.isInteger(arabic) && arabic >= 1 && arabic <= 23 ? arabic : null;
}

const isStreetType = (key: string | undefined) => key !== undefined && STREET_TYPES.has(key);

/**
 * Reads a Hungarian address as people write it: postal code first or last, with or without commas,
 * 'u.', 'krt.', 'ltp.', 'pu.' and the other abbreviations, Budapest's district as a numeral, accents
 * optional. The lookup tells which words are a settlement; without one, the part after the postal
 * code (or the first part) is taken for it. Never throws: what it cannot read stays null.
 */
export function parseAddress(text: string, lookup?: SettlementLookup): ParsedAddress {
  const all = words(text.slice(0, 500));
  const parsed: ParsedAddress = {
    postalCode: null,
    settlement: null,
    settlementKey: null,
    district: null,
    street: null,
    streetKey: null,
    streetType: null,
    houseNumber: null,
    unit: null,
  };
  // A country at the end says nothing.
  while (all.length > 0 && COUNTRY.has(all.at(-1)?.key ?? '')) all.pop();

  // The postal code: four digits at the start of the address or of a part, or last.
  let postalAt = -1;
  all.forEach((word, index) => {
    if (postalAt !== -1 || !/^\d{4}$/.test(word.key)) return;
    // After a street type it is a house number ("Piac utca 1234"), wherever it stands.
    if (!isStreetType(all[index - 1]?.key)) postalAt = index;
  });
  const postal = all[postalAt];
  if (postal) {
    postal.used = true;
    parsed.postalCode = postal.key;
  }

  // Budapest's own ways: 'Bp.', 'Budapest XI.', 'XI. ker.', '11. kerület'.
  all.forEach((word, index) => {
    const next = all[index + 1];
    if (word.used) return;
    if (word.key === 'bp' || word.key === 'budapest') {
      word.used = true;
      parsed.settlement ??= BUDAPEST;
      parsed.settlementKey ??= 'budapest';
      const district = next && /\.$/.test(next.text) && ROMAN.includes(next.key) ? districtNumber(next.key) : null;
      if (next && district) {
        next.used = true;
        parsed.district = district;
        const after = all[index + 2];
        if (after && DISTRICT_WORDS.has(after.key)) after.used = true;
      }
      return;
    }
    if (next && DISTRICT_WORDS.has(next.key) && /\.$/.test(word.text)) {
      const district = districtNumber(word.key);
      if (district) {
        word.used = true;
        next.used = true;
        parsed.district = district;
      }
    }
  });

  if (!parsed.settlementKey) findSettlement(all, postalAt, parsed, lookup);
  // Only Budapest has numbered districts.
  if (!parsed.settlementKey && parsed.district !== null) {
    parsed.settlement = BUDAPEST;
    parsed.settlementKey = 'budapest';
  }
  if (parsed.district === null && parsed.postalCode && (parsed.settlementKey ?? 'budapest') === 'budapest') {
    const district = /^1(\d\d)\d$/.exec(parsed.postalCode);
    const number = Number(district?.[1]);
    if (district && number >= 1 && number <= 23) parsed.district = number;
  }
  findStreet(
    all.filter((word) => !word.used),
    parsed,
  );
  return parsed;
}

function findSettlement(all: Word[], postalAt: number, parsed: ParsedAddress, lookup?: SettlementLookup) {
  const take = (from: number, length: number, name: string) => {
    for (let i = from; i < from + length; i++) (all[i] as Word).used = true;
    parsed.settlement = name;
    parsed.settlementKey = fold(name).replace(/\s+/g, ' ');
  };
  const runAt = (start: number, length: number) => {
    const run = all.slice(start, start + length);
    if (run.length < length || run.some((word, i) => word.used || (i > 0 && word.afterComma))) return undefined;
    return run.map((word) => word.key).join(' ');
  };
  if (lookup) {
    // Right after the postal code first ("1114 Budapest"), then anywhere not followed by a street type.
    const afterPostal = postalAt === -1 ? -1 : postalAt + 1;
    const starts = [afterPostal, ...all.keys()].filter((start) => start >= 0 && start < all.length);
    for (const start of starts) {
      for (let length = 4; length >= 1; length--) {
        const key = runAt(start, length);
        const name = key === undefined ? undefined : lookup(key);
        if (!name) continue;
        if (start !== afterPostal && isStreetType(all[start + length]?.key)) continue;
        take(start, length, name);
        return;
      }
    }
  }
  // Without a known name: the part after the postal code, or a first part without digits.
  const partFrom = (start: number) => {
    let end = start;
    while (end < all.length && !all[end]?.used && (end === start || !all[end]?.afterComma)) end++;
    return end;
  };
  const start = postalAt !== -1 && postalAt + 1 < all.length && !all[postalAt + 1]?.afterComma ? postalAt + 1 : 0;
  const end = partFrom(start);
  const part = all.slice(start, end);
  const hasComma = all.some((word) => word.afterComma);
  if (part.length === 0 || part.some((word) => /\d/.test(word.key) || isStreetType(word.key))) return;
  if (start === 0 && !hasComma && postalAt === -1) return;
  // Without commas after the postal code, only the first word is taken for the settlement.
  const length = hasComma ? part.length : 1;
  take(
    start,
    length,
    part
      .slice(0, length)
      .map((word) => word.text.replace(/[.,]+$/, ''))
      .join(' '),
  );
}

function findStreet(rest: Word[], parsed: ParsedAddress) {
  if (rest.length === 0) return;
  let typeAt = -1;
  rest.forEach((word, index) => {
    if (isStreetType(word.key) && index > 0) typeAt = index;
  });
  let numberFrom: number;
  if (typeAt !== -1) {
    // The name runs back from the type to the start of its part.
    let nameFrom = typeAt - 1;
    while (nameFrom > 0 && !rest[nameFrom]?.afterComma) nameFrom--;
    const name = rest.slice(nameFrom, typeAt);
    parsed.street = name.map((word) => word.text.replace(/,$/, '')).join(' ');
    parsed.streetType = STREET_TYPES.get(rest[typeAt]?.key ?? '') ?? null;
    numberFrom = typeAt + 1;
  } else {
    const numberAt = rest.findIndex((word, index) => index > 0 && isHouseNumber(word.text));
    const nameEnd = numberAt === -1 ? rest.length : numberAt;
    parsed.street = rest
      .slice(0, nameEnd)
      .map((word) => word.text.replace(/[,]$/, ''))
      .join(' ');
    numberFrom = nameEnd;
  }
  parsed.streetKey = parsed.street
    ? fold(parsed.street.replace(/\s+/g, ' '))
        .replace(/[^\p{L}\p{N}]+/gu, ' ')
        .trim() || null
    : null;
  if (!parsed.streetKey) parsed.street = null;
  const number = rest[numberFrom];
  if (!number || !isHouseNumber(number.text)) return;
  let written = number.text.replace(/,$/, '');
  let unitFrom = numberFrom + 1;
  const letter = rest[unitFrom];
  if (letter && /^[a-zA-Z]\.?,?$/.test(letter.text) && /^\d+\.?$/.test(written)) {
    written = `${written.replace(/\.$/, '')}/${letter.key}`;
    unitFrom++;
  }
  parsed.houseNumber = houseNumberKey(written);
  const unit = rest
    .slice(unitFrom)
    .map((word) => word.key)
    .filter(Boolean)
    .join(' ');
  parsed.unit = unit || null;
}

/**
 * The key two addresses are compared by (receiver matching): settlement, Budapest district, street
 * name and written-out type, house number and unit — 'Dohány u. 20' and 'Dohány utca 20.' alike,
 * whatever the case, accents, punctuation or the postal code's place. '' when no settlement is known.
 */
export function canonicalAddressKey(parsed: ParsedAddress): string {
  if (!parsed.settlementKey) return '';
  return [
    parsed.settlementKey,
    parsed.district === null ? '' : String(parsed.district),
    parsed.streetKey ?? '',
    parsed.streetType ?? '',
    parsed.houseNumber ?? '',
    parsed.unit ?? '',
  ]
    .join('|')
    .replace(/\|+$/, '');
}
