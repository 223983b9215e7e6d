import { distanceMetres } from '@csomag/domain/geo';
import { z } from 'zod';
import type { GeocodedPrecision, GeocodeResult, Geocoder, ReverseResult } from './geocoder.ts';

export interface GeocoderServiceOptions {
  /** Nominatim's usage policy asks every client to name itself; Photon's operators like it too. */
  userAgent: string;
  timeoutMs?: number;
}
export type NominatimOptions = GeocoderServiceOptions;

/** GETs a geocoding service's JSON answer; throws when it is unreachable, slow or answers an HTTP error. */
export async function getServiceJson(
  url: URL,
  options: GeocoderServiceOptions,
  headers: Record<string, string> = {},
): Promise<unknown> {
  const response = await fetch(url, {
    headers: { 'user-agent': options.userAgent, accept: 'application/json', ...headers },
    signal: AbortSignal.timeout(options.timeoutMs ?? 5000),
  });
  if (!response.ok) throw new Error(`geocoder answered ${response.status}`);
  return response.json();
}

/** The Hungarian way to write a door: "1114 Budapest, Bartók Béla út 15." */
export function doorLabel(door: {
  postcode: string | undefined;
  settlement: string | undefined;
  street: string;
  houseNumber: string;
}) {
  const place = [door.postcode, door.settlement].filter(Boolean).join(' ');
  const street = `${door.street} ${door.houseNumber}.`;
  return place ? `${place}, ${street}` : street;
}

/** "Budapest, Újbuda" for a part of a settlement; the name alone when it already says which settlement. */
export function areaLabel(name: string, settlement: string | undefined) {
  return settlement && !name.includes(settlement) ? `${settlement}, ${name}` : name;
}

const optionalText = z.string().optional();
const place = z.object({
  lat: z.coerce.number(),
  lon: z.coerce.number(),
  display_name: z.string().default(''),
  name: optionalText,
  category: optionalText,
  type: optionalText,
  addresstype: optionalText,
  place_rank: z.number().optional(),
  address: z
    .object({
      house_number: optionalText,
      road: optionalText,
      pedestrian: optionalText,
      square: optionalText,
      postcode: optionalText,
      city: optionalText,
      town: optionalText,
      village: optionalText,
      hamlet: optionalText,
      municipality: optionalText,
    })
    .default({}),
});
type Place = z.infer<typeof place>;

const searchResults = z.array(place);
/** Nominatim answers 200 with an error object when nothing is near the point. */
const reverseResult = z.union([z.object({ error: z.unknown() }), place]);

/** Kinds of places that are a door, though they may lack a house number of their own. */
const DOORS = new Set(['building', 'house', 'house_number', 'house_name']);

/** Nominatim's kinds of places that are an area (https://nominatim.org/release-docs/latest/). */
const AREAS = new Set([
  'continent',
  'country',
  'state',
  'region',
  'state_district',
  'county',
  'municipality',
  'city',
  'town',
  'village',
  'hamlet',
  'isolated_dwelling',
  'city_district',
  'district',
  'borough',
  'suburb',
  'quarter',
  'neighbourhood',
  'city_block',
  'postcode',
]);

/** Nominatim's ranks from 26 are streets and smaller; below them are areas. */
const STREET_RANK = 26;

const roadOf = ({ address }: Place) => address.road ?? address.pedestrian ?? address.square;
const settlementOf = ({ address }: Place) =>
  address.city ?? address.town ?? address.village ?? address.hamlet ?? address.municipality;
const isStreet = (found: Place) => found.addresstype === 'road' || found.category === 'highway';

function precisionOf(found: Place): GeocodedPrecision {
  const { address, addresstype, type } = found;
  if (address.house_number || DOORS.has(addresstype ?? '') || DOORS.has(type ?? '')) return 'door';
  const rank = found.place_rank;
  if (AREAS.has(addresstype ?? '') || (rank !== undefined && rank < STREET_RANK)) return 'settlement';
  // A road, or a named place on one (a station, a shop): somewhere on a street.
  return isStreet(found) || roadOf(found) || rank !== undefined ? 'street' : 'settlement';
}

function labelOf(found: Place, precision: GeocodedPrecision): string {
  const road = roadOf(found);
  const settlement = settlementOf(found);
  const { house_number: houseNumber, postcode } = found.address;
  if (precision === 'door' && road && houseNumber)
    return doorLabel({ postcode, settlement, street: road, houseNumber });
  if (precision === 'settlement')
    return (found.name && areaLabel(found.name, settlement)) || settlement || found.display_name;
  // A station or a shop is told by its name; a street (or a door without a number) by its street.
  if (found.name && !isStreet(found) && found.name !== road) return [found.name, settlement].filter(Boolean).join(', ');
  if (road) return [settlement, road].filter(Boolean).join(', ');
  return found.display_name;
}

function describe(found: Place) {
  const precision = precisionOf(found);
  return { precision, label: labelOf(found, precision) };
}

/** A Nominatim-compatible HTTP geocoder (GEOCODER=nominatim, GEOCODER_URL). Throws when unreachable. */
export class NominatimGeocoder implements Geocoder {
  private readonly baseUrl: string;

  constructor(
    baseUrl: string,
    private readonly options: NominatimOptions,
  ) {
    this.baseUrl = baseUrl.replace(/\/+$/, '');
  }

  async geocode(address: string): Promise<GeocodeResult | null> {
    const [first] = searchResults.parse(
      await this.get('search', {
        q: address,
        format: 'jsonv2',
        limit: '1',
        countrycodes: 'hu',
        addressdetails: '1',
      }),
    );
    if (!first) return null;
    const { label, precision } = describe(first);
    return { lat: first.lat, lng: first.lon, label: label || address, source: 'nominatim', precision };
  }

  async reverse(point: { lat: number; lng: number }): Promise<ReverseResult | null> {
    const found = reverseResult.parse(
      await this.get('reverse', {
        format: 'jsonv2',
        lat: String(point.lat),
        lon: String(point.lng),
        zoom: '18',
        addressdetails: '1',
      }),
    );
    if ('error' in found) return null;
    const { label, precision } = describe(found);
    if (!label) return null;
    return { label, precision, metres: distanceMetres(point, { lat: found.lat, lng: found.lon }) };
  }

  private get(endpoint: string, params: Record<string, string>) {
    const url = new URL(`${this.baseUrl}/${endpoint}`);
    url.search = new URLSearchParams(params).toString();
    return getServiceJson(url, this.options, { 'accept-language': 'hu' });
  }
}
