/// <reference types="vite-plugin-pwa/vanillajs" />

import { registerSW } from 'virtual:pwa-register';
import { messages } from '@csomag/domain/messages';
import { notify } from '../lib/notify.ts';

export const UPDATE_TOAST_ID = 'app-update';

/**
 * Registers the service worker (src/sw/index.ts). A new build's worker waits until the person taps
 * 'frissítés' in the toast: then it takes over and the page reloads on the new build.
 */
/** The waiting worker takes over; the page reloads on it (also on a first visit, which workbox-window leaves as is). */
function takeUpdate(update: (reloadPage?: boolean) => Promise<void>) {
  navigator.serviceWorker.addEventListener('controllerchange', () => window.location.reload(), { once: true });
  void update(true);
}

export function registerServiceWorker() {
  const update = registerSW({
    onNeedRefresh() {
      notify.custom(
        <p className="update-toast">
          {messages.updateAvailable} —{' '}
          <button type="button" className="button primary" onClick={() => takeUpdate(update)}>
            {messages.updateNow}
          </button>
        </p>,
        UPDATE_TOAST_ID,
      );
    },
  });
}
