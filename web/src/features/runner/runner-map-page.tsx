import { RUNNER_MAP } from '@csomag/domain/constants';
import { formatWeight } from '@csomag/domain/format';
import type { ViewBounds } from '@csomag/domain/geo';
import type { Coordinates, Parcel } from '@csomag/domain/parcel';
import { useQuery } from '@tanstack/react-query';
import type { LatLngBounds } from 'leaflet';
import { useCallback, useState } from 'react';
import { FormError } from '../../components/form-field.tsx';
import { useWatchedPosition } from '../../lib/geolocation.ts';
import { roundedBounds } from '../../map/bounds.ts';
import { LazyMap } from '../../map/lazy-map.tsx';
import type { MapMarker } from '../../map/map-view.tsx';
import { useRunnerLiveLists, waitingInViewQuery } from './api.ts';
import { PickUpButton } from './pick-up-button.tsx';

const BUDAPEST = { lat: 47.4979, lng: 19.0402 };

function pickupMarker(parcel: Parcel, onSelect: () => void): MapMarker {
  return {
    key: `pickup-${parcel.id}`,
    kind: 'pickup',
    title: 'Elérhető',
    position: parcel.senderCoordinates,
    onClick: onSelect,
    popup: (
      <div className="popup">
        <p>
          <strong>Honnan:</strong> {parcel.senderAddress}
        </p>
        <p>
          <strong>Hova:</strong> {parcel.receiverAddress}
        </p>
      </div>
    ),
  };
}

function destinationMarker(parcel: Parcel): MapMarker {
  return {
    key: `destination-${parcel.id}`,
    kind: 'destination',
    title: 'Hova',
    position: parcel.receiverCoordinates,
    popup: (
      <div className="popup">
        <p>
          <strong>ID:</strong> <span className="mono">{parcel.id}</span>
        </p>
        <p>
          <strong>Cím:</strong> {parcel.receiverAddress}
        </p>
        <p>
          <strong>Feladó:</strong> {parcel.senderUser}
        </p>
        <p>
          {parcel.category} · {formatWeight(parcel.weightGrams)}
        </p>
        <PickUpButton parcelId={parcel.id} label="Felvétel" />
      </div>
    ),
  };
}

/** SPEC §2.7: waiting parcels around me; a pickup reveals where it goes, and can be claimed there. */
export function RunnerMapPage() {
  const { position, error } = useWatchedPosition();
  // Centred on the first fix only: following every fix would undo the runner's own panning and zooming.
  const [start, setStart] = useState<Coordinates | null>(null);
  if (position && !start) setStart({ lat: position.lat, lng: position.lng });
  const [view, setView] = useState<ViewBounds | null>(null);
  const onViewChange = useCallback((bounds: LatLngBounds) => setView(roundedBounds(bounds)), []);
  const waiting = useQuery(waitingInViewQuery(view));
  useRunnerLiveLists();
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const parcels = waiting.data?.items ?? [];
  const selected = parcels.find((parcel) => parcel.id === selectedId);
  const markers = selected ? [destinationMarker(selected)] : [];
  if (position) markers.push({ key: 'me', kind: 'me', title: 'Ez te vagy', position });

  return (
    <section className="full-map">
      <h1 className="visually-hidden">Futártérkép</h1>
      {error && <FormError message={error} />}
      <LazyMap
        label="Futárra váró csomagok térképe"
        center={start ?? BUDAPEST}
        follow={start !== null}
        zoom={RUNNER_MAP.zoom}
        height={RUNNER_MAP.height}
        markers={markers}
        grouped={parcels.map((parcel) => pickupMarker(parcel, () => setSelectedId(parcel.id)))}
        onMapClick={() => setSelectedId(null)}
        onViewChange={onViewChange}
      />
    </section>
  );
}
