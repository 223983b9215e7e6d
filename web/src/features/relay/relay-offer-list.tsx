import { messages } from '@csomag/domain/messages';
import type { RelayOffer } from '@csomag/domain/relay';
import { useRelayOffers, useReserveRelayOffer } from '../../api/relay-offers.ts';
import { useSession } from '../../api/session.ts';
import { ParcelId } from '../../components/parcel-id.tsx';
import { OfferDetails } from '../../components/relay-offer-details.tsx';
import type { MapMarker } from '../../map/map-view.tsx';
import { MarkerPopup } from '../../map/parcel-popup.tsx';

/*
 * Other runners' relay offers ('Továbbadás', issue 14): on the waiting list and the runner map,
 * each with 'Lefoglalom'. Reserving holds it for this runner until the window ends; the hand-over
 * itself is the carrier's QR code at the meeting.
 */

/** Other runners' open offers (the runner's own show on their in-progress cards); live through useRunnerLiveLists. */
function useOthersRelayOffers() {
  const offers = useRelayOffers();
  const { data: account } = useSession();
  const me = account?.userName.toLowerCase();
  const items = (offers.data?.items ?? []).filter((offer) => offer.runner.toLowerCase() !== me);
  return { offers, items, me };
}

/** 'Lefoglalom', or, once this runner has it, what to do next. */
function Reserve({ offer, me }: { offer: RelayOffer; me: string | undefined }) {
  const reserve = useReserveRelayOffer();
  if (offer.takenBy && offer.takenBy.toLowerCase() === me) {
    return (
      <p className="success" role="status">
        {messages.relayOfferReservedForYou}
      </p>
    );
  }
  return (
    <button
      type="button"
      className="button primary"
      disabled={reserve.isPending}
      onClick={() => reserve.mutate(offer.id)}
    >
      {messages.relayOfferTake}
    </button>
  );
}

/** The waiting list's 'Továbbadás' section; nothing while there is nothing to show. */
export function RelayOfferSection() {
  const { offers, items, me } = useOthersRelayOffers();
  if (offers.isPending || offers.isError) return null;
  return (
    <section className="relay-offers" aria-labelledby="relay-offers-title">
      <h2 id="relay-offers-title">{messages.relayOffersTitle}</h2>
      {items.length === 0 ? (
        <p className="muted">{messages.relayOffersEmpty}</p>
      ) : (
        <>
          <p className="muted">{messages.relayOffersHint}</p>
          {items.map((offer) => (
            <article key={offer.id} className="card" aria-label={messages.relayOfferCardLabel(offer.parcelId)}>
              <ParcelId id={offer.parcelId} />
              <OfferDetails offer={offer} />
              <div className="card-actions">
                <Reserve offer={offer} me={me} />
              </div>
            </article>
          ))}
        </>
      )}
    </section>
  );
}

/** The runner map's 'Továbbadás' pins at the meeting points, each with the same 'Lefoglalom'; live. */
export function useRelayOfferMarkers(): MapMarker[] {
  const { items, me } = useOthersRelayOffers();
  return items.map((offer) => ({
    key: `relay-${offer.id}`,
    kind: 'relay',
    title: messages.relayOfferMarker,
    position: offer.place,
    popup: (
      <MarkerPopup rows={[[messages.relayOfferMarker, <ParcelId key="id" id={offer.parcelId} />]]}>
        <OfferDetails offer={offer} />
        <Reserve offer={offer} me={me} />
      </MarkerPopup>
    ),
  }));
}
