import { paths, roleHome } from '@csomag/domain/paths';
import type { Role } from '@csomag/domain/roles';
import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { useSession } from '../api/session.ts';
import { Loading } from './status-pages.tsx';

/**
 * Shows a page only to the roles in its guard-table row. Signed out → sign-in (which brings the
 * person back afterwards); another role → that role's home. The server enforces the same rules.
 */
export function Guard({ roles, children }: { roles: readonly Role[]; children: ReactNode }) {
  const { data: account, isPending } = useSession();
  const location = useLocation();
  if (isPending) return <Loading />;
  if (!account) return <Navigate to={paths.login} replace state={{ from: location.pathname + location.search }} />;
  if (!roles.includes(account.role)) return <Navigate to={roleHome[account.role]} replace />;
  return children;
}
