import { accountSchema, type ProfileUpdate } from '@csomag/domain/account';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { apiRequest } from '../../api/client.ts';
import { sessionQueryOptions } from '../../api/session.ts';

const accountResponse = z.object({ account: accountSchema });

export const profileQueryOptions = (userName: string) =>
  queryOptions({
    queryKey: ['profile', userName],
    queryFn: async ({ signal }) =>
      (await apiRequest('GET', `/users/${encodeURIComponent(userName)}`, accountResponse, undefined, signal)).account,
  });

export const useProfile = (userName: string) => useQuery(profileQueryOptions(userName));

export function useUpdateProfile(userName: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: ProfileUpdate) =>
      (await apiRequest('PATCH', `/users/${encodeURIComponent(userName)}`, accountResponse, body)).account,
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
