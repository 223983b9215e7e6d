import { formatDistance } from '@csomag/domain/format';
import { distanceMetres } from '@csomag/domain/geo';
import { messages } from '@csomag/domain/messages';
import type { Coordinates, PointPrecision } from '@csomag/domain/parcel';
import { isInHungary } from '@csomag/domain/places';
import { ApiError, type ApiErrorCode, errorMessage } from '../../api/client.ts';
import type { PlacedAddress } from '../../api/geocode.ts';
import { usePlacedAddress, useReverseGeocode } from './api.ts';

/** The two ends of a parcel, as the send form's map calls its pins. */
export type End = 'pickup' | 'destination';
export const ENDS: readonly End[] = ['pickup', 'destination'];

/** What the geocoder's pin is, beside its address (issue 25): the door, a point of the street, a settlement's centre. */
function placedLine({ label, precision }: PlacedAddress): string {
  switch (precision) {
    case 'door':
      return messages.pinAtDoor(label);
    case 'street':
      return messages.pinOnStreet(label);
    case 'settlement':
      return messages.pinAtSettlementCentre(label);
    case 'manual':
      return messages.pinManual;
  }
}

/**
 * How far from where its address was placed a hand-placed pin may be before the sender is asked
 * whether it is the right pin (the other end's, or a changed address): a street's middle may be a
 * few kilometres from a door on it, a town's centre more.
 */
const FAR_FROM_ADDRESS_M: Record<PointPrecision, number> = {
  door: 1_000,
  manual: 1_000,
  street: 5_000,
  settlement: 15_000,
};

/**
 * Refusals a pin placed by hand answers — the address could not be placed, but the server takes it
 * with the sender's pin: said no more once the sender has placed one. (A settlement it does not
 * know, or a postal code of another, it refuses even then: those stay beside the address.)
 */
const ANSWERED_BY_A_PIN: readonly ApiErrorCode[] = ['settlement_unplaced', 'geocode_failed', 'address_unparsable'];

const codeOf = (error: unknown) => (error instanceof ApiError ? error.code : undefined);

/**
 * One end's pin on the send form: the sender's own (a tap or a drag: 'manual'), else where the
 * geocoder placed the address as typed (with its precision). `hand` is the sender's pin, if any.
 */
export function useEndPin(address: string, hand: Coordinates | null) {
  const { placed, refusal, shown, searching } = usePlacedAddress(address);
  // Only the sender's own pin is named by what is near it: the geocoder's says what it is already.
  const near = useReverseGeocode(hand);
  const position = hand ?? (shown ? { lat: shown.lat, lng: shown.lng } : null);

  let line: string | null = null;
  if (hand) line = near.data ? messages.pinManualNear(near.data.label) : messages.pinManual;
  else if (searching) line = messages.pinSearching;
  else if (placed) line = placedLine(placed);

  let warning: string | null = null;
  if (hand && !isInHungary(hand)) warning = messages.outsideHungary;
  else if (hand && placed) {
    const metres = distanceMetres(hand, placed);
    if (metres > FAR_FROM_ADDRESS_M[placed.precision]) warning = messages.pinFarFromAddress(formatDistance(metres));
  }

  // The server's words beside the address, unless the sender's own pin has answered them.
  const refusalCode = codeOf(refusal);
  const pinAnswers = refusalCode !== undefined && ANSWERED_BY_A_PIN.includes(refusalCode);
  const failure = refusal && !(hand && pinAnswers) ? errorMessage(refusal) : undefined;

  return {
    position,
    /** Where the geocoder put the address (shown while the next one is looked up), whatever the sender did. */
    placedAt: shown ? { lat: shown.lat, lng: shown.lng } : null,
    line,
    warning,
    failure,
    /** The sender's pin can go back to where the address was placed. */
    canReturn: Boolean(hand && placed),
    /** The address could not be placed, and a pin on the map is the way on ('Elhelyezem a térképen'). */
    placeOnMap: !hand && pinAnswers,
  };
}
export type EndPin = ReturnType<typeof useEndPin>;
