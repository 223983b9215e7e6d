import { messages } from '@csomag/domain/messages';
import { notify } from '../lib/notify.ts';

export const UPDATE_TOAST_ID = 'app-update';

/** The built worker (src/sw/sw.ts), for every page of the site. */
const WORKER_URL = '/sw.js';

/** The waiting worker takes over (src/sw/index.ts answers SKIP_WAITING); the page reloads on it. */
function takeUpdate(registration: ServiceWorkerRegistration) {
  navigator.serviceWorker.addEventListener('controllerchange', () => window.location.reload(), { once: true });
  registration.waiting?.postMessage({ type: 'SKIP_WAITING' });
}

/** A new build's worker waits while the page runs on the old one: offer it ('frissítés'). */
function offerUpdate(registration: ServiceWorkerRegistration) {
  if (!registration.waiting || !navigator.serviceWorker.controller) return;
  notify.custom(
    <p className="update-toast">
      {messages.updateAvailable} —{' '}
      <button type="button" className="button primary" onClick={() => takeUpdate(registration)}>
        {messages.updateNow}
      </button>
    </p>,
    UPDATE_TOAST_ID,
  );
}

/**
 * Registers the service worker (src/sw/index.ts). A new build's worker waits until the person taps
 * 'frissítés' in the toast: then it takes over and the page reloads on the new build. Written out
 * rather than workbox-window (1.9 KiB more on every page, the landing page's included).
 */
export function registerServiceWorker() {
  navigator.serviceWorker
    .register(WORKER_URL, { scope: '/' })
    .then((registration) => {
      offerUpdate(registration);
      registration.addEventListener('updatefound', () => {
        const worker = registration.installing;
        worker?.addEventListener('statechange', () => {
          if (worker.state === 'installed') offerUpdate(registration);
        });
      });
    })
    // No worker (a private window, an old browser): the app works online as before.
    .catch(() => {});
}
