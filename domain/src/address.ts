/**
 * The key two addresses are compared by: case, accents, spacing and punctuation do not matter,
 * so "1052 Budapest, Váci utca 12." and "1052 budapest vaci utca 12" are the same door.
 */
export function addressKey(address: string): string {
  return address
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase()
    .replace(/[^\p{Letter}\p{Number}]+/gu, ' ')
    .trim();
}
