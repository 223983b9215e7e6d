import type { MailTemplate } from '@csomag/domain/mail';
import type { Kysely } from 'kysely';
import { compiledPerStore } from '../../db/compiled-once.ts';
import { sendBehind } from '../../db/database.ts';
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
  const { composed } = message;
  const now = Date.now();
  // Nothing reads it back in the change's transaction: sent with its next statement (ADR 0033).
  await sendBehind(
    db,
    mailInsert.compile(
      db,
      message.to,
      message.template,
      composed.subject,
      composed.text,
      composed.html,
      message.unsubscribeUrl ?? null,
      new Date(now).toISOString(),
      now,
      message.parcelId ?? null,
    ),
  );
}

/** The outbox's INSERT, built and compiled once: a pickup or a delivery writes one or two. */
const mailInsert = compiledPerStore(
  9,
  (
    db: Kysely<Database>,
    to: string,
    template: MailTemplate,
    subject: string,
    text: string,
    html: string,
    unsubscribeUrl: string | null,
    createdAt: string,
    dueMs: number,
    parcelId: string | null,
  ) =>
    db.insertInto('mail_outbox').values({
      to_address: to,
      template,
      subject,
      text_body: text,
      html_body: html,
      unsubscribe_url: unsubscribeUrl,
      created_at: createdAt,
      due_ms: dueMs,
      claimed_until_ms: null,
      sent_at: null,
      failed_at: null,
      last_error: null,
      file_name: null,
      parcel_id: parcelId,
    }),
);
