import type { Position } from '@csomag/domain/delivery';
import type { ChangeFeed } from '../../db/change-feed.ts';
import { nowIso } from '../../db/database.ts';
import type { AccountRow } from '../../db/schema.ts';

/**
 * Stores where the runner is and tells the tracking page of every parcel they carry to look
 * again. Nothing is announced for a runner carrying nothing: nobody may see where they are.
 */
export function reportLocation(changes: Pick<ChangeFeed, 'transaction'>, runner: AccountRow, position: Position) {
  return changes.transaction(async (trx, publish) => {
    await trx
      .updateTable('accounts')
      .set({ last_lat: position.lat, last_lng: position.lng, last_accuracy: position.accuracy, located_at: nowIso() })
      .where('id', '=', runner.id)
      .execute();
    const carried = await trx
      .selectFrom('parcels')
      .innerJoin('accounts as sender', 'sender.id', 'parcels.sender_id')
      .select(['parcels.id', 'parcels.receiver_key', 'sender.user_name as sender_user_name'])
      .where('parcels.runner_id', '=', runner.id)
      .where('parcels.status', '=', 'in_transit')
      .execute();
    for (const parcel of carried) {
      const unchanged = { status: 'in_transit' as const, runner: runner.user_name, receiverKey: parcel.receiver_key };
      await publish({
        kind: 'runner_located',
        parcelId: parcel.id,
        ...unchanged,
        senderUser: parcel.sender_user_name,
        previous: unchanged,
      });
    }
  });
}
