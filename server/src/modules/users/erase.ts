import { randomBytes } from 'node:crypto';
import { messages } from '@csomag/domain/messages';
import { erasedUserName } from '@csomag/domain/personal-data';
import type { Kysely } from 'kysely';
import { nowIso } from '../../db/database.ts';
import type { AccountRow, Database } from '../../db/schema.ts';
import { refuse, refuseField } from '../../errors.ts';
import { hashPassword, verifyPassword } from '../auth/passwords.ts';

/** Statuses in which a parcel is still on its way: its sender or carrier cannot go yet. */
const IN_PROGRESS = ['waiting', 'in_transit', 'with_neighbour', 'at_drop_point'] as const;

/**
 * 'Fiók törlése' (issue 29, GDPR Art. 17), by the person, who gives their password again. Refused
 * while a parcel they sent or carry is on its way. In one transaction: the account row stays (its
 * id is what the custody chains and timelines name, so their hashes still check) but every
 * personal field is replaced — name, user name, email, phone, address, position — and the
 * password made unusable; their sessions, devices, trips, reset links, drop point staffing and
 * mail go; the comments they wrote and the receiver contacts and pickup addresses they typed on
 * their parcels are removed, and timelines that named them name the new one. The custody chains'
 * own texts (a reason the back office typed) are under their hashes and stay.
 */
export async function eraseAccount(db: Kysely<Database>, account: AccountRow, password: string) {
  if (!(await verifyPassword(account.password_hash, password))) {
    throw refuseField('wrong_password', 'password', messages.wrongPassword);
  }
  const unusable = await hashPassword(randomBytes(32).toString('base64url'));
  await db.transaction().execute(async (trx) => {
    const busy = await trx
      .selectFrom('parcels')
      .select('id')
      .where('status', 'in', [...IN_PROGRESS])
      .where((eb) => eb.or([eb('sender_id', '=', account.id), eb('runner_id', '=', account.id)]))
      .limit(1)
      .executeTakeFirst();
    if (busy) throw refuse('account_has_parcels_in_progress', messages.eraseBlocked);
    await trx
      .updateTable('accounts')
      .set({
        user_name: erasedUserName(account.id),
        name: messages.erasedName,
        email: `${erasedUserName(account.id)}@torolt.invalid`,
        phone: '',
        address: '',
        address_key: '',
        password_hash: unusable,
        last_lat: null,
        last_lng: null,
        last_accuracy: null,
        located_at: null,
        email_verified_at: null,
        pending_email: null,
        updated_at: nowIso(),
      })
      .where('id', '=', account.id)
      .execute();
    await trx
      .updateTable('parcels')
      .set({
        sender_address: messages.erasedAddress,
        recipient_name: null,
        recipient_phone: null,
        receiver_email: null,
      })
      .where('sender_id', '=', account.id)
      .execute();
    await trx.updateTable('ratings').set({ comment: null }).where('rater_id', '=', account.id).execute();
    for (const table of [
      'sessions',
      'push_subscriptions',
      'push_muted_kinds',
      'saved_trips',
      'password_resets',
      'email_verifications',
      'mail_muted_kinds',
    ] as const) {
      await trx.deleteFrom(table).where('account_id', '=', account.id).execute();
    }
    await trx.deleteFrom('drop_point_staff').where('account_id', '=', account.id).execute();
    // The messages to them held their name and address: gone, sent or not.
    await trx
      .deleteFrom('mail_outbox')
      .where('to_address', 'in', account.pending_email ? [account.email, account.pending_email] : [account.email])
      .execute();
    // Timelines name people in their data ('assigned' to a runner): the new name stands there.
    const [from, to] = [JSON.stringify(account.user_name), JSON.stringify(erasedUserName(account.id))];
    await trx
      .updateTable('parcel_events')
      .set((eb) => ({ data: eb.fn<string>('replace', [eb.ref('data'), eb.val(from), eb.val(to)]) }))
      .where('data', 'like', `%${from}%`)
      .execute();
  });
}
