import { budapestClock, budapestDay, budapestInstant, formatWeight } from '@csomag/domain/format';
import { messages } from '@csomag/domain/messages';
import type { RelayOffer } from '@csomag/domain/relay';

/*
 * How a relay offer reads (the carrier's card, the waiting list, the map), and the form's times:
 * <input type="datetime-local"> holds a wall-clock time, always Budapest's here, whatever the
 * phone's own time zone is.
 */

/** A datetime-local value read as Budapest time, as an ISO instant; anything else goes as typed, and the server says what is wrong with it. */
export function fromBudapestInput(value: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/.exec(value);
  if (!match) return value;
  const [year, month, day, hour, minute] = match.slice(1).map(Number) as [number, number, number, number, number];
  const at = budapestInstant(year, month, day, hour, minute);
  return Number.isNaN(at) ? value : new Date(at).toISOString();
}

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
