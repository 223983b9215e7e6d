import { DEFAULT_MAP_CENTRE, RUNNER_MAP } from '@csomag/domain/constants';
import type { DropPoint } from '@csomag/domain/drop-points';
import { formatWeight } from '@csomag/domain/format';
import type { ViewBounds } from '@csomag/domain/geo';
import { messages } from '@csomag/domain/messages';
import type { Coordinates, Parcel } from '@csomag/domain/parcel';
import type { LatLngBounds } from 'leaflet';
import { useCallback, useState } from 'react';
import { useDropPoints } from '../../api/attempts.ts';
import { useRunnerLiveLists } from '../../api/runner-live.ts';
import { FormError } from '../../components/form-field.tsx';
import { PickUpButton } from '../../components/pick-up-button.tsx';
import { PrecisionNotes } from '../../components/place-precision.tsx';
import { QueryError } from '../../components/query-state.tsx';
import { useWatchedPosition } from '../../lib/geolocation.ts';
import { roundedBounds } from '../../map/bounds.ts';
import type { MapFrame } from '../../map/frame.ts';
import { LazyMap } from '../../map/lazy-map.tsx';
import type { MapMarker } from '../../map/map-view.tsx';
import { destinationMarker, MarkerPopup } from '../../map/parcel-popup.tsx';
import { useDropPointReturns, useWaitingInView } from './api.ts';

/**
 * What a parcel is, which of its ends are only approximately known (a pin at a town's centre is not
 * where to go), and 'Felvétel': on its pickup pin, where the runner taps first, and on its 'Hova' pin.
 */
function ParcelActions({ parcel }: { parcel: Parcel }) {
  return (
    <>
      <PrecisionNotes pickup={parcel.senderPrecision} destination={parcel.receiverPrecision} />
      <p>
        {parcel.category} · {formatWeight(parcel.weightGrams)}
      </p>
      <PickUpButton parcelId={parcel.id} label={messages.pickUpShort} />
    </>
  );
}

function pickupMarker(parcel: Parcel, onSelect: () => void): MapMarker {
  return {
    key: `pickup-${parcel.id}`,
    kind: 'pickup',
    title: messages.mapAvailableParcel,
    position: parcel.senderCoordinates,
    onClick: onSelect,
    popup: (
      <MarkerPopup
        rows={[
          [messages.popupFrom, parcel.senderAddress],
          [messages.popupTo, parcel.receiverAddress],
        ]}
      >
        <ParcelActions parcel={parcel} />
      </MarkerPopup>
    ),
  };
}

const parcelDestination = (parcel: Parcel) =>
  destinationMarker(
    {
      id: parcel.id,
      receiverAddress: parcel.receiverAddress,
      senderUser: parcel.senderUser,
      position: parcel.receiverCoordinates,
    },
    { children: <ParcelActions parcel={parcel} /> },
  );

/**
 * A drop point (issue 28): where it is, when it is open, and how many parcels wait there to be
 * taken back to their senders (the waiting list says how).
 */
function dropPointMarker(point: DropPoint, returns: number): MapMarker {
  return {
    key: `drop-point-${point.id}`,
    kind: 'drop_point',
    title: messages.mapDropPoint,
    position: point.location,
    popup: (
      <MarkerPopup rows={[[messages.mapDropPoint, `${point.name}, ${point.address}`]]}>
        <p className="muted">
          {point.openingHours} · {point.openNow ? messages.dropPointOpenNow : messages.dropPointClosedNow}
        </p>
        {returns > 0 && <p>{messages.dropPointReturnsHere(returns)}</p>}
      </MarkerPopup>
    ),
  };
}

/**
 * SPEC §2.7: waiting parcels around me; a pickup reveals where it goes, and can be claimed there.
 * `relayMarkers`: other runners' relay offers at their meeting points ('Továbbadás'), live; put
 * there by app/runner-screens.tsx (features do not import each other).
 */
export function RunnerMapPage({ relayMarkers }: { relayMarkers: MapMarker[] }) {
  const { position, error } = useWatchedPosition();
  // Centred on the first fix only: following every fix would undo the runner's own panning and zooming.
  const [start, setStart] = useState<Coordinates | null>(null);
  if (position && !start) setStart({ lat: position.lat, lng: position.lng });
  const [view, setView] = useState<ViewBounds | null>(null);
  const onViewChange = useCallback((bounds: LatLngBounds) => setView(roundedBounds(bounds)), []);
  const waiting = useWaitingInView(view);
  const dropPoints = useDropPoints(true);
  const dropPointReturns = useDropPointReturns();
  useRunnerLiveLists();
  const [selectedId, setSelectedId] = useState<string | null>(null);
  // Both ends of the parcel just chosen, brought into view; only on the runner's own tap, so a list
  // refreshed after a pan or a zoom never moves the map by itself.
  const [reveal, setReveal] = useState<MapFrame | undefined>(undefined);
  const parcels = waiting.data?.items ?? [];
  const selected = parcels.find((parcel) => parcel.id === selectedId);
  const select = (parcel: Parcel) => {
    setSelectedId(parcel.id);
    setReveal({ reveal: [parcel.senderCoordinates, parcel.receiverCoordinates], key: parcel.id });
  };
  const markers = selected ? [parcelDestination(selected)] : [];
  markers.push(...relayMarkers);
  const returns = dropPointReturns.data?.items ?? [];
  for (const point of dropPoints.data?.items ?? []) {
    markers.push(dropPointMarker(point, returns.filter((item) => item.dropPoint.id === point.id).length));
  }
  if (position) markers.push({ key: 'me', kind: 'me', title: messages.mapYou, position });

  return (
    <section className="full-map">
      <h1 className="visually-hidden">{messages.runnerMapTitle}</h1>
      {error && <FormError message={error} />}
      {/* The map stays usable when its parcels cannot be read; the failure is said above it. */}
      {waiting.isError && <QueryError error={waiting.error} />}
      <LazyMap
        label={messages.runnerMapLabel}
        center={start ?? DEFAULT_MAP_CENTRE}
        follow={start !== null}
        zoom={RUNNER_MAP.zoom}
        height={RUNNER_MAP.height}
        markers={markers}
        grouped={parcels.map((parcel) => pickupMarker(parcel, () => select(parcel)))}
        {...(reveal ? { frame: reveal } : {})}
        onMapClick={() => {
          setSelectedId(null);
          setReveal(undefined);
        }}
        onViewChange={onViewChange}
      />
    </section>
  );
}
