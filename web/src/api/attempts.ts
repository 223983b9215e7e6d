import { attemptListSchema } from '@csomag/domain/attempts';
import { dropPointListSchema } from '@csomag/domain/drop-points';
import { handoverPinSchema } from '@csomag/domain/handover-pin';
import { RECEIVER_LINK_HEADER } from '@csomag/domain/mail';
import { messages } from '@csomag/domain/messages';
import { type ParcelState, parcelSchema, type RedeliveryWindow } from '@csomag/domain/parcel';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { notify } from '../lib/notify.ts';
import { apiRequest } from './client.ts';
import { parcelActionPath } from './parcel.ts';
import { readImage } from './proof.ts';
import { attemptsKey } from './tracking.ts';

/*
 * When a delivery does not go to plan (issue 28): the failed attempts as the sender, the receiver
 * and the back office read them (with the photo of the door), and the new time they ask for. The
 * runner's own calls (recording an attempt, its photo, the return) are in features/runner/api.ts.
 */

/**
 * The receiver's link key from their mail (issue 29), when the page was opened with one: what
 * they read and ask for after a failed attempt goes with it instead of an account.
 */
export type ReceiverLink = string | null | undefined;
const linkHeaders = (receiverLink: ReceiverLink): Record<string, string> =>
  receiverLink ? { [RECEIVER_LINK_HEADER]: receiverLink } : {};

/** The states in which a parcel has a failed attempt or a return to tell about. */
export const hasAttemptsToTell = (state: ParcelState) =>
  state === 'attempted' || state === 'returning' || state === 'returned';

export const useAttempts = (
  parcel: { id: string; attempts: number; state: ParcelState },
  enabled: boolean,
  receiverLink?: ReceiverLink,
) =>
  useQuery({
    queryKey: [...attemptsKey(parcel.id), parcel.attempts, parcel.state],
    queryFn: ({ signal }) =>
      apiRequest(
        'GET',
        parcelActionPath(parcel.id, 'attempts'),
        attemptListSchema,
        undefined,
        signal,
        linkHeaders(receiverLink),
      ),
    enabled,
    // A stranger, or a runner who only carries it, is refused: that is not worth asking twice.
    retry: false,
  });

/** An attempt's photo of the door: the runner sends it there, the parties read it. */
export const attemptPhotoPath = (parcelId: string, number: number) =>
  `/api${parcelActionPath(parcelId, `attempts/${number}/photo`)}`;

/** An attempt's photo of the door as a blob (with the session); the caller makes and frees its URL. */
export const useAttemptPhoto = (parcelId: string, number: number, sha256: string | null, receiverLink?: ReceiverLink) =>
  useQuery({
    // By its hash: a photo taken again is read anew, the same one never twice.
    queryKey: [...attemptsKey(parcelId), number, 'photo', sha256],
    queryFn: ({ signal }) => readImage(attemptPhotoPath(parcelId, number), signal, linkHeaders(receiverLink)),
    enabled: sha256 !== null,
    staleTime: Number.POSITIVE_INFINITY,
  });

// ——— the receiver's (or sender's) new time ———

/** Who asks about which parcel: with the receiver's link key, or as the signed-in account. */
interface AskAbout {
  parcelId: string;
  receiverLink?: ReceiverLink;
}

export const requestRedelivery = ({ parcelId, receiverLink, ...window }: RedeliveryWindow & AskAbout) =>
  apiRequest(
    'POST',
    parcelActionPath(parcelId, 'redelivery'),
    parcelSchema,
    window,
    undefined,
    linkHeaders(receiverLink),
  );

/** 'Új időpont kérése': told once the server has it; the lists and the tracking view show the window. */
export function useRequestRedelivery() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: requestRedelivery,
    onSuccess: (_parcel, { parcelId }) => {
      notify.success(messages.redeliveryRequested);
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: ['parcels'] }),
        queryClient.invalidateQueries({ queryKey: ['tracking', parcelId] }),
      ]);
    },
  });
}

// ——— the receiver's (or sender's) code, and a drop point instead of the door ———

/**
 * The hand-over code of the person the parcel is brought to (GET …/handover-pin): refused to
 * anyone else, and while no code is theirs yet (waiting, on its way to a drop point) — then nothing is shown.
 */
export const useHandoverPin = (
  parcel: { id: string; state: ParcelState },
  enabled: boolean,
  /** The receiver's link key from their mail (issue 29): the code without an account. */
  receiverLink?: ReceiverLink,
) =>
  useQuery({
    queryKey: ['handover-pin', parcel.id, parcel.state, receiverLink ?? null],
    queryFn: ({ signal }) =>
      apiRequest(
        'GET',
        parcelActionPath(parcel.id, receiverLink ? 'receiver-code' : 'handover-pin'),
        handoverPinSchema,
        undefined,
        signal,
        linkHeaders(receiverLink),
      ),
    enabled,
    retry: false,
  });

/** The active drop points to choose from (public places: no account needed). */
export const useDropPoints = (enabled: boolean) =>
  useQuery({
    queryKey: ['drop-points'],
    queryFn: ({ signal }) => apiRequest('GET', '/drop-points', dropPointListSchema, undefined, signal),
    enabled,
  });

export const chooseDropPoint = ({ parcelId, dropPointId, receiverLink }: AskAbout & { dropPointId: number }) =>
  apiRequest(
    'POST',
    parcelActionPath(parcelId, 'drop-point'),
    parcelSchema,
    { dropPointId },
    undefined,
    linkHeaders(receiverLink),
  );

/** 'Ide kérem': told once the server has it. */
export function useChooseDropPoint() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: chooseDropPoint,
    onSuccess: (_parcel, { parcelId }) => {
      notify.success(messages.dropPointChosen);
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: ['parcels'] }),
        queryClient.invalidateQueries({ queryKey: ['tracking', parcelId] }),
      ]);
    },
  });
}

export const collect = ({ parcelId, pin, receiverLink }: AskAbout & { pin: string }) =>
  apiRequest(
    'POST',
    parcelActionPath(parcelId, 'collect'),
    parcelSchema,
    { pin },
    undefined,
    linkHeaders(receiverLink),
  );

/** 'Átvettem': the receiver collects it from the neighbour with the code on the notice; told once the server has it. */
export function useCollect() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: collect,
    onSuccess: (_parcel, { parcelId }) => {
      notify.success(messages.collected);
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: ['parcels'] }),
        queryClient.invalidateQueries({ queryKey: ['tracking', parcelId] }),
      ]);
    },
  });
}

export const requestNeighbour = ({ parcelId, receiverLink, ...wish }: AskAbout & { name: string; door: string }) =>
  apiRequest(
    'POST',
    parcelActionPath(parcelId, 'neighbour-wish'),
    parcelSchema,
    wish,
    undefined,
    linkHeaders(receiverLink),
  );

/** 'Kérem, hagyja a szomszédnál': told once the server has it; the runner sees it on their card. */
export function useRequestNeighbour() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: requestNeighbour,
    onSuccess: (_parcel, { parcelId }) => {
      notify.success(messages.neighbourWishSent);
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: ['parcels'] }),
        queryClient.invalidateQueries({ queryKey: ['tracking', parcelId] }),
      ]);
    },
  });
}
