import { z } from 'zod';
import type { GeocodeResult, Geocoder } from './geocoder.ts';

const searchResults = z.array(
  z.object({
    lat: z.coerce.number(),
    lon: z.coerce.number(),
    display_name: z.string().default(''),
    addresstype: z.string().optional(),
  }),
);

/** Nominatim's kinds of places that are an area, not a door (https://nominatim.org/release-docs/latest/). */
const AREAS = new Set([
  'country',
  'state',
  'region',
  'county',
  'municipality',
  'city',
  'town',
  'village',
  'hamlet',
  'city_district',
  'district',
  'borough',
  'suburb',
  'quarter',
  'neighbourhood',
  'postcode',
]);

export interface NominatimOptions {
  /** Nominatim's usage policy asks every client to name itself. */
  userAgent: string;
  timeoutMs?: number;
}

/** A Nominatim-compatible HTTP geocoder (GEOCODER=nominatim, GEOCODER_URL). Throws when unreachable. */
export class NominatimGeocoder implements Geocoder {
  private readonly searchUrl: string;

  constructor(
    baseUrl: string,
    private readonly options: NominatimOptions,
  ) {
    this.searchUrl = `${baseUrl.replace(/\/+$/, '')}/search`;
  }

  async geocode(address: string): Promise<GeocodeResult | null> {
    const url = new URL(this.searchUrl);
    url.search = new URLSearchParams({ q: address, format: 'json', limit: '1', countrycodes: 'hu' }).toString();
    const response = await fetch(url, {
      headers: { 'user-agent': this.options.userAgent, accept: 'application/json', 'accept-language': 'hu' },
      signal: AbortSignal.timeout(this.options.timeoutMs ?? 5000),
    });
    if (!response.ok) throw new Error(`geocoder answered ${response.status}`);
    const [first] = searchResults.parse(await response.json());
    if (!first) return null;
    return {
      lat: first.lat,
      lng: first.lon,
      label: first.display_name || address,
      source: 'nominatim',
      precision: first.addresstype && AREAS.has(first.addresstype) ? 'settlement' : 'street',
    };
  }
}
