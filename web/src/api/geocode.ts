import { geocodeResponseSchema } from '@csomag/domain/geo';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useDebounced } from '../lib/use-debounced.ts';
import { apiRequest } from './client.ts';

/** Shorter than this, an address is still being typed: nothing is asked. */
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

/**
 * Places an address on the map as it is typed (debounced); an error when it cannot be placed.
 * Shared by the send-parcel form and the runner's trip form.
 */
export function useGeocode(address: string) {
  return useQuery(geocodeQuery(useDebounced(address.trim(), 600)));
}
