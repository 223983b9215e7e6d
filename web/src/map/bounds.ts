import type { ViewBounds } from '@csomag/domain/geo';
import type { LatLngBounds } from 'leaflet';

const round = (value: number) => Math.round(value * 1e4) / 1e4;

/** A Leaflet view as query bounds (clamped to the globe, rounded so tiny pans reuse a cached answer). */
export const roundedBounds = (bounds: LatLngBounds): ViewBounds => ({
  south: round(Math.max(-90, bounds.getSouth())),
  west: round(Math.max(-180, bounds.getWest())),
  north: round(Math.min(90, bounds.getNorth())),
  east: round(Math.min(180, bounds.getEast())),
});
