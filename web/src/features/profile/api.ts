import { accountResponseSchema, type ProfileUpdate } from '@csomag/domain/account';
import { emailVerificationResultSchema } from '@csomag/domain/mail';
import type { EraseAccountBody } from '@csomag/domain/personal-data';
import {
  type PushPreferencesUpdate,
  type PushSubscriptionBody,
  pushDeviceListSchema,
  pushDeviceResponseSchema,
  pushPreferencesSchema,
  vapidKeySchema,
} from '@csomag/domain/push';
import { type RateeCommentList, rateeCommentListSchema } from '@csomag/domain/rating-comments';
import {
  infiniteQueryOptions,
  queryOptions,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import { z } from 'zod';
import { apiRequest } from '../../api/client.ts';
import { sessionQueryOptions } from '../../api/session.ts';

const profilePath = (userName: string) => `/users/${encodeURIComponent(userName)}`;

export const getProfile = async (userName: string, signal?: AbortSignal) =>
  (await apiRequest('GET', profilePath(userName), accountResponseSchema, undefined, signal)).account;

export const profileQueryOptions = (userName: string) =>
  queryOptions({
    queryKey: ['profile', userName],
    queryFn: ({ signal }) => getProfile(userName, signal),
  });

export const useProfile = (userName: string) => useQuery(profileQueryOptions(userName));

export const updateProfile = async (userName: string, body: ProfileUpdate) =>
  (await apiRequest('PATCH', profilePath(userName), accountResponseSchema, body)).account;

export function useUpdateProfile(userName: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ProfileUpdate) => updateProfile(userName, body),
    onSuccess: (account) => {
      queryClient.setQueryData(profileQueryOptions(userName).queryKey, account);
      // My own profile is also my session (menus show my user name, "incoming" uses my address).
      queryClient.setQueryData(sessionQueryOptions.queryKey, (current) =>
        current?.userName === account.userName ? account : current,
      );
      queryClient.invalidateQueries({ queryKey: ['parcels'] });
    },
  });
}

/** A fresh verification link (issue 29), to the new address asked for or the unverified own one; answers where it went. */
export const resendEmailVerification = () =>
  apiRequest('POST', '/auth/verify-email/resend', emailVerificationResultSchema);

export const useResendEmailVerification = () => useMutation({ mutationFn: resendEmailVerification });

// What senders and receivers wrote about the runner (ADR 0025): the visible comments, no rater named.

export const getCommentsAboutMe = (userName: string, cursor: string | undefined, signal?: AbortSignal) => {
  const params = new URLSearchParams({ limit: '20' });
  if (cursor) params.set('cursor', cursor);
  return apiRequest(
    'GET',
    `/runners/${encodeURIComponent(userName)}/rating-comments?${params}`,
    rateeCommentListSchema,
    undefined,
    signal,
  );
};

export const commentsAboutMeQuery = (userName: string) =>
  infiniteQueryOptions({
    queryKey: ['rating-comments', userName, 'about-me'],
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam, signal }) => getCommentsAboutMe(userName, pageParam, signal),
    getNextPageParam: (last: RateeCommentList) => last.nextCursor ?? undefined,
  });

export const useCommentsAboutMe = (userName: string) => useInfiniteQuery(commentsAboutMeQuery(userName));

// Push notifications (docs/decisions/0018): this account's devices and the kinds it wants.

export const getVapidKey = async (signal?: AbortSignal) =>
  (await apiRequest('GET', '/push/key', vapidKeySchema, undefined, signal)).publicKey;

const pushDevicesQueryOptions = queryOptions({
  queryKey: ['push', 'devices'],
  queryFn: async ({ signal }) =>
    (await apiRequest('GET', '/me/push-devices', pushDeviceListSchema, undefined, signal)).items,
});

export const usePushDevices = () => useQuery(pushDevicesQueryOptions);

/** Registers this browser's subscription; the server answers the device it stored. */
export const addPushDevice = async (subscription: PushSubscriptionBody) =>
  (await apiRequest('POST', '/me/push-devices', pushDeviceResponseSchema, subscription)).device;

export function useAddPushDevice() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: addPushDevice,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: pushDevicesQueryOptions.queryKey }),
  });
}

export const removePushDevice = async (id: number) =>
  (await apiRequest('DELETE', `/me/push-devices/${id}`, pushDeviceListSchema)).items;

export function useRemovePushDevice() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: removePushDevice,
    onSuccess: (items) => queryClient.setQueryData(pushDevicesQueryOptions.queryKey, items),
  });
}

const pushPreferencesQueryOptions = queryOptions({
  queryKey: ['push', 'preferences'],
  queryFn: async ({ signal }) =>
    (await apiRequest('GET', '/me/push-preferences', pushPreferencesSchema, undefined, signal)).kinds,
});

export const usePushPreferences = () => useQuery(pushPreferencesQueryOptions);

export const updatePushPreferences = async (update: PushPreferencesUpdate) =>
  (await apiRequest('PATCH', '/me/push-preferences', pushPreferencesSchema, update)).kinds;

export function useUpdatePushPreferences() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updatePushPreferences,
    onSuccess: (kinds) => queryClient.setQueryData(pushPreferencesQueryOptions.queryKey, kinds),
  });
}

/** 'Fiók törlése' (issue 29): the account is erased with its password; this browser is signed out with it. */
export const eraseAccount = (userName: string, body: EraseAccountBody) =>
  apiRequest('DELETE', profilePath(userName), z.unknown(), body);

export function useEraseAccount(userName: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: EraseAccountBody) => eraseAccount(userName, body),
    onSuccess: () => {
      queryClient.clear();
      queryClient.setQueryData(sessionQueryOptions.queryKey, null);
    },
  });
}
