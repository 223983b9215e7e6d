import {
  type SavedTrip,
  type SavedTripBodyInput,
  type SavedTripPatch,
  savedTripListSchema,
  savedTripSchema,
  type TripMatch,
  type TripQueryInput,
  tripMatchesResponseSchema,
} from '@csomag/domain/trip-api';
import {
  keepPreviousData,
  queryOptions,
  skipToken,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import { z } from 'zod';
import { apiRequest } from '../../api/client.ts';
import { waitingParcelsKey } from '../../api/runner-lists.ts';

/*
 * Trips (issue 13): the parcels on the way of a trip, a runner's saved trips, and the parcel a
 * saved trip's live offer names. Per call its request, its query options and its hook.
 */

// ——— the parcels on the way ———

export const fetchTripMatches = (trip: TripQueryInput, signal?: AbortSignal) =>
  apiRequest('POST', '/trips/matches', tripMatchesResponseSchema, trip, signal);

/**
 * A POST read as a query: under the waiting pool's key, so whatever refreshes the pool (a pickup,
 * the pool's live changes) asks again and a parcel someone took leaves the matches.
 */
export const tripMatchesQuery = (trip: TripQueryInput | null) =>
  queryOptions({
    queryKey: [...waitingParcelsKey, 'trip', trip],
    queryFn: trip ? ({ signal }) => fetchTripMatches(trip, signal) : skipToken,
    placeholderData: keepPreviousData,
    // A refusal (the same point twice, minutes out of range) is the answer; asking again changes nothing.
    retry: false,
  });

export const useTripMatches = (trip: TripQueryInput | null) => useQuery(tripMatchesQuery(trip));

// ——— saved trips ———

export const savedTripsKey = ['trips', 'saved'] as const;

export const savedTripsQuery = () =>
  queryOptions({
    queryKey: savedTripsKey,
    queryFn: ({ signal }) => apiRequest('GET', '/me/trips', savedTripListSchema, undefined, signal),
  });

export const useSavedTrips = () => useQuery(savedTripsQuery());

const tripPath = (id: string) => `/me/trips/${encodeURIComponent(id)}`;

export const saveTrip = (body: SavedTripBodyInput) => apiRequest('POST', '/me/trips', savedTripSchema, body);

export const updateTrip = ({ id, ...patch }: SavedTripPatch & { id: string }) =>
  apiRequest('PATCH', tripPath(id), savedTripSchema, patch);

/** Answers the trip that was deleted, as the list showed it: the server answers no body. */
export const deleteTrip = async (trip: SavedTrip) => {
  await apiRequest('DELETE', tripPath(trip.id), z.unknown());
  return trip;
};

function useTripMutation<V, R>(request: (variables: V) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: request,
    onSettled: () => queryClient.invalidateQueries({ queryKey: savedTripsKey }),
  });
}

export const useSaveTrip = () => useTripMutation(saveTrip);
export const useUpdateTrip = () => useTripMutation(updateTrip);
export const useDeleteTrip = () => useTripMutation(deleteTrip);

// ——— live offers ———

/**
 * The offered parcel with its addresses, or null when it cannot be told: a runner may not read a
 * waiting parcel by its id, so it is looked up among the matches of the saved trip it was offered
 * for (gone from them: taken meanwhile, or beyond the best TRIP_MATCHES_MAX).
 */
export async function fetchOfferedParcel(parcelId: string, tripId: string | undefined): Promise<TripMatch | null> {
  const { items } = await apiRequest('GET', '/me/trips', savedTripListSchema);
  const trip = items.find((saved) => saved.id === tripId);
  if (!trip) return null;
  const { from, to, mode, maxDetourMinutes } = trip;
  const { matches } = await fetchTripMatches({ from, to, mode, maxDetourMinutes, departure: 'now' });
  return matches.find((match) => match.id === parcelId) ?? null;
}
