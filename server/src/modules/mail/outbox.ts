import type { MailTemplate } from '@csomag/domain/mail';
import type { Kysely } from 'kysely';
import { nowIso } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import type { ComposedMail } from './compose.ts';

/**
 * A message into the outbox (issue 29, docs/decisions/0031), inside the caller's transaction: it
 * is sent only if the change that caused it commits, and a mail server that is down delays no
 * request and loses nothing (the worker, worker.ts, sends it). `parcelId` names the parcel a message
 * is about, for the back office's incident detail (parcel-messages.ts).
 */
export async function enqueueMail(
  db: Kysely<Database>,
  message: { to: string; template: MailTemplate; composed: ComposedMail; unsubscribeUrl?: string; parcelId?: string },
) {
  await db
    .insertInto('mail_outbox')
    .values({
      to_address: message.to,
      template: message.template,
      subject: message.composed.subject,
      text_body: message.composed.text,
      html_body: message.composed.html,
      unsubscribe_url: message.unsubscribeUrl ?? null,
      created_at: nowIso(),
      due_ms: Date.now(),
      claimed_until_ms: null,
      sent_at: null,
      failed_at: null,
      last_error: null,
      file_name: null,
      parcel_id: message.parcelId ?? null,
    })
    .execute();
}
