import { messages } from '@csomag/domain/messages';
import { Component, lazy, memo, type ReactNode, Suspense, useSyncExternalStore } from 'react';
import { useSession } from '../api/session.ts';
import { useToastsWanted } from '../lib/notify.ts';
import { Outlet, useLocation } from '../lib/router.tsx';
import { useHydrated } from '../lib/use-hydrated.ts';
import { getConnection, subscribeConnection } from '../offline/connection.ts';
import { Footer } from './footer.tsx';
import { Header } from './header.tsx';
import { LanguageSync } from './language-switch.tsx';
import { ScrollRestoration } from './scroll-restoration.tsx';
import { ErrorPage, Loading } from './status-pages.tsx';

// Only runners report their position, and only pages that toast need the toasts.
const RunnerLocationReporter = lazy(() => import('../features/runner/location-reporter.tsx'));
// A saved trip's live offers reach a runner on whichever page they are (issue 13).
const TripOffers = lazy(() => import('../features/trips/trip-offers.tsx').then((m) => ({ default: m.TripOffers })));
const ToastHost = lazy(() => import('./toast-host.tsx'));
// The offline banner and the actions waiting to be sent (src/offline/), once the page is the browser's
// own; only a signed-in person has actions to send, so a stranger's page loads no outbox. Without a
// connection and a service worker's copy the banner cannot load: the page goes on without it.
const OfflineBanner = lazy(() => import('../offline/offline-banner.tsx').catch(() => ({ default: () => null })));
const PendingActions = lazy(() => import('../offline/pending-actions.tsx'));

/** A failing page keeps the header and menu around its error message; another page starts afresh. */
class PageErrorBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override render() {
    return this.state.failed ? <ErrorPage /> : this.props.children;
  }
}

/**
 * The page itself, memoised: the layout's own updates (the session arriving, the first toast) must
 * not reach a page rendered at build time whose script is still on its way, or React would throw
 * its HTML away and show the loading state instead.
 */
const Page = memo(function Page() {
  const { pathname } = useLocation();
  return (
    <PageErrorBoundary key={pathname}>
      <Suspense fallback={<Loading />}>
        <Outlet />
      </Suspense>
    </PageErrorBoundary>
  );
});

export function Layout() {
  const { data: account } = useSession();
  const toastsWanted = useToastsWanted();
  const hydrated = useHydrated();
  const connection = useSyncExternalStore(subscribeConnection, getConnection, getConnection);
  return (
    <div className="shell">
      <ScrollRestoration />
      <a className="skip-link" href="#main">
        {messages.skipToContent}
      </a>
      <Header />
      <LanguageSync />
      <main id="main" className="main">
        {hydrated && (
          <Suspense fallback={null}>
            {!connection.online && <OfflineBanner lastAnswerAt={connection.lastAnswerAt} />}
            {account && <PendingActions />}
          </Suspense>
        )}
        <Page />
      </main>
      <Footer />
      <Suspense fallback={null}>
        {account?.role === 'runner' && (
          <>
            <RunnerLocationReporter />
            <TripOffers />
          </>
        )}
        {toastsWanted && <ToastHost />}
      </Suspense>
    </div>
  );
}
