import type { Account } from '@csomag/domain/account';
import type { AccountRow } from '../../db/schema.ts';
import { hasRole } from '../../policy.ts';

/** The only way an account leaves the server: no id, no password hash. */
export function presentAccount(row: AccountRow): Account {
  return {
    userName: row.user_name,
    name: row.name,
    email: row.email,
    phoneNumber: row.phone,
    address: row.address,
    role: row.role,
    ...(hasRole(row, 'runner') && row.runner_status ? { status: row.runner_status } : {}),
  };
}
