import { messages } from '@csomag/domain/messages';
import {
  deliveredParcelListSchema,
  parcelRatingsSchema,
  type RatingBody,
  ratingResponseSchema,
} from '@csomag/domain/ratings';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { notify } from '../lib/notify.ts';
import { apiRequest } from './client.ts';

const parcelPath = (parcelId: string) => `/parcels/${encodeURIComponent(parcelId)}`;
const ratingsKey = (parcelId: string) => ['ratings', parcelId] as const;
const DELIVERED_KEY = ['ratings', 'delivered'] as const;

/** The caller's role on a delivered parcel and their own rating of it. */
export const useParcelRatings = (parcelId: string) =>
  useQuery({
    queryKey: ratingsKey(parcelId),
    queryFn: ({ signal }) =>
      apiRequest('GET', `${parcelPath(parcelId)}/ratings`, parcelRatingsSchema, undefined, signal),
  });

/** Saves a rating (the first or an edit); the toast only once the server has stored it. */
export function useRateParcel(parcelId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: RatingBody) => apiRequest('PUT', `${parcelPath(parcelId)}/rating`, ratingResponseSchema, body),
    onSuccess: () => notify.success(messages.ratingSaved),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: ratingsKey(parcelId) }),
        queryClient.invalidateQueries({ queryKey: DELIVERED_KEY }),
      ]),
  });
}

/** The runner's recent deliveries, to rate their senders. */
export const useDeliveredParcels = () =>
  useQuery({
    queryKey: DELIVERED_KEY,
    queryFn: ({ signal }) => apiRequest('GET', '/me/delivered-parcels', deliveredParcelListSchema, undefined, signal),
  });
