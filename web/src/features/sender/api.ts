import { messages } from '@csomag/domain/messages';
import { type ParcelCreateBody, type ParcelState, parcelSchema } from '@csomag/domain/parcel';
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { requestJson } from '../../api/client.ts';
import { useLiveRefetch } from '../../api/live.ts';
import { parcelListQueryOptions } from '../../api/parcel-lists.ts';
import { useSession } from '../../api/session.ts';
import { notify } from '../../lib/notify.ts';
import { sendOrQueue } from '../../offline/outbox.ts';

/*
 * Every call the sender's screens make: per call its request, its query options and its hook.
 * Components use the hooks; nothing else in this feature talks to the server.
 */

// ——— my parcels: sent, and coming to my address ———

export const sentParcelsKey = ['parcels', 'sent'] as const;
export const incomingParcelsKey = ['parcels', 'incoming'] as const;

export const sentParcelsQuery = (status?: ParcelState, limit?: number) =>
  parcelListQueryOptions(sentParcelsKey, '/me/sent-parcels', { status }, limit);

export const useSentParcels = (status?: ParcelState, limit?: number) =>
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
  // Their parcels' failed attempts too (a door photo added later changes no list).
  useLiveRefetch(['me'], [sentParcelsKey, incomingParcelsKey, ['attempts']], Boolean(account), account?.address ?? '');
}

// ——— sending ———

/** Placing an address is shared with the runner's trip form: it lives in web/src/api/geocode.ts. */
export { fetchGeocode, geocodeQuery, useGeocode, usePlacedAddress, useReverseGeocode } from '../../api/geocode.ts';

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
