import { parcelDetailSchema } from '@csomag/domain/parcel';
import { queryOptions } from '@tanstack/react-query';
import { apiRequest } from './client.ts';

/** A parcel's action's path (POST /api/parcels/:id/pickup, …/relay-offer…), as every feature's api.ts calls it. */
export const parcelActionPath = (parcelId: string, action: string) =>
  `/parcels/${encodeURIComponent(parcelId)}/${action}`;

/** The parcel views' cache keys: every shape a parcel is read in has its own key. */
export const parcelKeys = {
  all: ['parcel'] as const,
  detail: (parcelId: string) => ['parcel', parcelId, 'detail'] as const,
};

/**
 * One parcel with its timeline and contacts, as its sender, its runner and the back office read it
 * (GET /api/parcels/:id). Shared by the runner's QR page and the back office's edit and delete pages.
 */
export const parcelDetailQuery = (parcelId: string) =>
  queryOptions({
    queryKey: parcelKeys.detail(parcelId),
    queryFn: ({ signal }) =>
      apiRequest('GET', `/parcels/${encodeURIComponent(parcelId)}`, parcelDetailSchema, undefined, signal),
  });
