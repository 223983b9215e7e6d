import { type ParcelStatus, parcelListSchema } from '@csomag/domain/parcel';
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiRequest } from './client.ts';

type PageSchema = z.ZodType<{ items: unknown[]; nextCursor: string | null }>;

/** A server-paginated parcel list ({items, nextCursor}) read page by page, parsed with its page schema. */
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

export const sentParcelsKey = ['parcels', 'sent'] as const;
export const incomingParcelsKey = ['parcels', 'incoming'] as const;

export function useSentParcels(status?: ParcelStatus, limit?: number) {
  return useInfiniteQuery(parcelListQueryOptions(sentParcelsKey, '/me/sent-parcels', { status }, limit));
}

export function useIncomingParcels(limit?: number) {
  return useInfiniteQuery(parcelListQueryOptions(incomingParcelsKey, '/me/incoming-parcels', {}, limit));
}
