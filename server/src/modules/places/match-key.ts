import { addressKey } from '@csomag/domain/address';
import { canonicalAddressKey, parseAddress } from '@csomag/domain/address-parse';
import { settlementByKey } from './settlements.ts';

/**
 * What a receiver's address and a parcel's destination are matched by (issue 25): the address read
 * into settlement, Budapest district, street, type, house number and unit, so "Budapest VII., Dohány
 * u. 20" and "1074 Budapest, Dohány utca 20." are one door. An address with no settlement to read
 * falls back to its folded text, so it still matches itself written the same way.
 */
export function matchKeyOf(address: string): string {
  const parsed = parseAddress(address, (folded) => settlementByKey(folded)?.name);
  return canonicalAddressKey(parsed) || addressKey(address);
}
