import { DEFAULT_MAP_CENTRE } from '@csomag/domain/constants';
import { budapestDateTimeInput, timetableClock } from '@csomag/domain/format';
import { distanceMetres } from '@csomag/domain/geo';
import { messages } from '@csomag/domain/messages';
import type { Coordinates } from '@csomag/domain/parcel';
import { type RelayOffer, type RelayOfferBody, relayOfferBodySchema } from '@csomag/domain/relay';
import { lazy, Suspense, useState } from 'react';
import { type Resolver, useForm, useWatch } from 'react-hook-form';
import { useDropPoints } from '../../api/attempts.ts';
import { useReverseGeocode } from '../../api/geocode.ts';
import { useRelayOffers } from '../../api/relay-offers.ts';
import { FormError, FormField } from '../../components/form-field.tsx';
import { refused } from '../../components/form-resolver.ts';
import { nearestPlaceName } from '../../components/place-precision.tsx';
import { offerClock, useOfferPlace } from '../../components/relay-offer-details.tsx';
import { applyServerErrors, serverSummary } from '../../components/use-server-errors.ts';
import { fromBudapestInput } from '../../lib/budapest-input.ts';
import { useWatchedPosition } from '../../lib/geolocation.ts';
import { LazyMap } from '../../map/lazy-map.tsx';
import { useCreateRelayOffer, useRelayMeetingPoints, useWithdrawRelayOffer } from './api.ts';

const PickOnClick = lazy(() => import('./relay-offer-map-layers.tsx'));

/** The default window: from now for two hours. */
const WINDOW_HOURS = 2;

/** A suggested meeting's window: from a little before both can be there until a little after. */
const MEETING_BEFORE_MS = 10 * 60_000;
const MEETING_AFTER_MS = 20 * 60_000;

/**
 * Stops where the runner's saved trip and other runners' trips meet in the window (issue 26): each
 * fills the form with its stop, name and a window round the time both can be there.
 */
function MeetingPoints({
  parcelId,
  window,
  onChoose,
}: {
  parcelId: string;
  window: { from: string; until: string } | null;
  onChoose: (point: { name: string; position: Coordinates; at: string }) => void;
}) {
  const query = useRelayMeetingPoints(parcelId, window);
  const data = query.data;
  if (!data) return null;
  const empty =
    data.reason === 'no_trip'
      ? messages.relayMeetingNoTrip
      : data.reason === 'no_timetable' || data.points.length === 0
        ? messages.relayMeetingEmpty
        : null;
  return (
    <section aria-label={messages.relayMeetingTitle}>
      <h3>{messages.relayMeetingTitle}</h3>
      {empty ? (
        <p className="muted">{empty}</p>
      ) : (
        <>
          <p className="muted">{messages.relayMeetingIntro}</p>
          <ul className="trip-legs">
            {data.points.map((point) => (
              <li key={`${point.name}-${point.at}`}>
                {messages.relayMeetingPoint(point.name, timetableClock(point.at), point.runners)}{' '}
                <button type="button" className="button" onClick={() => onChoose(point)}>
                  {messages.relayMeetingUse(point.name)}
                </button>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}

/** How many drop points are offered as meeting points: the nearest. */
const DROP_POINTS_SHOWN = 5;

/**
 * Drop points as meeting points (issue 28): a known, sheltered place, the nearest to the runner
 * first; each fills the form with its point and name.
 */
function DropPointMeetings({
  near,
  onChoose,
}: {
  near: Coordinates | null;
  onChoose: (point: { name: string; position: Coordinates }) => void;
}) {
  const points = useDropPoints(true).data?.items ?? [];
  if (points.length === 0) return null;
  const nearest = near
    ? [...points].sort((a, b) => distanceMetres(near, a.location) - distanceMetres(near, b.location))
    : points;
  return (
    <section aria-label={messages.relayDropPointsTitle}>
      <h3>{messages.relayDropPointsTitle}</h3>
      <p className="muted">{messages.relayDropPointsIntro}</p>
      <ul className="trip-legs">
        {nearest.slice(0, DROP_POINTS_SHOWN).map((point) => (
          <li key={point.id}>
            {point.name}, {point.address} ({point.openingHours}){' '}
            <button
              type="button"
              className="button"
              onClick={() => onChoose({ name: point.name, position: point.location })}
            >
              {messages.relayDropPointUse(point.name)}
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The form as the runner fills it in; the domain's schema checks the offer they make. */
interface OfferFields {
  /** The point tapped or dragged to; until then the runner's position stands for it (the form's context). */
  place: Coordinates | null;
  placeLabel: string;
  /** datetime-local values, Budapest time. */
  from: string;
  until: string;
}

/** The offer the fields make, checked with relayOfferBodySchema (in Hungary, not over, not too long). */
const offerResolver: Resolver<OfferFields, Coordinates | null, RelayOfferBody> = (fields, position, options) => {
  const place = fields.place ?? position ?? null;
  if (!place) return refused([{ path: ['place'], message: messages.relayOfferNoPoint }], options);
  const label = fields.placeLabel.trim();
  const offer = {
    place,
    ...(label ? { placeLabel: label } : {}),
    from: fromBudapestInput(fields.from),
    until: fromBudapestInput(fields.until),
  };
  const checked = relayOfferBodySchema.safeParse(offer);
  return checked.success ? { values: checked.data, errors: {} } : refused(checked.error.issues, options);
};

/**
 * 'Továbbadnám': where (a tap on the map; the runner's position until they tap) and when (Budapest
 * time). The domain's schema checks it all — in Hungary, not over, not too long — here first and
 * again on the server, each refusal beside its field.
 */
function RelayOfferForm({ parcelId, onDone }: { parcelId: string; onDone: () => void }) {
  const create = useCreateRelayOffer();
  const { position } = useWatchedPosition();
  const here = position ? { lat: position.lat, lng: position.lng } : null;
  const form = useForm<OfferFields, Coordinates | null, RelayOfferBody>({
    resolver: offerResolver,
    context: here,
    defaultValues: {
      place: null,
      placeLabel: '',
      from: budapestDateTimeInput(Date.now()),
      until: budapestDateTimeInput(Date.now() + WINDOW_HOURS * 3_600_000),
    },
  });
  const { errors, isSubmitting } = form.formState;
  const picked = useWatch({ control: form.control, name: 'place' });
  const place = picked ?? here;
  // The point tapped or dragged to, named as the offer will be read (the moving position is not asked about).
  const near = useReverseGeocode(picked);
  const pick = (point: Coordinates) => form.setValue('place', point);
  // Centred on the first point known: following it would undo the runner's own panning.
  const [centre, setCentre] = useState<Coordinates | null>(null);
  if (place && !centre) setCentre(place);

  const [windowFrom, windowUntil] = useWatch({ control: form.control, name: ['from', 'until'] });
  const meetingWindow = (() => {
    const [from, until] = [fromBudapestInput(windowFrom), fromBudapestInput(windowUntil)];
    return Number.isNaN(Date.parse(from)) || Number.isNaN(Date.parse(until)) || from >= until ? null : { from, until };
  })();
  const chooseMeeting = (point: { name: string; position: Coordinates; at: string }) => {
    const at = Date.parse(point.at);
    form.setValue('place', point.position);
    form.setValue('placeLabel', point.name);
    form.setValue('from', budapestDateTimeInput(Math.max(Date.now(), at - MEETING_BEFORE_MS)));
    form.setValue('until', budapestDateTimeInput(at + MEETING_AFTER_MS));
    setCentre(point.position);
  };

  const chooseDropPoint = (point: { name: string; position: Coordinates }) => {
    form.setValue('place', point.position);
    form.setValue('placeLabel', point.name);
    setCentre(point.position);
  };

  const submit = form.handleSubmit(async (offer) => {
    try {
      await create.mutateAsync({ parcelId, ...offer });
      onDone();
    } catch (error) {
      applyServerErrors(error, form.setError);
    }
  });

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
                  onDragEnd: pick,
                },
              ]
            : []
        }
      >
        <Suspense fallback={null}>
          <PickOnClick onPick={pick} />
        </Suspense>
      </LazyMap>
      <p className="muted" aria-live="polite">
        {place
          ? messages.relayOfferPointChosen(place.lat.toFixed(5), place.lng.toFixed(5))
          : messages.relayOfferNoPoint}
      </p>
      <p className="muted live-region" aria-live="polite">
        {picked && near.data ? nearestPlaceName(near.data) : null}
      </p>
      <FormError message={errors.place?.message} />
      <FormField
        label={messages.relayOfferPlaceLabel}
        error={errors.placeLabel?.message}
        {...form.register('placeLabel')}
      />
      <FormField
        label={messages.relayOfferFromLabel}
        type="datetime-local"
        error={errors.from?.message}
        {...form.register('from')}
      />
      <FormField
        label={messages.relayOfferUntilLabel}
        type="datetime-local"
        error={errors.until?.message}
        {...form.register('until')}
      />
      <MeetingPoints parcelId={parcelId} window={meetingWindow} onChoose={chooseMeeting} />
      <DropPointMeetings near={here} onChoose={chooseDropPoint} />
      <FormError message={serverSummary(errors)} />
      <div className="card-actions">
        <button type="submit" className="button primary" disabled={isSubmitting}>
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
  const place = useOfferPlace(offer);
  return (
    <div className="card-actions column" aria-live="polite">
      <p>
        <strong>{messages.relayOfferMine(place, offerClock(offer.from), offerClock(offer.until))}</strong>
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
