import { LIVE_EVENT, type LiveChange } from '@csomag/domain/live';
import { type QueryClient, type QueryKey, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';

const RETRY_MAX_MS = 30_000;

/**
 * A change's schema, and zod with it, loads with the first change that arrives: a page that only
 * listens — the public tracking page a stranger opens — loads no schema library (ADR 0008).
 */
let changeSchema: Promise<typeof import('@csomag/domain/live-schemas').liveChangeSchema> | undefined;
const loadChangeSchema = () => {
  changeSchema ??= import('@csomag/domain/live-schemas').then((module) => module.liveChangeSchema);
  return changeSchema;
};

/**
 * Subscribes to live changes (DESIGN §5) for as long as the component is mounted.
 * The browser's EventSource resumes by itself after a dropped connection; when the server
 * refuses or the stream closes for good, we reopen it with a growing delay.
 */
export function useLiveChanges(
  topics: readonly string[],
  onChange: (change: LiveChange | null) => void,
  enabled = true,
  /** What the server filters by besides the topics (e.g. my address for `me`): a change reconnects. */
  scope = '',
  /** Once the stream first opens, when (ms): what was read before then may have missed a change. */
  onOpened?: (openedAt: number) => void,
) {
  const handler = useRef(onChange);
  handler.current = onChange;
  const opened = useRef(onOpened);
  opened.current = onOpened;
  const key = topics.join(',');

  // biome-ignore lint/correctness/useExhaustiveDependencies: a new scope must reopen the stream
  useEffect(() => {
    if (!enabled || key === '') return;
    let source: EventSource | undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let delay = 1000;
    let stopped = false;
    let interrupted = false;
    let first = true;
    let told: Promise<void> = Promise.resolve();
    const open = () => {
      source = new EventSource(`/api/events?topics=${encodeURIComponent(key)}`);
      source.addEventListener('open', () => {
        delay = 1000;
        if (first) opened.current?.(Date.now());
        first = false;
        // Back after a gap the server could not replay: tell the page to catch up (null = "anything").
        if (interrupted) handler.current(null);
        interrupted = false;
      });
      source.addEventListener(LIVE_EVENT, (event) => {
        const data: unknown = JSON.parse((event as MessageEvent<string>).data);
        // In the order they came, though the first waits for the schema to load.
        told = told
          .then(async () => {
            const parsed = (await loadChangeSchema()).safeParse(data);
            if (parsed.success && !stopped) handler.current(parsed.data);
          })
          // A schema that could not load (offline) drops this change, not the ones after it.
          .catch(() => {
            changeSchema = undefined;
          });
      });
      source.addEventListener('error', () => {
        interrupted = true;
        if (source?.readyState !== EventSource.CLOSED || stopped) return;
        timer = setTimeout(open, delay);
        delay = Math.min(delay * 2, RETRY_MAX_MS);
      });
    };
    open();
    return () => {
      stopped = true;
      clearTimeout(timer);
      source?.close();
    };
  }, [key, enabled, scope]);
}

/**
 * Asks again for what a change may have made stale. TanStack Query cancels a read under way for a
 * refetch only when the query has data already; a query's first read (a new filter's, say, its list
 * still showing the old one's) is left to finish, and it may have been answered before the change —
 * so that read is cancelled here and asked again.
 *
 * A next page under way ('Továbbiak betöltése') is the other way round: the refetch would abort it
 * and read again only the pages already shown, so on a busy server, with changes coming faster than
 * a page loads, the page asked for would never come. It is left to finish, and then all is asked again.
 */
export async function refetchAfterChange(queryClient: QueryClient, queryKey: QueryKey) {
  await queryClient.cancelQueries({
    queryKey,
    predicate: (query) => query.state.data === undefined && query.state.fetchStatus === 'fetching',
  });
  const pagesUnderWay = queryClient
    .getQueryCache()
    .findAll({
      queryKey,
      fetchStatus: 'fetching',
      predicate: (query) => query.state.fetchMeta?.fetchMore !== undefined,
    })
    .map((query) => query.promise?.catch(() => undefined));
  await Promise.all(pagesUnderWay);
  await queryClient.invalidateQueries({ queryKey });
}

/**
 * The common case: any change on these topics refetches these queries. A query answered before the
 * stream opened is asked again then: a change between its read and the subscription (a courier's
 * first position, say, on a tracking page that subscribes once it has the parcel) is never sent.
 */
export function useLiveRefetch(topics: readonly string[], queryKeys: readonly QueryKey[], enabled = true, scope = '') {
  const queryClient = useQueryClient();
  useLiveChanges(
    topics,
    () => {
      for (const queryKey of queryKeys) void refetchAfterChange(queryClient, queryKey);
    },
    enabled,
    scope,
    (openedAt) => {
      for (const queryKey of queryKeys) {
        queryClient.invalidateQueries(
          { queryKey, predicate: (query) => query.state.dataUpdatedAt > 0 && query.state.dataUpdatedAt < openedAt },
          // A read under way is left to finish, not aborted and asked again.
          { cancelRefetch: false },
        );
      }
    },
  );
}
