import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/schema.ts';
import { AddressRefusal, PlacesGeocoder } from '../places/geocoder.ts';
import { PlaceStore } from '../places/store.ts';
import { CachedGeocoder } from './cached.ts';
import { NominatimGeocoder } from './nominatim.ts';
import { PhotonGeocoder } from './photon.ts';

/** How precisely a geocoder placed an address: its door, somewhere on its street, or its settlement's centre. */
export type GeocodedPrecision = 'door' | 'street' | 'settlement';

export interface GeocodeResult {
  lat: number;
  lng: number;
  /** What the address was placed as ("Szeged", "Budapest XI. kerület", "Budapest, Bartók Béla út 15."…). */
  label: string;
  source: string;
  precision: GeocodedPrecision;
}

/** The named place nearest to a point (a dragged pin, a relay meeting point, a timeline step). */
export interface ReverseResult {
  label: string;
  /** 'door' when the point is at an address, 'street' near a street or named place, else 'settlement'. */
  precision: GeocodedPrecision;
  /** From the point to what is named. */
  metres: number;
}

/**
 * The geocoding port (DESIGN §11): an address in, a point out, or null when it cannot be placed;
 * a point in, the nearest named place out, or null when nothing is known near it. Throws when the
 * service behind it is unreachable (the caller falls back).
 */
export interface Geocoder {
  geocode(address: string): Promise<GeocodeResult | null>;
  reverse(point: { lat: number; lng: number }): Promise<ReverseResult | null>;
}

/**
 * Reports how each look-up ended (metrics): placed at door, street or settlement precision, not
 * found, refused by the national check, or failed. The provider is the configured one.
 */
export function observedGeocoder(
  inner: Geocoder,
  provider: string,
  record: (provider: string, outcome: GeocodedPrecision | 'not_found' | 'refused' | 'error') => void,
): Geocoder {
  return {
    async geocode(address) {
      try {
        const found = await inner.geocode(address);
        record(provider, found ? found.precision : 'not_found');
        return found;
      } catch (error) {
        record(provider, error instanceof AddressRefusal ? 'refused' : 'error');
        throw error;
      }
    },
    reverse: (point) => inner.reverse(point),
  };
}

/**
 * The geocoder chosen by configuration: Hungary's settlements and the imported OpenStreetMap places
 * by default; with GEOCODER=photon|nominatim the operator's service answers first (cached), after
 * the national check, and the imported places when it is down.
 */
export function createGeocoder(config: Config, db: Kysely<Database>, log: FastifyBaseLogger): Geocoder {
  const store = new PlaceStore(db);
  if (config.geocoder === 'offline' || !config.geocoderUrl) return new PlacesGeocoder(store);
  const userAgent = `Csomagkuldo/1.0${config.publicUrl ? ` (+${config.publicUrl})` : ''}`;
  const service =
    config.geocoder === 'photon'
      ? new PhotonGeocoder(config.geocoderUrl, { userAgent })
      : new NominatimGeocoder(config.geocoderUrl, { userAgent });
  return new PlacesGeocoder(store, new CachedGeocoder(db, service), log);
}
