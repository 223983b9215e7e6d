import type { Account } from '@csomag/domain/account';
import type { Language } from '@csomag/domain/language';
import { paths } from '@csomag/domain/paths';
import { type QueryClient, queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useNavigate } from '../lib/router.tsx';
import { requestJson } from './client.ts';

/** Signed out is `{account: null}`; only an account needs its schema (and zod) to be read. */
async function readSession(signal: AbortSignal): Promise<Account | null> {
  const json = await requestJson('GET', '/auth/me', undefined, signal);
  if (json !== null && typeof json === 'object' && 'account' in json && json.account === null) return null;
  const { meResponseSchema } = await import('@csomag/domain/account');
  return meResponseSchema.parse(json).account;
}

export const sessionQueryOptions = queryOptions({
  queryKey: ['session'],
  queryFn: ({ signal }) => readSession(signal),
  staleTime: 60_000,
});

/** The signed-in account (null when signed out); undefined while the first answer is on its way. */
export function useSession() {
  return useQuery(sessionQueryOptions);
}

/** After sign-in or registration: the new session replaces everything cached for the old one. */
export function startClientSession(queryClient: QueryClient, account: Account) {
  queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== 'session' });
  queryClient.setQueryData(sessionQueryOptions.queryKey, account);
}

/**
 * The account's language (issue 30), saved before the page loads again in it. Read as plain JSON:
 * the switch is on every page, the landing page's too, which loads no schema library.
 */
export const saveLanguage = (userName: string, language: Language) =>
  requestJson('PATCH', `/users/${encodeURIComponent(userName)}`, { language });

// The answer has no body to read: success is the 2xx itself.
export const signOut = () => requestJson('POST', '/auth/logout');

/**
 * Signs out to the landing page; the promise rejects when the server did not confirm it. A plain
 * callback rather than a mutation: the header is on every page, and a stranger's needs neither.
 */
export function useSignOut() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useCallback(async () => {
    await signOut();
    // Leave the guarded page first. The landing page is drawn in a transition, so the session is
    // gone before it shows: the guard waits meanwhile, as the address already names it (guard.tsx).
    navigate(paths.home);
    queryClient.clear();
    queryClient.setQueryData(sessionQueryOptions.queryKey, null);
  }, [queryClient, navigate]);
}
