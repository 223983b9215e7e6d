import { parcelTopic } from '@csomag/domain/live';
import { useQuery } from '@tanstack/react-query';
import { useLiveRefetch } from '../../api/live.ts';
import { attemptsKey, trackingQueryOptions } from '../../api/tracking.ts';

/**
 * The public view of a parcel, kept live: status changes and the runner's moves arrive by SSE; so
 * do its failed attempts' photos (read only while the page shows attempts).
 */
export function useTracking(parcelId: string) {
  const query = useQuery(trackingQueryOptions(parcelId));
  useLiveRefetch(
    [parcelTopic(parcelId)],
    [trackingQueryOptions(parcelId).queryKey, attemptsKey(parcelId)],
    query.isSuccess,
  );
  return query;
}
