import type { places as hu } from '../hu/places.ts';
import type { Translation } from '../translation.ts';

/**
 * Where things are (issue 25): the geocoder's answers and refusals, precision as people read it,
 * the map's pin placing. Every refusal says what to do next.
 */
export const places = {
  // the national check of an address (server), before any geocoder
  addressUnparsable:
    "We can't read an address from this. Write it like this: postcode, town, street, house number (for example 1114 Budapest, Bartók Béla út 15.).",
  postcodeUnknown: (postalCode: string) => `There is no postcode ${postalCode} in Hungary. Check the postcode.`,
  postcodeMismatch: (postalCode: string, settlement: string, owners: string) =>
    `Postcode ${postalCode} doesn't belong to ${settlement} but to ${owners}. Correct the postcode or the town.`,
  settlementUnknown: (written: string) => `We don't know a town called “${written}”. Check the town's name.`,
  settlementSuggestion: (written: string, suggestion: string) =>
    `We don't know a town called “${written}”. Did you mean ${suggestion}?`,
  settlementMissing: (street: string, some: string) =>
    `${street} exists in several towns (for example ${some}): put the postcode or the town before the address.`,
  settlementUnplaced: (settlement: string) =>
    `We don't know exactly where ${settlement} is: tap the exact spot on the map.`,
  reverseGeocodeFailed: "We don't know of an address or place near this point.",
  outsideHungary: "This point isn't in Hungary: you can only send parcels within Hungary.",
  positionTooImprecise: (accuracyMetres: number, maxMetres: number) =>
    `Your position is only known to within ±${accuracyMetres} metres (delivery needs ±${maxMetres} metres at most). Wait for a more precise fix under open sky, or hand the parcel over with a QR code.`,

  // labels of what a point is (server: geocoder labels, web: beside a pin)
  streetCentreLabel: (street: string, settlement: string) => `${settlement}, ${street}`,
  placeNear: (place: string) => `Near ${place}`,
} as const satisfies Translation<typeof hu>;
