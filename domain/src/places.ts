import { z } from 'zod';
import { queryCoordinate } from './geo.ts';
import { type Coordinates, pointPrecisionSchema } from './parcel.ts';

/** What an OpenStreetMap import holds (server/src/modules/places). */
export const PLACE_KINDS = ['address', 'street', 'settlement', 'station', 'landmark'] as const;
export type PlaceKind = (typeof PLACE_KINDS)[number];

/**
 * Hungary's border, generously (~10–15 km outside it): a pin in the Danube at Komárom or a village
 * on the border is in, Vienna, Bratislava, Oradea and Subotica are out. [lat, lng], clockwise.
 */
const HUNGARY_OUTLINE: readonly (readonly [number, number])[] = [
  [46.86, 15.95],
  [47.28, 16.3],
  [47.71, 16.33],
  [47.87, 16.78],
  [48.1, 17.06],
  [48.06, 17.4],
  [47.86, 17.95],
  [47.85, 18.6],
  [47.98, 18.85],
  [48.15, 19.15],
  [48.3, 19.65],
  [48.33, 20.15],
  [48.64, 20.9],
  [48.68, 21.55],
  [48.62, 22.05],
  [48.48, 22.3],
  [48.18, 22.98],
  [47.95, 23.05],
  [47.72, 22.72],
  [47.35, 22.1],
  [46.95, 21.7],
  [46.62, 21.42],
  [46.34, 21.28],
  [46.09, 20.74],
  [46.08, 20.1],
  [46.1, 19.6],
  [46.03, 19.25],
  [45.84, 18.98],
  [45.66, 18.75],
  [45.7, 18.3],
  [45.72, 17.75],
  [45.87, 17.3],
  [46.14, 16.95],
  [46.37, 16.55],
  [46.55, 16.3],
  [46.72, 16.05],
];

/** Whether a point lies in Hungary (ray casting over HUNGARY_OUTLINE). */
export function isInHungary({ lat, lng }: Coordinates): boolean {
  let inside = false;
  for (let i = 0, j = HUNGARY_OUTLINE.length - 1; i < HUNGARY_OUTLINE.length; j = i++) {
    const [latI, lngI] = HUNGARY_OUTLINE[i] as readonly [number, number];
    const [latJ, lngJ] = HUNGARY_OUTLINE[j] as readonly [number, number];
    if (latI > lat !== latJ > lat && lng < ((lngJ - lngI) * (lat - latI)) / (latJ - latI) + lngI) inside = !inside;
  }
  return inside;
}

/** GET /api/geocode/reverse?lat=&lng= — the nearest address or place to a point. */
export const reverseGeocodeQuerySchema = z.object({ lat: queryCoordinate(90), lng: queryCoordinate(180) });
export const reverseGeocodeResponseSchema = z.object({
  /** "Budapest, Bartók Béla út 15.", "Keleti pályaudvar", "Hollókő", "Budapest XI. kerület". */
  label: z.string(),
  /** How near the named thing is: a door within a few tens of metres, else a street or a settlement. */
  precision: pointPrecisionSchema,
  metres: z.number().int(),
});
export type ReverseGeocodeResponse = z.infer<typeof reverseGeocodeResponseSchema>;
