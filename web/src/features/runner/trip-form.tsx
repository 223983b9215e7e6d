import { DEFAULT_MAP_CENTRE } from '@csomag/domain/constants';
import { messages } from '@csomag/domain/messages';
import type { Coordinates } from '@csomag/domain/parcel';
import type { TravelMode } from '@csomag/domain/trips';
import { lazy, Suspense } from 'react';
import { errorMessage } from '../../api/client.ts';
import { useGeocode } from '../../api/geocode.ts';
import { FormField } from '../../components/form-field.tsx';
import { LazyMap } from '../../map/lazy-map.tsx';

const TripMapLayers = lazy(() => import('./trip-map-layers.tsx'));

export type EndSource = 'address' | 'map' | 'here';

/** One end of the trip as the runner gives it: an address, a point on the map, or where they are. */
export interface EndInput {
  source: EndSource;
  address: string;
  picked: Coordinates | null;
}

export const emptyEnd = (source: EndSource): EndInput => ({ source, address: '', picked: null });

export const modeLabels: Record<TravelMode, string> = {
  walk: messages.tripModeWalk,
  bike: messages.tripModeBike,
  transit: messages.tripModeTransit,
};

/** Where an end is, once it is known: the geocoded address, the picked point or the device's position. */
export function useEndPoint(end: EndInput, position: Coordinates | null) {
  const geocode = useGeocode(end.source === 'address' ? end.address : '');
  if (end.source === 'map') return { point: end.picked, label: null, failure: undefined };
  if (end.source === 'here') return { point: position, label: null, failure: undefined };
  return {
    point: geocode.data ? { lat: geocode.data.lat, lng: geocode.data.lng } : null,
    label: geocode.data?.label ?? null,
    failure: geocode.isError ? errorMessage(geocode.error) : undefined,
  };
}

const sourceLabels: Record<EndSource, string> = {
  address: messages.tripSourceAddress,
  map: messages.tripSourceMap,
  here: messages.tripSourceHere,
};

/** 'Honnan indulsz?' or 'Hova mész?': the way to give the point, then the point. */
export function EndFieldset({
  name,
  legend,
  addressLabel,
  end,
  onChange,
  resolved,
  hereText,
  positionError,
  error,
}: {
  name: 'from' | 'to';
  legend: string;
  addressLabel: string;
  end: EndInput;
  onChange: (end: EndInput) => void;
  resolved: ReturnType<typeof useEndPoint>;
  hereText: string;
  positionError: string | null;
  /** The server's (or the form's) words about this end. */
  error: string | undefined;
}) {
  const errorId = `trip-${name}-error`;
  const fieldError = error ?? resolved.failure;
  return (
    <fieldset className="card" aria-describedby={fieldError ? errorId : undefined}>
      <legend>{legend}</legend>
      <div className="card-actions">
        {(Object.keys(sourceLabels) as EndSource[]).map((source) => (
          <label key={source}>
            <input
              type="radio"
              name={`trip-${name}-source`}
              value={source}
              checked={end.source === source}
              onChange={() => onChange({ ...end, source })}
            />{' '}
            {sourceLabels[source]}
          </label>
        ))}
      </div>
      {end.source === 'address' && (
        <>
          <FormField
            id={`trip-${name}-address`}
            label={addressLabel}
            autoComplete="off"
            placeholder={messages.tripAddressPlaceholder}
            value={end.address}
            onChange={(event) => onChange({ ...end, address: event.target.value })}
          />
          {resolved.label && <p className="muted">{messages.tripPointFound(resolved.label)}</p>}
        </>
      )}
      {end.source === 'map' && (
        <>
          <p className="muted">{messages.tripPickMapHint}</p>
          <LazyMap
            label={messages.tripPickMapLabel(legend)}
            center={end.picked ?? DEFAULT_MAP_CENTRE}
            zoom={12}
            height="260px"
            markers={
              end.picked
                ? [
                    {
                      key: 'picked',
                      kind: 'runner',
                      title: legend,
                      position: end.picked,
                      draggable: true,
                      onDragEnd: (picked) => onChange({ ...end, picked }),
                    },
                  ]
                : []
            }
          >
            <Suspense fallback={null}>
              <TripMapLayers onPick={(picked) => onChange({ ...end, picked })} />
            </Suspense>
          </LazyMap>
          {end.picked && (
            <p className="muted">{messages.tripPointChosen(end.picked.lat.toFixed(5), end.picked.lng.toFixed(5))}</p>
          )}
        </>
      )}
      {end.source === 'here' && (
        <p className="muted">{positionError ?? (resolved.point ? hereText : messages.tripPositionPending)}</p>
      )}
      {fieldError && (
        <p id={errorId} className="field-error" role="alert">
          {fieldError}
        </p>
      )}
    </fieldset>
  );
}

export type DepartureKind = 'now' | 'today' | 'tomorrow';

/** The departure as the API takes it: 'now', or the local time today or tomorrow as an ISO instant. */
export function departureValue(kind: DepartureKind, time: string): string {
  if (kind === 'now') return 'now';
  const match = /^(\d{1,2}):(\d{2})$/.exec(time);
  // Not a time: sent as it is, and the server says what is wrong with it.
  if (!match) return time;
  const at = new Date();
  at.setDate(at.getDate() + (kind === 'tomorrow' ? 1 : 0));
  at.setHours(Number(match[1]), Number(match[2]), 0, 0);
  return at.toISOString();
}

/** A saved trip's days and time as people say them: 'Hétköznap 7:40', 'Minden nap 18:05', 'H, Sze 9:00'. */
export function scheduleText(weekdays: readonly number[], time: string): string {
  const days = [...new Set(weekdays)].sort((a, b) => a - b).join(',');
  const named: Record<string, string> = {
    '1,2,3,4,5': messages.tripWeekdaysWork,
    '6,7': messages.tripWeekdaysWeekend,
    '1,2,3,4,5,6,7': messages.tripWeekdaysEvery,
  };
  const text =
    named[days] ??
    days
      .split(',')
      .map((day) => messages.tripWeekdayShort(Number(day)))
      .join(', ');
  return messages.savedTripSchedule(text, time.replace(/^0(\d)/, '$1'));
}
