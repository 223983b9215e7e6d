import { type OperatorPage, operatorPageSchema } from '@csomag/domain/operator-pages';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from './client.ts';

/** An operator's page (issue 29): its safe HTML, or null while not published. */
export const useOperatorPage = (page: OperatorPage) =>
  useQuery({
    queryKey: ['operator-page', page],
    queryFn: ({ signal }) => apiRequest('GET', `/pages/${page}`, operatorPageSchema, undefined, signal),
  });
