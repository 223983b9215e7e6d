import { randomInt } from 'node:crypto';
import { PARCEL_ID_ALPHABET, PARCEL_ID_LENGTH } from '@csomag/domain/parcel';

/** 10 Crockford base32 characters from a CSPRNG: 50 bits, unguessable and never sequential. */
export function newParcelId(): string {
  let id = '';
  for (let i = 0; i < PARCEL_ID_LENGTH; i++) id += PARCEL_ID_ALPHABET[randomInt(PARCEL_ID_ALPHABET.length)];
  return id;
}
