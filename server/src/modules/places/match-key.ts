import { addressKey } from '@csomag/domain/address';
import { canonicalAddressKey, parseAddress } from '@csomag/domain/address-parse';
import type { PointPrecision } from '@csomag/domain/parcel';
import type { Geocoder } from '../geo/geocoder.ts';
import { settlementByKey } from './settlements.ts';

/**
 * What a receiver's address and a parcel's destination are matched by (issue 25): the address read
 * into settlement, Budapest district, street, type, house number and unit, so "Budapest VII., Dohány
 * u. 20" and "1074 Budapest, Dohány utca 20." are one door. An address with no settlement to read
 * falls back to its folded text, so it still matches itself written the same way.
 */
const lookup = (folded: string) => settlementByKey(folded)?.name;

export function matchKeyOf(address: string): string {
  return canonicalAddressKey(parseAddress(address, lookup)) || addressKey(address);
}

/**
 * The key of an address placed at its door: the door's own address (as the geocoder names it) with
 * the flat written after the house number, so "Budapest, Dohány u. 20" — no district — and
 * "1074 Budapest, Dohány utca 20." are one door when both are placed there. An address not placed
 * at a door, refused, or asked while the geocoder is down keeps the key of how it is written.
 */
export async function placedMatchKey(geocoder: Geocoder, address: string): Promise<string> {
  try {
    const found = await geocoder.geocode(address);
    if (found?.precision === 'door') return doorMatchKey(found.label, address);
  } catch {
    // The written address still matches itself.
  }
  return matchKeyOf(address);
}

/** The key of an address the geocoder placed at a door it named `doorLabel` (see placedMatchKey). */
export function doorMatchKey(doorLabel: string, address: string): string {
  const door = parseAddress(doorLabel, lookup);
  return canonicalAddressKey({ ...door, unit: parseAddress(address, lookup).unit }) || matchKeyOf(address);
}

/**
 * A parcel's destination key: by its door when it was placed at one (ADR 0028) — named by the
 * geocoder that just placed it, or, for a pin the form left where its geocoding put it, asked once
 * more — else by how it is written.
 */
export async function destinationMatchKey(
  geocoder: Geocoder,
  address: string,
  placed: { precision: PointPrecision; label?: string },
): Promise<string> {
  if (placed.precision !== 'door') return matchKeyOf(address);
  return placed.label ? doorMatchKey(placed.label, address) : placedMatchKey(geocoder, address);
}
