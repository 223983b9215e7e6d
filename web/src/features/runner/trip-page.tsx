import { messages } from '@csomag/domain/messages';
import type { Coordinates } from '@csomag/domain/parcel';
import type { SavedTrip, TripMatch, TripQueryInput, TripRelayOffer } from '@csomag/domain/trip-api';
import { TRAVEL_MODES, TRIP_DETOUR_DEFAULT_MINUTES, type TravelMode } from '@csomag/domain/trips';
import { type FormEvent, lazy, Suspense, useState } from 'react';
import { FormError, FormField } from '../../components/form-field.tsx';
import { ParcelCard } from '../../components/parcel-list.tsx';
import { QueryState } from '../../components/query-state.tsx';
import { SubmitButton } from '../../components/submit-button.tsx';
import { serverErrors } from '../../components/use-server-errors.ts';
import { useWatchedPosition } from '../../lib/geolocation.ts';
import { notify } from '../../lib/notify.ts';
import { LazyMap } from '../../map/lazy-map.tsx';
import type { MapMarker } from '../../map/map-view.tsx';
import { useDeleteTrip, useRunnerLiveLists, useSavedTrips, useSaveTrip, useTripMatches, useUpdateTrip } from './api.ts';
import { PickUpButton } from './pick-up-button.tsx';
import { offerPlace } from './relay-offer-text.tsx';
import {
  type DepartureKind,
  departureValue,
  EndFieldset,
  type EndInput,
  emptyEnd,
  modeLabels,
  scheduleText,
  useEndPoint,
} from './trip-form.tsx';
import type { TripLine } from './trip-map-layers.tsx';
import { TripRelayOffers } from './trip-relay.tsx';

const TripMapLayers = lazy(() => import('./trip-map-layers.tsx'));

/** The trip fields the server may name: each error goes beside its own field ('from.lat' is 'from'). */
type TripField = 'from' | 'to' | 'departure' | 'mode' | 'maxDetourMinutes';
type SaveField = 'label' | 'weekdays' | 'time';

const fieldOf = (name: string) => name.split('.')[0] ?? name;

function byField(error: unknown): { fields: Record<string, string>; summary: string | null } {
  const { fields, summary } = serverErrors(error);
  const top: Record<string, string> = {};
  for (const [name, message] of Object.entries(fields)) top[fieldOf(name)] ??= message;
  return { fields: top, summary };
}

const hhmm = (at: Date) => `${String(at.getHours()).padStart(2, '0')}:${String(at.getMinutes()).padStart(2, '0')}`;

/** The detour field as typed: a number, or the text itself so the server says what is wrong with it. */
const detourValue = (text: string) => (text.trim() === '' || Number.isNaN(Number(text)) ? text : Number(text));

function TripMap({
  trip,
  matches,
  relayOffers,
}: {
  trip: { from: Coordinates; to: Coordinates };
  matches: TripMatch[];
  relayOffers: TripRelayOffer[];
}) {
  const markers: MapMarker[] = [
    { key: 'start', kind: 'runner', title: messages.tripStartMarker, position: trip.from },
    { key: 'end', kind: 'runner', title: messages.tripEndMarker, position: trip.to },
  ];
  const lines: TripLine[] = [{ key: 'trip', points: [trip.from, trip.to], dashed: true }];
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
  for (const offer of relayOffers) {
    markers.push({
      key: `relay-${offer.id}`,
      kind: 'relay',
      title: messages.tripRelayMarker(offerPlace(offer)),
      position: offer.place,
    });
    lines.push({ key: `relay-${offer.id}`, points: [offer.place, trip.to] });
  }
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
        {({ matches, relayOffers, trip: { minutes } }) => (
          <>
            <p className="muted">{messages.tripMinutes(minutes)}</p>
            <TripMap trip={trip} matches={matches} relayOffers={relayOffers} />
            {matches.length === 0 ? (
              <p className="empty">{messages.tripMatchesEmpty}</p>
            ) : (
              <ul className="parcel-list">
                {matches.map((parcel) => (
                  <li key={parcel.id}>
                    <ParcelCard parcel={parcel}>
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
  const [from, setFrom] = useState<EndInput>(emptyEnd('here'));
  const [to, setTo] = useState<EndInput>(emptyEnd('address'));
  const usesPosition = from.source === 'here' || to.source === 'here';
  const { position, error: positionError } = useWatchedPosition(usesPosition);
  const here = position ? { lat: position.lat, lng: position.lng } : null;
  const fromPoint = useEndPoint(from, here);
  const toPoint = useEndPoint(to, here);
  const [departure, setDeparture] = useState<DepartureKind>('now');
  const [departureTime, setDepartureTime] = useState(() => hhmm(new Date()));
  const [mode, setMode] = useState<TravelMode>('transit');
  const [detour, setDetour] = useState(String(TRIP_DETOUR_DEFAULT_MINUTES));
  const [missing, setMissing] = useState<{ from?: boolean; to?: boolean }>({});
  const [trip, setTrip] = useState<TripQueryInput | null>(null);
  const matches = useTripMatches(trip);

  const [label, setLabel] = useState('');
  const [weekdays, setWeekdays] = useState<number[]>([1, 2, 3, 4, 5]);
  const [saveTime, setSaveTime] = useState(() => hhmm(new Date()));
  const save = useSaveTrip();
  const [saveError, setSaveError] = useState<unknown>(null);

  const searchErrors = matches.isError ? byField(matches.error) : { fields: {}, summary: null };
  const saveErrors = saveError ? byField(saveError) : { fields: {}, summary: null };
  const tripError = (field: TripField) => saveErrors.fields[field] ?? searchErrors.fields[field];
  const saveFieldError = (field: SaveField) => saveErrors.fields[field];
  const pointMissing = (end: 'from' | 'to') => (missing[end] ? messages.tripPointMissing : undefined);

  /** The points, or null (each missing one said at its fieldset). */
  function points() {
    const gap = { from: !fromPoint.point, to: !toPoint.point };
    setMissing(gap);
    return fromPoint.point && toPoint.point ? { from: fromPoint.point, to: toPoint.point } : null;
  }

  function onSearch(event: FormEvent) {
    event.preventDefault();
    setSaveError(null);
    const ends = points();
    if (!ends) return;
    setTrip({
      ...ends,
      mode,
      departure: departureValue(departure, departureTime),
      maxDetourMinutes: detourValue(detour) as number,
    });
  }

  async function onSave(event: FormEvent) {
    event.preventDefault();
    setSaveError(null);
    const ends = points();
    if (!ends) return;
    try {
      const saved = await save.mutateAsync({
        ...ends,
        mode,
        maxDetourMinutes: detourValue(detour) as number,
        label,
        weekdays,
        time: saveTime,
      });
      notify.success(messages.tripSaved(saved.label, scheduleText(saved.weekdays, saved.time)));
      setLabel('');
    } catch (error) {
      setSaveError(error);
    }
  }

  const detourError = tripError('maxDetourMinutes');
  const departureError = tripError('departure');
  const modeError = tripError('mode');

  return (
    <section className="page">
      <h1>{messages.tripTitle}</h1>
      <p>{messages.tripIntro}</p>
      <form className="form" onSubmit={onSearch} noValidate>
        <EndFieldset
          name="from"
          legend={messages.tripFromLegend}
          addressLabel={messages.tripFromAddressLabel}
          end={from}
          onChange={setFrom}
          resolved={fromPoint}
          hereText={messages.tripPositionKnown}
          positionError={positionError}
          error={pointMissing('from') ?? tripError('from')}
        />
        <EndFieldset
          name="to"
          legend={messages.tripToLegend}
          addressLabel={messages.tripToAddressLabel}
          end={to}
          onChange={setTo}
          resolved={toPoint}
          hereText={messages.tripPositionKnownTo}
          positionError={positionError}
          error={pointMissing('to') ?? tripError('to')}
        />
        <fieldset className="card" aria-describedby={departureError ? 'trip-departure-error' : undefined}>
          <legend>{messages.tripDepartureLegend}</legend>
          <div className="card-actions">
            {(
              [
                ['now', messages.tripDepartureNow],
                ['today', messages.tripDepartureToday],
                ['tomorrow', messages.tripDepartureTomorrow],
              ] as const
            ).map(([kind, text]) => (
              <label key={kind}>
                <input
                  type="radio"
                  name="trip-departure"
                  value={kind}
                  checked={departure === kind}
                  onChange={() => setDeparture(kind)}
                />{' '}
                {text}
              </label>
            ))}
          </div>
          {departure !== 'now' && (
            <FormField
              label={messages.tripDepartureTimeLabel}
              type="time"
              value={departureTime}
              onChange={(event) => setDepartureTime(event.target.value)}
            />
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
                <input
                  type="radio"
                  name="trip-mode"
                  value={value}
                  checked={mode === value}
                  onChange={() => setMode(value)}
                />{' '}
                {modeLabels[value]}
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
          value={detour}
          error={detourError}
          onChange={(event) => setDetour(event.target.value)}
        />
        <FormError message={searchErrors.summary} />
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
            value={label}
            error={saveFieldError('label')}
            onChange={(event) => setLabel(event.target.value)}
          />
          <fieldset aria-describedby={saveFieldError('weekdays') ? 'trip-weekdays-error' : undefined}>
            <legend>{messages.tripSaveWeekdaysLegend}</legend>
            <div className="card-actions">
              {[1, 2, 3, 4, 5, 6, 7].map((day) => (
                <label key={day}>
                  <input
                    type="checkbox"
                    checked={weekdays.includes(day)}
                    onChange={(event) =>
                      setWeekdays((days) =>
                        event.target.checked ? [...days, day].sort((a, b) => a - b) : days.filter((d) => d !== day),
                      )
                    }
                  />{' '}
                  {messages.tripWeekdayName(day)}
                </label>
              ))}
            </div>
            {saveFieldError('weekdays') && (
              <p id="trip-weekdays-error" className="field-error" role="alert">
                {saveFieldError('weekdays')}
              </p>
            )}
          </fieldset>
          <FormField
            label={messages.tripSaveTimeLabel}
            type="time"
            value={saveTime}
            error={saveFieldError('time')}
            onChange={(event) => setSaveTime(event.target.value)}
          />
          <FormError message={saveErrors.summary} />
          <SubmitButton busy={save.isPending}>{messages.tripSaveSubmit}</SubmitButton>
        </form>
      </section>

      <SavedTrips />
    </section>
  );
}
