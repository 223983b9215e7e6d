import { trackingViewSchema } from '@csomag/domain/parcel';
import { queryOptions } from '@tanstack/react-query';
import { apiRequest } from './client.ts';

/** The public view of a parcel: anyone holding its id may read it (no sign-in). */
export const fetchTracking = (parcelId: string, signal?: AbortSignal) =>
  apiRequest('GET', `/tracking/${encodeURIComponent(parcelId)}`, trackingViewSchema, undefined, signal);

/** The tracking page's read, and the runner's, after handing a parcel on (whose hands it is in now). */
export const trackingQueryOptions = (parcelId: string) =>
  queryOptions({ queryKey: ['tracking', parcelId], queryFn: ({ signal }) => fetchTracking(parcelId, signal) });
