import { outgoingMailListSchema } from '@csomag/domain/mail';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from './client.ts';

/** 'Kimenő levelek' (issue 29): the newest messages and where they go; read again every half minute. */
export const useOutgoingMail = () =>
  useQuery({
    queryKey: ['mail', 'outbox'],
    queryFn: ({ signal }) => apiRequest('GET', '/admin/mail', outgoingMailListSchema, undefined, signal),
    refetchInterval: 30_000,
  });
