import {
  type IncidentDecision,
  incidentDetailSchema,
  incidentListSchema,
  incidentSchema,
} from '@csomag/domain/incidents';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from './client.ts';
import { parcelKeys } from './parcel.ts';

/** The back office's incidents (issue 28): the queue, one with its evidence, the decision. */

export const useIncidents = (status: 'open' | 'resolved') =>
  useInfiniteQuery({
    queryKey: ['incidents', status],
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam, signal }) => {
      const params = new URLSearchParams({ status, limit: '20' });
      if (pageParam) params.set('cursor', pageParam);
      return apiRequest('GET', `/incidents?${params}`, incidentListSchema, undefined, signal);
    },
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });

export const useIncident = (id: string) =>
  useQuery({
    queryKey: ['incidents', 'one', id],
    queryFn: ({ signal }) =>
      apiRequest('GET', `/incidents/${encodeURIComponent(id)}`, incidentDetailSchema, undefined, signal),
  });

/** An incident's photo: read with the session from the same origin (an <img> sends the cookie). */
export const incidentPhotoPath = (id: number, number: number) => `/api/incidents/${id}/photos/${number}`;

export function useResolveIncident(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { decision: IncidentDecision; note: string }) =>
      apiRequest('POST', `/incidents/${id}/resolve`, incidentSchema, body),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: ['incidents'] }),
        queryClient.invalidateQueries({ queryKey: ['parcels'] }),
        // The parcel's views, its custody chain among them (under its detail key).
        queryClient.invalidateQueries({ queryKey: parcelKeys.all }),
      ]),
  });
}
