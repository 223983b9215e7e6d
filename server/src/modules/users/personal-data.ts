import type { PersonalData } from '@csomag/domain/personal-data';
import type { Kysely } from 'kysely';
import type { AccountRow, Database } from '../../db/schema.ts';
import { relationship } from '../parcels/policy.ts';

/** Parcel columns a person may read of their own parcels (what the parcel is, where, when, whose hands). */
const PARCEL_COLUMNS = [
  'id',
  'status',
  'category',
  'weight_grams',
  'sender_address',
  'receiver_address',
  'sender_lat',
  'sender_lng',
  'receiver_lat',
  'receiver_lng',
  'recipient_name',
  'recipient_phone',
  'photo_required',
  'created_at',
  'picked_up_at',
  'delivered_at',
  'attempts',
  'returning',
] as const;

/**
 * Everything kept about `account` (issue 29, GDPR Art. 15 and 20): the account without its password
 * hash; the parcels they sent, that came to their address and that they carried, with the
 * timeline events they made; ratings both ways; trips; push devices (labels, not keys); reports and
 * incidents they filed; the mail sent to them (subjects and dates, the bodies held links that
 * are spent).
 */
export async function personalData(db: Kysely<Database>, account: AccountRow): Promise<PersonalData> {
  const { password_hash: _secret, ...own } = account;
  const parcels = db
    .selectFrom('parcels')
    .select([...PARCEL_COLUMNS])
    .orderBy('created_at');
  const sections = await awaitEach({
    parcelsSent: parcels.where('sender_id', '=', account.id).execute(),
    parcelsReceived: relationship.receiver(account, { receiver_key: account.address_key })
      ? parcels.where('receiver_key', '=', account.address_key).where('sender_id', '!=', account.id).execute()
      : Promise.resolve([]),
    parcelsCarried: parcels.where('runner_id', '=', account.id).execute(),
    parcelEvents: db
      .selectFrom('parcel_events')
      .select(['parcel_id', 'kind', 'at', 'occurred_at', 'data'])
      .where('actor_id', '=', account.id)
      .orderBy('id')
      .execute(),
    ratingsGiven: db.selectFrom('ratings').selectAll().where('rater_id', '=', account.id).orderBy('id').execute(),
    ratingsReceived: db.selectFrom('ratings').selectAll().where('ratee_id', '=', account.id).orderBy('id').execute(),
    savedTrips: db.selectFrom('saved_trips').selectAll().where('account_id', '=', account.id).orderBy('id').execute(),
    pushDevices: db
      .selectFrom('push_subscriptions')
      .select(['id', 'label', 'created_at'])
      .where('account_id', '=', account.id)
      .orderBy('id')
      .execute(),
    mutedPushKinds: db.selectFrom('push_muted_kinds').select('kind').where('account_id', '=', account.id).execute(),
    mutedMailKinds: db.selectFrom('mail_muted_kinds').select('kind').where('account_id', '=', account.id).execute(),
    reportsFiled: db
      .selectFrom('not_received_reports')
      .selectAll()
      .where('reporter_id', '=', account.id)
      .orderBy('id')
      .execute(),
    incidentsReported: db
      .selectFrom('incidents')
      .selectAll()
      .where('reporter_id', '=', account.id)
      .orderBy('id')
      .execute(),
    mailSent: db
      .selectFrom('mail_outbox')
      .select(['template', 'subject', 'created_at', 'sent_at', 'failed_at'])
      .where('to_address', '=', account.email)
      .orderBy('id')
      .execute(),
  });
  return { exportedAt: new Date().toISOString(), account: own, ...sections };
}

/** Awaits each named read at once, answering them by name (no second list of names to keep in step). */
async function awaitEach<T extends Record<string, Promise<unknown>>>(
  reads: T,
): Promise<{ [K in keyof T]: Awaited<T[K]> }> {
  const entries = await Promise.all(Object.entries(reads).map(async ([name, read]) => [name, await read] as const));
  return Object.fromEntries(entries) as { [K in keyof T]: Awaited<T[K]> };
}
