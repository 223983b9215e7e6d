import { TRACKING_MAP } from '@csomag/domain/constants';
import { formatTimestamp, formatWeight } from '@csomag/domain/format';
import { messages } from '@csomag/domain/messages';
import type { TrackingView } from '@csomag/domain/parcel';
import { parcelStateLabels } from '@csomag/domain/parcel-states';
import { paths } from '@csomag/domain/paths';
import { memo, useDeferredValue, useEffect, useState } from 'react';
import { ApiError, errorMessage } from '../../api/client.ts';
import { useSession } from '../../api/session.ts';
import { eventLabel } from '../../components/event-label.ts';
import { Loading } from '../../components/loading.tsx';
import { PrecisionNotes } from '../../components/place-precision.tsx';
import { QueryState } from '../../components/query-state.tsx';
import { RatingSummaryText } from '../../components/ratings/rating-summary.tsx';
import { returnNotice } from '../../components/return-notice.ts';
import { RichText } from '../../components/rich-text.tsx';
import { StatusBadge } from '../../components/status-badge.tsx';
import { holdsReceiverLink } from '../../lib/code-link.ts';
import { Link, useLocation, useParams } from '../../lib/router.tsx';
import { LazyMap } from '../../map/lazy-map.tsx';
import type { MapMarker } from '../../map/map-view.tsx';
import { useTracking } from './api.ts';

function trackingMarkers(parcel: TrackingView): MapMarker[] {
  const markers: MapMarker[] = [
    { key: 'pickup', kind: 'pickup', position: parcel.pickup, title: messages.mapPickupPoint },
    { key: 'destination', kind: 'destination', position: parcel.destination, title: messages.mapDestinationPoint },
  ];
  // SPEC §2.5: the runner is shown while the parcel travels, never once it is delivered.
  if (parcel.status === 'in_transit' && parcel.runnerPosition) {
    markers.push({ key: 'runner', kind: 'runner', position: parcel.runnerPosition, title: messages.mapYourRunner });
  }
  return markers;
}

/**
 * A step kept offline and sent later: then the server's time is said beside the person's. Every
 * action carries its own time (the outbox), a second or so before the server's when sent at once.
 */
const SENT_LATER_MS = 60_000;
const sentLater = ({ at, occurredAt }: { at: string; occurredAt?: string | null | undefined }) =>
  Boolean(occurredAt) && Date.parse(at) - Date.parse(occurredAt ?? at) >= SENT_LATER_MS;

/*
 * What a parcel's parties do here — its attempts with their photos, a new time, the hand-over code —
 * loads for them only (a signed-in person, or the receiver by their mail's link; the server decides
 * what each may read). A stranger opening a shared link reads the parcel and its map, and loads no
 * forms and no schema library (docs/decisions/0008-small-first-download.md).
 */
type PartiesModule = typeof import('./parties-parts.tsx');
let partiesModule: Promise<PartiesModule> | undefined;

function ForParties({ parcel }: { parcel: TrackingView }) {
  const { data: account } = useSession();
  const { hash } = useLocation();
  const party = Boolean(account) || holdsReceiverLink(parcel.id, hash);
  const [parts, setParts] = useState<PartiesModule | null>(null);
  useEffect(() => {
    if (!party) return;
    let current = true;
    partiesModule ??= import('./parties-parts.tsx');
    partiesModule
      .then((module) => current && setParts(module))
      .catch(() => {
        partiesModule = undefined;
      });
    return () => {
      current = false;
    };
  }, [party]);
  if (party) return parts ? <parts.PartiesParts parcel={parcel} /> : null;
  const notice = returnNotice(parcel.state);
  return notice ? (
    <section className="attempts">
      <p className="notice">
        <strong>{notice}</strong>
      </p>
    </section>
  ) : null;
}

/** A mistyped id reads as no such parcel, in this screen's words; anything else in the server's. */
const notFoundOrError = (error: unknown) =>
  error instanceof ApiError && error.code === 'parcel_not_found' ? messages.parcelNotFound : errorMessage(error);

export function TrackingPage() {
  const parcelId = useParams().packageId ?? '';
  const tracking = useTracking(parcelId);
  // The frame shows at once (the page is rendered at build time too); the parcel's data follows.
  return (
    <section className="page">
      <div className="page-head">
        <h1>{messages.trackingTitle}</h1>
        <Link className="button" to={paths.trackingSearch}>
          {messages.backToTrackingSearch}
        </Link>
      </div>
      <QueryState query={tracking} describeError={notFoundOrError}>
        {(parcel) => <DeferredParcelTracking parcel={parcel} />}
      </QueryState>
    </section>
  );
}

/**
 * The parcel is drawn in a transition once it arrives (and again when it changes): React works in
 * slices a phone can answer a tap between, rather than one long task; the page shows what it
 * showed until then. A read that brings the same parcel draws nothing again.
 */
function DeferredParcelTracking({ parcel }: { parcel: TrackingView }) {
  const shown = useDeferredValue<TrackingView | null>(parcel, null);
  return shown ? <ParcelTracking parcel={shown} /> : <Loading />;
}

const ParcelTracking = memo(function ParcelTracking({ parcel }: { parcel: TrackingView }) {
  const markers = trackingMarkers(parcel);
  return (
    <>
      <div className="tracking">
        <dl className="card details" aria-label={messages.parcelDetailsLabel}>
          <dt>{messages.parcelIdLabel}</dt>
          <dd className="mono">{parcel.id}</dd>
          <dt>{messages.statusLabel}</dt>
          <dd>
            <StatusBadge state={parcel.state} />
          </dd>
          <dt>{messages.categoryLabel}</dt>
          <dd>{parcel.category}</dd>
          <dt>{messages.weightLabel}</dt>
          <dd>{formatWeight(parcel.weightGrams)}</dd>
          <dt>{messages.senderLabel}</dt>
          <dd>{parcel.senderUser}</dd>
          {parcel.status === 'in_transit' && parcel.runner && (
            <>
              <dt>{messages.runnerLabel}</dt>
              <dd>{parcel.runner}</dd>
              <dt>{messages.trackingRunnerRating}</dt>
              <dd>
                <RatingSummaryText rating={parcel.runnerRating} />
              </dd>
            </>
          )}
          {parcel.dropPoint && (
            <>
              <dt>{messages.mapDropPoint}</dt>
              <dd>
                {parcel.dropPoint.name}, {parcel.dropPoint.address}
              </dd>
            </>
          )}
          <dt>{messages.sentAtLabel}</dt>
          <dd>{formatTimestamp(parcel.createdAt)}</dd>
          {parcel.pickedUpAt && (
            <>
              <dt>{messages.pickedUpAtLabel}</dt>
              <dd>{formatTimestamp(parcel.pickedUpAt)}</dd>
            </>
          )}
          {parcel.deliveredAt && (
            <>
              <dt>{messages.deliveredAtLabel}</dt>
              <dd>{formatTimestamp(parcel.deliveredAt)}</dd>
            </>
          )}
        </dl>
        <section className="card timeline" aria-labelledby="timeline-title">
          <h2 id="timeline-title">{messages.timelineTitle}</h2>
          <ol>
            {parcel.events.map((event, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: the timeline only ever grows at its end
              <li key={`${index}-${event.kind}`}>
                {/* The time the runner says it happened (sent later from their outbox), the server's beside it. */}
                <time dateTime={event.occurredAt ?? event.at}>{formatTimestamp(event.occurredAt ?? event.at)}</time>{' '}
                {eventLabel(event)}
                {sentLater(event) && (
                  <span className="muted"> {messages.eventReceivedAt(formatTimestamp(event.at))}</span>
                )}
              </li>
            ))}
          </ol>
          <p className="muted">
            <RichText
              text={messages.currentStatus}
              values={[<strong key="status">{parcelStateLabels[parcel.state]}</strong>]}
            />
          </p>
        </section>
      </div>
      <ForParties parcel={parcel} />
      <PrecisionNotes
        pickup={parcel.pickupPrecision}
        destination={parcel.destinationPrecision}
        describeDestination={messages.trackingDestinationKnownOnly}
      />
      <LazyMap
        label={messages.trackingMapLabel}
        center={parcel.pickup}
        zoom={TRACKING_MAP.zoom}
        height={TRACKING_MAP.height}
        markers={markers}
        // Every end in view; framed again when the courier appears or goes, not at each of their moves.
        frame={{ fit: markers.map((marker) => marker.position), key: markers.map((marker) => marker.key).join() }}
      />
    </>
  );
});
