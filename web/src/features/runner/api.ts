import { handoverLinkSchema } from '@csomag/domain/delivery';
import type { ViewBounds } from '@csomag/domain/geo';
import { type Parcel, parcelListSchema, parcelSchema } from '@csomag/domain/parcel';
import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../api/client.ts';
import { useLiveRefetch } from '../../api/live.ts';
import { parcelListQueryOptions } from '../../api/parcel-lists.ts';
import type { Position } from '../../lib/geolocation.ts';

export const waitingParcelsKey = ['parcels', 'waiting'] as const;
export const assignedParcelsKey = ['parcels', 'assigned'] as const;

export const waitingParcelsQuery = (limit = 20) =>
  parcelListQueryOptions(waitingParcelsKey, '/parcels/waiting', {}, limit);
export const assignedParcelsQuery = (limit = 20) =>
  parcelListQueryOptions(assignedParcelsKey, '/me/assigned-parcels', {}, limit);

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

export function usePickUp() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (parcelId: string) => apiRequest('POST', parcelPath(parcelId, 'pickup'), parcelSchema, {}),
    // Taken or not, the pool has changed: show it as it is now.
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['parcels'] }),
  });
}

export function useDeliver() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ parcelId, position }: { parcelId: string; position: Position }) =>
      apiRequest('POST', parcelPath(parcelId, 'deliver'), parcelSchema, position),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['parcels'] }),
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
