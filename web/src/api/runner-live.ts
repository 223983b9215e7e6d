import { type LiveChange, MAX_LIVE_TOPICS, parcelTopic, RELAY_OFFER_KIND } from '@csomag/domain/live';
import { useQueryClient } from '@tanstack/react-query';
import { refetchAfterChange, useLiveChanges } from './live.ts';
import { relayOffersKey, useRelayOffers } from './relay-offers.ts';
import { assignedParcelsKey, waitingParcelsKey } from './runner-lists.ts';

/**
 * Runner screens (the runner's lists and map, the trip page) follow the waiting pool (`parcels`)
 * and their own parcels (`me`) live, and the relay offers: a `relay_offer` message on `parcels`
 * (made, withdrawn, reserved) and any change to a shown offer's parcel (`parcel:<id>`: a hand-over,
 * give-back or delivery ends the offer). One stream per page: a browser keeps only six connections
 * to a server; `heard` sees each change too (a page's own notice of it).
 */
export function useRunnerLiveLists(heard?: (change: LiveChange) => void) {
  const queryClient = useQueryClient();
  const offers = useRelayOffers();
  const offerTopics = [...new Set((offers.data?.items ?? []).map((offer) => offer.parcelId))]
    .sort()
    .slice(0, MAX_LIVE_TOPICS - 2)
    .map(parcelTopic);
  useLiveChanges(['parcels', 'me', ...offerTopics], (change) => {
    if (change !== null) heard?.(change);
    if (change === null || change.kind !== RELAY_OFFER_KIND) {
      for (const queryKey of [waitingParcelsKey, assignedParcelsKey]) void refetchAfterChange(queryClient, queryKey);
    } else {
      // A trip's matches list relay offers too (features/trips/trip-relay.tsx).
      void refetchAfterChange(queryClient, [...waitingParcelsKey, 'trip']);
    }
    // A change to the runner's own parcels may end their offer too (a give-back elsewhere).
    if (change === null || change.kind === RELAY_OFFER_KIND || change.topic !== 'parcels') {
      void refetchAfterChange(queryClient, relayOffersKey);
    }
  });
}
