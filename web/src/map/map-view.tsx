import type { Coordinates } from '@csomag/domain/parcel';
import 'leaflet/dist/leaflet.css';
import type { LatLngBounds } from 'leaflet';
import { type ReactNode, useEffect } from 'react';
import { MapContainer, Marker, Popup, TileLayer, useMap, useMapEvents } from 'react-leaflet';
import { useServerConfig } from '../api/config.ts';
import { type MarkerKind, markerIcon } from './markers.ts';

export interface MapMarker {
  key: string;
  position: Coordinates;
  kind: MarkerKind;
  /** SPEC's label, used as the marker's title and alt text. */
  title: string;
  draggable?: boolean;
  onDragEnd?: (position: Coordinates) => void;
  onClick?: () => void;
  /** React content only — never HTML built from user text. */
  popup?: ReactNode;
}

export interface MapViewProps {
  center: Coordinates;
  zoom: number;
  height: string;
  markers: MapMarker[];
  /** Re-centre when the centre changes (e.g. the runner's first position fix). */
  follow?: boolean;
  onMapClick?: () => void;
  /** Called with the visible area after every move, for maps that load only what is in view. */
  onViewChange?: (bounds: LatLngBounds, zoom: number) => void;
  /** Extra layers (e.g. a marker cluster group). */
  children?: ReactNode;
  label: string;
}

function MapEvents({ onMapClick, onViewChange }: Pick<MapViewProps, 'onMapClick' | 'onViewChange'>) {
  const map = useMapEvents({
    click: () => onMapClick?.(),
    moveend: () => onViewChange?.(map.getBounds(), map.getZoom()),
  });
  useEffect(() => {
    onViewChange?.(map.getBounds(), map.getZoom());
  }, [map, onViewChange]);
  return null;
}

function Follow({ center }: { center: Coordinates }) {
  const map = useMap();
  useEffect(() => {
    map.setView([center.lat, center.lng], map.getZoom());
  }, [map, center.lat, center.lng]);
  return null;
}

export function MapMarkers({ markers }: { markers: MapMarker[] }) {
  return markers.map((marker) => (
    <Marker
      key={marker.key}
      position={[marker.position.lat, marker.position.lng]}
      icon={markerIcon(marker.kind)}
      title={marker.title}
      alt={marker.title}
      draggable={marker.draggable ?? false}
      // People stay visible on top of the parcels they stand next to.
      zIndexOffset={marker.kind === 'me' || marker.kind === 'runner' ? 1000 : 0}
      eventHandlers={{
        click: () => marker.onClick?.(),
        dragend: (event) => {
          const { lat, lng } = event.target.getLatLng();
          marker.onDragEnd?.({ lat, lng });
        },
      }}
    >
      {marker.popup && <Popup>{marker.popup}</Popup>}
    </Marker>
  ));
}

/** The one Leaflet map every screen uses (loaded lazily through lazy-map.tsx). */
export default function MapView(props: MapViewProps) {
  const { data: config } = useServerConfig();
  return (
    <section className="map" style={{ height: props.height }} aria-label={props.label}>
      <MapContainer
        center={[props.center.lat, props.center.lng]}
        zoom={props.zoom}
        zoomSnap={0.5}
        maxZoom={19}
        style={{ height: '100%', width: '100%' }}
      >
        {config && (
          <TileLayer
            url={config.tileUrl}
            attribution='&copy; <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a>'
          />
        )}
        <MapEvents
          {...(props.onMapClick ? { onMapClick: props.onMapClick } : {})}
          {...(props.onViewChange ? { onViewChange: props.onViewChange } : {})}
        />
        {props.follow && <Follow center={props.center} />}
        <MapMarkers markers={props.markers} />
        {props.children}
      </MapContainer>
    </section>
  );
}
