import { addressKey, foldAccents } from './address.ts';

/** A Hungarian address read into its parts (issue 25); any part may be missing. */
export interface ParsedAddress {
  postalCode: string | null;
  /** Trimmed; the lookup's spelling when it knows the settlement ('Bp.' and 'szeged' → 'Budapest', 'Szeged'). */
  settlement: string | null;
  /** addressKey of the settlement: 'budapest', 'holloko'. */
  settlementKey: string | null;
  /** Budapest's district, 1–23: from 'XI. kerület', 'Bp. XI.', '11. ker.' or a 1XYZ postal code. */
  district: number | null;
  /** The street's name as written without its type ('Bartók Béla', 'Október 6.'), or a station's ('Keleti'). */
  street: string | null;
  /** addressKey of the street's name: 'bartok bela'. */
  streetKey: string | null;
  /** The type written out and folded: 'utca' for 'u.', 'korut' for 'krt.', 'palyaudvar' for 'pu.'. */
  streetType: string | null;
  /** '15', '20/a', '3-5'. */
  houseNumber: string | null;
  /** Floor and door after the house number, folded: '3 em 12', 'fsz 2'. */
  unit: string | null;
}

/** Looks a folded settlement name up: its proper name, or undefined when there is no such settlement. */
export type SettlementLookup = (foldedName: string) => string | undefined;

const WRITTEN_OUT_TYPES = [
  'utca',
  'ut',
  'utja',
  'ter',
  'tere',
  'korut',
  'korter',
  'korond',
  'koz',
  'sor',
  'setany',
  'sikator',
  'atjaro',
  'lakotelep',
  'lakopark',
  'rakpart',
  'fasor',
  'park',
  'liget',
  'lejto',
  'lejaro',
  'lepcso',
  'udvar',
  'dulo',
  'dulout',
  'hatarut',
  'sugarut',
  'telep',
  'tanya',
  'kert',
  'kertsor',
  'sziget',
  'palyaudvar',
  'buszpalyaudvar',
  'vasutallomas',
  'autobuszallomas',
  'allomas',
  'megallo',
  'megallohely',
] as const;

/** A street type as written (folded, without its dot) → written out. */
export const STREET_TYPES: ReadonlyMap<string, string> = new Map<string, string>([
  ...WRITTEN_OUT_TYPES.map((type) => [type, type] as const),
  ['u', 'utca'],
  ['krt', 'korut'],
  ['ltp', 'lakotelep'],
  ['pu', 'palyaudvar'],
  ['rkp', 'rakpart'],
  ['stny', 'setany'],
  ['sgt', 'sugarut'],
]);

/** Budapest's districts' numerals, folded: 'i' is the I. kerület. */
export const ROMAN_NUMERALS = [
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
const BUDAPEST = 'Budapest';
const BUDAPEST_KEY = 'budapest';
const BUDAPEST_WORDS = new Set(['budapest', 'bp']);
const DISTRICT_WORDS = new Set(['ker', 'kerulet']);
const COUNTRY_WORDS = new Set(['magyarorszag', 'hungary']);
/** Words of a floor and door, each to the form the key keeps ('' drops it: '5. ajtó' is door 5). */
const UNIT_WORDS = new Map([
  ['emelet', 'em'],
  ['foldszint', 'fsz'],
  ['fszt', 'fsz'],
  ['lepcsohaz', 'lph'],
  ['ajto', ''],
]);
const isFloorWord = (key: string) => key === 'em' || UNIT_WORDS.has(key);
/** Long enough for any real address; keeps a pasted page from costing much. */
const MAX_LENGTH = 300;

/** '15', '20/a', '20a', '3-5', '20/2'; what follows another slash or a dot is the unit ('20/a/3'). */
const HOUSE_NUMBER = /^(\d+(?:-\d+)?)(?:\/?([a-z])|\/(\d+))?(?:[/.](.*))?$/;

interface Word {
  /** As written, commas gone, dots kept ('Bartók', 'B.', 'XI.'). */
  text: string;
  /** Folded, without the punctuation around it ('bartok', 'b', 'xi', '20/a'). */
  key: string;
  /** Which comma-separated part of the address it is in. */
  part: number;
  used: boolean;
}

const foldWord = (word: string) => foldAccents(word).replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '');
const trimPunctuation = (text: string) => text.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '');
const isStreetType = (word: Word | undefined) => word !== undefined && STREET_TYPES.has(word.key);
const isRoman = (key: string) => ROMAN_NUMERALS.includes(key);

/** 'XI' → 11, '11' → 11; null for anything that is not a district's number. */
function districtNumber(key: string): number | null {
  if (isRoman(key)) return ROMAN_NUMERALS.indexOf(key) + 1;
  const arabic = /^\d{1,2}$/.test(key) ? Number(key) : 0;
  return arabic >= 1 && arabic <= 23 ? arabic : null;
}

/** Budapest's postal codes are 1XYZ with XY its district (1114 → XI.); 1XYZ above 23 are its post boxes. */
function postalDistrict(postalCode: string | null): number | null {
  const match = postalCode ? /^1(\d\d)\d$/.exec(postalCode) : null;
  const district = Number(match?.[1]);
  return district >= 1 && district <= 23 ? district : null;
}

function readHouseNumber(key: string): { number: string; rest: string } | null {
  const match = HOUSE_NUMBER.exec(key);
  if (!match) return null;
  const [, number = '', letter, subNumber, rest = ''] = match;
  const suffix = letter ?? subNumber;
  return { number: suffix ? `${number}/${suffix}` : number, rest };
}

/** An OpenStreetMap or typed house number as the parser keeps it: '15.' → '15', '20 A' and '20a' → '20/a'. */
export function houseNumberKey(written: string): string {
  const compact = foldAccents(written)
    .replace(/\s+/g, '')
    .replace(/[–—]/g, '-')
    .replace(/[.,]+$/, '');
  const read = readHouseNumber(compact);
  return read && !read.rest ? read.number : compact;
}

function wordsOf(text: string): Word[] {
  const words: Word[] = [];
  // 'XI.ker.' and 'u.20' are written without spaces; '3–5' with an en dash.
  const spaced = text
    .slice(0, MAX_LENGTH)
    .replace(/[–—]/g, '-')
    .replace(/\.(?=[\p{L}\p{N}])/gu, '. ');
  spaced.split(/[,;\n]/).forEach((partText, part) => {
    for (const token of partText.split(/\s+/)) {
      // 'Budapest-Keleti' is a station in Budapest.
      const [prefix = '', ...rest] = token.split('-');
      const pieces = rest.length > 0 && BUDAPEST_WORDS.has(foldWord(prefix)) ? [prefix, rest.join('-')] : [token];
      for (const piece of pieces) {
        const key = foldWord(piece);
        if (key && !COUNTRY_WORDS.has(key)) words.push({ text: piece, key, part, used: false });
      }
    }
  });
  return words;
}

/** A word that may be (part of) a settlement's name: letters only, not a type, district or floor word. */
const nameLike = (word: Word) =>
  /^\p{L}[\p{L}-]*$/u.test(word.key) &&
  !isStreetType(word) &&
  !DISTRICT_WORDS.has(word.key) &&
  !UNIT_WORDS.has(word.key) &&
  !(isRoman(word.key) && word.text.endsWith('.'));

/** Words from start on that stay in one part, none used; undefined when there are not enough. */
function runAt(words: Word[], start: number, length: number): Word[] | undefined {
  const run = words.slice(start, start + length);
  const first = run[0];
  if (!first || run.length < length || run.some((word) => word.used || word.part !== first.part)) return undefined;
  return run;
}

/** 'Tata utca 5': a name followed by a street type is the street's, not a settlement's. */
function followedByType(words: Word[], start: number, length: number) {
  const after = words[start + length];
  return after !== undefined && after.part === words[start]?.part && isStreetType(after);
}

/** Each comma-separated part's words not yet read as something. */
function unusedParts(words: Word[]): Word[][] {
  const parts = new Map<number, Word[]>();
  for (const word of words) if (!word.used) parts.set(word.part, [...(parts.get(word.part) ?? []), word]);
  return [...parts.values()];
}

class Reader {
  readonly parsed: ParsedAddress = emptyAddress();
  private postalAt = -1;

  constructor(
    private readonly words: Word[],
    private readonly lookup: SettlementLookup | undefined,
  ) {}

  read(): ParsedAddress {
    this.readPostalCode();
    this.readBudapest();
    this.readDistrictWords();
    this.readSettlement();
    if (this.parsed.settlementKey === BUDAPEST_KEY) this.parsed.district ??= postalDistrict(this.parsed.postalCode);
    this.readStreet();
    return this.parsed;
  }

  /** Four digits, first or last or anywhere — but not after a street type, where they are a house number. */
  private readPostalCode() {
    const { words } = this;
    const at = words.findIndex((word, index) => {
      const before = words[index - 1];
      return /^(?:h-?)?[1-9]\d{3}$/.test(word.key) && !(before?.part === word.part && isStreetType(before));
    });
    const word = words[at];
    if (!word) return;
    word.used = true;
    this.postalAt = at;
    this.parsed.postalCode = word.key.slice(-4);
  }

  private setSettlement(name: string, run: Word[] = []) {
    for (const word of run) word.used = true;
    this.parsed.settlement = name;
    this.parsed.settlementKey = addressKey(name);
  }

  /** 'Budapest' and 'Bp.' need no lookup, and bring the district written after them: 'Bp. XI.', 'Budapest, VII.'. */
  private readBudapest() {
    const { words, parsed } = this;
    words.forEach((word, index) => {
      if (word.used || !BUDAPEST_WORDS.has(word.key) || followedByType(words, index, 1)) return;
      this.setSettlement(BUDAPEST, [word]);
      const numeral = words[index + 1];
      if (!numeral || numeral.used || numeral.part > word.part + 1 || !isRoman(numeral.key)) return;
      const district = districtNumber(numeral.key);
      const byPostalCode = postalDistrict(parsed.postalCode);
      // 'Budapest, II. Rákóczi Ferenc út' under a XXI. district postal code names a street.
      if (district === null || (byPostalCode !== null && byPostalCode !== district)) return;
      numeral.used = true;
      parsed.district ??= district;
      const after = words[index + 2];
      if (after && after.part === numeral.part && DISTRICT_WORDS.has(after.key)) after.used = true;
    });
  }

  /** 'XI. kerület', 'XI. ker.', '11. kerület'. */
  private readDistrictWords() {
    const { words, parsed } = this;
    words.forEach((word, index) => {
      const next = words[index + 1];
      if (word.used || !next || next.part !== word.part || !DISTRICT_WORDS.has(next.key)) return;
      const district = districtNumber(word.key);
      if (district === null) return;
      word.used = true;
      next.used = true;
      parsed.district ??= district;
    });
  }

  private readSettlement() {
    const { parsed } = this;
    if (parsed.settlementKey) return;
    if (this.knownPart()) return;
    // Only Budapest has districts and 1XYZ postal codes.
    if (parsed.district !== null || parsed.postalCode?.startsWith('1')) {
      this.setSettlement(BUDAPEST);
      return;
    }
    if (this.knownRun()) return;
    this.guessSettlement();
  }

  /** With commas: the part that the lookup knows whole ('Tata utca 5, Győr'). */
  private knownPart(): boolean {
    const { words, lookup } = this;
    if (!lookup) return false;
    for (const run of unusedParts(words)) {
      const name = run.every(nameLike) ? lookup(addressKey(run.map((word) => word.key).join(' '))) : undefined;
      if (name) {
        this.setSettlement(name, run);
        return true;
      }
    }
    return false;
  }

  /** Without commas: the longest known run right after the postal code, else anywhere not before a street type. */
  private knownRun(): boolean {
    const { words, lookup, postalAt } = this;
    if (!lookup) return false;
    const known = (start: number, length: number) => {
      const run = runAt(words, start, length);
      if (!run?.every(nameLike)) return undefined;
      const name = lookup(addressKey(run.map((word) => word.key).join(' ')));
      return name ? { name, run } : undefined;
    };
    for (let length = 4; length >= 1; length--) {
      const found = postalAt === -1 ? undefined : known(postalAt + 1, length);
      if (found) {
        this.setSettlement(found.name, found.run);
        return true;
      }
    }
    for (let length = 4; length >= 1; length--) {
      for (let start = 0; start < words.length; start++) {
        const found = followedByType(words, start, length) ? undefined : known(start, length);
        if (found) {
          this.setSettlement(found.name, found.run);
          return true;
        }
      }
    }
    return false;
  }

  /** Unknown to the lookup (or none given): the name beside the postal code, else the first part that is only a name. */
  private guessSettlement() {
    const { words, postalAt } = this;
    const postal = words[postalAt];
    const take = (run: Word[]) => this.setSettlement(run.map((word) => trimPunctuation(word.text)).join(' '), run);
    const partOf = (part: number) => words.filter((word) => word.part === part && !word.used);
    const hasCommas = words.some((word) => word.part > 0);
    if (postal) {
      const part = partOf(postal.part);
      if (hasCommas && part.length > 0 && part.every(nameLike)) return take(part);
      const after = words[postalAt + 1];
      if (after?.part === postal.part && !after.used && nameLike(after) && !followedByType(words, postalAt + 1, 1)) {
        return take([after]);
      }
      const before = words[postalAt - 1];
      const last = words[postalAt + 1]?.part !== postal.part;
      if (last && before?.part === postal.part && !before.used && nameLike(before)) return take([before]);
    }
    for (const run of unusedParts(words)) {
      if (run.every(nameLike)) return take(run);
    }
  }

  /**
   * The street: the words before its type word back to the part's start or the settlement, the type, the
   * house number; without a type, the words before a house number; without either, what is left.
   */
  private readStreet() {
    const runs = this.unusedRuns();
    for (const run of runs) {
      const typeAt = typeIndex(run);
      const type = run[typeAt];
      if (!type) continue;
      this.setStreet(run.slice(0, typeAt), STREET_TYPES.get(type.key) ?? null);
      type.used = true;
      this.readHouseNumberAfter(type);
      return;
    }
    for (const run of runs) {
      const numberAt = run.findIndex((word, index) => index > 0 && readHouseNumber(word.key) !== null);
      const nameEnd = run[numberAt - 1];
      if (!nameEnd || !run.slice(0, numberAt).some((word) => /\p{L}/u.test(word.key))) continue;
      this.setStreet(run.slice(0, numberAt), null);
      this.readHouseNumberAfter(nameEnd);
      return;
    }
    const rest = runs.find((run) => run.some((word) => /\p{L}/u.test(word.key)));
    if (rest) this.setStreet(rest, null);
  }

  private unusedRuns(): Word[][] {
    const runs: Word[][] = [];
    let run: Word[] = [];
    for (const word of this.words) {
      const last = run.at(-1);
      if (word.used || (last && last.part !== word.part)) {
        if (run.length > 0) runs.push(run);
        run = [];
      }
      if (!word.used) run.push(word);
    }
    if (run.length > 0) runs.push(run);
    return runs;
  }

  private setStreet(name: Word[], type: string | null) {
    for (const word of name) word.used = true;
    const street = name.map((word) => word.text).join(' ');
    const key = addressKey(street);
    this.parsed.street = key ? street : null;
    this.parsed.streetKey = key || null;
    this.parsed.streetType = type;
  }

  /** The house number is the next word left; the floor and door are whatever follows it. */
  private readHouseNumberAfter(previous: Word) {
    const { words, parsed } = this;
    const rest = words.slice(words.indexOf(previous) + 1).filter((word) => !word.used);
    const [numberWord, ...after] = rest;
    const read = numberWord ? readHouseNumber(numberWord.key) : null;
    if (!read) return;
    let { number } = read;
    const letter = after[0];
    // '20 A' is 20/a; 'I. em.' after it is a floor.
    if (
      !read.rest &&
      /^\d+(?:-\d+)?$/.test(number) &&
      !numberWord?.text.endsWith('.') &&
      letter &&
      /^[a-z]$/.test(letter.key) &&
      !isFloorWord(after[1]?.key ?? '')
    ) {
      number = `${number}/${letter.key}`;
      after.shift();
    }
    parsed.houseNumber = number;
    parsed.unit = unitOf([read.rest, ...after.map((word) => word.key)].join(' '));
  }
}

/** The word that is the street's type: the one before the house number, else the last after a name. */
function typeIndex(run: Word[]): number {
  const beforeNumber = run.findIndex(
    (word, index) => index >= 1 && isStreetType(word) && readHouseNumber(run[index + 1]?.key ?? '') !== null,
  );
  if (beforeNumber !== -1) return beforeNumber;
  return run.findLastIndex((word, index) => index >= 1 && isStreetType(word));
}

/** '3. em. 12.' → '3 em 12', 'II. emelet 5. ajtó' → '2 em 5', 'fszt. 2' → 'fsz 2'. */
function unitOf(written: string): string | null {
  const keys = addressKey(written)
    .split(' ')
    .filter(Boolean)
    .map((key) => UNIT_WORDS.get(key) ?? key);
  const unit = keys
    .map((key, index) => (keys[index + 1] === 'em' && isRoman(key) ? String(districtNumber(key)) : key))
    .filter((key, index) => key && !(index === 0 && (key === 'sz' || key === 'szam')))
    .join(' ');
  return unit || null;
}

function emptyAddress(): ParsedAddress {
  return {
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
}

/**
 * Reads a Hungarian address as people write it: postal code first or last, with or without commas,
 * 'Bp.', district numerals, 'u.', 'krt.', 'ltp.', 'pu.' and the other abbreviations, accents optional.
 * The lookup tells which words are a settlement; without it (or when it knows none) the name beside
 * the postal code or the first part that is only a name is taken. Never throws: what it cannot read stays null.
 */
export function parseAddress(text: string, lookup?: SettlementLookup): ParsedAddress {
  return new Reader(wordsOf(typeof text === 'string' ? text : ''), lookup).read();
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
