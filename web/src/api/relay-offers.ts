import { messages } from '@csomag/domain/messages';
import { relayOfferListSchema, relayOfferSchema } from '@csomag/domain/relay';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { notify } from '../lib/notify.ts';
import { apiRequest } from './client.ts';
import { waitingParcelsKey } from './runner-lists.ts';

/*
 * Relay offers ('Továbbadás', issue 14) as several features read them: the open offers (the
 * carrier's card, the waiting list and map, the runner screens' live topics) and 'Lefoglalom',
 * reserving another runner's (from the waiting list, the map and a trip's matches).
 */

/** Open relay offers: other runners' (unreserved or reserved by me) and my own. */
export const relayOffersKey = ['relay-offers'] as const;

export const relayOffersQuery = () =>
  queryOptions({
    queryKey: relayOffersKey,
    queryFn: ({ signal }) => apiRequest('GET', '/relay-offers', relayOfferListSchema, undefined, signal),
  });

export const useRelayOffers = () => useQuery(relayOffersQuery());

export const reserveRelayOffer = (offerId: number) =>
  apiRequest('POST', `/relay-offers/${encodeURIComponent(String(offerId))}/take`, relayOfferSchema, {});

/** 'Lefoglalom': refused (another runner was first, 409) says the server's reason; asked again either way. */
export function useReserveRelayOffer() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: reserveRelayOffer,
    onSuccess: () => notify.success(messages.relayOfferTaken),
    onError: (error) => notify.error(error),
    // The trip's matches list offers too, under the waiting pool's key.
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: relayOffersKey }),
        queryClient.invalidateQueries({ queryKey: waitingParcelsKey }),
      ]),
  });
}
