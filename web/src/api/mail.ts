import {
  type MailSettingsUpdate,
  mailSettingsSchema,
  outgoingMailListSchema,
  unsubscribeResultSchema,
} from '@csomag/domain/mail';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from './client.ts';

/** 'Kimenő levelek' (issue 29): the newest messages and where they go; read again every half minute. */
export const useOutgoingMail = () =>
  useQuery({
    queryKey: ['mail', 'outbox'],
    queryFn: ({ signal }) => apiRequest('GET', '/admin/mail', outgoingMailListSchema, undefined, signal),
    refetchInterval: 30_000,
  });

const mailPreferencesQueryOptions = queryOptions({
  queryKey: ['mail', 'preferences'],
  queryFn: ({ signal }) => apiRequest('GET', '/me/mail-preferences', mailSettingsSchema, undefined, signal),
});

/** The sender's status mail (issue 29): their address, whether verified, a switch per kind. */
export const useMailPreferences = () => useQuery(mailPreferencesQueryOptions);
/** The same, its switches only. */
export const useMailSwitches = () => useQuery({ ...mailPreferencesQueryOptions, select: (settings) => settings.kinds });

export function useUpdateMailPreferences() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (update: MailSettingsUpdate) => apiRequest('PATCH', '/me/mail-preferences', mailSettingsSchema, update),
    onSuccess: (settings) => queryClient.setQueryData(mailPreferencesQueryOptions.queryKey, settings),
  });
}

/** The one-click stop's page: what its link switches off, once the person confirms. */
export const useUnsubscribe = () =>
  useMutation({
    mutationFn: (token: string) => apiRequest('POST', '/mail/unsubscribe', unsubscribeResultSchema, { token }),
  });
