import { configResponseSchema } from '@csomag/domain/config';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from './client.ts';

export const fetchServerConfig = (signal?: AbortSignal) =>
  apiRequest('GET', '/config', configResponseSchema, undefined, signal);

export const configQueryOptions = queryOptions({
  queryKey: ['config'],
  queryFn: ({ signal }) => fetchServerConfig(signal),
  staleTime: Number.POSITIVE_INFINITY,
});

/** Server-side settings the browser needs (tile URL, public origin). */
export const useServerConfig = () => useQuery(configQueryOptions);
