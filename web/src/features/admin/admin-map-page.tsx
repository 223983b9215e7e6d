import type { MapCluster, MapQuery, MapMarker as ParcelPin } from '@csomag/domain/admin';
import { ADMIN_MAP } from '@csomag/domain/constants';
import { messages } from '@csomag/domain/messages';
import { paths } from '@csomag/domain/paths';
import { useQuery } from '@tanstack/react-query';
import L, { type LatLngBounds } from 'leaflet';
import { useCallback, useState } from 'react';
import { Marker, useMap } from 'react-leaflet';
import MarkerClusterGroup from 'react-leaflet-cluster';
import 'react-leaflet-cluster/dist/assets/MarkerCluster.css';
import 'react-leaflet-cluster/dist/assets/MarkerCluster.Default.css';
import { Link } from 'react-router';
import { errorMessage } from '../../api/client.ts';
import { FormError } from '../../components/form-field.tsx';
import { roundedBounds } from '../../map/bounds.ts';
import MapView, { type MapMarker, MapMarkers } from '../../map/map-view.tsx';
import { mapQuery, useAdminLive } from './api.ts';

function Details({ parcelId }: { parcelId: string }) {
  return <Link to={paths.adminEditParcel(parcelId)}>Részletek</Link>;
}

function pickupMarker(pin: ParcelPin, onSelect: () => void): MapMarker {
  return {
    key: `pickup-${pin.id}`,
    kind: 'pickup',
    title: 'Felvételi pont',
    position: pin.pickup,
    onClick: onSelect,
    popup: (
      <div className="popup">
        <p>
          <strong>Kiszállítási cím:</strong> {pin.receiverAddress}
        </p>
        <Details parcelId={pin.id} />
      </div>
    ),
  };
}

function destinationMarker(pin: ParcelPin): MapMarker {
  return {
    key: `destination-${pin.id}`,
    kind: 'destination',
    title: 'Hova',
    position: pin.destination,
    popup: (
      <div className="popup">
        <p>
          <strong>ID:</strong> <span className="mono">{pin.id}</span>
        </p>
        <p>
          <strong>Cím:</strong> {pin.receiverAddress}
        </p>
        <p>
          <strong>Feladó:</strong> {pin.senderUser}
        </p>
        <p>
          <strong>Futár:</strong> {pin.runner ?? messages.waitingForRunner}
        </p>
        <Details parcelId={pin.id} />
      </div>
    ),
  };
}

/** A server-side cluster: a grid cell's parcels drawn as one counted bubble. */
function clusterIcon(count: number) {
  const size = count < 100 ? 36 : count < 10_000 ? 44 : 54;
  return L.divIcon({
    html: `<span>${count.toLocaleString('hu-HU')}</span>`,
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
      title={`${cluster.count} csomag`}
      alt={`${cluster.count} csomag`}
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
  const result = useQuery(mapQuery(view));
  useAdminLive([['map']]);
  const onViewChange = useCallback((bounds: LatLngBounds, zoom: number) => {
    setView({ ...roundedBounds(bounds), zoom: Math.round(zoom) });
  }, []);
  const data = result.data;
  const pins = data?.mode === 'markers' ? data.markers : [];
  const selected = pins.find((pin) => pin.id === selectedId);

  return (
    <section className="full-map">
      <h1 className="visually-hidden">Térkép</h1>
      {result.isError && <FormError message={errorMessage(result.error)} />}
      {data && (
        <p className="map-total" role="status">
          {data.total.toLocaleString('hu-HU')} csomag a térképen
        </p>
      )}
      <MapView
        label="Csomagok térképe"
        center={ADMIN_MAP.center}
        zoom={ADMIN_MAP.zoom}
        height={ADMIN_MAP.height}
        markers={selected ? [destinationMarker(selected)] : []}
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
