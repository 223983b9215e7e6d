import { z } from 'zod';
import { addressField } from './account.ts';
import { DELIVERY_RADIUS_M } from './constants.ts';
import { type Coordinates, coordinatesSchema } from './parcel.ts';

const EARTH_RADIUS_M = 6_371_008.8;
const toRadians = (degrees: number) => (degrees * Math.PI) / 180;

/** Great-circle (haversine) distance in metres. */
export function distanceMetres(a: Coordinates, b: Coordinates): number {
  const dLat = toRadians(b.lat - a.lat);
  const dLng = toRadians(b.lng - a.lng);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(toRadians(a.lat)) * Math.cos(toRadians(b.lat)) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** SPEC §4: delivery without QR only when distance − accuracy is under 15 m. */
export function isWithinDeliveryRadius(distance: number, accuracy: number): boolean {
  return distance - accuracy < DELIVERY_RADIUS_M;
}

/** GET /api/geocode?q= — places an address as the sender types. */
export const geocodeQuerySchema = z.object({ q: addressField });
export const geocodeResponseSchema = coordinatesSchema.extend({ label: z.string() });
export type GeocodeResponse = z.infer<typeof geocodeResponseSchema>;
