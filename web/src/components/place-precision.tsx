import { messages } from '@csomag/domain/messages';
import { isDoorKnown, type PointPrecision } from '@csomag/domain/parcel-states';
import type { ReverseGeocodeResponse } from '@csomag/domain/places';

/*
 * How precisely a place is known, wherever one is shown (issue 25; DESIGN §11): only a door-level
 * or hand-placed pin is the door; a street's or a settlement's point is said to be approximate.
 */

/** How an approximate point is known ('az utca szerint'), or null when it is the door (isDoorKnown). */
export function approximateBy(precision: PointPrecision | null): string | null {
  if (isDoorKnown(precision)) return null;
  return precision === 'street' ? messages.knownByStreet : messages.knownBySettlement;
}

/** A line per end of a parcel that is only approximately known; nothing when both are doors. */
export function PrecisionNotes({
  pickup,
  destination,
  describeDestination = messages.destinationKnownOnly,
}: {
  pickup: PointPrecision | null;
  destination: PointPrecision | null;
  /** The destination's sentence, when a screen says more (the tracking page: how it is then delivered). */
  describeDestination?: (how: string) => string;
}) {
  const pickupBy = approximateBy(pickup);
  const destinationBy = approximateBy(destination);
  if (!pickupBy && !destinationBy) return null;
  return (
    <>
      {pickupBy && <p className="muted precision-note">{messages.pickupKnownOnly(pickupBy)}</p>}
      {destinationBy && <p className="muted precision-note">{describeDestination(destinationBy)}</p>}
    </>
  );
}

/** A point as the nearest known place names it: the address itself at its door, else '… közelében'. */
export const nearestPlaceName = ({ label, precision }: ReverseGeocodeResponse) =>
  precision === 'door' ? label : messages.placeNear(label);
