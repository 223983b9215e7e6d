import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { apiRequest } from './client.ts';

const configSchema = z.object({ tileUrl: z.string(), publicUrl: z.string().nullable() });

export const configQueryOptions = queryOptions({
  queryKey: ['config'],
  queryFn: ({ signal }) => apiRequest('GET', '/config', configSchema, undefined, signal),
  staleTime: Number.POSITIVE_INFINITY,
});

/** Server-side settings the browser needs (tile URL, public origin). */
export const useServerConfig = () => useQuery(configQueryOptions);
