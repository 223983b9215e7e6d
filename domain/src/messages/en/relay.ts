import type { relay as hu } from '../hu/relay.ts';
import type { Translation } from '../translation.ts';

/** Custody and relay on the server: hand-over links, refusals, overrides (issue 14). */
export const relay = {
  relayLinkInvalid: 'This hand-over QR code is invalid.',
  relayLinkExpired: 'This hand-over QR code has expired. Ask the runner to show you a new one.',
  relayLinkUsed: 'This hand-over QR code has already been used, or someone else has the parcel now.',
  relayOwnParcel: "You can't take over your own parcel from yourself.",
  relayNotHolder: 'Only the runner currently carrying the parcel can hand it over.',
  custodyOverrideReasonRequired: 'Give the reason for changing the responsible runner.',
  custodyOverrideSameRunner: 'This runner already has the parcel.',
  custodyOverrideNotInTransit: 'You can only change the responsible runner of a parcel in transit.',
  invalidRelayPlace: 'The hand-over place is invalid.',
  relayOfferPlaceOutsideHungary: 'The meeting point must be in Hungary.',
  relayOfferTimeInvalid: 'Enter a valid time.',
  relayOfferWindowInPast: 'The time window has already passed: enter a later time.',
  relayOfferWindowOrder: 'The end of the time window must be later than its start.',
  relayOfferWindowTooLong: (hours: number) =>
    `The time window can be at most ${hours} ${hours === 1 ? 'hour' : 'hours'}.`,
  relayOfferLabelTooLong: (max: number) =>
    `The place description can be at most ${max} ${max === 1 ? 'character' : 'characters'}.`,
  relayOfferNotFound: 'There is no such relay offer.',
  relayOfferReservedForOther:
    'Another runner has reserved this parcel: the runner handing it over can withdraw the relay.',
  relayOfferUnavailable: 'Someone else has already reserved this relay, or it is no longer valid.',
} as const satisfies Translation<typeof hu>;
