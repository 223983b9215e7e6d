/** Text without its accents, in lower case: "Ádám" and "adam" read the same. */
export function foldAccents(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase();
}

/**
 * Hungarian's accented letters and what foldAccents makes of them, for folding inside a store's SQL
 * (SQLite's lower() only knows ASCII): replace each, then lower().
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
 * The key two addresses are compared by: case, accents, spacing and punctuation do not matter,
 * so "1052 Budapest, Váci utca 12." and "1052 budapest vaci utca 12" are the same door.
 */
export function addressKey(address: string): string {
  return foldAccents(address)
    .replace(/[^\p{Letter}\p{Number}]+/gu, ' ')
    .trim();
}
