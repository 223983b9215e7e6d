import { z } from 'zod';
import { addressField } from './account.ts';
import { DELIVERY_RADIUS_M } from './constants.ts';
import { messages } from './messages.ts';
import { type Coordinates, coordinatesSchema, pointPrecisionSchema } from './parcel.ts';

/** The earth's mean radius in metres; the server's SQL distances use it too. */
export const EARTH_RADIUS_M = 6_371_008.8;
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
export const geocodeResponseSchema = coordinatesSchema.extend({ label: z.string(), precision: pointPrecisionSchema });

/** A number in a query string; an empty `zoom=` is missing, not 0. */
export const queryNumber = (error: string) =>
  z.string({ error }).trim().min(1, { error }).pipe(z.coerce.number({ error }));
export const queryCoordinate = (limit: number) =>
  queryNumber(messages.invalidCoordinates).pipe(
    z.number().min(-limit, { error: messages.invalidCoordinates }).max(limit, { error: messages.invalidCoordinates }),
  );

/** A map's visible box in a query string (one that does not cross the antimeridian). */
export const viewBoundsShape = {
  south: queryCoordinate(90),
  west: queryCoordinate(180),
  north: queryCoordinate(90),
  east: queryCoordinate(180),
};
export interface ViewBounds {
  south: number;
  west: number;
  north: number;
  east: number;
}

export function checkBounds(box: ViewBounds, context: z.RefinementCtx) {
  if (box.south >= box.north) context.addIssue({ code: 'custom', path: ['north'], message: messages.invalidBounds });
  if (box.west >= box.east) context.addIssue({ code: 'custom', path: ['east'], message: messages.invalidBounds });
}
