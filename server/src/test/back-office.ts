import { addressKey } from '@csomag/domain/address';
import type { Coordinates, ParcelStatus } from '@csomag/domain/parcel';
import { expect } from 'vitest';
import type { Store } from '../db/database.ts';
import type { AccountRow, ParcelRow } from '../db/schema.ts';
import { NO_ATTEMPTS } from '../modules/parcels/changes.ts';
import { newParcelId } from '../modules/parcels/parcel-id.ts';
import { matchKeyOf } from '../modules/places/match-key.ts';
import { holderColumns, holderOf } from '../modules/relay/chain.ts';

/** No response may ever carry a password or its hash, under any name. */
export function expectNoSecrets(body: string, password?: string) {
  if (password) expect(body).not.toContain(password);
  expect(body).not.toMatch(/\$argon2/);
  expect(body.toLowerCase()).not.toContain('password');
  expect(body.toLowerCase()).not.toContain('jelszo');
}

export const accountRow = (store: Store, userName: string): Promise<AccountRow> =>
  store.db.selectFrom('accounts').selectAll().where('user_name', '=', userName).executeTakeFirstOrThrow();

export const parcelRow = (store: Store, id: string): Promise<ParcelRow | undefined> =>
  store.db.selectFrom('parcels').selectAll().where('id', '=', id).executeTakeFirst();

export const eventsOf = (store: Store, parcelId: string) =>
  store.db.selectFrom('parcel_events').selectAll().where('parcel_id', '=', parcelId).orderBy('id').execute();

/** Where a runner was last seen, as their phone would have reported it. */
export async function placeRunner(store: Store, userName: string, at: Coordinates | null) {
  await store.db
    .updateTable('accounts')
    .set({
      last_lat: at?.lat ?? null,
      last_lng: at?.lng ?? null,
      last_accuracy: at ? 10 : null,
      located_at: at ? new Date().toISOString() : null,
    })
    .where('user_name', '=', userName)
    .execute();
}

/**
 * Many parcels at once, written straight to the store (the API allows 120 per minute per sender):
 * for views that need more parcels than a test can send.
 */
export async function insertParcels(
  store: Store,
  sender: AccountRow,
  pickups: Coordinates[],
  status: ParcelStatus = 'waiting',
): Promise<string[]> {
  const now = Date.now();
  const rows: ParcelRow[] = pickups.map((pickup, i) => ({
    id: newParcelId(),
    sender_id: sender.id,
    runner_id: null,
    category: 'Tömeges',
    weight_grams: 500,
    status,
    sender_address: sender.address,
    receiver_address: '1052 Budapest, Váci utca 12',
    receiver_key: matchKeyOf('1052 Budapest, Váci utca 12'),
    sender_key: addressKey(sender.address),
    sender_lat: pickup.lat,
    sender_lng: pickup.lng,
    receiver_lat: 47.4996,
    receiver_lng: 19.0512,
    sender_precision: 'manual',
    receiver_precision: 'manual',
    sender_place_precision: 'manual',
    receiver_place_precision: 'manual',
    recipient_name: null,
    recipient_phone: null,
    receiver_email: null,
    created_at: new Date(now - i).toISOString(),
    picked_up_at: null,
    delivered_at: status === 'delivered' ? new Date(now).toISOString() : null,
    version: 1,
    // Holder only, no custody events: written straight to the store (docs/decisions/0022).
    ...holderColumns(holderOf(status, null, sender.id)),
    custody_seq: 0,
    runner_handovers: 0,
    ...NO_ATTEMPTS,
    photo_required: 0,
  }));
  for (let i = 0; i < rows.length; i += 200) {
    await store.db
      .insertInto('parcels')
      .values(rows.slice(i, i + 200))
      .execute();
  }
  return rows.map((row) => row.id);
}
