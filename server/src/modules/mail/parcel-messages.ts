import { type MailTemplate, PARCEL_MESSAGES_LISTED, type ParcelMessage } from '@csomag/domain/mail';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

/**
 * The messages written about one parcel, newest first (the back office's incident detail): never
 * the bodies, whose links hold the receiver's key and the stop token.
 */
export async function listParcelMessages(db: Kysely<Database>, parcelId: string): Promise<ParcelMessage[]> {
  const rows = await db
    .selectFrom('mail_outbox')
    .select(['id', 'to_address', 'template', 'subject', 'created_at', 'sent_at', 'failed_at'])
    .where('parcel_id', '=', parcelId)
    .orderBy('id', 'desc')
    .limit(PARCEL_MESSAGES_LISTED)
    .execute();
  return rows.map((row) => ({
    id: row.id,
    to: row.to_address,
    template: row.template as MailTemplate,
    subject: row.subject,
    createdAt: row.created_at,
    sentAt: row.sent_at,
    failedAt: row.failed_at,
  }));
}
