import { formatDistance } from '@csomag/domain/format';
import { messages } from '@csomag/domain/messages';
import type { TripRelayOffer } from '@csomag/domain/trip-api';
import { useReserveRelayOffer } from '../../api/relay-offers.ts';
import { OfferDetails } from '../../components/relay-offer-details.tsx';

/*
 * Relay offers among a trip's matches (issue 14 item 3): 'Továbbadás' — another runner hands a
 * parcel on at a meeting point the trip passes; this runner reserves it ('Lefoglalom', the same
 * call as the waiting list's), and the hand-over itself is the carrier's QR code at the meeting.
 */

/** Read as the waiting list's offer cards are, with what the trip adds: its +minutes and km closer. */
function RelayOfferCard({
  offer,
  busy,
  onTake,
}: {
  offer: TripRelayOffer;
  busy: boolean;
  onTake: (offer: TripRelayOffer) => void;
}) {
  return (
    <article className="card" aria-label={messages.relayOfferCardLabel(offer.parcelId)}>
      <OfferDetails offer={offer} />
      <div className="card-actions">
        <strong className="distance">{messages.tripAddedMinutes(offer.addedMinutes)}</strong>
        <span>{messages.tripRelayCloser(formatDistance(offer.closerKm * 1000))}</span>
      </div>
      {/* Only other runners' offers come here, unreserved or reserved by this runner. */}
      {offer.takenBy ? (
        <p className="success" role="status">
          {messages.relayOfferReservedForYou}
        </p>
      ) : (
        <div className="card-actions">
          <button type="button" className="button primary" disabled={busy} onClick={() => onTake(offer)}>
            {messages.relayOfferTake}
          </button>
        </div>
      )}
    </article>
  );
}

/**
 * The 'Továbbadás' section of the trip's matches. Reserving says the server's answer (the hook's
 * toast: done, or why not — another runner was first); the matches are asked again either way,
 * so a refused offer leaves the list and a reserved one shows it.
 */
export function TripRelayOffers({ offers }: { offers: TripRelayOffer[] }) {
  const reserve = useReserveRelayOffer();
  const onTake = (offer: TripRelayOffer) => reserve.mutate(offer.id);
  return (
    <section aria-labelledby="trip-relay-title">
      <h3 id="trip-relay-title">{messages.relayOffersTitle}</h3>
      <p className="muted">{messages.tripRelayIntro}</p>
      {offers.length === 0 ? (
        <p className="empty">{messages.tripRelayEmpty}</p>
      ) : (
        <ul className="parcel-list">
          {offers.map((offer) => (
            <li key={offer.id}>
              <RelayOfferCard offer={offer} busy={reserve.isPending} onTake={onTake} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
