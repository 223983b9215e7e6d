import type { Account } from '@csomag/domain/account';
import { runnerStanding } from '@csomag/domain/roles';
import type { AccountRow } from '../../db/schema.ts';
import { hasRole } from '../../policy.ts';

/**
 * The only way an account leaves the server: no id, no password hash. It goes only to the account
 * itself or to the back office (users/policy.ts viewProfile, viewRunner, listRunners, searchUsers),
 * so a runner's standing and suspension reason reach that runner and the back office, no one else.
 */
export function presentAccount(row: AccountRow): Account {
  return {
    userName: row.user_name,
    name: row.name,
    email: row.email,
    emailVerified: row.email_verified_at !== null,
    pendingEmail: row.pending_email,
    phoneNumber: row.phone,
    address: row.address,
    role: row.role,
    language: row.language,
    ...(hasRole(row, 'runner') && row.runner_status ? { status: row.runner_status } : {}),
    ...(hasRole(row, 'runner')
      ? {
          standing: {
            state: runnerStanding({ approvedAt: row.approved_at, suspendedAt: row.suspended_at }),
            suspendedReason: row.suspended_at === null ? null : row.suspended_reason,
          },
        }
      : {}),
  };
}
