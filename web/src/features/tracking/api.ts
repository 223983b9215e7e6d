import { parcelTopic } from '@csomag/domain/live';
import { useQuery } from '@tanstack/react-query';
import { useLiveRefetch } from '../../api/live.ts';
import { trackingQueryOptions } from '../../api/tracking.ts';

/** The public view of a parcel, kept live: status changes and the runner's moves arrive by SSE. */
export function useTracking(parcelId: string) {
  const query = useQuery(trackingQueryOptions(parcelId));
  useLiveRefetch([parcelTopic(parcelId)], [trackingQueryOptions(parcelId).queryKey], query.isSuccess);
  return query;
}
