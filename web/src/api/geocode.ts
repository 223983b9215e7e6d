import { geocodeResponseSchema } from '@csomag/domain/geo';
import type { Coordinates } from '@csomag/domain/parcel';
import { reverseGeocodeResponseSchema } from '@csomag/domain/places';
import { queryOptions, skipToken, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { useDebounced } from '../lib/use-debounced.ts';
import { apiRequest } from './client.ts';

/** Shorter than this, an address is still being typed: nothing is asked. */
const MIN_ADDRESS_LENGTH = 4;
/** How long typing rests before the address is placed. */
const TYPING_PAUSE_MS = 600;

/** An address placed on the map: its point, its label and how precisely it is known. */
export type PlacedAddress = z.infer<typeof geocodeResponseSchema>;

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
  return useQuery(geocodeQuery(useDebounced(address.trim(), TYPING_PAUSE_MS)));
}

/**
 * The same for a form whose pin stays on the map while the next address is looked up: the last
 * answer is kept meanwhile, and `searching` says that it is not yet the answer for what is typed.
 */
export function usePlacedAddress(address: string) {
  const typed = address.trim();
  const settled = useDebounced(typed, TYPING_PAUSE_MS);
  const query = useQuery({ ...geocodeQuery(settled), placeholderData: (previous) => previous });
  const searching = typed.length >= MIN_ADDRESS_LENGTH && (typed !== settled || query.isFetching);
  // An answer (or a refusal) for another address than the one typed says nothing about this one.
  const current = !searching && !query.isPlaceholderData && settled.length >= MIN_ADDRESS_LENGTH;
  return {
    placed: current ? (query.data ?? null) : null,
    refusal: current && query.isError ? query.error : null,
    /** The pin to show: the answer for this address, or the last one while the next is looked up. */
    shown: searching ? (query.data ?? null) : current ? (query.data ?? null) : null,
    searching,
  };
}

// ——— the nearest place to a point ———

/** ~1 m: a point asked again after a nudge of a few centimetres is the same question. */
const roundPoint = ({ lat, lng }: Coordinates): Coordinates => ({
  lat: Math.round(lat * 1e5) / 1e5,
  lng: Math.round(lng * 1e5) / 1e5,
});

export const fetchReverseGeocode = ({ lat, lng }: Coordinates, signal?: AbortSignal) =>
  apiRequest('GET', `/geocode/reverse?lat=${lat}&lng=${lng}`, reverseGeocodeResponseSchema, undefined, signal);

export const reverseGeocodeQuery = (point: Coordinates | null) => {
  const rounded = point ? roundPoint(point) : null;
  return queryOptions({
    queryKey: ['reverse-geocode', rounded?.lat ?? null, rounded?.lng ?? null],
    queryFn: rounded ? ({ signal }) => fetchReverseGeocode(rounded, signal) : skipToken,
    staleTime: Number.POSITIVE_INFINITY,
    // A point nothing is known near is the answer; asking again changes nothing.
    retry: false,
  });
};

/**
 * The nearest address or named place to a point (a pin placed by hand, a meeting point without a
 * name): `{label, precision, metres}`, or no data while asked or when nothing is known near it.
 */
export const useReverseGeocode = (point: Coordinates | null) => useQuery(reverseGeocodeQuery(point));
