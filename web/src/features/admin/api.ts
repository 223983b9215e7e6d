import { accountResponseSchema, type NewAccount, type ProfileUpdate } from '@csomag/domain/account';
import { type MapQuery, mapResponseSchema, type ParcelAdminUpdate } from '@csomag/domain/admin';
import { messages } from '@csomag/domain/messages';
import { type ParcelStatus, parcelDetailSchema, parcelSchema } from '@csomag/domain/parcel';
import { type RunnerList, runnerListSchema } from '@csomag/domain/runner';
import {
  infiniteQueryOptions,
  keepPreviousData,
  queryOptions,
  useMutation,
  useQueryClient,
} from '@tanstack/react-query';
import { z } from 'zod';
import { apiRequest } from '../../api/client.ts';
import { useLiveRefetch } from '../../api/live.ts';
import { parcelListQueryOptions } from '../../api/parcel-lists.ts';
import { notify } from '../../lib/notify.ts';

const runnerPath = (userName: string) => `/runners/${encodeURIComponent(userName)}`;
const parcelPath = (parcelId: string) => `/parcels/${encodeURIComponent(parcelId)}`;

// ——— runners ———

export const runnersQuery = (q: string, near?: string) =>
  infiniteQueryOptions({
    queryKey: ['runners', { q, near }],
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam, signal }) => {
      const params = new URLSearchParams({ limit: '20' });
      if (q) params.set('q', q);
      if (near) params.set('near', near);
      if (pageParam) params.set('cursor', pageParam);
      return apiRequest('GET', `/runners?${params}`, runnerListSchema, undefined, signal);
    },
    getNextPageParam: (last: RunnerList) => last.nextCursor ?? undefined,
    placeholderData: keepPreviousData,
  });

export const runnerQuery = (userName: string) =>
  queryOptions({
    queryKey: ['runner', userName],
    queryFn: async ({ signal }) =>
      (await apiRequest('GET', runnerPath(userName), accountResponseSchema, undefined, signal)).account,
  });

export function useRegisterRunner() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: NewAccount) => apiRequest('POST', '/runners', accountResponseSchema, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['runners'] }),
  });
}

export function useUpdateRunner(userName: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ProfileUpdate) => apiRequest('PATCH', runnerPath(userName), accountResponseSchema, body),
    onSuccess: ({ account }) => {
      queryClient.setQueryData(runnerQuery(userName).queryKey, account);
      queryClient.invalidateQueries({ queryKey: ['runners'] });
    },
  });
}

export function useDeleteRunner(userName: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiRequest('DELETE', runnerPath(userName), z.unknown()),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['runners'] }),
  });
}

// ——— parcels ———

export interface ParcelFilters {
  status?: ParcelStatus | undefined;
  runner?: string | undefined;
  sender?: string | undefined;
}

export const adminParcelsKey = ['parcels', 'all'] as const;
export const adminParcelsQuery = (filters: ParcelFilters, limit = 20) => ({
  ...parcelListQueryOptions(adminParcelsKey, '/parcels', { ...filters }, limit),
  placeholderData: keepPreviousData,
});

/** The back office sees every change (topic `parcels`). */
export const useAdminLive = (keys: readonly (readonly unknown[])[] = [['parcels'], ['parcel'], ['map']]) =>
  useLiveRefetch(['parcels'], keys);

export const parcelQuery = (parcelId: string) =>
  queryOptions({
    queryKey: ['parcel', parcelId],
    queryFn: ({ signal }) => apiRequest('GET', parcelPath(parcelId), parcelDetailSchema, undefined, signal),
  });

/**
 * A change to parcels that every parcel view then shows. With `done`, the hook itself tells the
 * result, success or refusal: the live list may drop the card whose button asked before the answer
 * arrives, and TanStack Query calls no `mutate` callback of an unmounted component.
 */
function useParcelMutation<Input>(request: (input: Input) => Promise<unknown>, done?: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: request,
    onSuccess: () => {
      if (done) notify.success(done);
      queryClient.invalidateQueries({ queryKey: ['parcels'] });
      queryClient.invalidateQueries({ queryKey: ['parcel'] });
      queryClient.invalidateQueries({ queryKey: ['map'] });
    },
    onError: (error) => {
      if (done) notify.error(error);
    },
  });
}

export const useUpdateParcel = (parcelId: string) =>
  useParcelMutation((body: ParcelAdminUpdate) => apiRequest('PATCH', parcelPath(parcelId), parcelSchema, body));

/** A parcel a runner carries is deleted only with a reason (the server asks for it too). */
export const useDeleteParcel = (parcelId: string, reason?: string) =>
  useParcelMutation<void>(() =>
    apiRequest('DELETE', parcelPath(parcelId), z.unknown(), reason === undefined ? undefined : { reason }),
  );

/** 'Leadás': the superadmin hands a parcel over without a position. */
export const useHandOver = () =>
  useParcelMutation(
    (parcelId: string) => apiRequest('POST', `${parcelPath(parcelId)}/deliver`, parcelSchema, {}),
    messages.parcelDelivered,
  );

export const useAssign = () =>
  useParcelMutation(
    ({ parcelId, runner }: { parcelId: string; runner: string }) =>
      apiRequest('POST', `${parcelPath(parcelId)}/assign`, parcelSchema, { runner }),
    messages.parcelAssigned,
  );

// ——— map ———

export const mapQuery = (view: MapQuery | null) =>
  queryOptions({
    queryKey: ['map', view],
    queryFn: ({ signal }) => {
      const params = new URLSearchParams(Object.entries(view ?? {}).map(([key, value]) => [key, String(value)]));
      return apiRequest('GET', `/map/parcels?${params}`, mapResponseSchema, undefined, signal);
    },
    enabled: view !== null,
    placeholderData: keepPreviousData,
  });
