import { handoverLinkSchema, waitingParcelListSchema } from '@csomag/domain/delivery';
import type { ViewBounds } from '@csomag/domain/geo';
import { messages } from '@csomag/domain/messages';
import { carriedParcelListSchema, type Parcel, parcelListSchema, parcelSchema } from '@csomag/domain/parcel';
import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { ApiError, apiRequest } from '../../api/client.ts';
import { useLiveRefetch } from '../../api/live.ts';
import { parcelListQueryOptions } from '../../api/parcel-lists.ts';
import type { Position } from '../../lib/geolocation.ts';
import { notify } from '../../lib/notify.ts';

export const waitingParcelsKey = ['parcels', 'waiting'] as const;
export const assignedParcelsKey = ['parcels', 'assigned'] as const;

/** The waiting pool; `near` ('lat,lng') lists the nearest pickup first, with distances; `settlement` filters. */
export const waitingParcelsQuery = (
  filters: { near?: string | undefined; settlement?: string | undefined } = {},
  limit = 20,
) => parcelListQueryOptions(waitingParcelsKey, '/parcels/waiting', filters, limit, waitingParcelListSchema);
/** What I carry, with whom to call about each (only the carrier gets that). */
export const assignedParcelsQuery = (limit = 20) =>
  parcelListQueryOptions(assignedParcelsKey, '/me/assigned-parcels', {}, limit, carriedParcelListSchema);

const MAP_PARCEL_LIMIT = 200;

/** The longest-waiting parcels whose pickup point is in the runner map's view. */
export const waitingInViewQuery = (view: ViewBounds | null) =>
  queryOptions({
    queryKey: [...waitingParcelsKey, 'view', view],
    queryFn: ({ signal }) => {
      const params = new URLSearchParams({ limit: String(MAP_PARCEL_LIMIT) });
      for (const [side, value] of Object.entries(view ?? {})) params.set(side, String(value));
      return apiRequest('GET', `/parcels/waiting?${params}`, parcelListSchema, undefined, signal);
    },
    enabled: view !== null,
    placeholderData: keepPreviousData,
  });

/** Runner screens follow the waiting pool (`parcels`) and their own parcels (`me`) live. */
export const useRunnerLiveLists = () => useLiveRefetch(['parcels', 'me'], [waitingParcelsKey, assignedParcelsKey]);

const parcelPath = (parcelId: string, action: string) => `/parcels/${encodeURIComponent(parcelId)}/${action}`;

/*
 * The results of these actions are told from the hooks' own callbacks, never from `mutate`'s: the
 * live update may remove the card whose button asked before the answer arrives, and TanStack Query
 * calls no callback of an unmounted component.
 */

export function usePickUp() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (parcelId: string) => apiRequest('POST', parcelPath(parcelId, 'pickup'), parcelSchema, {}),
    onSuccess: () => notify.success(messages.parcelPickedUp),
    onError: notify.error,
    // Taken or not, the pool has changed: show it as it is now.
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['parcels'] }),
  });
}

/**
 * A delivery by position refused for where the runner stands or the door is (422: too far, or the
 * door's place unknown): the parcel stays on the list, and its card says why beside the button.
 */
export const isPositionRefusal = (error: unknown) => error instanceof ApiError && error.code === 'unprocessable';

export function useDeliver() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ parcelId, position }: { parcelId: string; position: Position }) =>
      apiRequest('POST', parcelPath(parcelId, 'deliver'), parcelSchema, position),
    onSuccess: () => {
      notify.success(messages.parcelDelivered);
      return queryClient.invalidateQueries({ queryKey: ['parcels'] });
    },
    // Any other refusal (handed over or reassigned meanwhile) takes the card away with it.
    onError: (error) => {
      if (!isPositionRefusal(error)) notify.error(error);
    },
  });
}

/** 'Visszaadom': back to the pool with the runner's reason; told from the hook, as the card leaves. */
export function useGiveBack() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ parcelId, reason }: { parcelId: string; reason: string }) =>
      apiRequest('POST', parcelPath(parcelId, 'give-back'), parcelSchema, { reason }),
    onSuccess: () => notify.success(messages.parcelGivenBack),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['parcels'] }),
  });
}

export const requestHandoverToken = (parcelId: string) =>
  apiRequest('POST', parcelPath(parcelId, 'handover-token'), handoverLinkSchema, {});

export const parcelQuery = (parcelId: string) => ({
  queryKey: ['parcel', parcelId],
  queryFn: ({ signal }: { signal: AbortSignal }) =>
    apiRequest('GET', `/parcels/${encodeURIComponent(parcelId)}`, parcelSchema, undefined, signal),
});

export type { Parcel };
