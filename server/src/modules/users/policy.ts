import type { AccountRow } from '../../db/schema.ts';

/** A profile is read and edited by its owner and by the superadmin. */
export function canManageProfile(actor: AccountRow, userName: string): boolean {
  return actor.role === 'superadmin' || actor.user_name.toLowerCase() === userName.toLowerCase();
}
