import { messages } from '@csomag/domain/messages';
import { parcelSchema } from '@csomag/domain/parcel';
import {
  type RelayBody,
  type RelayOfferBody,
  relayLinkSchema,
  relayOfferSchema,
  relaySummarySchema,
} from '@csomag/domain/relay';
import { relayMeetingPointsSchema } from '@csomag/domain/trip-api';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { apiRequest } from '../../api/client.ts';
import { parcelActionPath } from '../../api/parcel.ts';
import { relayOffersKey } from '../../api/relay-offers.ts';
import { notify } from '../../lib/notify.ts';

/*
 * Relay (issue 14): one runner hands a parcel to the next by a signed QR link, or offers it for a
 * meeting later ('Továbbadnám'). Per call its request, its query options and its hook; the open
 * offers and reserving one are shared with other features (src/api/relay-offers.ts).
 */

// ——— the hand-over link ———

/** A new signed link for the next runner each time it is asked ({ url, expiresAt }, as the receiver's). */
export const requestRelayToken = (parcelId: string) =>
  apiRequest('POST', parcelActionPath(parcelId, 'relay-token'), relayLinkSchema, {});

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
  apiRequest('POST', parcelActionPath(parcelId, 'relay'), parcelSchema, body);

/** 'Átveszem': the parcel becomes the signed-in runner's; told from the hook (the page moves on). */
export function useTakeOver() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: takeOver,
    onSuccess: () => notify.success(messages.takeOverDone),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['parcels'] }),
  });
}

// ——— the carrier's own offer: 'Továbbadnám' ———

/** POST /parcels/:id/relay-offer: the offer as the domain's schema answers the form (times as ISO instants). */
export const createRelayOffer = ({ parcelId, ...body }: RelayOfferBody & { parcelId: string }) =>
  apiRequest('POST', parcelActionPath(parcelId, 'relay-offer'), relayOfferSchema, body);

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
  apiRequest('DELETE', parcelActionPath(parcelId, 'relay-offer'), z.unknown());

export function useWithdrawRelayOffer() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: withdrawRelayOffer,
    onSuccess: () => notify.success(messages.relayOfferWithdrawn),
    onError: (error) => notify.error(error),
    onSettled: () => queryClient.invalidateQueries({ queryKey: relayOffersKey }),
  });
}

// ——— meeting points where trips meet (issue 26) ———

/** Stops the runner's saved trip and other runners' both pass in the window; refetched as the window changes. */
export const useRelayMeetingPoints = (parcelId: string, window: { from: string; until: string } | null) =>
  useQuery({
    queryKey: ['relay-meeting-points', parcelId, window?.from, window?.until],
    queryFn: ({ signal }) =>
      apiRequest(
        'GET',
        `${parcelActionPath(parcelId, 'relay-meeting-points')}?${new URLSearchParams(window ?? {})}`,
        relayMeetingPointsSchema,
        undefined,
        signal,
      ),
    enabled: window !== null,
  });
