import { type Account, accountSchema, meResponseSchema } from '@csomag/domain/account';
import { type QueryClient, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { z } from 'zod';
import { apiRequest } from './client.ts';

export const sessionQueryOptions = queryOptions({
  queryKey: ['session'],
  queryFn: async ({ signal }) => (await apiRequest('GET', '/auth/me', meResponseSchema, undefined, signal)).account,
  staleTime: 60_000,
});

/** The signed-in account (null when signed out); undefined while the first answer is on its way. */
export function useSession() {
  return useQuery(sessionQueryOptions);
}

export const accountResponseSchema = z.object({ account: accountSchema });

/** After sign-in or registration: the new session replaces everything cached for the old one. */
export function startClientSession(queryClient: QueryClient, account: Account) {
  queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== 'session' });
  queryClient.setQueryData(sessionQueryOptions.queryKey, account);
}

/** Signs out to the landing page. */
export function useSignOut() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useMutation({
    mutationFn: () => apiRequest('POST', '/auth/logout', z.null()),
    onSuccess: async () => {
      // Leave the guarded page first, or its guard would send us to the sign-in page.
      await navigate('/');
      queryClient.clear();
      queryClient.setQueryData(sessionQueryOptions.queryKey, null);
    },
  });
}
