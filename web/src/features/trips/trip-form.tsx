import { DEFAULT_MAP_CENTRE } from '@csomag/domain/constants';
import { messages } from '@csomag/domain/messages';
import type { Coordinates } from '@csomag/domain/parcel';
import {
  type SavedTripBodyInput,
  savedTripBodySchema,
  type TripQueryInput,
  tripQuerySchema,
  WORKDAYS,
} from '@csomag/domain/trip-api';
import { TRIP_DETOUR_DEFAULT_MINUTES, type TravelMode } from '@csomag/domain/trips';
import { lazy, Suspense } from 'react';
import { type Control, type Resolver, useController } from 'react-hook-form';
import { errorMessage } from '../../api/client.ts';
import { useGeocode } from '../../api/geocode.ts';
import { FormField } from '../../components/form-field.tsx';
import { type FieldIssue, refused, schemaIssues } from '../../components/form-resolver.ts';
import { approximateBy } from '../../components/place-precision.tsx';
import { LazyMap } from '../../map/lazy-map.tsx';

const TripMapLayers = lazy(() => import('./trip-map-layers.tsx'));

/*
 * The trip page's form (react-hook-form): its fields, how they become the two requests — the
 * search (POST /api/trips/matches) and saving the trip (POST /api/me/trips) — and the domain's
 * checks of both, each refusal beside its field before anything is sent.
 */

export type EndSource = 'address' | 'map' | 'here';

/** One end of the trip as the runner gives it: an address, a point on the map, or where they are. */
export interface EndInput {
  source: EndSource;
  address: string;
  picked: Coordinates | null;
}

export type DepartureKind = 'now' | 'today' | 'tomorrow';

/** The trip page's fields: the trip (searched, or saved) and, for saving it, its label and schedule. */
export interface TripFields {
  from: EndInput;
  to: EndInput;
  departure: DepartureKind;
  /** 'HH:MM' today or tomorrow, when the departure is not now. */
  departureTime: string;
  mode: TravelMode;
  maxDetourMinutes: number;
  label: string;
  weekdays: number[];
  /** A saved trip's departure, 'HH:MM'. */
  time: string;
}

/** Where the ends are, once known — the address geocoded, the point picked, the device's position: the form's context. */
export interface TripEnds {
  from: Coordinates | null;
  to: Coordinates | null;
}

const hhmm = (at: Date) => `${String(at.getHours()).padStart(2, '0')}:${String(at.getMinutes()).padStart(2, '0')}`;

const emptyEnd = (source: EndSource): EndInput => ({ source, address: '', picked: null });

/** A new trip: from here, now, by public transport; saved for workdays at this time. */
export function tripDefaults(now = new Date()): TripFields {
  return {
    from: emptyEnd('here'),
    to: emptyEnd('address'),
    departure: 'now',
    departureTime: hhmm(now),
    mode: 'transit',
    maxDetourMinutes: TRIP_DETOUR_DEFAULT_MINUTES,
    label: '',
    weekdays: [...WORKDAYS],
    time: hhmm(now),
  };
}

/** The departure as the API takes it: 'now', or the local time today or tomorrow as an ISO instant. */
function departureValue(kind: DepartureKind, time: string): string {
  if (kind === 'now') return 'now';
  const match = /^(\d{1,2}):(\d{2})$/.exec(time);
  // Not a time: sent as it is, and the schema says what is wrong with it.
  if (!match) return time;
  const at = new Date();
  at.setDate(at.getDate() + (kind === 'tomorrow' ? 1 : 0));
  at.setHours(Number(match[1]), Number(match[2]), 0, 0);
  return at.toISOString();
}

/** The search the fields make, or null while an end is not known. */
export function tripQueryOf(fields: TripFields, ends: TripEnds | undefined): TripQueryInput | null {
  if (!ends?.from || !ends.to) return null;
  const { mode, maxDetourMinutes } = fields;
  return {
    from: ends.from,
    to: ends.to,
    mode,
    departure: departureValue(fields.departure, fields.departureTime),
    maxDetourMinutes,
  };
}

/** The saved trip the fields make, or null while an end is not known. */
export function savedTripOf(fields: TripFields, ends: TripEnds | undefined): SavedTripBodyInput | null {
  if (!ends?.from || !ends.to) return null;
  const { mode, maxDetourMinutes, label, weekdays, time } = fields;
  return { from: ends.from, to: ends.to, mode, maxDetourMinutes, label, weekdays, time };
}

/** The fields each button sends: each checks only its own, so an empty label never stops a search. */
export const SEARCH_FIELDS = ['from', 'to', 'departure', 'mode', 'maxDetourMinutes'] as const;
export const SAVE_FIELDS = ['from', 'to', 'mode', 'maxDetourMinutes', 'label', 'weekdays', 'time'] as const;

/**
 * The domain's checks of both requests, as the server makes them: an end not known yet, then what
 * tripQuerySchema and savedTripBodySchema refuse (the same point twice, minutes out of range, no
 * weekday…), each beside its field. The buttons ask for their own fields (`trigger`).
 */
export const tripResolver: Resolver<TripFields, TripEnds> = (fields, ends, options) => {
  const missing: FieldIssue[] = (['from', 'to'] as const)
    .filter((end) => !ends?.[end])
    .map((end) => ({ path: [end], message: messages.tripPointMissing }));
  const issues = [
    ...missing,
    ...schemaIssues(tripQuerySchema, tripQueryOf(fields, ends)),
    ...schemaIssues(savedTripBodySchema, savedTripOf(fields, ends)),
  ];
  return issues.length === 0 ? { values: fields, errors: {} } : refused(issues, options);
};

export const modeLabels: Record<TravelMode, string> = {
  walk: messages.tripModeWalk,
  bike: messages.tripModeBike,
  transit: messages.tripModeTransit,
};

/** Where an end is, once it is known: the geocoded address, the picked point or the device's position. */
export function useEndPoint(end: EndInput, position: Coordinates | null) {
  const geocode = useGeocode(end.source === 'address' ? end.address : '');
  // A point picked or measured is where the runner means; only an address may be placed approximately.
  if (end.source === 'map') return { point: end.picked, label: null, approximateBy: null, failure: undefined };
  if (end.source === 'here') return { point: position, label: null, approximateBy: null, failure: undefined };
  return {
    point: geocode.data ? { lat: geocode.data.lat, lng: geocode.data.lng } : null,
    label: geocode.data?.label ?? null,
    /** 'az utca szerint' when the address was placed at its street or settlement only. */
    approximateBy: geocode.data ? approximateBy(geocode.data.precision) : null,
    failure: geocode.isError ? errorMessage(geocode.error) : undefined,
  };
}

const sourceLabels: Record<EndSource, string> = {
  address: messages.tripSourceAddress,
  map: messages.tripSourceMap,
  here: messages.tripSourceHere,
};
const SOURCES: readonly EndSource[] = ['address', 'map', 'here'];

/** 'Honnan indulsz?' or 'Hova mész?': the way to give the point, then the point. */
export function EndFieldset({
  control,
  name,
  legend,
  addressLabel,
  resolved,
  hereText,
  positionError,
  error,
}: {
  control: Control<TripFields, TripEnds>;
  name: 'from' | 'to';
  legend: string;
  addressLabel: string;
  resolved: ReturnType<typeof useEndPoint>;
  hereText: string;
  positionError: string | null;
  /** The form's (or the server's) words about this end. */
  error: string | undefined;
}) {
  const {
    field: { value: end, onChange },
  } = useController({ control, name });
  const errorId = `trip-${name}-error`;
  const fieldError = error ?? resolved.failure;
  return (
    <fieldset className="card" aria-describedby={fieldError ? errorId : undefined}>
      <legend>{legend}</legend>
      <div className="card-actions">
        {SOURCES.map((source) => (
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
          {resolved.approximateBy && (
            <p className="muted precision-note">
              {(name === 'from' ? messages.tripFromKnownOnly : messages.tripToKnownOnly)(resolved.approximateBy)}
            </p>
          )}
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
