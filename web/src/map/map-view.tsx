import { messages } from '@csomag/domain/messages';
import type { Coordinates } from '@csomag/domain/parcel';
import 'leaflet/dist/leaflet.css';
import type { LatLngBounds, LatLngTuple, Marker as LeafletMarker } from 'leaflet';
import { createContext, lazy, type ReactNode, Suspense, use, useEffect, useMemo, useRef } from 'react';
import { MapContainer, Marker, Popup, TileLayer, useMap, useMapEvents, ZoomControl } from 'react-leaflet';
import { useServerConfig } from '../api/config.ts';
import { roundedBounds } from './bounds.ts';
import { applyFrame, frameKey, type MapFrame } from './frame.ts';
import { type MarkerKind, markerIcon } from './markers.ts';

// The clustering library loads only with a map that groups markers.
const GroupedMarkers = lazy(() => import('./grouped-markers.tsx'));

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
  /** Markers that may cover each other (parcels at one address): drawn as one counted pin that spreads out on a tap. */
  grouped?: MapMarker[];
  /** Re-centre when the centre changes (e.g. the runner's first position fix). */
  follow?: boolean;
  /** What the map shows of its points (map/frame.ts): applied again when it changes, or when its `key` does. */
  frame?: MapFrame;
  /** A tap on the map itself (not on a marker or a control), with the point tapped. */
  onMapClick?: (position: Coordinates) => void;
  /** Called with the visible area once the map has settled after a move, for maps that load only what is in view. */
  onViewChange?: (bounds: LatLngBounds, zoom: number) => void;
  /** Extra layers (e.g. a marker cluster group). */
  children?: ReactNode;
  label: string;
}

/** A fling or a zoom is several moves in a row: the view is reported once the map has rested this long. */
const SETTLE_MS = 300;

function MapEvents({ onMapClick, onViewChange }: Pick<MapViewProps, 'onMapClick' | 'onViewChange'>) {
  const map = useMapEvents({ click: (event) => onMapClick?.({ lat: event.latlng.lat, lng: event.latlng.lng }) });
  useEffect(() => {
    if (!onViewChange) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let reported = '';
    const report = () => {
      // Rounded as the queries are, so a nudge of a few pixels or a move back asks for nothing new.
      const view = JSON.stringify({ ...roundedBounds(map.getBounds()), zoom: map.getZoom() });
      if (view === reported) return;
      reported = view;
      onViewChange(map.getBounds(), map.getZoom());
    };
    const settle = () => {
      clearTimeout(timer);
      timer = setTimeout(report, SETTLE_MS);
    };
    const moving = () => clearTimeout(timer);
    report();
    map.on({ movestart: moving, moveend: settle });
    return () => {
      clearTimeout(timer);
      map.off({ movestart: moving, moveend: settle });
    };
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

function Frame({ frame }: { frame: MapFrame }) {
  const map = useMap();
  const key = frameKey(frame);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the frame's key, not its identity, moves the map
  useEffect(() => {
    // A frame later: a popup opened by the same tap has laid out its content by then (frame.ts makes room for it).
    const id = requestAnimationFrame(() => applyFrame(map, frame));
    return () => cancelAnimationFrame(id);
  }, [map, key]);
  return null;
}

/**
 * react-leaflet re-lays out an open popup whenever its children are a new element — on every render
 * of the page — and Leaflet then pans the map to it again; that pan reports a new view, whose answer
 * renders the page again. So the content reaches the popup through context: the popup itself only
 * lays out (and pans) when it opens.
 */
const PopupContent = createContext<ReactNode>(null);
function PopupBody() {
  return use(PopupContent);
}
const popupBody = <PopupBody />;

function Pin({ marker }: { marker: MapMarker }) {
  const { lat, lng } = marker.position;
  // A new array on every render would move the marker each time (re-panning to its open popup, re-clustering it).
  const position = useMemo<LatLngTuple>(() => [lat, lng], [lat, lng]);
  // Leaflet reads a marker's title only when it is made: a title learnt later (a place's name, once
  // asked) is written to the pin it is on.
  const ref = useRef<LeafletMarker>(null);
  useEffect(() => {
    const pin = ref.current;
    if (!pin) return;
    pin.options.title = marker.title;
    pin.options.alt = marker.title;
    const element = pin.getElement();
    element?.setAttribute('title', marker.title);
    element?.setAttribute('alt', marker.title);
  }, [marker.title]);
  return (
    <PopupContent value={marker.popup}>
      <Marker
        ref={ref}
        position={position}
        icon={markerIcon(marker.kind)}
        title={marker.title}
        alt={marker.title}
        draggable={marker.draggable ?? false}
        // A courier stays visible on top of the parcels they carry past; the runner's own pin goes
        // under the parcels and groups around them, which they must be able to tap (issue 27 item 7).
        zIndexOffset={marker.kind === 'runner' ? 1000 : marker.kind === 'me' ? -1000 : 0}
        eventHandlers={{
          click: () => marker.onClick?.(),
          dragend: (event) => {
            const { lat, lng } = event.target.getLatLng();
            marker.onDragEnd?.({ lat, lng });
          },
        }}
      >
        {marker.popup && <Popup>{popupBody}</Popup>}
      </Marker>
    </PopupContent>
  );
}

export function MapMarkers({ markers }: { markers: MapMarker[] }) {
  return markers.map((marker) => <Pin key={marker.key} marker={marker} />);
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
        // Leaflet's own zoom buttons are named in English: these say it in the product's language.
        zoomControl={false}
        style={{ height: '100%', width: '100%' }}
      >
        <ZoomControl zoomInTitle={messages.mapZoomIn} zoomOutTitle={messages.mapZoomOut} />
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
        {props.frame && <Frame frame={props.frame} />}
        <MapMarkers markers={props.markers} />
        {props.grouped && (
          <Suspense fallback={null}>
            <GroupedMarkers markers={props.grouped} />
          </Suspense>
        )}
        {props.children}
      </MapContainer>
    </section>
  );
}
