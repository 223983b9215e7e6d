import {
  type AttemptBody,
  attemptListSchema,
  attemptResultSchema,
  type NeighbourBody,
  neighbourResultSchema,
  type ReturnBody,
} from '@csomag/domain/attempts';
import { type Position, waitingParcelListSchema } from '@csomag/domain/delivery';
import { dropPointReturnListSchema } from '@csomag/domain/drop-points';
import type { ViewBounds } from '@csomag/domain/geo';
import { messages } from '@csomag/domain/messages';
import { parcelListSchema, parcelSchema } from '@csomag/domain/parcel';
import {
  keepPreviousData,
  queryOptions,
  skipToken,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import { attemptPhotoPath } from '../../api/attempts.ts';
import { ApiError, apiRequest, errorMessage } from '../../api/client.ts';
import { parcelActionPath } from '../../api/parcel.ts';
import { parcelListQueryOptions } from '../../api/parcel-lists.ts';
import { uploadImage } from '../../api/proof.ts';
import { assignedParcelsQuery, waitingParcelsKey } from '../../api/runner-lists.ts';
import { notify } from '../../lib/notify.ts';
import { moveParcel } from '../../offline/optimistic.ts';
import { isQueued, reportPosition, sendOrQueue } from '../../offline/outbox.ts';

/*
 * Every call the runner's own screens make — the waiting pool, the parcels they carry, delivery,
 * a failed attempt, the return to the sender, their position: per call its request, its query
 * options and its hook. Components use the hooks; nothing else here talks to the server. What
 * other features share with these screens (the lists' keys, pickup, the live lists, relay offers)
 * is in src/api/.
 */

// ——— the waiting pool and my parcels ———

export interface WaitingFilters {
  /** 'lat,lng': the nearest pickup first, each with its distance. */
  near?: string | undefined;
  settlement?: string | undefined;
}

export const waitingParcelsQuery = (filters: WaitingFilters = {}, limit = 20) =>
  parcelListQueryOptions(waitingParcelsKey, '/parcels/waiting', { ...filters }, limit, waitingParcelListSchema);

/** The waiting pool; a new filter keeps the old list on screen until its answer arrives. */
export const useWaitingParcels = (filters: WaitingFilters) =>
  useInfiniteQuery({ ...waitingParcelsQuery(filters), placeholderData: keepPreviousData });

export const useAssignedParcels = () => useInfiniteQuery(assignedParcelsQuery());

const MAP_PARCEL_LIMIT = 200;

/** The longest-waiting parcels whose pickup point is in the runner map's view. */
export function fetchWaitingInView(view: ViewBounds, signal?: AbortSignal) {
  const params = new URLSearchParams({ limit: String(MAP_PARCEL_LIMIT) });
  for (const [side, value] of Object.entries(view)) params.set(side, String(value));
  return apiRequest('GET', `/parcels/waiting?${params}`, parcelListSchema, undefined, signal);
}

export const waitingInViewQuery = (view: ViewBounds | null) =>
  queryOptions({
    // Under the waiting pool's key, so whatever refreshes the pool refreshes the map too.
    queryKey: [...waitingParcelsKey, 'view', view],
    // Nothing to ask until the map has reported its first view.
    queryFn: view ? ({ signal }) => fetchWaitingInView(view, signal) : skipToken,
    placeholderData: keepPreviousData,
  });

export const useWaitingInView = (view: ViewBounds | null) => useQuery(waitingInViewQuery(view));

// ——— parcels waiting at drop points on their way back (issue 28) ———

/** Under the waiting pool's key: every change the pool's live topic hears reads them again too. */
const dropPointReturnsKey = [...waitingParcelsKey, 'drop-point-returns'] as const;

export const useDropPointReturns = () =>
  useQuery({
    queryKey: dropPointReturnsKey,
    queryFn: ({ signal }) => apiRequest('GET', '/drop-point-returns', dropPointReturnListSchema, undefined, signal),
  });

const takeFromDropPoint = ({ parcelId, pin }: { parcelId: string; pin: string }) =>
  apiRequest('POST', parcelActionPath(parcelId, 'take-from-drop-point'), parcelSchema, { pin });

/** 'Átveszem' at the drop point: told once the server has moved the parcel into the runner's hands. */
export function useTakeFromDropPoint() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: takeFromDropPoint,
    onSuccess: (parcel) => {
      notify.success(messages.dropPointReturnDone(parcel.id));
      return queryClient.invalidateQueries({ queryKey: ['parcels'] });
    },
  });
}

// ——— delivery ———

/*
 * The results of these actions are told from the hooks' own callbacks, never from `mutate`'s: the
 * live update may remove the card whose button asked before the answer arrives, and TanStack Query
 * calls no callback of an unmounted component.
 */

/**
 * A delivery by position refused for where the runner stands or the door is (too far, or the
 * door's place unknown): the parcel stays on the list, and its card says why beside the button.
 */
export const isPositionRefusal = (error: unknown) =>
  error instanceof ApiError &&
  (error.code === 'too_far' ||
    error.code === 'destination_imprecise' ||
    error.code === 'position_too_imprecise' ||
    error.code === 'photo_required');

/*
 * Delivery and position reports go through the outbox (src/offline/): sent at once with an
 * Idempotency-Key, or kept when the server cannot be reached and sent when the connection returns,
 * the outbox then telling the real result. A kept action says so, not an error.
 */
export const deliver = ({ parcelId, position }: { parcelId: string; position: Position }) =>
  sendOrQueue(
    {
      kind: 'deliver',
      method: 'POST',
      path: parcelActionPath(parcelId, 'deliver'),
      body: { ...position },
      group: parcelId,
    },
    (json) => parcelSchema.parse(json),
  );

export function useDeliver() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deliver,
    // Run even when the browser says it is offline: the outbox keeps what cannot be sent.
    networkMode: 'always',
    onSuccess: (parcel) => {
      // A parcel on its way back is delivered to its sender: said as such.
      notify.success(parcel.status === 'returned' ? messages.parcelReturnedToSender : messages.parcelDelivered);
      return queryClient.invalidateQueries({ queryKey: ['parcels'] });
    },
    // Any other refusal (handed over or reassigned meanwhile) takes the card away with it.
    onError: (error, { parcelId }) => {
      if (isQueued(error)) {
        notify.info(messages.actionQueued);
        moveParcel(queryClient, parcelId, 'delivered', assignedParcelsQuery().queryKey);
      } else if (!isPositionRefusal(error)) notify.error(error);
    },
  });
}

// ——— when the delivery does not go to plan (issue 28) ———

/** Through the outbox: kept when the server cannot be reached, sent (with when it happened) later. */
export const recordAttempt = ({ parcelId, ...body }: AttemptBody & { parcelId: string }) =>
  sendOrQueue(
    { kind: 'attempt', method: 'POST', path: parcelActionPath(parcelId, 'attempts'), body, group: parcelId },
    (json) => attemptResultSchema.parse(json),
  );

/** POST /api/parcels/:id/attempts/:number/photo: the photo of the door, scaled, as multipart. */
export const uploadAttemptPhoto = ({ parcelId, number, photo }: { parcelId: string; number: number; photo: Blob }) =>
  uploadImage(attemptPhotoPath(parcelId, number), photo, 'ajto.jpg', attemptListSchema);

/**
 * 'Nem sikerült kézbesíteni': the attempt first, then its photo under the number the server gave
 * it. A photo that fails does not undo the attempt: it is said beside the attempt's success.
 */
export async function failDelivery({ photo, ...attempt }: AttemptBody & { parcelId: string; photo: Blob | null }) {
  const result = await recordAttempt(attempt);
  let photoError: unknown = null;
  if (photo) {
    await uploadAttemptPhoto({ parcelId: attempt.parcelId, number: result.attempt, photo }).catch((error: unknown) => {
      photoError = error;
    });
  }
  return { ...result, photoError };
}

/** Told from the hook once the server has recorded it; the card stays (the parcel is still the runner's). */
export function useFailDelivery() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: failDelivery,
    networkMode: 'always',
    onSuccess: ({ startedReturn, photoError }) => {
      notify.success(startedReturn ? messages.attemptRecordedReturning : messages.attemptRecorded);
      if (photoError) notify.error(messages.attemptPhotoFailed(errorMessage(photoError)));
      return queryClient.invalidateQueries({ queryKey: ['parcels'] });
    },
    // Kept for later: said so (the outbox tells the result when it is sent); a photo waits for no one.
    onError: (error, { photo }) => {
      if (!isQueued(error)) return;
      notify.info(messages.actionQueued);
      if (photo) notify.info(messages.attemptPhotoNotQueued);
    },
  });
}

export const startReturn = ({ parcelId, reason }: ReturnBody & { parcelId: string }) =>
  apiRequest('POST', parcelActionPath(parcelId, 'return'), parcelSchema, { reason });

/** 'Visszaviszem a feladónak': the parcel stays on the runner's list, now going to its sender. */
export function useStartReturn() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: startReturn,
    onSuccess: () => {
      notify.success(messages.returnStarted);
      return queryClient.invalidateQueries({ queryKey: ['parcels'] });
    },
  });
}

/**
 * 'Átadás kóddal': the code the person at the door (or a drop point's staff) reads out. Through the
 * outbox, as a delivery: with no connection at the door it is kept and checked once sent.
 */
export const handOverWithPin = ({ parcelId, pin }: { parcelId: string; pin: string }) =>
  sendOrQueue(
    {
      kind: 'pinHandover',
      method: 'POST',
      path: parcelActionPath(parcelId, 'pin-handover'),
      body: { pin },
      group: parcelId,
    },
    (json) => parcelSchema.parse(json),
  );

export function usePinHandover() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: handOverWithPin,
    networkMode: 'always',
    onError: (error, { parcelId }) => {
      if (!isQueued(error)) return;
      notify.info(messages.actionQueued);
      moveParcel(queryClient, parcelId, 'delivered', assignedParcelsQuery().queryKey);
    },
    onSuccess: (parcel) => {
      notify.success(
        parcel.status === 'at_drop_point'
          ? messages.droppedOffDone
          : parcel.status === 'returned'
            ? messages.parcelReturnedToSender
            : messages.pinHandoverDone,
      );
      return queryClient.invalidateQueries({ queryKey: ['parcels'] });
    },
  });
}

export const leaveWithNeighbour = ({ parcelId, ...body }: NeighbourBody & { parcelId: string }) =>
  apiRequest('POST', parcelActionPath(parcelId, 'neighbour'), neighbourResultSchema, body);

/** 'Szomszédnál hagyom': the answer's code is for the notice the runner leaves (neighbour-form.tsx keeps it shown). */
export function useLeaveWithNeighbour() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: leaveWithNeighbour,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['parcels'] }),
  });
}

/** While a runner is signed in, their position goes to the server (location-reporter.tsx says how often). */
export const reportLocation = (position: Position) => reportPosition(position);
