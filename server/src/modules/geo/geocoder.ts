import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/schema.ts';
import { CachedGeocoder } from './cached.ts';
import { NominatimGeocoder } from './nominatim.ts';
import { OfflineGeocoder } from './offline.ts';

export interface GeocodeResult {
  lat: number;
  lng: number;
  /** What the address was placed as ("Szeged", "Budapest V. kerület", a street address…). */
  label: string;
  source: string;
  /** A street address, or only the settlement (or Budapest district) it is in. */
  precision: 'street' | 'settlement';
}

/** The geocoding port (DESIGN §11): an address in, a point out, or null when it cannot be placed. */
export interface Geocoder {
  geocode(address: string): Promise<GeocodeResult | null>;
}

/**
 * Tries the primary provider, then the offline gazetteer. A network provider that is down or
 * does not know a street still lets a parcel be sent at settlement precision (the sender can
 * drag the pin to the door).
 */
export class FallbackGeocoder implements Geocoder {
  constructor(
    private readonly primary: Geocoder,
    private readonly fallback: Geocoder,
    private readonly log: Pick<FastifyBaseLogger, 'warn'>,
  ) {}

  async geocode(address: string): Promise<GeocodeResult | null> {
    try {
      const found = await this.primary.geocode(address);
      if (found) return found;
    } catch (error) {
      this.log.warn({ err: error }, 'geocoder failed, using the offline gazetteer');
    }
    return this.fallback.geocode(address);
  }
}

/**
 * Reports how each look-up ended (metrics): placed at street or settlement precision, not found,
 * or failed. The provider is the configured one; a fallback to the gazetteer shows as its result.
 */
export function observedGeocoder(
  inner: Geocoder,
  provider: string,
  record: (provider: string, outcome: 'street' | 'settlement' | 'not_found' | 'error') => void,
): Geocoder {
  return {
    async geocode(address) {
      try {
        const found = await inner.geocode(address);
        record(provider, found ? found.precision : 'not_found');
        return found;
      } catch (error) {
        record(provider, 'error');
        throw error;
      }
    },
  };
}

/** The geocoder chosen by configuration: offline by default, cached Nominatim when asked. */
export function createGeocoder(config: Config, db: Kysely<Database>, log: FastifyBaseLogger): Geocoder {
  const offline = new OfflineGeocoder();
  if (config.geocoder !== 'nominatim' || !config.geocoderUrl) return offline;
  const userAgent = `Csomagkuldo/1.0${config.publicUrl ? ` (+${config.publicUrl})` : ''}`;
  const nominatim = new CachedGeocoder(db, new NominatimGeocoder(config.geocoderUrl, { userAgent }));
  return new FallbackGeocoder(nominatim, offline, log);
}
