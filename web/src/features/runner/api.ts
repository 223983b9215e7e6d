import {
  type HandoverBody,
  handoverLinkSchema,
  handoverSummarySchema,
  type Position,
  waitingParcelListSchema,
} from '@csomag/domain/delivery';
import type { ViewBounds } from '@csomag/domain/geo';
import { MAX_LIVE_TOPICS, parcelTopic, RELAY_OFFER_KIND } from '@csomag/domain/live';
import { messages } from '@csomag/domain/messages';
import { type Coordinates, carriedParcelListSchema, parcelListSchema, parcelSchema } from '@csomag/domain/parcel';
import {
  type RelayBody,
  relayLinkSchema,
  relayOfferListSchema,
  relayOfferSchema,
  relaySummarySchema,
} from '@csomag/domain/relay';
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
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import { z } from 'zod';
import { ApiError, apiRequest } from '../../api/client.ts';
import { useLiveChanges, useLiveRefetch } from '../../api/live.ts';
import { parcelDetailQuery, parcelKeys } from '../../api/parcel.ts';
import { parcelListQueryOptions } from '../../api/parcel-lists.ts';
import { notify } from '../../lib/notify.ts';
import { moveParcel } from '../../offline/optimistic.ts';
import { isQueued, reportPosition, sendOrQueue } from '../../offline/outbox.ts';

/*
 * Every call the runner's screens (and the receiver's handover page) make: per call its request,
 * its query options and its hook. Components use the hooks; nothing else here talks to the server.
 */

const parcelPath = (parcelId: string, action: string) => `/parcels/${encodeURIComponent(parcelId)}/${action}`;

// ——— the waiting pool and my parcels ———

export const waitingParcelsKey = ['parcels', 'waiting'] as const;
export const assignedParcelsKey = ['parcels', 'assigned'] as const;

export interface WaitingFilters {
  /** 'lat,lng': the nearest pickup first, each with its distance. */
  near?: string | undefined;
  settlement?: string | undefined;
}

export const waitingParcelsQuery = (filters: WaitingFilters = {}, limit = 20) =>
  parcelListQueryOptions(waitingParcelsKey, '/parcels/waiting', { ...filters }, limit, waitingParcelListSchema);

/** The waiting pool; a new filter keeps the old list on screen until its answer arrives. */
export const useWaitingParcels = (filters: WaitingFilters) =>
  useInfiniteQuery({ ...waitingParcelsQuery(filters), placeholderData: keepPreviousData });

/** What I carry, with whom to call about each (only the carrier gets that). */
export const assignedParcelsQuery = (limit = 20) =>
  parcelListQueryOptions(assignedParcelsKey, '/me/assigned-parcels', {}, limit, carriedParcelListSchema);

export const useAssignedParcels = () => useInfiniteQuery(assignedParcelsQuery());

const MAP_PARCEL_LIMIT = 200;

/** The longest-waiting parcels whose pickup point is in the runner map's view. */
export function fetchWaitingInView(view: ViewBounds, signal?: AbortSignal) {
  const params = new URLSearchParams({ limit: String(MAP_PARCEL_LIMIT) });
  for (const [side, value] of Object.entries(view)) params.set(side, String(value));
  return apiRequest('GET', `/parcels/waiting?${params}`, parcelListSchema, undefined, signal);
}

export const waitingInViewQuery = (view: ViewBounds | null) =>
  queryOptions({
    // Under the waiting pool's key, so whatever refreshes the pool refreshes the map too.
    queryKey: [...waitingParcelsKey, 'view', view],
    // Nothing to ask until the map has reported its first view.
    queryFn: view ? ({ signal }) => fetchWaitingInView(view, signal) : skipToken,
    placeholderData: keepPreviousData,
  });

export const useWaitingInView = (view: ViewBounds | null) => useQuery(waitingInViewQuery(view));

/**
 * Runner screens follow the waiting pool (`parcels`) and their own parcels (`me`) live, and the
 * relay offers: a `relay_offer` message on `parcels` (made, withdrawn, reserved) and any change to
 * a shown offer's parcel (`parcel:<id>`: a hand-over, give-back or delivery ends the offer). One
 * stream per page: a browser keeps only six connections to a server.
 */
export function useRunnerLiveLists() {
  const queryClient = useQueryClient();
  const offers = useRelayOffers();
  const offerTopics = [...new Set((offers.data?.items ?? []).map((offer) => offer.parcelId))]
    .sort()
    .slice(0, MAX_LIVE_TOPICS - 2)
    .map(parcelTopic);
  useLiveChanges(['parcels', 'me', ...offerTopics], (change) => {
    if (change === null || change.kind !== RELAY_OFFER_KIND) {
      for (const queryKey of [waitingParcelsKey, assignedParcelsKey]) void queryClient.invalidateQueries({ queryKey });
    } else {
      // A trip's matches list relay offers too (trip-relay.tsx).
      void queryClient.invalidateQueries({ queryKey: [...waitingParcelsKey, 'trip'] });
    }
    // A change to the runner's own parcels may end their offer too (a give-back elsewhere).
    if (change === null || change.kind === RELAY_OFFER_KIND || change.topic !== 'parcels') {
      void queryClient.invalidateQueries({ queryKey: relayOffersKey });
    }
  });
}

// ——— pickup, delivery, giving back ———

/*
 * The results of these actions are told from the hooks' own callbacks, never from `mutate`'s: the
 * live update may remove the card whose button asked before the answer arrives, and TanStack Query
 * calls no callback of an unmounted component.
 */

/*
 * Pickup, delivery, the QR confirmation and position reports go through the outbox (src/offline/):
 * sent at once with an Idempotency-Key, or kept when the server cannot be reached and sent when the
 * connection returns, the outbox then telling the real result. A kept action says so, not an error.
 */
export const pickUp = (parcelId: string) =>
  sendOrQueue(
    { kind: 'pickUp', method: 'POST', path: parcelPath(parcelId, 'pickup'), body: {}, group: parcelId },
    (json) => parcelSchema.parse(json),
  );

export function usePickUp() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: pickUp,
    // Run even when the browser says it is offline: the outbox keeps what cannot be sent.
    networkMode: 'always',
    onSuccess: () => notify.success(messages.parcelPickedUp),
    onError: (error, parcelId) => {
      if (!isQueued(error)) return notify.error(error);
      notify.info(messages.actionQueued);
      // Shown as carried until the server says otherwise, so it can be delivered offline too.
      moveParcel(queryClient, parcelId, 'pickedUp', assignedParcelsQuery().queryKey);
    },
    // Taken or not, the pool has changed: show it as it is now (a kept pickup: once it is sent).
    onSettled: (_data, error) => {
      if (!isQueued(error)) return queryClient.invalidateQueries({ queryKey: ['parcels'] });
    },
  });
}

/**
 * A delivery by position refused for where the runner stands or the door is (too far, or the
 * door's place unknown): the parcel stays on the list, and its card says why beside the button.
 */
export const isPositionRefusal = (error: unknown) =>
  error instanceof ApiError &&
  (error.code === 'too_far' || error.code === 'destination_imprecise' || error.code === 'photo_required');

export const deliver = ({ parcelId, position }: { parcelId: string; position: Position }) =>
  sendOrQueue(
    { kind: 'deliver', method: 'POST', path: parcelPath(parcelId, 'deliver'), body: { ...position }, group: parcelId },
    (json) => parcelSchema.parse(json),
  );

export function useDeliver() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deliver,
    // Run even when the browser says it is offline: the outbox keeps what cannot be sent.
    networkMode: 'always',
    onSuccess: () => {
      notify.success(messages.parcelDelivered);
      return queryClient.invalidateQueries({ queryKey: ['parcels'] });
    },
    // Any other refusal (handed over or reassigned meanwhile) takes the card away with it.
    onError: (error, { parcelId }) => {
      if (isQueued(error)) {
        notify.info(messages.actionQueued);
        moveParcel(queryClient, parcelId, 'delivered', assignedParcelsQuery().queryKey);
      } else if (!isPositionRefusal(error)) notify.error(error);
    },
  });
}

export const giveBack = ({ parcelId, reason }: { parcelId: string; reason: string }) =>
  apiRequest('POST', parcelPath(parcelId, 'give-back'), parcelSchema, { reason });

/** 'Visszaadom': back to the pool with the runner's reason; told from the hook, as the card leaves. */
export function useGiveBack() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: giveBack,
    onSuccess: () => notify.success(messages.parcelGivenBack),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['parcels'] }),
  });
}

/** While a runner is signed in, their position goes to the server (location-reporter.tsx says how often). */
export const reportLocation = (position: Position) => reportPosition(position);

// ——— the QR handover: the runner's side ———

/** The parcel chosen for the QR handover, kept live: the receiver confirms on their own phone. */
export function useHandoverParcel(parcelId: string) {
  const query = useQuery(parcelDetailQuery(parcelId));
  useLiveRefetch([parcelTopic(parcelId)], [parcelKeys.detail(parcelId)]);
  return query;
}

/** A new signed link each time it is asked: a POST, read as a query so the page can show and renew it. */
export const requestHandoverToken = (parcelId: string) =>
  apiRequest('POST', parcelPath(parcelId, 'handover-token'), handoverLinkSchema, {});

export const handoverTokenQuery = (parcelId: string, enabled: boolean) =>
  queryOptions({
    queryKey: ['handover-token', parcelId],
    queryFn: () => requestHandoverToken(parcelId),
    enabled,
    // Renewed only when the runner asks for a new code: a refetch would change the code being scanned.
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });

export const useHandoverToken = (parcelId: string, enabled: boolean) => useQuery(handoverTokenQuery(parcelId, enabled));

// ——— the QR handover: the receiver's side ———

export const fetchHandoverSummary = (parcelId: string, token: string, signal?: AbortSignal) =>
  apiRequest(
    'GET',
    `/handover/${encodeURIComponent(parcelId)}?token=${encodeURIComponent(token)}`,
    handoverSummarySchema,
    undefined,
    signal,
  );

export const handoverSummaryQuery = (parcelId: string, token: string, enabled: boolean) =>
  queryOptions({
    queryKey: ['handover', parcelId, token],
    queryFn: ({ signal }) => fetchHandoverSummary(parcelId, token, signal),
    enabled,
    retry: false,
  });

export const useHandoverSummary = (parcelId: string, token: string, enabled: boolean) =>
  useQuery(handoverSummaryQuery(parcelId, token, enabled));

export const acceptHandover = ({ parcelId, ...body }: HandoverBody & { parcelId: string }) =>
  sendOrQueue(
    { kind: 'handover', method: 'POST', path: parcelPath(parcelId, 'handover'), body: { ...body }, group: parcelId },
    (json) => handoverSummarySchema.parse(json),
  );

export function useAcceptHandover() {
  return useMutation({
    mutationFn: acceptHandover,
    // Run even when the browser says it is offline: the outbox keeps what cannot be sent.
    networkMode: 'always',
    onSuccess: () => notify.success(messages.parcelDelivered),
    onError: (error) => {
      if (isQueued(error)) notify.info(messages.actionQueued);
    },
  });
}

// ——— trips (issue 13): the parcels on the way, saved trips, live offers ———

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

// ——— relay (issue 14): one runner hands a parcel to the next ———

/** A new signed link for the next runner each time it is asked ({ url, expiresAt }, as the receiver's). */
export const requestRelayToken = (parcelId: string) =>
  apiRequest('POST', parcelPath(parcelId, 'relay-token'), relayLinkSchema, {});

export const relayTokenQuery = (parcelId: string) =>
  queryOptions({
    queryKey: ['relay-token', parcelId],
    queryFn: () => requestRelayToken(parcelId),
    // Renewed only when the runner asks for a new code: a refetch would change the code being scanned.
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 0,
    retry: false,
  });

export const useRelayToken = (parcelId: string) => useQuery(relayTokenQuery(parcelId));

export const fetchRelaySummary = (parcelId: string, token: string, signal?: AbortSignal) =>
  apiRequest(
    'GET',
    `/relay/${encodeURIComponent(parcelId)}?token=${encodeURIComponent(token)}`,
    relaySummarySchema,
    undefined,
    signal,
  );

export const relaySummaryQuery = (parcelId: string, token: string, enabled: boolean) =>
  queryOptions({
    queryKey: ['relay', parcelId, token],
    queryFn: ({ signal }) => fetchRelaySummary(parcelId, token, signal),
    enabled,
    // A refused link stays refused: asking again changes nothing.
    retry: false,
  });

export const useRelaySummary = (parcelId: string, token: string, enabled: boolean) =>
  useQuery(relaySummaryQuery(parcelId, token, enabled));

export const takeOver = ({ parcelId, ...body }: RelayBody & { parcelId: string }) =>
  apiRequest('POST', parcelPath(parcelId, 'relay'), parcelSchema, body);

/** 'Átveszem': the parcel becomes the signed-in runner's; told from the hook (the page moves on). */
export function useTakeOver() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: takeOver,
    onSuccess: () => notify.success(messages.takeOverDone),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['parcels'] }),
  });
}

// ——— relay offers (issue 14): 'Továbbadnám', and reserving another runner's ———

/** Open relay offers: other runners' (unreserved or reserved by me) and my own. */
export const relayOffersKey = ['relay-offers'] as const;

export const relayOffersQuery = () =>
  queryOptions({
    queryKey: relayOffersKey,
    queryFn: ({ signal }) => apiRequest('GET', '/relay-offers', relayOfferListSchema, undefined, signal),
  });

export const useRelayOffers = () => useQuery(relayOffersQuery());

/** What the form sends (POST /parcels/:id/relay-offer): times as ISO instants. */
export interface RelayOfferRequest {
  parcelId: string;
  place: Coordinates;
  placeLabel?: string;
  from: string;
  until: string;
}

export const createRelayOffer = ({ parcelId, ...body }: RelayOfferRequest) =>
  apiRequest('POST', parcelPath(parcelId, 'relay-offer'), relayOfferSchema, body);

/** 'Felajánlom': the toast only once the server has the offer; errors stay with the form. */
export function useCreateRelayOffer() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createRelayOffer,
    onSuccess: () => notify.success(messages.relayOfferCreated),
    onSettled: () => queryClient.invalidateQueries({ queryKey: relayOffersKey }),
  });
}

export const withdrawRelayOffer = (parcelId: string) =>
  apiRequest('DELETE', parcelPath(parcelId, 'relay-offer'), z.unknown());

export function useWithdrawRelayOffer() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: withdrawRelayOffer,
    onSuccess: () => notify.success(messages.relayOfferWithdrawn),
    onError: (error) => notify.error(error),
    onSettled: () => queryClient.invalidateQueries({ queryKey: relayOffersKey }),
  });
}

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
