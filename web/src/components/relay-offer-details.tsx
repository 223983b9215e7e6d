import { budapestClock, budapestDay, formatWeight } from '@csomag/domain/format';
import { messages } from '@csomag/domain/messages';
import type { RelayOffer } from '@csomag/domain/relay';

/*
 * How a relay offer reads ('Továbbadás', issue 14), wherever it is shown: the carrier's card, the
 * waiting list and map, a trip's matches and its map.
 */

/** 'HH:MM' in Budapest; 'holnap HH:MM' for tomorrow's. */
export function offerClock(at: string): string {
  const time = budapestClock(at);
  return budapestDay(Date.parse(at)) > budapestDay(Date.now()) ? messages.relayOfferTomorrow(time) : time;
}

/** The meeting point as a runner reads it: its label, or the point itself. */
export const offerPlace = (offer: Pick<RelayOffer, 'place' | 'placeLabel'>) =>
  offer.placeLabel || messages.relayOfferPlaceUnnamed(offer.place.lat.toFixed(5), offer.place.lng.toFixed(5));

/** An offer's parcel, place, window and offering runner, as every list of offers shows them. */
export function OfferDetails({ offer }: { offer: RelayOffer }) {
  return (
    <>
      <p>
        <strong>{offer.category}</strong> · {formatWeight(offer.weightGrams)}
      </p>
      <p>{messages.relayOfferPlace(offerPlace(offer))}</p>
      <p>{messages.relayOfferWindow(offerClock(offer.from), offerClock(offer.until))}</p>
      <p className="muted">{messages.relayOfferBy(offer.runner)}</p>
    </>
  );
}
