import type { trips as hu } from '../hu/trips.ts';
import type { Translation } from '../translation.ts';

/** Trips on the server: validation of a trip and of saved trips, live offers (issue 13). */
export const trips = {
  tripModeInvalid: 'Choose how you travel: on foot, by bike or by public transport.',
  tripSamePoints: 'The start and the destination are the same place: give two different points.',
  tripTooLong: (km: number) => `The route is too long: it can be at most ${km} km.`,
  tripDetourInvalid: (min: number, max: number) => `The detour must be between ${min} and ${max} min (a whole number).`,
  tripDepartureInvalid: 'The departure time must be “now” or a time.',
  tripDepartureInPast: 'The departure time has already passed.',
  tripDepartureTooLate: 'The departure must be today or tomorrow.',
  tripLabelInvalid: (max: number) => `Give the trip a name (at most ${max} ${max === 1 ? 'character' : 'characters'}).`,
  tripWeekdaysInvalid: 'Choose at least one day of the week.',
  tripTimeInvalid: 'The departure time must be in HH:MM format (for example 07:40).',
  tripPausedInvalid: 'Paused must be yes or no.',
  tripLimitReached: (max: number) => `You can have at most ${max} saved ${max === 1 ? 'trip' : 'trips'}.`,
  tripNotFound: "You don't have a saved trip like that.",
  tripPatchEmpty: 'There is nothing to change.',
  // push (the profile page's switch, the notification)
  pushKindTripOffer: 'New parcel on my saved trip',
  pushTitleTripOffer: 'A parcel on your way',
  pushStatusTripOffer: (parcelId: string) => `A new parcel (${parcelId}) fits your saved trip.`,
} as const satisfies Translation<typeof hu>;
