import { messages } from '@csomag/domain/messages';
import { type ProofKind, proofImagePath, proofListSchema } from '@csomag/domain/proof';
import { useMutation, useQuery } from '@tanstack/react-query';
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

/** A proof's image as a blob (the session cookie goes with it); the caller makes and frees its URL. */
export const useProofImage = (parcelId: string, kind: ProofKind, sha256: string, enabled: boolean) =>
  useQuery({
    // The hash in the key: a retaken photo is another image.
    queryKey: [...proofsKey(parcelId), kind, sha256],
    queryFn: async ({ signal }) => {
      // biome-ignore lint/style/noRestrictedGlobals: client.ts speaks JSON; this answer is an image's bytes.
      const response = await fetch(proofImagePath(parcelId, kind), { credentials: 'same-origin', signal });
      if (!response.ok) throw new ApiError(response.status, 'not_found', messages.proofLoadFailed);
      return response.blob();
    },
    enabled,
    staleTime: Number.POSITIVE_INFINITY,
  });

/** POST /api/parcels/:id/proof/photo: the scaled photo as multipart, field `photo`. */
export async function uploadPhoto({ parcelId, photo }: { parcelId: string; photo: Blob }) {
  const body = new FormData();
  body.append('photo', photo, 'leadas.jpg');
  let response: Response;
  try {
    // biome-ignore lint/style/noRestrictedGlobals: client.ts sends JSON; this body is multipart (a file).
    response = await fetch(`/api/parcels/${encodeURIComponent(parcelId)}/proof/photo`, {
      method: 'POST',
      credentials: 'same-origin',
      body,
    });
  } catch {
    reportReachable(false);
    throw new ApiError(0, 'network', messages.networkError);
  }
  reportReachable(true);
  // Refused in the API's one error shape.
  if (!response.ok) throw await apiError(response.status, await response.json().catch(() => null));
  return proofListSchema.parse(await response.json());
}

export const useUploadPhoto = () => useMutation({ mutationFn: uploadPhoto });
