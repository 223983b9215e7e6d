import { type HandoverBody, handoverLinkSchema, handoverSummarySchema } from '@csomag/domain/delivery';
import { parcelTopic } from '@csomag/domain/live';
import { messages } from '@csomag/domain/messages';
import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../api/client.ts';
import { useLiveRefetch } from '../../api/live.ts';
import { parcelActionPath, parcelDetailQuery, parcelKeys } from '../../api/parcel.ts';
import { notify } from '../../lib/notify.ts';
import { isQueued, sendOrQueue } from '../../offline/outbox.ts';

/*
 * The QR handover (SPEC §2.7): the runner's signed link shown as a QR code, and the receiver's
 * confirmation on their own phone. Per call its request, its query options and its hook.
 */

// ——— the runner's side ———

/** The parcel chosen for the QR handover, kept live: the receiver confirms on their own phone. */
export function useHandoverParcel(parcelId: string) {
  const query = useQuery(parcelDetailQuery(parcelId));
  useLiveRefetch([parcelTopic(parcelId)], [parcelKeys.detail(parcelId)]);
  return query;
}

/** A new signed link each time it is asked: a POST, read as a query so the page can show and renew it. */
export const requestHandoverToken = (parcelId: string) =>
  apiRequest('POST', parcelActionPath(parcelId, 'handover-token'), handoverLinkSchema, {});

export const handoverTokenQuery = (parcelId: string, enabled: boolean) =>
  queryOptions({
    queryKey: ['handover-token', parcelId],
    queryFn: () => requestHandoverToken(parcelId),
    enabled,
    // Renewed only when the runner asks for a new code: a refetch would change the code being scanned.
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });

export const useHandoverToken = (parcelId: string, enabled: boolean) => useQuery(handoverTokenQuery(parcelId, enabled));

// ——— the receiver's side ———

export const fetchHandoverSummary = (parcelId: string, token: string, signal?: AbortSignal) =>
  apiRequest(
    'GET',
    `/handover/${encodeURIComponent(parcelId)}?token=${encodeURIComponent(token)}`,
    handoverSummarySchema,
    undefined,
    signal,
  );

export const handoverSummaryQuery = (parcelId: string, token: string, enabled: boolean) =>
  queryOptions({
    queryKey: ['handover', parcelId, token],
    queryFn: ({ signal }) => fetchHandoverSummary(parcelId, token, signal),
    enabled,
    retry: false,
  });

export const useHandoverSummary = (parcelId: string, token: string, enabled: boolean) =>
  useQuery(handoverSummaryQuery(parcelId, token, enabled));

/*
 * The confirmation goes through the outbox (src/offline/): sent at once with an Idempotency-Key,
 * or kept when the server cannot be reached and sent when the connection returns, the outbox then
 * telling the real result. A kept action says so, not an error.
 */
export const acceptHandover = ({ parcelId, ...body }: HandoverBody & { parcelId: string }) =>
  sendOrQueue(
    {
      kind: 'handover',
      method: 'POST',
      path: parcelActionPath(parcelId, 'handover'),
      body: { ...body },
      group: parcelId,
    },
    (json) => handoverSummarySchema.parse(json),
  );

export function useAcceptHandover() {
  return useMutation({
    mutationFn: acceptHandover,
    // Run even when the browser says it is offline: the outbox keeps what cannot be sent.
    networkMode: 'always',
    onSuccess: () => notify.success(messages.parcelDelivered),
    onError: (error) => {
      if (isQueued(error)) notify.info(messages.actionQueued);
    },
  });
}
