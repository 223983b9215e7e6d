import { TRACKING_MAP } from '@csomag/domain/constants';
import { formatTimestamp, formatWeight } from '@csomag/domain/format';
import { messages } from '@csomag/domain/messages';
import { parcelEventLabels, parcelStatusLabels, type TrackingView } from '@csomag/domain/parcel';
import { paths } from '@csomag/domain/paths';
import { Link, useParams } from 'react-router';
import { ApiError, errorMessage } from '../../api/client.ts';
import { Loading } from '../../components/loading.tsx';
import { StatusBadge } from '../../components/status-badge.tsx';
import { LazyMap } from '../../map/lazy-map.tsx';
import type { MapMarker } from '../../map/map-view.tsx';
import { useTracking } from './api.ts';

function trackingMarkers(parcel: TrackingView): MapMarker[] {
  const markers: MapMarker[] = [
    { key: 'pickup', kind: 'pickup', position: parcel.pickup, title: 'Felvételi pont' },
    { key: 'destination', kind: 'destination', position: parcel.destination, title: 'Kiszállítási pont' },
  ];
  // SPEC §2.5: the runner is shown while the parcel travels, never once it is delivered.
  if (parcel.status === 'in_transit' && parcel.runnerPosition) {
    markers.push({ key: 'runner', kind: 'runner', position: parcel.runnerPosition, title: 'A futárod' });
  }
  return markers;
}

export function TrackingPage() {
  const parcelId = useParams().packageId ?? '';
  const { data: parcel, error, isPending } = useTracking(parcelId);
  // The frame shows at once (the page is rendered at build time too); the parcel's data follows.
  return (
    <section className="page">
      <div className="page-head">
        <h1>Csomagkövetés</h1>
        <Link className="button" to={paths.trackingSearch}>
          Vissza a kereséshez
        </Link>
      </div>
      {isPending ? (
        <Loading />
      ) : parcel ? (
        <ParcelTracking parcel={parcel} />
      ) : (
        <p role="alert" className="form-error">
          {error instanceof ApiError && error.status === 404 ? messages.parcelNotFound : errorMessage(error)}
        </p>
      )}
    </section>
  );
}

function ParcelTracking({ parcel }: { parcel: TrackingView }) {
  return (
    <>
      <div className="tracking">
        <dl className="card details" aria-label="A csomag adatai">
          <dt>ID</dt>
          <dd className="mono">{parcel.id}</dd>
          <dt>Státusz</dt>
          <dd>
            <StatusBadge status={parcel.status} />
          </dd>
          <dt>Kategória</dt>
          <dd>{parcel.category}</dd>
          <dt>Súly</dt>
          <dd>{formatWeight(parcel.weightGrams)}</dd>
          <dt>Feladó</dt>
          <dd>{parcel.senderUser}</dd>
          {parcel.status === 'in_transit' && parcel.runner && (
            <>
              <dt>Futár</dt>
              <dd>{parcel.runner}</dd>
            </>
          )}
          <dt>Feladva</dt>
          <dd>{formatTimestamp(parcel.createdAt)}</dd>
          {parcel.pickedUpAt && (
            <>
              <dt>Felvéve</dt>
              <dd>{formatTimestamp(parcel.pickedUpAt)}</dd>
            </>
          )}
          {parcel.deliveredAt && (
            <>
              <dt>Leadva</dt>
              <dd>{formatTimestamp(parcel.deliveredAt)}</dd>
            </>
          )}
        </dl>
        <section className="card timeline" aria-labelledby="timeline-title">
          <h2 id="timeline-title">Előzmények</h2>
          <ol>
            {parcel.events.map((event, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: the timeline only ever grows at its end
              <li key={`${index}-${event.kind}`}>
                <time dateTime={event.at}>{formatTimestamp(event.at)}</time> {parcelEventLabels[event.kind]}
              </li>
            ))}
          </ol>
          <p className="muted">
            Jelenlegi státusz: <strong>{parcelStatusLabels[parcel.status]}</strong>
          </p>
        </section>
      </div>
      <LazyMap
        label="A csomag térképe"
        center={parcel.pickup}
        zoom={TRACKING_MAP.zoom}
        height={TRACKING_MAP.height}
        markers={trackingMarkers(parcel)}
      />
    </>
  );
}
