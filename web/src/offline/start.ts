import type { QueryClient } from '@tanstack/react-query';
import { startOutbox } from './outbox.ts';
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
    startOutbox(queryClient);
    if (import.meta.env.PROD && 'serviceWorker' in navigator) {
      void import('./register-sw.tsx').then(({ registerServiceWorker }) => registerServiceWorker());
    }
  }
}
