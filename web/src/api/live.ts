import { LIVE_EVENT, type LiveChange, liveChangeSchema } from '@csomag/domain/live';
import { type QueryKey, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';

const RETRY_MAX_MS = 30_000;

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
) {
  const handler = useRef(onChange);
  handler.current = onChange;
  const key = topics.join(',');

  // biome-ignore lint/correctness/useExhaustiveDependencies: a new scope must reopen the stream
  useEffect(() => {
    if (!enabled || key === '') return;
    let source: EventSource | undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let delay = 1000;
    let stopped = false;
    let interrupted = false;
    const open = () => {
      source = new EventSource(`/api/events?topics=${encodeURIComponent(key)}`);
      source.addEventListener('open', () => {
        delay = 1000;
        // Back after a gap the server could not replay: tell the page to catch up (null = "anything").
        if (interrupted) handler.current(null);
        interrupted = false;
      });
      source.addEventListener(LIVE_EVENT, (event) => {
        const parsed = liveChangeSchema.safeParse(JSON.parse((event as MessageEvent<string>).data));
        if (parsed.success) handler.current(parsed.data);
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

/** The common case: any change on these topics refetches these queries. */
export function useLiveRefetch(topics: readonly string[], queryKeys: readonly QueryKey[], enabled = true, scope = '') {
  const queryClient = useQueryClient();
  useLiveChanges(
    topics,
    () => {
      for (const queryKey of queryKeys) queryClient.invalidateQueries({ queryKey });
    },
    enabled,
    scope,
  );
}
