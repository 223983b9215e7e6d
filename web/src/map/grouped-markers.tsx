import MarkerClusterGroup from 'react-leaflet-cluster';
import 'react-leaflet-cluster/dist/assets/MarkerCluster.css';
import 'react-leaflet-cluster/dist/assets/MarkerCluster.Default.css';
import { type MapMarker, MapMarkers } from './map-view.tsx';

/** A pin is about this wide: only pins that would really cover each other are grouped. */
const OVERLAP_PX = 24;

/** Pins that would cover each other as one counted pin: a tap zooms in, or spreads pins at one spot apart. */
export default function GroupedMarkers({ markers }: { markers: MapMarker[] }) {
  return (
    <MarkerClusterGroup chunkedLoading maxClusterRadius={OVERLAP_PX}>
      <MapMarkers markers={markers} />
    </MarkerClusterGroup>
  );
}
