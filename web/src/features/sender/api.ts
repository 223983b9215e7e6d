import { geocodeResponseSchema } from '@csomag/domain/geo';
import { messages } from '@csomag/domain/messages';
import { type ParcelCreateBody, parcelSchema } from '@csomag/domain/parcel';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest, requestJson } from '../../api/client.ts';
import { notify } from '../../lib/notify.ts';
import { useDebounced } from '../../lib/use-debounced.ts';

const MIN_ADDRESS_LENGTH = 4;

/** Places an address on the map as the sender types (debounced); null when it cannot be placed. */
export function useGeocode(address: string) {
  const query = useDebounced(address.trim(), 600);
  return useQuery({
    queryKey: ['geocode', query],
    queryFn: ({ signal }) =>
      apiRequest('GET', `/geocode?q=${encodeURIComponent(query)}`, geocodeResponseSchema, undefined, signal),
    enabled: query.length >= MIN_ADDRESS_LENGTH,
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });
}

export function useCreateParcel() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ParcelCreateBody) => apiRequest('POST', '/parcels', parcelSchema, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['parcels'] }),
  });
}

/**
 * 'Feladás visszavonása' while the parcel waits. Told from the hook, so the answer is shown even
 * when a live update has already removed the card that asked.
 */
export function useCancelParcel() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (parcelId: string) => requestJson('POST', `/parcels/${encodeURIComponent(parcelId)}/cancel`),
    onSuccess: () => notify.success(messages.parcelCancelled),
    onError: notify.error,
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['parcels'] }),
  });
}
