import { accountResponseSchema, accountSchema, type NewAccount, type ProfileUpdate } from '@csomag/domain/account';
import { adminParcelListSchema, type MapQuery, mapResponseSchema, type ParcelAdminUpdate } from '@csomag/domain/admin';
import { messages } from '@csomag/domain/messages';
import { type ParcelCreateBody, type ParcelState, pageOf, parcelSchema } from '@csomag/domain/parcel';
import {
  type BackOfficeCommentList,
  backOfficeCommentListSchema,
  type HideCommentBody,
  moderatedCommentSchema,
} from '@csomag/domain/rating-comments';
import { type CustodyOverrideBody, custodyChainSchema } from '@csomag/domain/relay';
import type { Role } from '@csomag/domain/roles';
import { type RunnerList, runnerListSchema } from '@csomag/domain/runner';
import { timetableStatusSchema } from '@csomag/domain/trip-api';
import {
  infiniteQueryOptions,
  keepPreviousData,
  queryOptions,
  skipToken,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import { z } from 'zod';
import { apiRequest } from '../../api/client.ts';
import { useLiveRefetch } from '../../api/live.ts';
import { parcelDetailQuery } from '../../api/parcel.ts';
import { parcelListQueryOptions } from '../../api/parcel-lists.ts';
import { notify } from '../../lib/notify.ts';

const runnerPath = (userName: string) => `/runners/${encodeURIComponent(userName)}`;
const parcelPath = (parcelId: string) => `/parcels/${encodeURIComponent(parcelId)}`;

// ——— runners ———

/** One page of runners: by name (`q`), or nearest first to a parcel (`near`, its id). */
export const getRunners = (
  { q, near, cursor }: { q: string; near?: string | undefined; cursor?: string | undefined },
  signal?: AbortSignal,
) => {
  const params = new URLSearchParams({ limit: '20' });
  if (q) params.set('q', q);
  if (near) params.set('near', near);
  if (cursor) params.set('cursor', cursor);
  return apiRequest('GET', `/runners?${params}`, runnerListSchema, undefined, signal);
};

export const runnersQuery = (q: string, near?: string) =>
  infiniteQueryOptions({
    queryKey: ['runners', { q, near }],
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam, signal }) => getRunners({ q, near, cursor: pageParam }, signal),
    getNextPageParam: (last: RunnerList) => last.nextCursor ?? undefined,
    placeholderData: keepPreviousData,
  });

export const useRunners = (q: string) => useInfiniteQuery(runnersQuery(q));

/** The runners nearest to a parcel; nothing is asked before a parcel is chosen. */
export const useRunnersNear = (parcelId: string) =>
  useInfiniteQuery({ ...runnersQuery('', parcelId || undefined), enabled: parcelId !== '' });

export const getRunner = async (userName: string, signal?: AbortSignal) =>
  (await apiRequest('GET', runnerPath(userName), accountResponseSchema, undefined, signal)).account;

export const runnerQuery = (userName: string) =>
  queryOptions({
    queryKey: ['runner', userName],
    queryFn: ({ signal }) => getRunner(userName, signal),
  });

export const useRunner = (userName: string) => useQuery(runnerQuery(userName));

export const registerRunner = (body: NewAccount) => apiRequest('POST', '/runners', accountResponseSchema, body);

export function useRegisterRunner() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: registerRunner,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['runners'] }),
  });
}

export const updateRunner = async (userName: string, body: ProfileUpdate) =>
  (await apiRequest('PATCH', runnerPath(userName), accountResponseSchema, body)).account;

export function useUpdateRunner(userName: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ProfileUpdate) => updateRunner(userName, body),
    onSuccess: (account) => {
      queryClient.setQueryData(runnerQuery(userName).queryKey, account);
      queryClient.invalidateQueries({ queryKey: ['runners'] });
    },
  });
}

export const deleteRunner = (userName: string) => apiRequest('DELETE', runnerPath(userName), z.unknown());

export function useDeleteRunner(userName: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => deleteRunner(userName),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['runners'] }),
  });
}

// ——— the comments of a runner's ratings (ADR 0025) ———

/** One page of the comments about a runner, newest first, as the back office reads them. */
export const getRunnerComments = (userName: string, cursor: string | undefined, signal?: AbortSignal) => {
  const params = new URLSearchParams({ limit: '20' });
  if (cursor) params.set('cursor', cursor);
  return apiRequest(
    'GET',
    `${runnerPath(userName)}/rating-comments?${params}`,
    backOfficeCommentListSchema,
    undefined,
    signal,
  );
};

export const runnerCommentsQuery = (userName: string) =>
  infiniteQueryOptions({
    queryKey: ['rating-comments', userName],
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam, signal }) => getRunnerComments(userName, pageParam, signal),
    getNextPageParam: (last: BackOfficeCommentList) => last.nextCursor ?? undefined,
  });

export const useRunnerComments = (userName: string) => useInfiniteQuery(runnerCommentsQuery(userName));

/** Hides a comment from its runner, with the reason the back office gives. */
export const hideComment = async (ratingId: number, body: HideCommentBody) =>
  (await apiRequest('POST', `/ratings/${ratingId}/comment/hide`, moderatedCommentSchema, body)).comment;

/** Shows a hidden comment to its runner again. */
export const showComment = async (ratingId: number) =>
  (await apiRequest('POST', `/ratings/${ratingId}/comment/show`, moderatedCommentSchema)).comment;

/** A hide or a showing again: the runner's comments are read afresh whatever the answer. */
function useCommentMutation<Args>(userName: string, change: (args: Args) => Promise<unknown>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: change,
    onSettled: () => queryClient.invalidateQueries({ queryKey: runnerCommentsQuery(userName).queryKey }),
  });
}

export const useHideComment = (userName: string) =>
  useCommentMutation(userName, ({ ratingId, body }: { ratingId: number; body: HideCommentBody }) =>
    hideComment(ratingId, body),
  );

export const useShowComment = (userName: string) => useCommentMutation(userName, showComment);

// ——— accounts to pick (a parcel's sender, a parcel's new holder) ———

const userPage = pageOf(accountSchema);

/** The first accounts of a role whose user name or name matches `q`: suggestions, not a list to page through. */
export const getUserSuggestions = (q: string, role: Role, signal?: AbortSignal) =>
  apiRequest('GET', `/users?role=${role}&limit=10&q=${encodeURIComponent(q)}`, userPage, undefined, signal);

export const userSuggestionsQuery = (q: string, role: Role) =>
  queryOptions({
    queryKey: ['users', 'suggestions', role, q],
    queryFn: ({ signal }) => getUserSuggestions(q, role, signal),
  });

export const useUserSuggestions = (q: string, role: Role) => useQuery(userSuggestionsQuery(q, role));

// ——— parcels ———

export interface ParcelFilters {
  status?: ParcelState | undefined;
  runner?: string | undefined;
  sender?: string | undefined;
  /** 'true': only parcels handed from runner to runner. */
  multiLeg?: 'true' | undefined;
}

export const adminParcelsKey = ['parcels', 'all'] as const;
export const adminParcelsQuery = (filters: ParcelFilters, limit = 20) => ({
  ...parcelListQueryOptions(adminParcelsKey, '/parcels', { ...filters }, limit, adminParcelListSchema),
  placeholderData: keepPreviousData,
});

export const useAdminParcels = (filters: ParcelFilters, limit?: number) =>
  useInfiniteQuery(adminParcelsQuery(filters, limit));

/** One parcel with its timeline and contacts, read through the shared detail query (its key is its shape's). */
export const useParcelDetail = (parcelId: string) => useQuery(parcelDetailQuery(parcelId));

/** The back office sees every change (topic `parcels`). */
export const useAdminLive = (keys: readonly (readonly unknown[])[] = [['parcels'], ['parcel'], ['map']]) =>
  useLiveRefetch(['parcels'], keys);

/**
 * A change to parcels that every parcel view then shows. With `done`, the hook itself tells the
 * result, success or refusal: the live list may drop the card whose button asked before the answer
 * arrives, and TanStack Query calls no `mutate` callback of an unmounted component.
 */
function useParcelMutation<Input, Output>(request: (input: Input) => Promise<Output>, done?: string) {
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

/** SPEC §2.8: the back office sends a parcel in an existing user's name. */
export const createParcel = (body: ParcelCreateBody) => apiRequest('POST', '/parcels', parcelSchema, body);

export const useCreateParcel = () => useParcelMutation(createParcel);

export const updateParcel = (parcelId: string, body: ParcelAdminUpdate) =>
  apiRequest('PATCH', parcelPath(parcelId), parcelSchema, body);

export const useUpdateParcel = (parcelId: string) =>
  useParcelMutation((body: ParcelAdminUpdate) => updateParcel(parcelId, body));

/** A parcel a runner carries is deleted only with a reason (the server asks for it too). */
export const deleteParcel = (parcelId: string, reason?: string) =>
  apiRequest('DELETE', parcelPath(parcelId), z.unknown(), reason === undefined ? undefined : { reason });

export const useDeleteParcel = (parcelId: string) =>
  useParcelMutation((reason: string | undefined) => deleteParcel(parcelId, reason));

/** 'Leadás': the superadmin hands a parcel over without a position. */
export const handOverParcel = (parcelId: string) =>
  apiRequest('POST', `${parcelPath(parcelId)}/deliver`, parcelSchema, {});

export const useHandOver = () => useParcelMutation(handOverParcel, messages.parcelDelivered);

export const assignParcel = ({ parcelId, runner }: { parcelId: string; runner: string }) =>
  apiRequest('POST', `${parcelPath(parcelId)}/assign`, parcelSchema, { runner });

export const useAssign = () => useParcelMutation(assignParcel, messages.parcelAssigned);

// ——— map ———

/** What is in view: the parcels themselves when few, counted grid cells when many. */
export const getMapView = (view: MapQuery, signal?: AbortSignal) => {
  const params = new URLSearchParams(Object.entries(view).map(([key, value]) => [key, String(value)]));
  return apiRequest('GET', `/map/parcels?${params}`, mapResponseSchema, undefined, signal);
};

export const mapQuery = (view: MapQuery | null) =>
  queryOptions({
    queryKey: ['map', view],
    // Nothing is asked for before the map has reported its first view.
    queryFn: view === null ? skipToken : ({ signal }) => getMapView(view, signal),
    placeholderData: keepPreviousData,
  });

export const useMapView = (view: MapQuery | null) => useQuery(mapQuery(view));

// ——— custody (issue 14): the parcel's chain of hand-overs ———

/** Under the parcel's detail key, so whatever refreshes the detail (its live topic) refreshes this too. */
export const custodyChainQuery = (parcelId: string) =>
  queryOptions({
    queryKey: [...parcelDetailQuery(parcelId).queryKey, 'custody'],
    queryFn: ({ signal }) =>
      apiRequest('GET', `/parcels/${encodeURIComponent(parcelId)}/custody`, custodyChainSchema, undefined, signal),
  });

export const useCustodyChain = (parcelId: string) => useQuery(custodyChainQuery(parcelId));

/** 'Felelős módosítása': the superadmin names the runner who holds an in-transit parcel now, with a reason. */
export const overrideCustody = (parcelId: string, body: CustodyOverrideBody) =>
  apiRequest('POST', `${parcelPath(parcelId)}/custody-override`, parcelSchema, body);

/** Refreshes the parcel's views, its custody chain (under its detail key) among them. */
export const useOverrideCustody = (parcelId: string) =>
  useParcelMutation((body: CustodyOverrideBody) => overrideCustody(parcelId, body));

// ——— the timetables in use (issue 26) ———

export const useTimetables = () =>
  useQuery({
    queryKey: ['timetables'],
    queryFn: ({ signal }) => apiRequest('GET', '/admin/timetables', timetableStatusSchema, undefined, signal),
  });
