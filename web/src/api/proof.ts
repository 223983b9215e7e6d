import { messages } from '@csomag/domain/messages';
import { type ProofKind, proofImagePath, proofListSchema } from '@csomag/domain/proof';
import { useMutation, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { pageLanguage } from '../lib/language.ts';
import { reportReachable } from '../offline/connection.ts';
import { ApiError, apiError, apiRequest } from './client.ts';

/*
 * Proof of delivery (issue 15): the runner's photo upload (multipart, the one non-JSON request of
 * the app) and the proof the sender, the receiver and the back office see. Images are read with
 * the session into blob URLs: there is no public address to put in an <img>.
 */

const proofsPath = (parcelId: string) => `/parcels/${encodeURIComponent(parcelId)}/proofs`;

export const proofsKey = (parcelId: string) => ['proofs', parcelId] as const;

export const useProofs = (parcelId: string, enabled: boolean) =>
  useQuery({
    queryKey: proofsKey(parcelId),
    queryFn: ({ signal }) => apiRequest('GET', proofsPath(parcelId), proofListSchema, undefined, signal),
    enabled,
  });

/** A stored image's bytes, read with the session (there is no public address to put in an <img>). */
export async function readImage(
  path: string,
  signal: AbortSignal | null = null,
  headers: Record<string, string> = {},
): Promise<Blob> {
  // biome-ignore lint/style/noRestrictedGlobals: client.ts speaks JSON; this answer is an image's bytes.
  const response = await fetch(path, { credentials: 'same-origin', signal, headers });
  if (!response.ok) throw new ApiError(response.status, 'not_found', messages.proofLoadFailed);
  return response.blob();
}

/** A proof's image as a blob (the session cookie goes with it); the caller makes and frees its URL. */
export const useProofImage = (parcelId: string, kind: ProofKind, sha256: string, enabled: boolean) =>
  useQuery({
    // The hash in the key: a retaken photo is another image.
    queryKey: [...proofsKey(parcelId), kind, sha256],
    queryFn: ({ signal }) => readImage(proofImagePath(parcelId, kind), signal),
    enabled,
    staleTime: Number.POSITIVE_INFINITY,
  });

/**
 * A photo scaled in the browser, sent as multipart in the field `photo` (the one non-JSON request
 * of the app): the delivery's proof and a failed attempt's door. `schema` reads the answer.
 */
export async function uploadImage<S extends z.ZodType>(
  path: string,
  photo: Blob,
  fileName: string,
  schema: S,
): Promise<z.infer<S>> {
  const body = new FormData();
  body.append('photo', photo, fileName);
  let response: Response;
  try {
    // biome-ignore lint/style/noRestrictedGlobals: client.ts sends JSON; this body is multipart (a file).
    response = await fetch(path, {
      method: 'POST',
      credentials: 'same-origin',
      body,
      headers: { 'accept-language': pageLanguage() },
    });
  } catch {
    reportReachable(false);
    throw new ApiError(0, 'network', messages.networkError);
  }
  reportReachable(true);
  // Refused in the API's one error shape.
  if (!response.ok) throw await apiError(response.status, await response.json().catch(() => null));
  return schema.parse(await response.json());
}

/** POST /api/parcels/:id/proof/photo: the scaled photo as multipart, field `photo`. */
export const uploadPhoto = ({ parcelId, photo }: { parcelId: string; photo: Blob }) =>
  uploadImage(`/api/parcels/${encodeURIComponent(parcelId)}/proof/photo`, photo, 'leadas.jpg', proofListSchema);

export const useUploadPhoto = () => useMutation({ mutationFn: uploadPhoto });
