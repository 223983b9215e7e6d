import type { tripScreens as hu } from '../hu/trip-screens.ts';
import type { Translation } from '../translation.ts';

/** The trip screens: the form, the matches, the map and the saved trips (issue 13). */

const WEEKDAY_NAMES = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'] as const;
const WEEKDAY_SHORT = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'] as const;

export const tripScreens = {
  menuTrip: 'Trip',
  tripTitle: 'Trip',
  tripIntro: "Tell us where you're going: we'll show you parcels waiting for pickup that are on your way.",
  tripDashboardLink: 'Enter a trip: parcels on your way',

  // the form
  tripFromLegend: 'Where are you starting from?',
  tripToLegend: 'Where are you going?',
  tripSourceAddress: 'Address',
  tripSourceMap: 'Point on the map',
  tripSourceHere: 'My current location',
  tripFromAddressLabel: 'Start address',
  tripToAddressLabel: 'Destination address',
  tripAddressPlaceholder: 'e.g. 1052 Budapest, Váci utca 12',
  tripPickMapHint: 'Tap the map to pick the point.',
  tripPickMapLabel: (end: string) => `Map: pick the point for “${end}”`,
  tripPointChosen: (lat: string, lng: string) => `Chosen point: ${lat}, ${lng}`,
  tripPointFound: (label: string) => `Place found: ${label}`,
  tripPositionPending: 'Finding your location…',
  tripPositionKnown: "We'll start from your current location.",
  tripPositionKnownTo: "You'll arrive at your current location.",
  tripPointMissing: 'Enter this point: by address, on the map or with your current location.',
  tripDepartureLegend: 'Departure time',
  tripDepartureNow: 'Now',
  tripDepartureToday: 'Today',
  tripDepartureTomorrow: 'Tomorrow',
  tripDepartureTimeLabel: 'Time',
  tripModeLegend: 'How you travel',
  tripModeWalk: 'On foot',
  tripModeBike: 'Bike',
  tripModeTransit: 'Public transport',
  tripDetourLabel: 'Longest detour (min)',
  tripSearchSubmit: 'Find parcels on my way',

  // the matches
  tripMatchesTitle: 'Parcels on your way',
  tripMatchesEmpty: 'No parcels waiting for pickup are on your way right now.',
  tripAddedMinutes: (minutes: number) => `+${minutes} min`,
  tripMapLabel: 'Map of the trip and the parcels on your way',
  tripStartMarker: 'Start',
  tripEndMarker: 'Destination',
  tripPickupMarker: (address: string) => `Pickup: ${address}`,
  tripDeliveryMarker: (address: string) => `Delivery: ${address}`,

  // relay offers on the way (issue 14; the offer itself reads as on the waiting list: relay-offers.ts)
  tripRelayIntro: 'Runners who would pass their parcel on at a place on your way, closer to its destination.',
  tripRelayEmpty: 'No relay on your way right now would bring a parcel closer to its destination.',
  /** `distance`: '5.3 km' (formatDistance). */
  tripRelayCloser: (distance: string) => `${distance} closer to its destination`,
  /** The trip map's pin; by its place, as several may be on one trip. */
  tripRelayMarker: (place: string) => `Relay: ${place}`,

  // saved trips
  tripSaveTitle: 'Save trip',
  tripSaveHelp:
    "Save a trip you make regularly: from an hour before you set off, we'll let you know if a parcel on your way comes in.",
  tripSaveLabelLabel: 'Name',
  tripSaveLabelPlaceholder: 'e.g. To work',
  tripSaveWeekdaysLegend: 'Days',
  tripWeekdayName: (day: number) => WEEKDAY_NAMES[day - 1] ?? String(day),
  tripSaveTimeLabel: 'Departure time',
  tripSaveSubmit: 'Save trip',
  tripSaveNeedsPoints: 'First enter where you start and where you arrive.',
  tripSaved: (label: string, schedule: string) => `Saved: ${label} (${schedule})`,
  savedTripsTitle: 'My saved trips',
  savedTripsEmpty: "You don't have any saved trips yet.",
  /** 'Weekdays 7:40': the days, then the time. */
  savedTripSchedule: (days: string, time: string) => `${days} ${time}`,
  tripWeekdaysWork: 'Weekdays',
  tripWeekdaysWeekend: 'Weekends',
  tripWeekdaysEvery: 'Every day',
  tripWeekdayShort: (day: number) => WEEKDAY_SHORT[day - 1] ?? String(day),
  savedTripMode: (mode: string, detour: number) => `${mode}, detour up to ${detour} min`,
  savedTripPausedBadge: 'Paused',
  savedTripRoute: (from: string, to: string) => `${from} → ${to}`,
  savedTripPause: 'Pause',
  savedTripResume: 'Resume',
  savedTripDelete: 'Delete',
  savedTripActionLabel: (action: string, label: string) => `${action}: ${label}`,
  savedTripPaused: (label: string) => `Paused: ${label}`,
  savedTripResumed: (label: string) => `Watching again: ${label}`,
  savedTripDeleted: (label: string) => `Deleted: ${label}`,

  // live offers
  tripOfferTitle: 'New parcel on your trip',
  tripOfferParcel: (parcelId: string) => `Parcel: ${parcelId}`,
  tripOfferRoute: (from: string, to: string) => `${from} → ${to}`,
} as const satisfies Translation<typeof hu>;
