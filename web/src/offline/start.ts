import type { QueryClient } from '@tanstack/react-query';
import { sessionQueryOptions } from '../api/session.ts';
import { keepQueries, restoreQueries } from './persist.ts';

/**
 * The offline side of the app, started once: what the last visit kept goes back into the cache,
 * what arrives from now on is kept, kept actions are sent, and the service worker is registered.
 */
export async function startOffline(queryClient: QueryClient) {
  try {
    await restoreQueries(queryClient);
  } finally {
    keepQueries(queryClient);
    // Kept actions are an account's (a runner's pickups, a sender's new parcel) and wait for it: a
    // stranger's page loads no outbox.
    whenSignedIn(queryClient, () => {
      void import('./outbox.ts').then(({ startOutbox }) => startOutbox(queryClient));
    });
    if (import.meta.env.PROD && 'serviceWorker' in navigator) {
      void import('./register-sw.tsx').then(({ registerServiceWorker }) => registerServiceWorker());
    }
  }
}

/** Runs `start` once, as soon as the cache holds a signed-in session (kept or fetched). */
function whenSignedIn(queryClient: QueryClient, start: () => void) {
  const signedIn = () => Boolean(queryClient.getQueryData(sessionQueryOptions.queryKey));
  if (signedIn()) return start();
  const stop = queryClient.getQueryCache().subscribe((event) => {
    if (event.query.queryKey[0] !== 'session' || !signedIn()) return;
    stop();
    start();
  });
}
