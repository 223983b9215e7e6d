import { parcelListSchema } from '@csomag/domain/parcel';
import { infiniteQueryOptions } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiRequest } from './client.ts';

type PageSchema = z.ZodType<{ items: unknown[]; nextCursor: string | null }>;

/**
 * A server-paginated parcel list ({items, nextCursor}) read page by page, parsed with its page schema:
 * the query options each feature's list builds its own on (its key, path and filters).
 */
export const parcelListQueryOptions = <S extends PageSchema = typeof parcelListSchema>(
  key: readonly unknown[],
  path: string,
  filters: Record<string, string | undefined> = {},
  limit = 20,
  schema: S = parcelListSchema as unknown as S,
) =>
  infiniteQueryOptions({
    queryKey: [...key, filters, limit],
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam, signal }) => {
      const params = new URLSearchParams({ limit: String(limit) });
      for (const [name, value] of Object.entries(filters)) if (value) params.set(name, value);
      if (pageParam) params.set('cursor', pageParam);
      return apiRequest('GET', `${path}?${params}`, schema, undefined, signal);
    },
    getNextPageParam: (last: z.infer<S>) => last.nextCursor ?? undefined,
  });
