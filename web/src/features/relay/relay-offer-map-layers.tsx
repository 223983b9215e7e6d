import type { Coordinates } from '@csomag/domain/parcel';
import { useMapEvents } from 'react-leaflet';

/** A tap on the map picks the meeting point: inside the lazy map, loaded with Leaflet, never with the page. */
export default function RelayOfferPickOnClick({ onPick }: { onPick: (point: Coordinates) => void }) {
  useMapEvents({ click: (event) => onPick({ lat: event.latlng.lat, lng: event.latlng.lng }) });
  return null;
}
