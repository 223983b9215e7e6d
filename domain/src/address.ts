/** Text without its accents, in lower case: "Ádám" and "adam" read the same. */
export function foldAccents(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase();
}

/**
 * Hungarian's accented letters and what foldAccents makes of them, for folding inside a store's SQL
 * (SQLite's lower() only knows ASCII): replace each, then lower ASCII (searchKey).
 */
export const HUNGARIAN_ACCENT_FOLDS: readonly (readonly [accented: string, plain: string])[] = [
  ['Á', 'a'],
  ['á', 'a'],
  ['É', 'e'],
  ['é', 'e'],
  ['Í', 'i'],
  ['í', 'i'],
  ['Ó', 'o'],
  ['ó', 'o'],
  ['Ö', 'o'],
  ['ö', 'o'],
  ['Ő', 'o'],
  ['ő', 'o'],
  ['Ú', 'u'],
  ['ú', 'u'],
  ['Ü', 'u'],
  ['ü', 'u'],
  ['Ű', 'u'],
  ['ű', 'u'],
];

/**
 * What an account search compares (issue 32): Hungarian's accented letters folded and ASCII letters
 * in lower case, nothing else changed — exactly what both stores keep for each name (SQLite's
 * lower() knows only ASCII; PostgreSQL lowers with translate() to match, migration 0019), so a
 * search finds the same names on either and every other character is searched for as itself.
 */
export function searchKey(text: string): string {
  let key = text;
  for (const [accented, plain] of HUNGARIAN_ACCENT_FOLDS) key = key.replaceAll(accented, plain);
  return key.replace(/[A-Z]/g, (letter) => letter.toLowerCase());
}

/**
 * The key two addresses are compared by: case, accents, spacing and punctuation do not matter,
 * so "1052 Budapest, Váci utca 12." and "1052 budapest vaci utca 12" are the same door.
 */
export function addressKey(address: string): string {
  return foldAccents(address)
    .replace(/[^\p{Letter}\p{Number}]+/gu, ' ')
    .trim();
}
