import type { relayOffers as hu } from '../hu/relay-offers.ts';
import type { Translation } from '../translation.ts';

/** Relay offers in the runner's app: "I'd pass it on", the offers on the waiting list and map (issue 14). */
export const relayOffers = {
  relayOfferOpen: "I'd pass it on",
  relayOfferFormTitle: 'Relay to another runner',
  relayOfferFormHint:
    'Tap the map for the meeting point (you can also drag the marker). You hand the parcel over with your QR code when you meet.',
  relayOfferMapLabel: 'Map: the relay meeting point',
  relayOfferMeetingPoint: 'Meeting point',
  relayOfferPointChosen: (lat: string, lng: string) => `Chosen point: ${lat}, ${lng}`,
  relayOfferNoPoint: 'Tap the map to choose the meeting point.',
  relayOfferPlaceLabel: 'Name of the place (optional, e.g. Nyugati pu.)',
  relayOfferFromLabel: 'From (Budapest time)',
  relayOfferUntilLabel: 'Until (Budapest time)',
  relayOfferSubmit: 'Offer it',
  relayOfferCreated: 'You offered the parcel for relay.',
  relayOfferWithdraw: 'Withdraw',
  relayOfferWithdrawn: 'You withdrew the relay offer.',
  relayOfferMine: (place: string, from: string, until: string) => `Offered for relay: ${place}, ${from}–${until}`,
  relayOfferReservedBy: (runner: string) => `Reserved by: ${runner}`,
  relayOfferNotReservedYet: 'No one has reserved it yet.',
  relayOffersTitle: 'Relay',
  relayOffersHint: 'Parcels other runners have offered for relay: reserve one and take it over at the meeting point.',
  relayOffersEmpty: 'No parcels are offered for relay right now.',
  relayOfferCardLabel: (parcelId: string) => `Relay: ${parcelId}`,
  relayOfferPlace: (place: string) => `Meeting point: ${place}`,
  relayOfferPlaceUnnamed: (lat: string, lng: string) => `${lat}, ${lng}`,
  relayOfferWindow: (from: string, until: string) => `Time window: ${from}–${until}`,
  relayOfferTomorrow: (time: string) => `tomorrow ${time}`,
  relayOfferBy: (runner: string) => `Offered by: ${runner}`,
  relayOfferTake: 'Reserve it',
  relayOfferTaken: 'You reserved the parcel: meet the runner and scan their QR code.',
  relayOfferReservedForYou: 'Reserved for you – meet the runner and scan their QR code.',
  relayOfferMarker: 'Relay',
} as const satisfies Translation<typeof hu>;
