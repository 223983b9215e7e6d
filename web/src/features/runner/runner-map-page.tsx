import { RUNNER_MAP } from '@csomag/domain/constants';
import { formatWeight } from '@csomag/domain/format';
import type { ViewBounds } from '@csomag/domain/geo';
import type { Parcel } from '@csomag/domain/parcel';
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

function markersFor(parcels: Parcel[], selected: Parcel | null, onSelect: (parcel: Parcel) => void): MapMarker[] {
  const markers: MapMarker[] = parcels.map((parcel) => ({
    key: `pickup-${parcel.id}`,
    kind: 'pickup',
    title: 'Elérhető',
    position: parcel.senderCoordinates,
    onClick: () => onSelect(parcel),
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
  }));
  if (selected) {
    markers.push({
      key: `destination-${selected.id}`,
      kind: 'destination',
      title: 'Hova',
      position: selected.receiverCoordinates,
      popup: (
        <div className="popup">
          <p>
            <strong>ID:</strong> <span className="mono">{selected.id}</span>
          </p>
          <p>
            <strong>Cím:</strong> {selected.receiverAddress}
          </p>
          <p>
            <strong>Feladó:</strong> {selected.senderUser}
          </p>
          <p>
            {selected.category} · {formatWeight(selected.weightGrams)}
          </p>
          <PickUpButton parcelId={selected.id} label="Felvétel" />
        </div>
      ),
    });
  }
  return markers;
}

/** SPEC §2.7: waiting parcels around me; a pickup reveals where it goes, and can be claimed there. */
export function RunnerMapPage() {
  const { position, error } = useWatchedPosition();
  const [view, setView] = useState<ViewBounds | null>(null);
  const onViewChange = useCallback((bounds: LatLngBounds) => setView(roundedBounds(bounds)), []);
  const waiting = useQuery(waitingInViewQuery(view));
  useRunnerLiveLists();
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const parcels = waiting.data?.items ?? [];
  const selected = parcels.find((parcel) => parcel.id === selectedId) ?? null;
  const markers = markersFor(parcels, selected, (parcel) => setSelectedId(parcel.id));
  if (position) markers.push({ key: 'me', kind: 'me', title: 'Ez te vagy', position });

  return (
    <section className="full-map">
      <h1 className="visually-hidden">Futártérkép</h1>
      {error && <FormError message={error} />}
      <LazyMap
        label="Futárra váró csomagok térképe"
        center={position ?? BUDAPEST}
        follow={Boolean(position)}
        zoom={RUNNER_MAP.zoom}
        height={RUNNER_MAP.height}
        markers={markers}
        onMapClick={() => setSelectedId(null)}
        onViewChange={onViewChange}
      />
    </section>
  );
}
