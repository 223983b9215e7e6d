import { geocodeResponseSchema } from '@csomag/domain/geo';
import { messages } from '@csomag/domain/messages';
import { type ParcelCreateBody, type ParcelStatus, parcelSchema } from '@csomag/domain/parcel';
import { queryOptions, useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest, requestJson } from '../../api/client.ts';
import { useLiveRefetch } from '../../api/live.ts';
import { parcelListQueryOptions } from '../../api/parcel-lists.ts';
import { useSession } from '../../api/session.ts';
import { notify } from '../../lib/notify.ts';
import { useDebounced } from '../../lib/use-debounced.ts';
import { sendOrQueue } from '../../offline/outbox.ts';

/*
 * Every call the sender's screens make: per call its request, its query options and its hook.
 * Components use the hooks; nothing else in this feature talks to the server.
 */

// ——— my parcels: sent, and coming to my address ———

export const sentParcelsKey = ['parcels', 'sent'] as const;
export const incomingParcelsKey = ['parcels', 'incoming'] as const;

export const sentParcelsQuery = (status?: ParcelStatus, limit?: number) =>
  parcelListQueryOptions(sentParcelsKey, '/me/sent-parcels', { status }, limit);

export const useSentParcels = (status?: ParcelStatus, limit?: number) =>
  useInfiniteQuery(sentParcelsQuery(status, limit));

/** Parcels whose destination is the address in my profile (compared after normalising it). */
export const incomingParcelsQuery = (limit?: number) =>
  parcelListQueryOptions(incomingParcelsKey, '/me/incoming-parcels', {}, limit);

export const useIncomingParcels = (limit?: number) => useInfiniteQuery(incomingParcelsQuery(limit));

/**
 * A user's lists follow every change to parcels they sent or that come to their address; the
 * server matches the address the stream opened with, so a new address reopens it.
 */
export function useSenderLiveLists() {
  const { data: account } = useSession();
  useLiveRefetch(['me'], [sentParcelsKey, incomingParcelsKey], Boolean(account), account?.address ?? '');
}

// ——— sending ———

const MIN_ADDRESS_LENGTH = 4;

export const fetchGeocode = (address: string, signal?: AbortSignal) =>
  apiRequest('GET', `/geocode?q=${encodeURIComponent(address)}`, geocodeResponseSchema, undefined, signal);

export const geocodeQuery = (address: string) =>
  queryOptions({
    queryKey: ['geocode', address],
    queryFn: ({ signal }) => fetchGeocode(address, signal),
    enabled: address.length >= MIN_ADDRESS_LENGTH,
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });

/** Places an address on the map as the sender types (debounced); an error when it cannot be placed. */
export function useGeocode(address: string) {
  return useQuery(geocodeQuery(useDebounced(address.trim(), 600)));
}

/** Through the outbox (src/offline/): kept when the server cannot be reached, sent when it can. */
export const createParcel = (body: ParcelCreateBody) =>
  sendOrQueue({ kind: 'createParcel', method: 'POST', path: '/parcels', body: { ...body } }, (json) =>
    parcelSchema.parse(json),
  );

export function useCreateParcel() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createParcel,
    // Run even when the browser says it is offline: the outbox keeps what cannot be sent.
    networkMode: 'always',
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['parcels'] }),
  });
}

// The answer has no body to read: success is the 2xx itself.
export const cancelParcel = (parcelId: string) =>
  requestJson('POST', `/parcels/${encodeURIComponent(parcelId)}/cancel`);

/**
 * The sender withdraws a parcel while it waits. Told from the hook, so the answer is shown even
 * when a live update has already removed the card that asked.
 */
export function useCancelParcel() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: cancelParcel,
    onSuccess: () => notify.success(messages.parcelCancelled),
    onError: notify.error,
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['parcels'] }),
  });
}
