import type { FastifyBaseLogger } from 'fastify';
import fp from 'fastify-plugin';
import type { ExpressionBuilder, Kysely } from 'kysely';
import { nowIso } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import { mailKeys, parcelMailHook } from './parcel-mail.ts';
import { type MailTransport, mailTransport } from './transport.ts';

/** How often the outbox is looked at without a nudge (a message from another instance, a retry due). */
export const MAIL_POLL_MS = 5_000;
/** A claimed message is this worker's for so long; one that outlives it is another's to try. */
const CLAIM_MS = 2 * 60_000;
const BATCH = 20;
/** Given up after so many tries (the last some hours after the first). */
export const MAIL_MAX_ATTEMPTS = 8;

/** Before try n + 1: 30 s, 1 min, 2 min … at most an hour. */
export const mailBackoffMs = (attempts: number) => Math.min(60 * 60_000, 30_000 * 2 ** (attempts - 1));

/** A 5xx answer from the SMTP server: the address (or the message) is refused for good. */
const isPermanent = (error: unknown) => {
  const code = (error as { responseCode?: unknown }).responseCode;
  return typeof code === 'number' && code >= 500 && code < 600;
};
const describe = (error: unknown) => (error instanceof Error ? error.message : String(error)).slice(0, 300);

/**
 * Sends the outbox (issue 29, docs/decisions/0031). Each message is claimed by one conditional
 * UPDATE (on PostgreSQL the second of two instances re-reads the row after the first's commit and
 * finds it claimed), so it goes once across instances; a failure is tried again later with
 * back-off; a permanent refusal (5xx) stops all mail to that address.
 */
export class MailWorker {
  readonly transport: MailTransport;
  private readonly from: string;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<number> | undefined;
  private again = false;

  constructor(
    private readonly db: Kysely<Database>,
    options: { smtpUrl: string | undefined; mailDir: string; from: string },
    private readonly log: FastifyBaseLogger,
  ) {
    this.transport = mailTransport(options);
    this.from = options.from;
  }

  start() {
    this.timer = setInterval(() => this.nudge(), MAIL_POLL_MS).unref();
    this.nudge();
  }

  close() {
    clearInterval(this.timer);
    this.transport.close();
  }

  /** Something was written to the outbox: send what is due now (one run at a time). */
  nudge() {
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.sendDue()
      .catch((err: unknown) => {
        this.log.warn({ err }, 'the mail outbox could not be sent');
        return 0;
      })
      .finally(() => {
        this.running = undefined;
        if (this.again) {
          this.again = false;
          this.nudge();
        }
      });
  }

  /** Sends every due message; answers how many were handled (tests await it). */
  async sendDue(now = Date.now()): Promise<number> {
    let handled = 0;
    for (;;) {
      const claimed = await this.claim(now);
      for (const message of claimed) await this.deliver(message);
      handled += claimed.length;
      if (claimed.length === 0) return handled;
    }
  }

  /**
   * The due messages, read first: a look with nothing due writes nothing (on SQLite a write takes
   * the one writer's lock). Then claimed, the conditions checked again on each row itself.
   */
  private async claim(now: number) {
    const claimable = (eb: ExpressionBuilder<Database, 'mail_outbox'>) =>
      eb.and([
        eb('sent_at', 'is', null),
        eb('failed_at', 'is', null),
        eb.or([eb('claimed_until_ms', 'is', null), eb('claimed_until_ms', '<', now)]),
      ]);
    const due = await this.db
      .selectFrom('mail_outbox')
      .select('id')
      .where(claimable)
      .where('due_ms', '<=', now)
      .orderBy('id')
      .limit(BATCH)
      .execute();
    if (due.length === 0) return [];
    return (
      this.db
        .updateTable('mail_outbox')
        .set({ claimed_until_ms: now + CLAIM_MS })
        .where(
          'id',
          'in',
          due.map((row) => row.id),
        )
        // Another instance's claim committed meanwhile wins: its row no longer passes.
        .where(claimable)
        .returningAll()
        .execute()
    );
  }

  private async deliver(message: Awaited<ReturnType<MailWorker['claim']>>[number]) {
    const suppressed = await this.db
      .selectFrom('mail_suppressions')
      .select('address')
      .where('address', '=', message.to_address)
      .executeTakeFirst();
    if (suppressed) {
      await this.finish(message.id, { failed_at: nowIso(), last_error: 'suppressed: the address bounced before' });
      return;
    }
    const headers: Record<string, string> = message.unsubscribe_url
      ? {
          'List-Unsubscribe': `<${message.unsubscribe_url}>`,
          'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
        }
      : {};
    const attempts = message.attempts + 1;
    try {
      const { fileName } = await this.transport.send({
        from: this.from,
        to: message.to_address,
        subject: message.subject,
        text: message.text_body,
        html: message.html_body,
        headers,
      });
      await this.finish(message.id, { sent_at: nowIso(), attempts, file_name: fileName, last_error: null });
      this.log.info({ mail: message.id, template: message.template, attempts }, 'mail sent');
    } catch (error) {
      const lastError = describe(error);
      if (isPermanent(error)) {
        await this.db
          .insertInto('mail_suppressions')
          .values({ address: message.to_address, reason: lastError, at: nowIso() })
          .onConflict((oc) => oc.column('address').doNothing())
          .execute();
        await this.finish(message.id, { failed_at: nowIso(), attempts, last_error: lastError });
      } else if (attempts >= MAIL_MAX_ATTEMPTS) {
        await this.finish(message.id, { failed_at: nowIso(), attempts, last_error: lastError });
      } else {
        await this.finish(message.id, {
          attempts,
          last_error: lastError,
          due_ms: Date.now() + mailBackoffMs(attempts),
        });
      }
      this.log.warn({ mail: message.id, template: message.template, attempts, error: lastError }, 'mail not sent');
    }
  }

  private finish(
    id: number,
    set: {
      sent_at?: string;
      failed_at?: string;
      attempts?: number;
      last_error: string | null;
      file_name?: string | null;
      due_ms?: number;
    },
  ) {
    return this.db
      .updateTable('mail_outbox')
      .set({ ...set, claimed_until_ms: null })
      .where('id', '=', id)
      .execute();
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The mail outbox's sender (issue 29). */
    mail: MailWorker;
  }
}

/** One worker per instance: it starts when the app is ready and stops on close. */
export const mailPlugin = fp(async (app) => {
  const worker = new MailWorker(
    app.store.db,
    { smtpUrl: app.config.smtpUrl, mailDir: app.config.mailDir, from: app.config.mailFrom },
    app.log,
  );
  app.decorate('mail', worker);
  // Mail about parcels, written in each change's transaction; the worker is nudged once it committed.
  let written = false;
  app.changeFeed.setChangesHook(
    parcelMailHook(
      {
        origin: app.config.mailOrigin,
        keys: mailKeys(app.config.sessionSecret),
        dropPointHoldDays: app.config.dropPointHoldDays,
      },
      () => {
        written = true;
      },
    ),
  );
  app.changeFeed.onCommit(() => {
    if (!written) return;
    written = false;
    worker.nudge();
  });
  app.addHook('onReady', async () => worker.start());
  app.addHook('onClose', async () => worker.close());
});
