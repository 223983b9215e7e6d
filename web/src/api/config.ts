import type { ConfigResponse } from '@csomag/domain/config';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { requestJson } from './client.ts';

/**
 * Read as the server wrote it from `configResponseSchema`, without a parse: every map needs it, and
 * a stranger's tracking page loads no schema library (docs/decisions/0008-small-first-download.md).
 */
export const fetchServerConfig = async (signal?: AbortSignal) =>
  (await requestJson('GET', '/config', undefined, signal)) as ConfigResponse;

export const configQueryOptions = queryOptions({
  queryKey: ['config'],
  queryFn: ({ signal }) => fetchServerConfig(signal),
  staleTime: Number.POSITIVE_INFINITY,
});

/** Server-side settings the browser needs (tile URL, public origin). */
export const useServerConfig = () => useQuery(configQueryOptions);
