import type { AccountRow, ParcelRow } from '../../db/schema.ts';

/** Who may see a parcel in full (addresses, timeline with names): its sender, its runner, the superadmin. */
export function canViewParcel(account: AccountRow, parcel: Pick<ParcelRow, 'sender_id' | 'runner_id'>): boolean {
  return account.role === 'superadmin' || parcel.sender_id === account.id || parcel.runner_id === account.id;
}
