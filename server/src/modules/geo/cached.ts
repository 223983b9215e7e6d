import { addressKey } from '@csomag/domain/address';
import type { Kysely } from 'kysely';
import { nowIso } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import type { GeocodeResult, Geocoder } from './geocoder.ts';

/**
 * Remembers what a network geocoder answered in `geocode_cache`, keyed like addresses are
 * compared, so the same door is looked up once (and a public Nominatim is not hammered).
 * Misses are not stored: a street added to the map later should be found then.
 */
export class CachedGeocoder implements Geocoder {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly inner: Geocoder,
  ) {}

  async geocode(address: string): Promise<GeocodeResult | null> {
    const key = addressKey(address);
    if (!key) return null;
    const cached = await this.db
      .selectFrom('geocode_cache')
      .select(['lat', 'lng', 'label', 'source', 'precision'])
      .where('query_key', '=', key)
      .executeTakeFirst();
    if (cached) {
      const precision = cached.precision ?? (cached.source === 'offline' ? 'settlement' : 'street');
      return { ...cached, precision: precision === 'manual' ? 'street' : precision };
    }
    const found = await this.inner.geocode(address);
    if (found) {
      await this.db
        .insertInto('geocode_cache')
        .values({
          query_key: key,
          lat: found.lat,
          lng: found.lng,
          label: found.label,
          source: found.source,
          precision: found.precision,
          created_at: nowIso(),
        })
        .onConflict((oc) => oc.column('query_key').doNothing())
        .execute();
    }
    return found;
  }
}
