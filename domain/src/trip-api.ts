import { z } from 'zod';
import { budapestDay, budapestInstant, budapestParts } from './format.ts';
import { distanceMetres } from './geo.ts';
import { messages } from './messages.ts';
import { type Coordinates, coordinatesSchema, parcelSchema } from './parcel.ts';
import { relayOfferSchema } from './relay.ts';
import {
  TRAVEL_MODES,
  TRIP_DETOUR_DEFAULT_MINUTES,
  TRIP_DETOUR_MAX_MINUTES,
  TRIP_DETOUR_MIN_MINUTES,
  TRIP_MAX_KM,
} from './trips.ts';

/**
 * The trips API (issue 13, docs/decisions/0021): POST /api/trips/matches — the waiting parcels
 * that fit a trip — and a runner's saved trips, GET·POST /api/me/trips, PATCH·DELETE /api/me/trips/:id.
 */

/** Start and end closer than this are the same place. */
export const TRIP_SAME_POINT_M = 50;
/** A trip's departure may lie this far in the past (clocks drift, the form was filled in slowly). */
export const TRIP_DEPARTURE_SKEW_MS = 5 * 60 * 1000;
/** At most this many matches are answered, best first. */
export const TRIP_MATCHES_MAX = 50;
/** Saved trips per runner. */
export const SAVED_TRIPS_MAX = 20;
export const TRIP_LABEL_MAX = 60;
/** A saved trip is active (offers new parcels) from this long before its departure until it. */
export const TRIP_ACTIVE_WINDOW_MS = 60 * 60 * 1000;

export const travelModeSchema = z.enum(TRAVEL_MODES, { error: messages.tripModeInvalid });

const detourError = { error: messages.tripDetourInvalid(TRIP_DETOUR_MIN_MINUTES, TRIP_DETOUR_MAX_MINUTES) };
export const maxDetourField = z
  .number(detourError)
  .int(detourError)
  .min(TRIP_DETOUR_MIN_MINUTES, detourError)
  .max(TRIP_DETOUR_MAX_MINUTES, detourError);

/** Refuses a trip whose ends are the same place or too far apart (on `to`). */
function checkEnds(trip: { from: Coordinates; to: Coordinates }, context: z.RefinementCtx) {
  const metres = distanceMetres(trip.from, trip.to);
  if (metres < TRIP_SAME_POINT_M) context.addIssue({ code: 'custom', path: ['to'], message: messages.tripSamePoints });
  else if (metres > TRIP_MAX_KM * 1000) {
    context.addIssue({ code: 'custom', path: ['to'], message: messages.tripTooLong(TRIP_MAX_KM) });
  }
}

const nextDay = (day: string) => new Date(Date.parse(`${day}T12:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

const isoWithOffset = z.iso.datetime({ offset: true });
/**
 * 'now' or an ISO date-time with an offset, today or tomorrow in Budapest, not in the past (a few
 * minutes of skew allowed). Answers the ISO instant (UTC) or 'now'.
 */
export const departureField = z
  .string({ error: messages.tripDepartureInvalid })
  .superRefine((value, context) => {
    if (value === 'now') return;
    const at = Date.parse(value);
    if (!isoWithOffset.safeParse(value).success || Number.isNaN(at)) {
      return context.addIssue({ code: 'custom', message: messages.tripDepartureInvalid });
    }
    const now = Date.now();
    if (at < now - TRIP_DEPARTURE_SKEW_MS) context.addIssue({ code: 'custom', message: messages.tripDepartureInPast });
    else if (budapestDay(at) > nextDay(budapestDay(now))) {
      context.addIssue({ code: 'custom', message: messages.tripDepartureTooLate });
    }
  })
  .transform((value) => (value === 'now' ? 'now' : new Date(value).toISOString()));

/** POST /api/trips/matches: the trip. */
export const tripQuerySchema = z
  .object({
    from: coordinatesSchema,
    to: coordinatesSchema,
    mode: travelModeSchema,
    departure: departureField.default('now'),
    maxDetourMinutes: maxDetourField.default(TRIP_DETOUR_DEFAULT_MINUTES),
  })
  .superRefine(checkEnds);
export type TripQuery = z.infer<typeof tripQuerySchema>;
export type TripQueryInput = z.input<typeof tripQuerySchema>;

/** A waiting parcel as GET /api/parcels/waiting shows it, and the whole minutes it adds (rounded up). */
export const tripMatchSchema = parcelSchema.extend({ addedMinutes: z.number().int().nonnegative() });
export type TripMatch = z.infer<typeof tripMatchSchema>;

/**
 * An open relay offer the trip passes ('Továbbadás', issue 14): `addedMinutes` — the way via the
 * meeting point and any wait for its window, whole minutes rounded up; `closerKm` — how much nearer
 * its destination the parcel ends up at the trip's end (km, one decimal).
 */
export const tripRelayOfferSchema = relayOfferSchema.extend({
  addedMinutes: z.number().int().nonnegative(),
  closerKm: z.number().nonnegative(),
});
export type TripRelayOffer = z.infer<typeof tripRelayOfferSchema>;

/** Who answered a trip's minutes (ADR 0029): the imported timetable, the operator's journey planner, or the straight line. */
export const TRAVEL_SOURCES = ['timetable', 'external', 'straight-line'] as const;
export type TravelSourceName = (typeof TRAVEL_SOURCES)[number];
/**
 * Why the straight line answered public transport: no timetable loaded, a trip end further than a
 * walk from every stop, a day the timetable does not cover, the journey planner failing.
 */
export const TRAVEL_FALLBACKS = ['no_timetable', 'outside_timetable', 'timetable_expired', 'external_failed'] as const;
export type TravelFallback = (typeof TRAVEL_FALLBACKS)[number];

const stopAtSchema = z.object({ name: z.string(), position: coordinatesSchema, at: z.iso.datetime() });
/** A leg of the trip: a walk, or a ride from stop to stop with the stops it passes (`path`, both ends included). */
export const tripLegSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('walk'),
    departAt: z.iso.datetime(),
    arriveAt: z.iso.datetime(),
    minutes: z.number().int().nonnegative(),
  }),
  z.object({
    kind: z.literal('ride'),
    route: z.string(),
    /** GTFS route_type: 0 tram, 1 metro, 2 rail, 3 bus, 4 ferry, 11 trolleybus… */
    routeType: z.number().int(),
    headsign: z.string(),
    from: stopAtSchema,
    to: stopAtSchema,
    path: z.array(coordinatesSchema),
  }),
]);
export type TripLeg = z.infer<typeof tripLegSchema>;

/**
 * The trip itself at its departure: `minutes` without a parcel (whole minutes rounded up) and its
 * arrival — both null when the timetable has no connection within a day; the legs when a timetable
 * or journey planner answered; `fallback` says why the straight line did, and `timetableValidUntil`
 * the last day the loaded timetable covers ('YYYY-MM-DD') when it has expired.
 */
export const tripPlanSchema = z.object({
  minutes: z.number().int().nonnegative().nullable(),
  departAt: z.iso.datetime(),
  arriveAt: z.iso.datetime().nullable(),
  source: z.enum(TRAVEL_SOURCES),
  fallback: z.enum(TRAVEL_FALLBACKS).nullable(),
  timetableValidUntil: z.string().nullable(),
  legs: z.array(tripLegSchema),
});
export type TripPlan = z.infer<typeof tripPlanSchema>;

/**
 * Ranked by added minutes, then the parcel's age (oldest first), at most TRIP_MATCHES_MAX.
 * `relayOffers` (added with issue 14): other runners' open offers on the way, unreserved or
 * reserved by the asking runner, by added minutes then the most kilometres closer, at most
 * TRIP_MATCHES_MAX. `trip`: the trip without a parcel (tripPlanSchema). A parcel's added minutes are
 * how much later the runner arrives at the trip's end collecting and delivering it, walks and waits
 * included, by the same model as the trip.
 */
export const tripMatchesResponseSchema = z.object({
  matches: z.array(tripMatchSchema),
  relayOffers: z.array(tripRelayOfferSchema),
  trip: tripPlanSchema,
});
export type TripMatchesResponse = z.infer<typeof tripMatchesResponseSchema>;

/** ISO weekdays: 1 Monday … 7 Sunday. 'Hétköznap' is 1–5. */
export const WEEKDAYS = [1, 2, 3, 4, 5, 6, 7] as const;
export const WORKDAYS = [1, 2, 3, 4, 5] as const;
const weekdaysError = { error: messages.tripWeekdaysInvalid };
export const weekdaysField = z
  .array(z.number(weekdaysError).int(weekdaysError).min(1, weekdaysError).max(7, weekdaysError), weekdaysError)
  .min(1, weekdaysError)
  .max(7, weekdaysError)
  .transform((days) => [...new Set(days)].sort((a, b) => a - b));

/** 'HH:MM', 00:00–23:59, Budapest time. */
export const tripTimeField = z
  .string({ error: messages.tripTimeInvalid })
  .trim()
  .regex(/^([01]\d|2[0-3]):[0-5]\d$/, { error: messages.tripTimeInvalid });

export const tripLabelField = z
  .string({ error: messages.tripLabelInvalid(TRIP_LABEL_MAX) })
  .trim()
  .min(1, { error: messages.tripLabelInvalid(TRIP_LABEL_MAX) })
  .max(TRIP_LABEL_MAX, { error: messages.tripLabelInvalid(TRIP_LABEL_MAX) });

const savedTripFields = {
  label: tripLabelField,
  from: coordinatesSchema,
  to: coordinatesSchema,
  mode: travelModeSchema,
  maxDetourMinutes: maxDetourField,
  weekdays: weekdaysField,
  time: tripTimeField,
  paused: z.boolean({ error: messages.tripPausedInvalid }),
};

/** POST /api/me/trips. */
export const savedTripBodySchema = z
  .object({
    ...savedTripFields,
    maxDetourMinutes: maxDetourField.default(TRIP_DETOUR_DEFAULT_MINUTES),
    paused: savedTripFields.paused.default(false),
  })
  .superRefine(checkEnds);
export type SavedTripBody = z.infer<typeof savedTripBodySchema>;
export type SavedTripBodyInput = z.input<typeof savedTripBodySchema>;

/**
 * PATCH /api/me/trips/:id: any of the fields ({paused: true} pauses, {paused: false} resumes).
 * The server checks the merged trip with savedTripBodySchema's rules.
 */
export const savedTripPatchSchema = z
  .object(savedTripFields)
  .partial()
  .refine((patch) => Object.values(patch).some((value) => value !== undefined), { error: messages.tripPatchEmpty });
export type SavedTripPatch = z.infer<typeof savedTripPatchSchema>;

export const savedTripParamsSchema = z.object({ id: z.string().regex(/^[0-9]{1,15}$/, { error: messages.notFound }) });

/** A saved trip as its owner sees it; `nextDepartureAt`: the next occurrence of weekday + time in Budapest. */
export const savedTripSchema = z.object({
  id: z.string(),
  label: z.string(),
  from: coordinatesSchema,
  to: coordinatesSchema,
  /** Where it starts and ends, as a person reads it: the nearest settlement (in Budapest its district); null far from any. */
  fromPlace: z.string().nullable(),
  toPlace: z.string().nullable(),
  mode: travelModeSchema,
  maxDetourMinutes: z.number().int(),
  weekdays: z.array(z.number().int()),
  time: z.string(),
  paused: z.boolean(),
  nextDepartureAt: z.iso.datetime(),
  /** Not paused and departing within TRIP_ACTIVE_WINDOW_MS: new fitting parcels are offered. */
  active: z.boolean(),
  createdAt: z.iso.datetime(),
});
export type SavedTrip = z.infer<typeof savedTripSchema>;
export const savedTripListSchema = z.object({ items: z.array(savedTripSchema) });

/** The next departure of a saved trip at or after `now` (ms): its weekdays at its time, in Budapest. */
export function nextDeparture(trip: { weekdays: readonly number[]; time: string }, now: number): number {
  return departuresAfter(now)(trip);
}

/**
 * nextDeparture for many trips at one `now`: today's Budapest date read once, the next days counted
 * on the calendar (a day of the clock change is 23 or 25 hours long: 24 hours on from 23:30 the
 * evening before the spring change is already Monday), and each day's clock time worked out once (a
 * new parcel is checked against thousands of saved trips, most leaving at the same few minutes).
 */
export function departuresAfter(now: number): (trip: { weekdays: readonly number[]; time: string }) => number {
  const today = budapestParts(now);
  const days = Array.from({ length: 9 }, (_, offset) => {
    const date = new Date(Date.UTC(today.year, today.month - 1, today.day + offset));
    // ISO weekday: Monday 1 … Sunday 7.
    return { date, weekday: date.getUTCDay() || 7 };
  });
  const instants = new Map<string, number>();
  return (trip) => {
    const [hour = 0, minute = 0] = trip.time.split(':').map(Number);
    for (const [offset, { date, weekday }] of days.entries()) {
      if (!trip.weekdays.includes(weekday)) continue;
      const key = `${offset} ${hour}:${minute}`;
      let at = instants.get(key);
      if (at === undefined) {
        at = budapestInstant(date.getUTCFullYear(), date.getUTCMonth() + 1, date.getUTCDate(), hour, minute);
        instants.set(key, at);
      }
      if (at >= now) return at;
    }
    // Unreachable with at least one weekday; a week ahead keeps the type total.
    return now + 7 * 86_400_000;
  };
}

/** Whether a saved trip offers new parcels at `now`: not paused, departing (`departAt`) within the next hour. */
export function isTripActive(
  trip: { weekdays: readonly number[]; time: string; paused: boolean },
  now: number,
  departAt = nextDeparture(trip, now),
) {
  return !trip.paused && departAt - now <= TRIP_ACTIVE_WINDOW_MS;
}

/** One loaded GTFS feed as the back office lists it ('Menetrendek'); `expired` once its last day is past in Budapest. */
export const timetableFeedSchema = z.object({
  file: z.string(),
  agencies: z.array(z.string()),
  validFrom: z.string(),
  validUntil: z.string(),
  expired: z.boolean(),
  counts: z.object({
    stops: z.number().int(),
    routes: z.number().int(),
    trips: z.number().int(),
    stopTimes: z.number().int(),
    transfers: z.number().int(),
  }),
});
export type TimetableFeed = z.infer<typeof timetableFeedSchema>;

/**
 * GET /api/admin/timetables: the active import's feeds (none: public transport is estimated in a
 * straight line) and, when TRAVEL_TIME_URL is set, that an external journey planner answers first.
 */
export const timetableStatusSchema = z.object({
  importedAt: z.iso.datetime().nullable(),
  feeds: z.array(timetableFeedSchema),
  external: z.boolean(),
});
export type TimetableStatus = z.infer<typeof timetableStatusSchema>;

/** How long one runner may wait at a stop for the other for a suggested meeting. */
export const RELAY_MEETING_MAX_WAIT_MS = 30 * 60 * 1000;
/** At most this many meeting points are suggested, earliest first. */
export const RELAY_MEETING_POINTS_MAX = 10;

/** GET /api/parcels/:id/relay-meeting-points?from=&until=: the offer's window (ISO date-times). */
export const relayMeetingQuerySchema = z
  .object({
    from: z.iso.datetime({ offset: true, error: messages.relayOfferTimeInvalid }),
    until: z.iso.datetime({ offset: true, error: messages.relayOfferTimeInvalid }),
  })
  .refine((window) => Date.parse(window.from) < Date.parse(window.until), {
    path: ['until'],
    error: messages.relayOfferWindowOrder,
  });
export type RelayMeetingQuery = z.infer<typeof relayMeetingQuerySchema>;

/**
 * Stops where the carrier's saved trip and other runners' saved trips both pass within the window,
 * by the timetable (issue 26 item 6): the earliest time both can be there, and how many runners'
 * trips fit — never who. `reason`: none suggested because the carrier has no saved trip in the
 * window ('no_trip') or no timetable gives stops for it ('no_timetable').
 */
export const relayMeetingPointsSchema = z.object({
  points: z.array(
    z.object({
      name: z.string(),
      position: coordinatesSchema,
      at: z.iso.datetime(),
      runners: z.number().int().positive(),
    }),
  ),
  reason: z.enum(['no_trip', 'no_timetable']).nullable(),
});
export type RelayMeetingPoints = z.infer<typeof relayMeetingPointsSchema>;
