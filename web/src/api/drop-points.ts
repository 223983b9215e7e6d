import { adminDropPointListSchema, adminDropPointSchema, type DropPointBody } from '@csomag/domain/drop-points';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiRequest } from './client.ts';

/** The back office's drop points (issue 28). */
export type AdminDropPoint = z.infer<typeof adminDropPointSchema>;

export const useAdminDropPoints = () =>
  useQuery({
    queryKey: ['drop-points', 'admin'],
    queryFn: ({ signal }) => apiRequest('GET', '/admin/drop-points', adminDropPointListSchema, undefined, signal),
  });

/** Creates (no id) or replaces a drop point. */
export function useSaveDropPoint() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: number | undefined; body: DropPointBody }) =>
      id === undefined
        ? apiRequest('POST', '/drop-points', adminDropPointSchema, body)
        : apiRequest('PUT', `/drop-points/${id}`, adminDropPointSchema, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['drop-points'] }),
  });
}
