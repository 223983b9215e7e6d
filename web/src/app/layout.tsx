import { TOAST_AUTO_CLOSE_MS } from '@csomag/domain/constants';
import { Suspense } from 'react';
import { Outlet } from 'react-router';
import { Bounce, ToastContainer } from 'react-toastify';
import { useSession } from '../api/session.ts';
import { RunnerLocationReporter } from '../features/runner/location-reporter.tsx';
import 'react-toastify/dist/ReactToastify.css';
import { Footer } from './footer.tsx';
import { Header } from './header.tsx';
import { Loading } from './status-pages.tsx';

export function Layout() {
  const { data: account } = useSession();
  return (
    <div className="shell">
      <a className="skip-link" href="#main">
        Ugrás a tartalomra
      </a>
      <Header />
      <main id="main" className="main">
        <Suspense fallback={<Loading />}>
          <Outlet />
        </Suspense>
      </main>
      <Footer />
      {account?.role === 'runner' && <RunnerLocationReporter />}
      <ToastContainer position="bottom-center" autoClose={TOAST_AUTO_CLOSE_MS} transition={Bounce} newestOnTop />
    </div>
  );
}
