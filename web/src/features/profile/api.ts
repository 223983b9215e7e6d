import { accountResponseSchema, type ProfileUpdate } from '@csomag/domain/account';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
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
