import { messages } from '@csomag/domain/messages';
import { carriedParcelListSchema, parcelSchema } from '@csomag/domain/parcel';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { notify } from '../lib/notify.ts';
import { moveParcel } from '../offline/optimistic.ts';
import { isQueued, sendOrQueue } from '../offline/outbox.ts';
import { parcelActionPath } from './parcel.ts';
import { parcelListQueryOptions } from './parcel-lists.ts';

/*
 * The runner's two lists as several features read and change them: the waiting pool (the runner's
 * lists and map; a trip's matches are kept under its key, and reserving a relay offer refreshes
 * them), the parcels the runner carries, and the one pickup — from the waiting list, the map, a
 * trip's matches or a saved trip's live offer.
 */

export const waitingParcelsKey = ['parcels', 'waiting'] as const;
export const assignedParcelsKey = ['parcels', 'assigned'] as const;

/** What I carry, with whom to call about each (only the carrier gets that). */
export const assignedParcelsQuery = (limit = 20) =>
  parcelListQueryOptions(assignedParcelsKey, '/me/assigned-parcels', {}, limit, carriedParcelListSchema);

/*
 * The results of a pickup are told from the hook's own callbacks, never from `mutate`'s: the live
 * update may remove the card whose button asked before the answer arrives, and TanStack Query
 * calls no callback of an unmounted component.
 *
 * A pickup goes through the outbox (src/offline/): sent at once with an Idempotency-Key, or kept
 * when the server cannot be reached and sent when the connection returns, the outbox then telling
 * the real result. A kept action says so, not an error.
 */
export const pickUp = (parcelId: string) =>
  sendOrQueue(
    { kind: 'pickUp', method: 'POST', path: parcelActionPath(parcelId, 'pickup'), body: {}, group: parcelId },
    (json) => parcelSchema.parse(json),
  );

export function usePickUp() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: pickUp,
    // Run even when the browser says it is offline: the outbox keeps what cannot be sent.
    networkMode: 'always',
    onSuccess: () => notify.success(messages.parcelPickedUp),
    onError: (error, parcelId) => {
      if (!isQueued(error)) return notify.error(error);
      notify.info(messages.actionQueued);
      // Shown as carried until the server says otherwise, so it can be delivered offline too.
      moveParcel(queryClient, parcelId, 'pickedUp', assignedParcelsQuery().queryKey);
    },
    // Taken or not, the pool has changed: show it as it is now (a kept pickup: once it is sent).
    onSettled: (_data, error) => {
      if (!isQueued(error)) return queryClient.invalidateQueries({ queryKey: ['parcels'] });
    },
  });
}
