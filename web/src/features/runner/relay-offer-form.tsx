import { DEFAULT_MAP_CENTRE } from '@csomag/domain/constants';
import { budapestDateTimeInput } from '@csomag/domain/format';
import { messages } from '@csomag/domain/messages';
import type { Coordinates } from '@csomag/domain/parcel';
import type { RelayOffer } from '@csomag/domain/relay';
import { lazy, Suspense, useState } from 'react';
import { FormError, FormField } from '../../components/form-field.tsx';
import { serverErrors } from '../../components/use-server-errors.ts';
import { useWatchedPosition } from '../../lib/geolocation.ts';
import { LazyMap } from '../../map/lazy-map.tsx';
import { useCreateRelayOffer, useRelayOffers, useWithdrawRelayOffer } from './api.ts';
import { fromBudapestInput, offerClock, offerPlace } from './relay-offer-text.tsx';

const PickOnClick = lazy(() => import('./relay-offer-map-layers.tsx'));

/** The default window: from now for two hours. */
const WINDOW_HOURS = 2;

/**
 * 'Továbbadnám': where (a tap on the map; the runner's position until they tap) and when (Budapest
 * time). The server checks it all — in Hungary, not over, not too long — and says what is wrong.
 */
function RelayOfferForm({ parcelId, onDone }: { parcelId: string; onDone: () => void }) {
  const create = useCreateRelayOffer();
  const { position } = useWatchedPosition();
  const [picked, setPicked] = useState<Coordinates | null>(null);
  const [label, setLabel] = useState('');
  const [from, setFrom] = useState(() => budapestDateTimeInput(Date.now()));
  const [until, setUntil] = useState(() => budapestDateTimeInput(Date.now() + WINDOW_HOURS * 3_600_000));
  const place = picked ?? (position ? { lat: position.lat, lng: position.lng } : null);
  const [missingPlace, setMissingPlace] = useState(false);
  // Centred on the first point known: following it would undo the runner's own panning.
  const [centre, setCentre] = useState<Coordinates | null>(null);
  if (place && !centre) setCentre(place);

  const { fields, summary } = create.error ? serverErrors(create.error) : { fields: {}, summary: null };
  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    if (!place) return setMissingPlace(true);
    setMissingPlace(false);
    create.mutate(
      {
        parcelId,
        place,
        ...(label.trim() ? { placeLabel: label.trim() } : {}),
        from: fromBudapestInput(from),
        until: fromBudapestInput(until),
      },
      { onSuccess: onDone },
    );
  };
  const placeError = fields.place ?? fields['place.lat'] ?? fields['place.lng'];

  return (
    <form className="form" onSubmit={submit} noValidate aria-label={messages.relayOfferFormTitle}>
      <p className="muted">{messages.relayOfferFormHint}</p>
      <LazyMap
        label={messages.relayOfferMapLabel}
        center={centre ?? DEFAULT_MAP_CENTRE}
        follow={centre !== null}
        zoom={15}
        height="260px"
        markers={
          place
            ? [
                {
                  key: 'meeting-point',
                  kind: 'relay',
                  title: messages.relayOfferMeetingPoint,
                  position: place,
                  draggable: true,
                  onDragEnd: setPicked,
                },
              ]
            : []
        }
      >
        <Suspense fallback={null}>
          <PickOnClick onPick={setPicked} />
        </Suspense>
      </LazyMap>
      <p className="muted" aria-live="polite">
        {place
          ? messages.relayOfferPointChosen(place.lat.toFixed(5), place.lng.toFixed(5))
          : messages.relayOfferNoPoint}
      </p>
      <FormError message={placeError ?? (missingPlace ? messages.relayOfferNoPoint : null)} />
      <FormField
        label={messages.relayOfferPlaceLabel}
        value={label}
        error={fields.placeLabel}
        onChange={(event) => setLabel(event.target.value)}
      />
      <FormField
        label={messages.relayOfferFromLabel}
        type="datetime-local"
        value={from}
        error={fields.from}
        onChange={(event) => setFrom(event.target.value)}
      />
      <FormField
        label={messages.relayOfferUntilLabel}
        type="datetime-local"
        value={until}
        error={fields.until}
        onChange={(event) => setUntil(event.target.value)}
      />
      <FormError message={summary} />
      <div className="card-actions">
        <button type="submit" className="button primary" disabled={create.isPending}>
          {messages.relayOfferSubmit}
        </button>
        <button type="button" className="button" onClick={onDone}>
          {messages.cancelButton}
        </button>
      </div>
    </form>
  );
}

/** The carrier's own open offer on the card: where and when, who reserved it, and 'Visszavonás'. */
function OwnRelayOffer({ offer }: { offer: RelayOffer }) {
  const withdraw = useWithdrawRelayOffer();
  return (
    <div className="card-actions column" aria-live="polite">
      <p>
        <strong>{messages.relayOfferMine(offerPlace(offer), offerClock(offer.from), offerClock(offer.until))}</strong>
      </p>
      <p className="muted">
        {offer.takenBy ? messages.relayOfferReservedBy(offer.takenBy) : messages.relayOfferNotReservedYet}
      </p>
      <button
        type="button"
        className="button"
        disabled={withdraw.isPending}
        onClick={() => withdraw.mutate(offer.parcelId)}
      >
        {messages.relayOfferWithdraw}
      </button>
    </div>
  );
}

/**
 * On an in-progress card: the runner's open offer for the parcel, or 'Továbbadnám'. An open offer
 * of a parcel the runner carries is theirs: an offer ends when its parcel changes hands.
 */
export function RelayOfferAction({ parcelId }: { parcelId: string }) {
  const offers = useRelayOffers();
  const [offering, setOffering] = useState(false);
  const own = offers.data?.items.find((offer) => offer.parcelId === parcelId);
  if (own && !offering) return <OwnRelayOffer offer={own} />;
  return (
    <div className="card-actions column">
      {!offering && (
        <button type="button" className="button" onClick={() => setOffering(true)}>
          {messages.relayOfferOpen}
        </button>
      )}
      {offering && <RelayOfferForm parcelId={parcelId} onDone={() => setOffering(false)} />}
    </div>
  );
}
