import { dropPointListSchema, dropPointParcelsSchema } from '@csomag/domain/drop-points';
import { messages } from '@csomag/domain/messages';
import { parcelSchema } from '@csomag/domain/parcel';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../api/client.ts';
import { parcelActionPath } from '../../api/parcel.ts';
import { notify } from '../../lib/notify.ts';

/** A drop point's staff (issue 28): their points, what comes and waits there, and handing a parcel out. */

export const useMyDropPoints = () =>
  useQuery({
    queryKey: ['drop-points', 'mine'],
    queryFn: ({ signal }) => apiRequest('GET', '/me/drop-points', dropPointListSchema, undefined, signal),
  });

export const dropPointParcelsKey = (id: number) => ['drop-points', id, 'parcels'] as const;

export const useDropPointParcels = (id: number) =>
  useQuery({
    queryKey: dropPointParcelsKey(id),
    queryFn: ({ signal }) => apiRequest('GET', `/drop-points/${id}/parcels`, dropPointParcelsSchema, undefined, signal),
    // A runner may arrive any moment: what comes is read again every half minute.
    refetchInterval: 30_000,
  });

export const release = ({ parcelId, pin }: { parcelId: string; pin: string }) =>
  apiRequest('POST', parcelActionPath(parcelId, 'release'), parcelSchema, { pin });

/** 'Kiadás': told once the server has handed it over. */
export function useRelease(dropPointId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: release,
    onSuccess: () => {
      notify.success(messages.released);
      return queryClient.invalidateQueries({ queryKey: dropPointParcelsKey(dropPointId) });
    },
  });
}

const refuseAtDropPoint = (parcelId: string) =>
  apiRequest('POST', parcelActionPath(parcelId, 'refused-at-drop-point'), parcelSchema);

/** 'A címzett nem veszi át': told once the server has turned the parcel back to its sender. */
export function useRefuseAtDropPoint(dropPointId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: refuseAtDropPoint,
    onSuccess: () => {
      notify.success(messages.refusedAtDropPointDone);
      return queryClient.invalidateQueries({ queryKey: dropPointParcelsKey(dropPointId) });
    },
  });
}
