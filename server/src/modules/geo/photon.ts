import { distanceMetres } from '@csomag/domain/geo';
import { z } from 'zod';
import type { GeocodedPrecision, GeocodeResult, Geocoder, ReverseResult } from './geocoder.ts';
import { areaLabel, doorLabel, type GeocoderServiceOptions, getServiceJson } from './nominatim.ts';

export type PhotonOptions = GeocoderServiceOptions;

const optionalText = z.string().optional();
const feature = z.object({
  // GeoJSON's [longitude, latitude], perhaps followed by an altitude.
  geometry: z.object({ coordinates: z.tuple([z.number(), z.number()], z.number()) }),
  properties: z.object({
    osm_key: optionalText,
    osm_value: optionalText,
    type: optionalText,
    name: optionalText,
    housenumber: optionalText,
    street: optionalText,
    city: optionalText,
    district: optionalText,
    locality: optionalText,
    postcode: optionalText,
    county: optionalText,
  }),
});
type Feature = z.infer<typeof feature>;
const featureCollection = z.object({ features: z.array(feature) });

/** Searches lean towards Hungary's middle and stay inside the box around it (west, south, east, north). */
const HUNGARY_BIAS = { lat: '47.16', lon: '19.5' };
const HUNGARY_BOX = '16.0,45.7,23.0,48.6';

/** OpenStreetMap keys of named places a parcel can be brought to: stations, shops, offices, sights… */
const POI_KEYS = new Set([
  'aeroway',
  'amenity',
  'building',
  'craft',
  'healthcare',
  'historic',
  'leisure',
  'office',
  'public_transport',
  'railway',
  'shop',
  'tourism',
]);

/** A named place with no house number of its own; Photon calls it 'house' or 'other' by its rank. */
const isPoi = ({ properties }: Feature) =>
  !properties.housenumber &&
  Boolean(properties.name) &&
  (properties.type === 'house' || properties.type === 'other') &&
  POI_KEYS.has(properties.osm_key ?? '');

function precisionOf(found: Feature): GeocodedPrecision {
  const { type, housenumber } = found.properties;
  if (isPoi(found) || type === 'street') return 'street';
  return housenumber || type === 'house' ? 'door' : 'settlement';
}

function labelOf(found: Feature, precision: GeocodedPrecision): string | undefined {
  const { name, street, housenumber, postcode, city, district, locality, county } = found.properties;
  if (street && housenumber) return doorLabel({ postcode, settlement: city, street, houseNumber: housenumber });
  if (isPoi(found) && name) return [name, city].filter(Boolean).join(', ');
  if (precision === 'street' && (street ?? name)) return [city, street ?? name].filter(Boolean).join(', ');
  if (name) return areaLabel(name, city);
  return [city, district ?? locality].filter(Boolean).join(', ') || county;
}

/** A komoot/photon HTTP geocoder (GEOCODER=photon, GEOCODER_URL). Throws when unreachable. */
export class PhotonGeocoder implements Geocoder {
  private readonly baseUrl: string;

  constructor(
    baseUrl: string,
    private readonly options: PhotonOptions,
  ) {
    this.baseUrl = baseUrl.replace(/\/+$/, '');
  }

  async geocode(address: string): Promise<GeocodeResult | null> {
    const found = await this.first('api', {
      q: address,
      limit: '1',
      lang: 'default',
      ...HUNGARY_BIAS,
      bbox: HUNGARY_BOX,
    });
    if (!found) return null;
    const precision = precisionOf(found);
    const [lng, lat] = found.geometry.coordinates;
    return { lat, lng, label: labelOf(found, precision) || address, source: 'photon', precision };
  }

  async reverse(point: { lat: number; lng: number }): Promise<ReverseResult | null> {
    const found = await this.first('reverse', { lon: String(point.lng), lat: String(point.lat), limit: '1' });
    if (!found) return null;
    const precision = precisionOf(found);
    const label = labelOf(found, precision);
    if (!label) return null;
    const [lng, lat] = found.geometry.coordinates;
    return { label, precision, metres: distanceMetres(point, { lat, lng }) };
  }

  private async first(endpoint: string, params: Record<string, string>): Promise<Feature | undefined> {
    const url = new URL(`${this.baseUrl}/${endpoint}`);
    url.search = new URLSearchParams(params).toString();
    return featureCollection.parse(await getServiceJson(url, this.options)).features[0];
  }
}
