import type { TrackingView } from '@csomag/domain/parcel';
import { queryOptions } from '@tanstack/react-query';
import { requestJson } from './client.ts';

/**
 * The public view of a parcel: anyone holding its id may read it (no sign-in). Read as the server
 * wrote it, without a parse: the server writes it from `trackingViewSchema`, only the schema's
 * fields (server/src/plugins/response-serializer.ts), and a stranger's tracking page then loads no
 * schema library (docs/decisions/0008-small-first-download.md).
 */
export const fetchTracking = async (parcelId: string, signal?: AbortSignal) =>
  (await requestJson('GET', `/tracking/${encodeURIComponent(parcelId)}`, undefined, signal)) as TrackingView;

/** The tracking page's read, and the runner's, after handing a parcel on (whose hands it is in now). */
export const trackingQueryOptions = (parcelId: string) =>
  queryOptions({ queryKey: ['tracking', parcelId], queryFn: ({ signal }) => fetchTracking(parcelId, signal) });

/**
 * A parcel's attempts (api/attempts.ts), read again whenever the parcel's count or state changes
 * (both come live with the parcel's lists and tracking view). Here, so the tracking page's live
 * refetch names them without loading the attempts' schemas.
 */
export const attemptsKey = (parcelId: string) => ['attempts', parcelId] as const;
