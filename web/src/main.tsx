// The page's language is settled first, before any module keeps a text (i18n/texts.ts).
import './i18n/texts.ts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode, startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { isTransient } from './api/client.ts';
import { whenIdle } from './lib/idle.ts';
import { pageLanguage } from './lib/language.ts';
import { BrowserRouter } from './lib/router.tsx';
import './styles.css';
import { AppRoutes } from './routes.tsx';

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      // A refusal will not change by asking again; network or server trouble might.
      retry: (count, error) => isTransient(error) && count < 2,
      refetchOnWindowFocus: true,
    },
  },
});

/** At most this long after a page drawn at build time is taken over, the offline side starts. */
const OFFLINE_START_WAIT_MS = 2_000;

const root = document.getElementById('root');
if (!root) throw new Error('no #root element');
const app = (
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <BrowserRouter>
        <AppRoutes />
      </BrowserRouter>
    </QueryClientProvider>
  </StrictMode>
);
// A page rendered at build time (the server sends one only for its own paths) is taken over in
// place, exactly as rendered; the shell of every other page is replaced — after what the last visit
// kept (the session, the lists) is back in the cache, so an app opened offline shows it.
const startOffline = () => import('./offline/start.ts').then((offline) => offline.startOffline(queryClient));
// Pages are rendered at build time in each language; the server sends the one the person chose
// (its cookie) or their browser prefers. A page in another language than the app settled on (a
// service worker's copy, a cookie refused) is drawn afresh. Either way in a transition, as Next.js
// hydrates: React works in slices, letting the browser paint and answer a tap between them, rather
// than in one long task.
if (root.dataset.prerendered !== undefined && root.dataset.language === pageLanguage()) {
  startTransition(() => {
    hydrateRoot(root, app);
  });
  // A page already drawn needs none of it at once: it waits for an idle moment rather than compete
  // with the page's scripts and data (the service worker's registration too, as web.dev advises).
  whenIdle(() => void startOffline(), OFFLINE_START_WAIT_MS);
} else {
  void startOffline()
    .catch(() => {})
    .then(() => startTransition(() => createRoot(root).render(app)));
}
