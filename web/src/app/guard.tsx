import { paths, roleHome } from '@csomag/domain/paths';
import type { Role } from '@csomag/domain/roles';
import type { ReactNode } from 'react';
import { useSession } from '../api/session.ts';
import { Navigate, useLocation } from '../lib/router.tsx';
import { Loading } from './status-pages.tsx';

/**
 * Shows a page only to the roles in its guard-table row. Signed out → sign-in (which brings the
 * person back afterwards); another role → that role's home. The server enforces the same rules.
 */
export function Guard({ roles, children }: { roles: readonly Role[]; children: ReactNode }) {
  const { data: account, isPending } = useSession();
  const location = useLocation();
  if (isPending) return <Loading />;
  if (!account) {
    // Signing out leaves for the landing page first: the address has changed, the new page is
    // still being drawn (a transition), and the session is already gone. Sending this page to the
    // sign-in page then would replace the landing page's address.
    if (leaving(location.pathname)) return <Loading />;
    return <Navigate to={paths.login} replace state={{ from: location.pathname + location.search }} />;
  }
  if (!roles.includes(account.role)) return <Navigate to={roleHome[account.role]} replace />;
  return children;
}

/** Whether the browser's address already names another page than the one being drawn (both encoded alike). */
const leaving = (pathname: string) =>
  typeof window !== 'undefined' && window.location.pathname !== new URL(pathname, window.location.origin).pathname;
