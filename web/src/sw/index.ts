/// <reference lib="webworker" />
/**
 * The service worker (docs/decisions/0019-installable-app-and-outbox.md): precaches the app shell
 * and every route's code, answers navigations from the network with the cached shell as the
 * offline fallback, and leaves everything else — above all `/api` and its event stream — to the
 * browser. The outbox lives in the page, not here.
 */
import { clientsClaim } from 'workbox-core';
import { cleanupOutdatedCaches, matchPrecache, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import './push.ts';

declare const self: ServiceWorkerGlobalScope;

/** The app shell: index.html as the build's prerender step wrote it (header, footer, loading state). */
const SHELL = 'index.html';

// Hashed assets by their URL; the shell by its revision. No directory index or clean URLs: `/` is
// the prerendered landing page the server sends, not the shell.
precacheAndRoute(self.__WB_MANIFEST, { directoryIndex: '', cleanURLs: false });
cleanupOutdatedCaches();

/**
 * Navigations go to the network first, so the server's prerendered pages and a fresh shell are
 * what a connected person gets; without a network the cached shell starts the app, which then
 * shows what it kept (src/offline/).
 */
registerRoute(
  new NavigationRoute(
    async ({ request }) => {
      try {
        // biome-ignore lint/style/noRestrictedGlobals: the worker passes the page request itself on, it calls no API.
        return await fetch(request);
      } catch (error) {
        const shell = await matchPrecache(SHELL);
        if (shell) return shell;
        throw error;
      }
    },
    // Never the API: a navigation there (a download link) belongs to the server alone.
    { denylist: [/^\/api(?:\/|$)/] },
  ),
);

// The first install takes the open pages at once (nothing older to be consistent with); an update
// waits until the person taps 'frissítés' (src/offline/register-sw.ts), which sends this message.
self.addEventListener('message', (event) => {
  if ((event.data as { type?: unknown } | null)?.type === 'SKIP_WAITING') void self.skipWaiting();
});
clientsClaim();
