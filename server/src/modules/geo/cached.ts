import { addressKey } from '@csomag/domain/address';
import type { Kysely } from 'kysely';
import { nowIso } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import { legacyPrecision } from '../places/precision.ts';
import type { GeocodeResult, Geocoder, ReverseResult } from './geocoder.ts';

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
      .select(['lat', 'lng', 'label', 'source', 'place_precision'])
      .where('query_key', '=', key)
      .executeTakeFirst();
    // Entries from before doors were told apart (no place_precision) are asked again.
    const precision = cached?.place_precision;
    if (cached && precision && precision !== 'manual') {
      return { lat: cached.lat, lng: cached.lng, label: cached.label, source: cached.source, precision };
    }
    const found = await this.inner.geocode(address);
    if (found) {
      const answer = {
        lat: found.lat,
        lng: found.lng,
        label: found.label,
        source: found.source,
        precision: legacyPrecision(found.precision),
        place_precision: found.precision,
      };
      // An entry from before doors were told apart is written over.
      await this.db
        .insertInto('geocode_cache')
        .values({ query_key: key, ...answer, created_at: nowIso() })
        .onConflict((oc) => oc.column('query_key').doUpdateSet(answer))
        .execute();
    }
    return found;
  }

  /** Points are rarely asked twice: reverse look-ups are not cached. */
  reverse(point: { lat: number; lng: number }): Promise<ReverseResult | null> {
    return this.inner.reverse(point);
  }
}
