import {
  type IncidentBody,
  type IncidentDecision,
  incidentDetailSchema,
  incidentListSchema,
  incidentSchema,
} from '@csomag/domain/incidents';
import { messages } from '@csomag/domain/messages';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { notify } from '../lib/notify.ts';
import { scalePhoto } from '../lib/scale-photo.ts';
import { apiRequest } from './client.ts';
import { parcelActionPath, parcelKeys } from './parcel.ts';
import { uploadImage } from './proof.ts';

/**
 * Incidents (issue 28): reported by whoever has the parcel in hand (its runner, the drop point's
 * staff); the back office's queue, one with its evidence, the decision.
 */

/**
 * 'Probléma bejelentése': the incident, then its photos (scaled like the delivery photo). A photo
 * that fails does not undo the report: the back office has it, and the failure is said.
 */
export async function reportIncident({
  parcelId,
  photos,
  ...body
}: IncidentBody & { parcelId: string; photos: File[] }) {
  const incident = await apiRequest('POST', parcelActionPath(parcelId, 'incidents'), incidentSchema, body);
  for (const photo of photos) {
    await uploadImage(`/api/incidents/${incident.id}/photos`, await scalePhoto(photo), 'problema.jpg', incidentSchema);
  }
  return incident;
}

export function useReportIncident() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: reportIncident,
    onSuccess: () => {
      notify.success(messages.incidentReported);
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: ['parcels'] }),
        queryClient.invalidateQueries({ queryKey: ['drop-points'] }),
      ]);
    },
  });
}

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
