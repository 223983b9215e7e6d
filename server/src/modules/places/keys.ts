import { addressKey } from '@csomag/domain/address';
import { STREET_TYPES } from '@csomag/domain/address-parse';

/**
 * What a street's name is compared by: folded, its type written out ("Kossuth L. u." and "Kossuth L.
 * utca" alike). The imported name and the parsed address build the same key.
 */
export function streetKeyOf(name: string): string {
  const words = addressKey(name).split(' ').filter(Boolean);
  const last = words.at(-1);
  const type = last === undefined ? undefined : STREET_TYPES.get(last);
  if (type !== undefined) words[words.length - 1] = type;
  return words.join(' ');
}

/** The parsed address's street key: its name and its written-out type. */
export const parsedStreetKey = (streetKey: string | null, streetType: string | null) =>
  [streetKey, streetType].filter(Boolean).join(' ');

/** Words that say "a station" in the ways people and OpenStreetMap write its name. */
const STATION_WORDS = new Set([
  'palyaudvar',
  'pu',
  'vasutallomas',
  'vasuti',
  'allomas',
  'megallo',
  'megallohely',
  'autobuszallomas',
  'autobusz',
  'buszpalyaudvar',
  'station',
]);

/**
 * A station's name without its settlement and the words that say "station": "Budapest-Keleti",
 * "Keleti pályaudvar" and "Keleti pu." are all "keleti"; a station named only for its town keeps it.
 */
export function stationKeyOf(name: string, settlementKey: string | null): string {
  const words = addressKey(name)
    .split(' ')
    .filter((word) => word && !STATION_WORDS.has(word));
  const settlementWords = settlementKey ? settlementKey.split(' ') : [];
  const prefixed =
    settlementWords.length > 0 &&
    words.length > settlementWords.length &&
    settlementWords.every((word, index) => words[index] === word);
  return (prefixed ? words.slice(settlementWords.length) : words).join(' ');
}

/** Whether the text names a station ("… pályaudvar", "… vasútállomás", "… pu."). */
export const namesStation = (name: string) =>
  addressKey(name)
    .split(' ')
    .some((word) => STATION_WORDS.has(word));
