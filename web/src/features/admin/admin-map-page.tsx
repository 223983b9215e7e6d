import type { MapCluster, MapQuery, MapMarker as ParcelPin } from '@csomag/domain/admin';
import { ADMIN_MAP } from '@csomag/domain/constants';
import { messages } from '@csomag/domain/messages';
import { paths } from '@csomag/domain/paths';
import L, { type LatLngBounds } from 'leaflet';
import { useCallback, useState } from 'react';
import { Marker, useMap } from 'react-leaflet';
import MarkerClusterGroup from 'react-leaflet-cluster';
import 'react-leaflet-cluster/dist/assets/MarkerCluster.css';
import 'react-leaflet-cluster/dist/assets/MarkerCluster.Default.css';
import { QueryError } from '../../components/query-state.tsx';
import { numberLocale } from '../../lib/language.ts';
import { Link } from '../../lib/router.tsx';
import { roundedBounds } from '../../map/bounds.ts';
import MapView, { type MapMarker, MapMarkers } from '../../map/map-view.tsx';
import { destinationMarker, MarkerPopup } from '../../map/parcel-popup.tsx';
import { useAdminLive, useMapView } from './api.ts';

function Details({ parcelId }: { parcelId: string }) {
  return <Link to={paths.adminEditParcel(parcelId)}>{messages.adminMapDetails}</Link>;
}

function pickupMarker(pin: ParcelPin, onSelect: () => void): MapMarker {
  return {
    key: `pickup-${pin.id}`,
    kind: 'pickup',
    title: messages.mapPickupPoint,
    position: pin.pickup,
    onClick: onSelect,
    popup: (
      <MarkerPopup rows={[[messages.adminMapPopupReceiverAddress, pin.receiverAddress]]}>
        <Details parcelId={pin.id} />
      </MarkerPopup>
    ),
  };
}

const pinDestination = (pin: ParcelPin) =>
  destinationMarker(
    { id: pin.id, receiverAddress: pin.receiverAddress, senderUser: pin.senderUser, position: pin.destination },
    {
      rows: [[messages.adminMapPopupRunner, pin.runner ?? messages.waitingForRunner]],
      children: <Details parcelId={pin.id} />,
    },
  );

/** A server-side cluster: a grid cell's parcels drawn as one counted bubble. */
function clusterIcon(count: number) {
  const size = count < 100 ? 36 : count < 10_000 ? 44 : 54;
  return L.divIcon({
    html: `<span>${count.toLocaleString(numberLocale())}</span>`,
    className: 'parcel-cluster',
    iconSize: [size, size],
  });
}

function ServerClusters({ clusters }: { clusters: MapCluster[] }) {
  const map = useMap();
  return clusters.map((cluster) => (
    <Marker
      key={`${cluster.lat},${cluster.lng}`}
      position={[cluster.lat, cluster.lng]}
      icon={clusterIcon(cluster.count)}
      title={messages.adminMapCluster(cluster.count)}
      alt={messages.adminMapCluster(cluster.count)}
      eventHandlers={{ click: (event) => map.setView(event.latlng, map.getZoom() + 2) }}
    />
  ));
}

/**
 * SPEC §2.8 admin map. The server sends only what is in view: the parcels themselves when few,
 * counted grid cells when many — so it stays usable at a million parcels. Live.
 */
export function AdminMapPage() {
  const [view, setView] = useState<MapQuery | null>(null);
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const result = useMapView(view);
  useAdminLive([['map']]);
  const onViewChange = useCallback((bounds: LatLngBounds, zoom: number) => {
    setView({ ...roundedBounds(bounds), zoom: Math.round(zoom) });
  }, []);
  const data = result.data;
  const pins = data?.mode === 'markers' ? data.markers : [];
  const selected = pins.find((pin) => pin.id === selectedId);

  return (
    <section className="full-map">
      <h1 className="visually-hidden">{messages.adminMapTitle}</h1>
      {/* The map stays usable when a view fails to load: the error shows above it. */}
      {result.isError && <QueryError error={result.error} />}
      {data && (
        <p className="map-total" role="status">
          {messages.adminMapTotal(data.total.toLocaleString(numberLocale()))}
        </p>
      )}
      <MapView
        label={messages.adminMapLabel}
        center={ADMIN_MAP.center}
        zoom={ADMIN_MAP.zoom}
        height={ADMIN_MAP.height}
        markers={selected ? [pinDestination(selected)] : []}
        onMapClick={() => setSelectedId(null)}
        onViewChange={onViewChange}
      >
        {data?.mode === 'clusters' && <ServerClusters clusters={data.clusters} />}
        <MarkerClusterGroup chunkedLoading>
          <MapMarkers markers={pins.map((pin) => pickupMarker(pin, () => setSelectedId(pin.id)))} />
        </MarkerClusterGroup>
      </MapView>
    </section>
  );
}
