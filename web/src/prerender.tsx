/**
 * Build-time rendering of the pages that are the same for every visitor (web/scripts/prerender.ts):
 * a stranger sees the landing or sign-in page as soon as the HTML arrives, before any script runs.
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { prerenderToNodeStream } from 'react-dom/static';
import { Layout } from './app/layout.tsx';
import { Loading } from './app/status-pages.tsx';
import { Route, Routes, StaticRouter } from './lib/router.tsx';
import { AppRoutes, routeTable } from './routes.tsx';

export { setRenderLanguage } from './lib/language.ts';

export const prerenderedPages = routeTable.filter((row) => row.prerender).map(({ path, module }) => ({ path, module }));

async function render(location: string, routes: ReactNode): Promise<string> {
  // Rendered signed out: the session is only known in the browser, which asks after hydrating.
  const queryClient = new QueryClient();
  const { prelude } = await prerenderToNodeStream(
    <QueryClientProvider client={queryClient}>
      <StaticRouter location={location}>{routes}</StaticRouter>
    </QueryClientProvider>,
  );
  let html = '';
  for await (const chunk of prelude) html += chunk;
  return html;
}

/** One page exactly as the browser's first render will produce it, so it hydrates without a change. */
export const renderPage = (path: string) => render(path, <AppRoutes />);

/** The header, footer and a loading state: what any other page shows until its script runs. */
export const renderShell = () =>
  render(
    '/',
    <Routes>
      <Route element={<Layout />}>
        <Route path="*" element={<Loading />} />
      </Route>
    </Routes>,
  );
