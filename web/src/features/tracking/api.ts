import { parcelTopic } from '@csomag/domain/live';
import { trackingViewSchema } from '@csomag/domain/parcel';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../api/client.ts';
import { useLiveRefetch } from '../../api/live.ts';

/** The public view of a parcel: anyone holding its id may read it (no sign-in). */
export const fetchTracking = (parcelId: string, signal?: AbortSignal) =>
  apiRequest('GET', `/tracking/${encodeURIComponent(parcelId)}`, trackingViewSchema, undefined, signal);

export const trackingQueryOptions = (parcelId: string) =>
  queryOptions({ queryKey: ['tracking', parcelId], queryFn: ({ signal }) => fetchTracking(parcelId, signal) });

/** The public view of a parcel, kept live: status changes and the runner's moves arrive by SSE. */
export function useTracking(parcelId: string) {
  const query = useQuery(trackingQueryOptions(parcelId));
  useLiveRefetch([parcelTopic(parcelId)], [trackingQueryOptions(parcelId).queryKey], query.isSuccess);
  return query;
}
