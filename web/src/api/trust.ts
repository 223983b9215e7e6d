import { proofListSchema } from '@csomag/domain/proof';
import { runnerDetailSchema } from '@csomag/domain/runner';
import {
  type NotReceivedBody,
  type RunnerFlags,
  reportDetailSchema,
  reportListSchema,
  reportSchema,
  runnerFlagsSchema,
  runnerParcelsInTransitSchema,
} from '@csomag/domain/trust';
import { queryOptions, useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from './client.ts';

const runnerPath = (userName: string) => `/runners/${encodeURIComponent(userName)}`;

// ——— a runner's standing (issue 15) ———

export const runnerDetailQuery = (userName: string) =>
  queryOptions({
    queryKey: ['runner-trust', userName],
    queryFn: ({ signal }) => apiRequest('GET', runnerPath(userName), runnerDetailSchema, undefined, signal),
  });

export const useRunnerDetail = (userName: string) => useQuery(runnerDetailQuery(userName));

export const useRunnerParcelsInTransit = (userName: string, enabled: boolean) =>
  useQuery({
    queryKey: ['runner-trust', userName, 'in-transit'],
    queryFn: ({ signal }) =>
      apiRequest('GET', `${runnerPath(userName)}/parcels-in-transit`, runnerParcelsInTransitSchema, undefined, signal),
    enabled,
  });

type TrustAction = { action: 'approve' } | { action: 'suspend'; reason: string } | { action: 'unsuspend' };

export function useRunnerTrustAction(userName: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: TrustAction) =>
      apiRequest(
        'POST',
        `${runnerPath(userName)}/${request.action}`,
        runnerDetailSchema,
        request.action === 'suspend' ? { reason: request.reason } : undefined,
      ),
    onSuccess: (detail) => {
      queryClient.setQueryData(runnerDetailQuery(userName).queryKey, detail);
      queryClient.invalidateQueries({ queryKey: ['runner-trust', userName, 'in-transit'] });
      queryClient.invalidateQueries({ queryKey: ['runner-flags'] });
    },
  });
}

/*
 * The runner list's badges: each card asks for its runner, and the asks of one render go to the
 * server together (GET /api/runner-flags?userNames=…, up to 100 a request).
 */
type Flag = RunnerFlags['items'][number];
let waiting: { userName: string; resolve: (flag: Flag | null) => void; reject: (error: unknown) => void }[] = [];

function flush() {
  const batch = waiting;
  waiting = [];
  for (let i = 0; i < batch.length; i += 100) {
    const part = batch.slice(i, i + 100);
    const names = [...new Set(part.map((ask) => ask.userName))];
    apiRequest('GET', `/runner-flags?userNames=${encodeURIComponent(names.join(','))}`, runnerFlagsSchema).then(
      ({ items }) => {
        for (const ask of part) ask.resolve(items.find((item) => item.userName === ask.userName) ?? null);
      },
      (error: unknown) => {
        for (const ask of part) ask.reject(error);
      },
    );
  }
}

const runnerFlag = (userName: string) =>
  new Promise<Flag | null>((resolve, reject) => {
    if (waiting.length === 0) setTimeout(flush, 0);
    waiting.push({ userName, resolve, reject });
  });

export const useRunnerFlag = (userName: string) =>
  useQuery({ queryKey: ['runner-flags', userName], queryFn: () => runnerFlag(userName) });

// ——— 'Nem érkezett meg' ———

export function useReportNotReceived(parcelId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: NotReceivedBody) =>
      apiRequest('POST', `/parcels/${encodeURIComponent(parcelId)}/not-received`, reportSchema, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['reports'] }),
  });
}

export const useReports = (status: 'open' | 'resolved') =>
  useInfiniteQuery({
    queryKey: ['reports', status],
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam, signal }) => {
      const params = new URLSearchParams({ status, limit: '20' });
      if (pageParam) params.set('cursor', pageParam);
      return apiRequest('GET', `/reports?${params}`, reportListSchema, undefined, signal);
    },
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });

/** Asked also for an id that is not one: the server's 'not found' is what the page then says. */
export const useReport = (id: string) =>
  useQuery({
    queryKey: ['reports', 'one', id],
    queryFn: ({ signal }) =>
      apiRequest('GET', `/reports/${encodeURIComponent(id)}`, reportDetailSchema, undefined, signal),
  });

/** The delivery's proofs as the report names them (its URL is under /api). */
export const useReportProofs = (proofsUrl: string | null) =>
  useQuery({
    queryKey: ['reports', 'proofs', proofsUrl],
    queryFn: ({ signal }) =>
      apiRequest('GET', (proofsUrl ?? '').replace(/^\/api/, ''), proofListSchema, undefined, signal),
    enabled: proofsUrl !== null,
  });

export function useResolveReport(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (resolution: string) => apiRequest('POST', `/reports/${id}/resolve`, reportSchema, { resolution }),
    onSuccess: () => {
      queryClient.invalidateQueries({ queryKey: ['reports'] });
      queryClient.invalidateQueries({ queryKey: ['runner-flags'] });
      queryClient.invalidateQueries({ queryKey: ['runner-trust'] });
    },
  });
}
