import { messages } from '@csomag/domain/messages';
import type { Coordinates } from '@csomag/domain/parcel';
import {
  type SavedTrip,
  type TripMatch,
  type TripPlan,
  type TripQueryInput,
  type TripRelayOffer,
  WEEKDAYS,
} from '@csomag/domain/trip-api';
import { TRAVEL_MODES } from '@csomag/domain/trips';
import { type FormEvent, lazy, Suspense, useState } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { useRunnerLiveLists } from '../../api/runner-live.ts';
import { FormError, FormField } from '../../components/form-field.tsx';
import { ParcelCard } from '../../components/parcel-list.tsx';
import { PickUpButton } from '../../components/pick-up-button.tsx';
import { QueryState } from '../../components/query-state.tsx';
import { useOfferPlaces } from '../../components/relay-offer-details.tsx';
import { SubmitButton } from '../../components/submit-button.tsx';
import { applyServerErrors, serverErrors, serverSummary } from '../../components/use-server-errors.ts';
import { useWatchedPosition } from '../../lib/geolocation.ts';
import { notify } from '../../lib/notify.ts';
import { LazyMap } from '../../map/lazy-map.tsx';
import type { MapMarker } from '../../map/map-view.tsx';
import { useDeleteTrip, useSavedTrips, useSaveTrip, useTripMatches, useUpdateTrip } from './api.ts';
import {
  EndFieldset,
  modeLabels,
  SAVE_FIELDS,
  SEARCH_FIELDS,
  savedTripOf,
  scheduleText,
  type TripEnds,
  type TripFields,
  tripDefaults,
  tripQueryOf,
  tripResolver,
  useEndPoint,
} from './trip-form.tsx';
import type { TripLine } from './trip-map-layers.tsx';
import { TripPlanSummary } from './trip-plan.tsx';
import { TripRelayOffers } from './trip-relay.tsx';

const TripMapLayers = lazy(() => import('./trip-map-layers.tsx'));

const DEPARTURES = [
  ['now', messages.tripDepartureNow],
  ['today', messages.tripDepartureToday],
  ['tomorrow', messages.tripDepartureTomorrow],
] as const;

function TripMap({
  trip,
  plan,
  matches,
  relayOffers,
}: {
  trip: { from: Coordinates; to: Coordinates };
  plan: TripPlan;
  matches: TripMatch[];
  relayOffers: TripRelayOffer[];
}) {
  const relayPlaces = useOfferPlaces(relayOffers);
  const markers: MapMarker[] = [
    { key: 'start', kind: 'runner', title: messages.tripStartMarker, position: trip.from },
    { key: 'end', kind: 'runner', title: messages.tripEndMarker, position: trip.to },
  ];
  // The rides along their stops when a timetable answered; else the trip as the estimate sees it, a straight line.
  const rides = plan.legs.flatMap((leg, index) =>
    leg.kind === 'ride' ? [{ key: `ride-${index}`, points: leg.path, style: 'ride' as const }] : [],
  );
  const lines: TripLine[] = rides.length > 0 ? rides : [{ key: 'trip', points: [trip.from, trip.to], style: 'dashed' }];
  for (const parcel of matches) {
    markers.push(
      {
        key: `pickup-${parcel.id}`,
        kind: 'pickup',
        title: messages.tripPickupMarker(parcel.senderAddress),
        position: parcel.senderCoordinates,
      },
      {
        key: `delivery-${parcel.id}`,
        kind: 'destination',
        title: messages.tripDeliveryMarker(parcel.receiverAddress),
        position: parcel.receiverCoordinates,
      },
    );
    lines.push({ key: parcel.id, points: [parcel.senderCoordinates, parcel.receiverCoordinates] });
  }
  // A relay offer: its meeting point, and the leg this runner would carry it — on to the trip's end.
  relayOffers.forEach((offer, index) => {
    markers.push({
      key: `relay-${offer.id}`,
      kind: 'relay',
      title: messages.tripRelayMarker(relayPlaces[index] ?? ''),
      position: offer.place,
    });
    lines.push({ key: `relay-${offer.id}`, points: [offer.place, trip.to] });
  });
  return (
    <LazyMap
      label={messages.tripMapLabel}
      center={trip.from}
      zoom={12}
      height="360px"
      frame={{ fit: markers.map((marker) => marker.position) }}
      markers={markers}
    >
      <Suspense fallback={null}>
        <TripMapLayers lines={lines} />
      </Suspense>
    </LazyMap>
  );
}

function Matches({ trip }: { trip: TripQueryInput }) {
  const query = useTripMatches(trip);
  if (query.isError) return null;
  return (
    <section aria-labelledby="trip-matches-title">
      <h2 id="trip-matches-title">{messages.tripMatchesTitle}</h2>
      <QueryState query={query}>
        {({ matches, relayOffers, trip: plan }) => (
          <>
            <TripPlanSummary plan={plan} />
            <TripMap trip={trip} plan={plan} matches={matches} relayOffers={relayOffers} />
            {matches.length === 0 ? (
              <p className="empty">{messages.tripMatchesEmpty}</p>
            ) : (
              <ul className="parcel-list">
                {matches.map((parcel) => (
                  <li key={parcel.id}>
                    <ParcelCard parcel={parcel} showPrecision>
                      <div className="card-actions">
                        <strong className="distance">{messages.tripAddedMinutes(parcel.addedMinutes)}</strong>
                        <PickUpButton parcelId={parcel.id} />
                      </div>
                    </ParcelCard>
                  </li>
                ))}
              </ul>
            )}
            <TripRelayOffers offers={relayOffers} />
          </>
        )}
      </QueryState>
    </section>
  );
}

/** A trip's end far from any named place: its coordinates. */
const pointText = ({ lat, lng }: { lat: number; lng: number }) => `${lat.toFixed(4)}, ${lng.toFixed(4)}`;

function SavedTripItem({ trip }: { trip: SavedTrip }) {
  const update = useUpdateTrip();
  const remove = useDeleteTrip();
  const busy = update.isPending || remove.isPending;
  async function togglePaused() {
    try {
      const saved = await update.mutateAsync({ id: trip.id, paused: !trip.paused });
      notify.success(saved.paused ? messages.savedTripPaused(saved.label) : messages.savedTripResumed(saved.label));
    } catch (error) {
      notify.error(error);
    }
  }
  async function onDelete() {
    try {
      const deleted = await remove.mutateAsync(trip);
      notify.success(messages.savedTripDeleted(deleted.label));
    } catch (error) {
      notify.error(error);
    }
  }
  const toggleText = trip.paused ? messages.savedTripResume : messages.savedTripPause;
  return (
    <li>
      <article className="card" aria-label={trip.label}>
        <p>
          <strong>{trip.label}</strong> · {scheduleText(trip.weekdays, trip.time)}
          {trip.paused && (
            <>
              {' '}
              <span className="status status-waiting">{messages.savedTripPausedBadge}</span>
            </>
          )}
        </p>
        <p className="route">
          {messages.savedTripRoute(trip.fromPlace ?? pointText(trip.from), trip.toPlace ?? pointText(trip.to))}
        </p>
        <p className="muted">{messages.savedTripMode(modeLabels[trip.mode], trip.maxDetourMinutes)}</p>
        <div className="card-actions">
          <button
            type="button"
            className="button"
            disabled={busy}
            aria-label={messages.savedTripActionLabel(toggleText, trip.label)}
            onClick={() => void togglePaused()}
          >
            {toggleText}
          </button>
          <button
            type="button"
            className="button"
            disabled={busy}
            aria-label={messages.savedTripActionLabel(messages.savedTripDelete, trip.label)}
            onClick={() => void onDelete()}
          >
            {messages.savedTripDelete}
          </button>
        </div>
      </article>
    </li>
  );
}

function SavedTrips() {
  const query = useSavedTrips();
  return (
    <section aria-labelledby="saved-trips-title">
      <h2 id="saved-trips-title">{messages.savedTripsTitle}</h2>
      <QueryState query={query} empty={messages.savedTripsEmpty} isEmpty={(data) => data.items.length === 0}>
        {(data) => (
          <ul className="parcel-list">
            {data.items.map((trip) => (
              <SavedTripItem key={trip.id} trip={trip} />
            ))}
          </ul>
        )}
      </QueryState>
    </section>
  );
}

/** Issue 13: a runner says where they are going and sees the waiting parcels on the way; regular trips are saved. */
export function TripPage() {
  useRunnerLiveLists();
  // The resolver's context, read when a button asks for a check: where the ends are, as far as
  // they are known now (set below, once the fields say how each end is given).
  const [ends] = useState<TripEnds>(() => ({ from: null, to: null }));
  const form = useForm<TripFields, TripEnds>({ defaultValues: tripDefaults(), resolver: tripResolver, context: ends });
  const { errors } = form.formState;
  const [from, to, departure] = useWatch({ control: form.control, name: ['from', 'to', 'departure'] });
  const usesPosition = from.source === 'here' || to.source === 'here';
  const { position, error: positionError } = useWatchedPosition(usesPosition);
  const here = position ? { lat: position.lat, lng: position.lng } : null;
  const fromPoint = useEndPoint(from, here);
  const toPoint = useEndPoint(to, here);
  ends.from = fromPoint.point;
  ends.to = toPoint.point;

  const [trip, setTrip] = useState<TripQueryInput | null>(null);
  const matches = useTripMatches(trip);
  const save = useSaveTrip();

  // The search is a query: the server's refusal of it stands while it is the one shown. A trip's
  // field shows the form's own words first (the domain's check, or a refused save).
  const searchRefusal = matches.isError ? serverErrors(matches.error) : { fields: {}, summary: null };
  const tripError = (field: (typeof SEARCH_FIELDS)[number]) => errors[field]?.message ?? searchRefusal.fields[field];

  async function onSearch(event: FormEvent) {
    event.preventDefault();
    // A new search starts afresh: a refused save's words go too.
    form.clearErrors();
    if (!(await form.trigger(SEARCH_FIELDS))) return;
    const next = tripQueryOf(form.getValues(), ends);
    // The same search again asks again: 'now' has moved on, parcels came and went, a timetable was loaded.
    if (trip && JSON.stringify(next) === JSON.stringify(trip)) void matches.refetch();
    else setTrip(next);
  }

  async function onSave(event: FormEvent) {
    event.preventDefault();
    form.clearErrors('root');
    const body = (await form.trigger(SAVE_FIELDS)) ? savedTripOf(form.getValues(), ends) : null;
    if (!body) return;
    try {
      const saved = await save.mutateAsync(body);
      notify.success(messages.tripSaved(saved.label, scheduleText(saved.weekdays, saved.time)));
      form.resetField('label');
    } catch (error) {
      applyServerErrors(error, form.setError);
    }
  }

  const departureError = tripError('departure');
  const modeError = tripError('mode');
  const weekdaysError = errors.weekdays?.message;

  return (
    <section className="page">
      <h1>{messages.tripTitle}</h1>
      <p>{messages.tripIntro}</p>
      <form className="form" onSubmit={onSearch} noValidate>
        <EndFieldset
          control={form.control}
          name="from"
          legend={messages.tripFromLegend}
          addressLabel={messages.tripFromAddressLabel}
          resolved={fromPoint}
          hereText={messages.tripPositionKnown}
          positionError={positionError}
          error={tripError('from')}
        />
        <EndFieldset
          control={form.control}
          name="to"
          legend={messages.tripToLegend}
          addressLabel={messages.tripToAddressLabel}
          resolved={toPoint}
          hereText={messages.tripPositionKnownTo}
          positionError={positionError}
          error={tripError('to')}
        />
        <fieldset className="card" aria-describedby={departureError ? 'trip-departure-error' : undefined}>
          <legend>{messages.tripDepartureLegend}</legend>
          <div className="card-actions">
            {DEPARTURES.map(([kind, text]) => (
              <label key={kind}>
                <input type="radio" value={kind} {...form.register('departure')} /> {text}
              </label>
            ))}
          </div>
          {departure !== 'now' && (
            <FormField label={messages.tripDepartureTimeLabel} type="time" {...form.register('departureTime')} />
          )}
          {departureError && (
            <p id="trip-departure-error" className="field-error" role="alert">
              {departureError}
            </p>
          )}
        </fieldset>
        <fieldset className="card" aria-describedby={modeError ? 'trip-mode-error' : undefined}>
          <legend>{messages.tripModeLegend}</legend>
          <div className="card-actions">
            {TRAVEL_MODES.map((value) => (
              <label key={value}>
                <input type="radio" value={value} {...form.register('mode')} /> {modeLabels[value]}
              </label>
            ))}
          </div>
          {modeError && (
            <p id="trip-mode-error" className="field-error" role="alert">
              {modeError}
            </p>
          )}
        </fieldset>
        <FormField
          label={messages.tripDetourLabel}
          type="number"
          inputMode="numeric"
          min={1}
          max={120}
          error={tripError('maxDetourMinutes')}
          {...form.register('maxDetourMinutes', { valueAsNumber: true })}
        />
        <FormError message={searchRefusal.summary} />
        {/* Busy for a new search only: a live refresh of the shown matches must not swallow a tap. */}
        <SubmitButton busy={matches.isFetching && !matches.isRefetching}>{messages.tripSearchSubmit}</SubmitButton>
      </form>

      {trip && <Matches trip={trip} />}

      <section aria-labelledby="trip-save-title">
        <h2 id="trip-save-title">{messages.tripSaveTitle}</h2>
        <p className="muted">{messages.tripSaveHelp}</p>
        <form className="form card" onSubmit={onSave} noValidate>
          <FormField
            label={messages.tripSaveLabelLabel}
            placeholder={messages.tripSaveLabelPlaceholder}
            autoComplete="off"
            error={errors.label?.message}
            {...form.register('label')}
          />
          <fieldset aria-describedby={weekdaysError ? 'trip-weekdays-error' : undefined}>
            <legend>{messages.tripSaveWeekdaysLegend}</legend>
            <Controller
              control={form.control}
              name="weekdays"
              render={({ field: { value: weekdays, onChange } }) => (
                <div className="card-actions">
                  {WEEKDAYS.map((day) => (
                    <label key={day}>
                      <input
                        type="checkbox"
                        checked={weekdays.includes(day)}
                        onChange={(event) =>
                          onChange(
                            event.target.checked
                              ? [...weekdays, day].sort((a, b) => a - b)
                              : weekdays.filter((d) => d !== day),
                          )
                        }
                      />{' '}
                      {messages.tripWeekdayName(day)}
                    </label>
                  ))}
                </div>
              )}
            />
            {weekdaysError && (
              <p id="trip-weekdays-error" className="field-error" role="alert">
                {weekdaysError}
              </p>
            )}
          </fieldset>
          <FormField
            label={messages.tripSaveTimeLabel}
            type="time"
            error={errors.time?.message}
            {...form.register('time')}
          />
          <FormError message={serverSummary(errors)} />
          <SubmitButton busy={save.isPending}>{messages.tripSaveSubmit}</SubmitButton>
        </form>
      </section>

      <SavedTrips />
    </section>
  );
}
