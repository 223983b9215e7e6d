import type { placesScreens as hu } from '../hu/places-screens.ts';
import type { Translation } from '../translation.ts';

/**
 * Where things are, on the web's screens (issue 25): what each pin of the send form is and how it
 * is placed, and how precisely a place is known wherever one is shown (runner cards and map,
 * tracking, trips). The geocoder's own words (refusals, labels) are in places.ts.
 */
export const placesScreens = {
  // the send form: what each address's pin is, said beside the address
  pinAtDoor: (label: string) => `The pin is at the door (${label})`,
  pinOnStreet: (label: string) => `This is a point on ${label} — drag the pin to the door`,
  pinAtSettlementCentre: (label: string) => `This is the centre of ${label} — drag the pin to the door`,
  pinManual: 'Placed by hand',
  pinManualNear: (label: string) => `Placed by hand — near ${label}`,
  pinSearching: 'Finding the address…',
  /** `distance`: '170 km', '800 m' (formatDistance). */
  pinFarFromAddress: (distance: string) =>
    `The pin is ${distance} from where the address points: are you sure it's in the right place?`,
  pinBackToAddress: 'Back to the address',
  pinPlaceOnMap: 'Place it on the map',
  // the send form's map
  sendMapHelp:
    'The runner goes to the pins: drag them to the door, or tap the map. Without a QR code, they can only deliver at a pin that is at the door or placed by hand.',
  tapTargetLegend: 'Tapping the map sets',
  tapTargetPickup: 'Pickup',
  tapTargetDestination: 'Destination',
  pickupPinMissing: 'The pickup point is missing: enter the pickup address, or tap its place on the map.',
  destinationPinMissing: 'The delivery point is missing: enter the delivery address, or tap its place on the map.',

  // how precisely a place is known, wherever one is shown ('… is only known to street level')
  knownByStreet: 'to street level',
  knownBySettlement: 'to town level',
  pickupKnownOnly: (how: string) => `The pickup point is only known ${how}.`,
  destinationKnownOnly: (how: string) => `The delivery point is only known ${how}.`,
  trackingDestinationKnownOnly: (how: string) =>
    `The delivery point is only known ${how}: the runner hands the parcel over with a QR code, with the receiver's approval.`,
  /** A distance to a pickup whose door is not known; `distance`: '3,1 km'. */
  approximateDistance: (distance: string) => `~${distance} (imprecise address)`,
  tripFromKnownOnly: (how: string) =>
    `The starting point is only known ${how}: the detour is calculated to this point.`,
  tripToKnownOnly: (how: string) => `The arrival point is only known ${how}: the detour is calculated to this point.`,
} as const satisfies Translation<typeof hu>;
