import type { timetables as hu } from '../hu/timetables.ts';
import type { Translation } from '../translation.ts';

/** Public-transport times from timetables (issue 26): the trip's plan, its legs, the back office's feeds, relay meeting points. */
export const timetables = {
  // the trip's plan
  tripPlanTimetable: (minutes: number, arrival: string) =>
    `By the timetable, the trip takes ${minutes} min without detours, arriving at ${arrival}.`,
  tripPlanExternal: (minutes: number, arrival: string) =>
    `According to the journey planner, the trip takes ${minutes} min without detours, arriving at ${arrival}.`,
  tripPlanEstimate: (minutes: number, arrival: string) =>
    `Estimate: the trip takes about ${minutes} min without detours, arriving at about ${arrival}.`,
  tripNoConnection: 'By the timetable, there is no service within a day of this departure.',
  tripFallbackNoTimetable: 'No timetable is loaded, so the minutes are estimated from straight-line distance.',
  tripFallbackOutside:
    "The departure or the arrival isn't within walking distance of any stop, so the minutes are estimated from straight-line distance.",
  /** `day`: 'YYYY-MM-DD'. */
  tripFallbackExpired: (day: string) =>
    `The loaded timetable has expired (it was valid until ${day}), so the minutes are estimated from straight-line distance.`,
  tripFallbackExternal:
    "The journey planner didn't respond just now, so the minutes are estimated from straight-line distance.",
  tripLegsTitle: 'Legs of the trip',
  /** 'M3 Újpest-központ 7:42 → Deák Ferenc tér 7:55'. */
  tripLegRide: (route: string, from: string, departs: string, to: string, arrives: string) =>
    `${route} ${from} ${departs} → ${to} ${arrives}`,
  tripLegHeadsign: (headsign: string) => `(towards ${headsign})`,
  tripLegWalk: (minutes: number) => `walk ${minutes} min`,
  tripRideLine: (route: string) => `${route} route`,

  // the back office: 'Timetables'
  menuTimetables: 'Timetables',
  timetablesTitle: 'Timetables',
  timetablesIntro:
    'Public transport minutes are calculated from these GTFS timetables. To load new ones: npm run gtfs:import -- FILE.zip',
  timetablesEmpty:
    'No timetable is loaded: public transport minutes are estimated from straight-line distance. To load one: npm run gtfs:import -- FILE.zip',
  timetablesExternal:
    "An external journey planner (TRAVEL_TIME_URL) answers first; if it doesn't answer, these timetables are used.",
  timetablesImportedAt: (at: string) => `Loaded: ${at}`,
  timetableFile: 'File',
  timetableAgencies: 'Operator',
  timetableValidity: 'Validity',
  timetableContents: 'Contents',
  timetableValid: (from: string, until: string) => `${from} – ${until}`,
  timetableExpired: 'Expired',
  timetableCounts: (stops: number, routes: number, trips: number) =>
    `${stops} ${stops === 1 ? 'stop' : 'stops'}, ${routes} ${routes === 1 ? 'line' : 'lines'}, ${trips} ${trips === 1 ? 'journey' : 'journeys'}`,

  // relay meeting points where trips meet
  relayMeetingTitle: 'Suggested meeting points',
  relayMeetingIntro: "Stops that both your trip and other runners' saved routes pass through, within the time window.",
  relayMeetingEmpty: "There's no stop right now where your trip meets another runner's route.",
  relayMeetingNoTrip: 'We suggest meeting points when you have a saved trip starting now.',
  /** `time`: 'HH:MM' Budapest time. */
  relayMeetingPoint: (stop: string, time: string, runners: number) =>
    `${stop}, ${time} — on the route of ${runners} ${runners === 1 ? 'runner' : 'runners'}`,
  relayMeetingUse: (stop: string) => `Choose ${stop}`,
} as const satisfies Translation<typeof hu>;
