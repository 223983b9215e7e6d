import { RUNNER_MAP } from '@csomag/domain/constants';
import { formatWeight } from '@csomag/domain/format';
import type { ViewBounds } from '@csomag/domain/geo';
import { messages } from '@csomag/domain/messages';
import type { Coordinates, Parcel } from '@csomag/domain/parcel';
import type { LatLngBounds } from 'leaflet';
import { useCallback, useState } from 'react';
import { FormError } from '../../components/form-field.tsx';
import { QueryError } from '../../components/query-state.tsx';
import { useWatchedPosition } from '../../lib/geolocation.ts';
import { roundedBounds } from '../../map/bounds.ts';
import { LazyMap } from '../../map/lazy-map.tsx';
import type { MapMarker } from '../../map/map-view.tsx';
import { useRunnerLiveLists, useWaitingInView } from './api.ts';
import { PickUpButton } from './pick-up-button.tsx';

const BUDAPEST = { lat: 47.4979, lng: 19.0402 };

function pickupMarker(parcel: Parcel, onSelect: () => void): MapMarker {
  return {
    key: `pickup-${parcel.id}`,
    kind: 'pickup',
    title: messages.mapAvailableParcel,
    position: parcel.senderCoordinates,
    onClick: onSelect,
    popup: (
      <div className="popup">
        <p>
          <strong>{messages.popupFrom}</strong> {parcel.senderAddress}
        </p>
        <p>
          <strong>{messages.popupTo}</strong> {parcel.receiverAddress}
        </p>
      </div>
    ),
  };
}

function destinationMarker(parcel: Parcel): MapMarker {
  return {
    key: `destination-${parcel.id}`,
    kind: 'destination',
    title: messages.mapParcelDestination,
    position: parcel.receiverCoordinates,
    popup: (
      <div className="popup">
        <p>
          <strong>{messages.popupId}</strong> <span className="mono">{parcel.id}</span>
        </p>
        <p>
          <strong>{messages.popupAddress}</strong> {parcel.receiverAddress}
        </p>
        <p>
          <strong>{messages.popupSender}</strong> {parcel.senderUser}
        </p>
        <p>
          {parcel.category} · {formatWeight(parcel.weightGrams)}
        </p>
        <PickUpButton parcelId={parcel.id} label={messages.pickUpShort} />
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
  const waiting = useWaitingInView(view);
  useRunnerLiveLists();
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const parcels = waiting.data?.items ?? [];
  const selected = parcels.find((parcel) => parcel.id === selectedId);
  const markers = selected ? [destinationMarker(selected)] : [];
  if (position) markers.push({ key: 'me', kind: 'me', title: messages.mapYou, position });

  return (
    <section className="full-map">
      <h1 className="visually-hidden">{messages.runnerMapTitle}</h1>
      {error && <FormError message={error} />}
      {/* The map stays usable when its parcels cannot be read; the failure is said above it. */}
      {waiting.isError && <QueryError error={waiting.error} />}
      <LazyMap
        label={messages.runnerMapLabel}
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
