import type { Coordinates } from '@csomag/domain/parcel';
import { Polyline, useMapEvents } from 'react-leaflet';

/*
 * The trip screen's own map layers, inside the lazy map (map/map-view.tsx): loaded with Leaflet,
 * never with the page.
 */

export interface TripLine {
  key: string;
  points: Coordinates[];
  /** The trip itself is drawn dashed where it is an estimate; each parcel's pickup → delivery solid; a ride along its stops. */
  style?: 'dashed' | 'ride';
}

const LINE_STYLES = {
  dashed: { color: '#334155', weight: 3, dashArray: '6 8' },
  ride: { color: '#15803d', weight: 5 },
  parcel: { color: '#1d4ed8', weight: 4 },
} as const;

function PickOnClick({ onPick }: { onPick: (point: Coordinates) => void }) {
  useMapEvents({ click: (event) => onPick({ lat: event.latlng.lat, lng: event.latlng.lng }) });
  return null;
}

/** Lines between points (decorative: the list beside the map says the same in words) and a tap that picks a point. */
export default function TripMapLayers({
  lines = [],
  onPick,
}: {
  lines?: TripLine[];
  onPick?: (point: Coordinates) => void;
}) {
  return (
    <>
      {onPick && <PickOnClick onPick={onPick} />}
      {lines.map((line) => (
        <Polyline
          key={line.key}
          positions={line.points.map((point): [number, number] => [point.lat, point.lng])}
          pathOptions={LINE_STYLES[line.style ?? 'parcel']}
        />
      ))}
    </>
  );
}
