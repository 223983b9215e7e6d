import {
  type MailTemplate,
  mailSettingsSchema,
  mailSettingsUpdateSchema,
  mailStatusOf,
  outgoingMailListSchema,
  SENDER_MAIL_KINDS,
  unsubscribeBodySchema,
  unsubscribeResultSchema,
} from '@csomag/domain/mail';
import { messages } from '@csomag/domain/messages';
import { paths } from '@csomag/domain/paths';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { nowIso } from '../../db/database.ts';
import { kindSwitches, switchKinds } from '../../db/muted-kinds.ts';
import { errorResponses, refuse } from '../../errors.ts';
import { GUARD_CODES, signedIn } from '../../plugins/auth.ts';
import { applyStop, mailKeys, readStopToken } from './parcel-mail.ts';
import { mailGuard } from './policy.ts';

/** How many of the newest messages the back office's list shows. */
const LISTED = 100;

/** 'Kimenő levelek' (issue 29): what went out, is waiting or failed, and where. */
export const mailRoutes: FastifyPluginAsyncZod = async (app) => {
  const keys = mailKeys(app.config.sessionSecret);

  // A mail client's one-click stop (RFC 8058) posts `List-Unsubscribe=One-Click` as a form, the
  // token in the URL: the form says nothing else, so it is taken (on these routes only) as an empty body.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, _form, done) =>
    done(null, {}),
  );

  const stopQuery = z.object({ token: z.string().max(500).optional() });

  app.post(
    '/mail/unsubscribe',
    {
      schema: {
        tags: ['mail'],
        summary:
          "One-click stop (RFC 8058) of a message's kind: mail about one parcel to its receiver, or one kind of a sender's status mail; the token in the body (our page) or in the URL (a mail client's one-click POST)",
        querystring: stopQuery,
        body: unsubscribeBodySchema.partial().optional(),
        response: { 200: unsubscribeResultSchema, ...errorResponses('mail_link_invalid') },
      },
    },
    async (request) => {
      const token = request.body?.token ?? request.query.token ?? '';
      const scope = readStopToken(keys, token);
      if (!scope) throw refuse('mail_link_invalid', messages.mailLinkInvalid);
      await applyStop(app.store.db, scope, nowIso());
      return 'parcelId' in scope
        ? { stopped: 'parcel' as const, parcelId: scope.parcelId, kind: null }
        : { stopped: 'sender_kind' as const, parcelId: null, kind: scope.kind };
    },
  );

  app.get(
    '/mail/unsubscribe',
    {
      schema: {
        tags: ['mail'],
        summary:
          "The stop link opened in a browser: sent on to the page that asks before stopping (a link scanner's GET stops nothing)",
        querystring: stopQuery,
        response: { 303: z.null() },
      },
    },
    async (request, reply) =>
      reply.redirect(`${paths.unsubscribe}#token=${encodeURIComponent(request.query.token ?? '')}`, 303),
  );

  app.get(
    '/me/mail-preferences',
    {
      onRequest: mailGuard('managePreferences'),
      schema: {
        tags: ['mail'],
        summary: 'My address, whether it is verified, and which status mails I get about the parcels I send',
        response: { 200: mailSettingsSchema, ...errorResponses(...GUARD_CODES) },
      },
    },
    async (request, reply) => {
      void reply.header('cache-control', 'private, no-store');
      return mailSettingsOf(signedIn(request).id);
    },
  );

  app.patch(
    '/me/mail-preferences',
    {
      onRequest: mailGuard('managePreferences'),
      schema: {
        tags: ['mail'],
        summary: 'Switch kinds of status mail on or off; the others stay as they are',
        body: mailSettingsUpdateSchema,
        response: { 200: mailSettingsSchema, ...errorResponses(...GUARD_CODES) },
      },
    },
    async (request) => {
      const { id } = signedIn(request);
      await switchKinds(app.store.db, 'mail_muted_kinds', id, request.body.kinds);
      return mailSettingsOf(id);
    },
  );

  async function mailSettingsOf(accountId: number) {
    const account = await app.store.db
      .selectFrom('accounts')
      .select(['email', 'email_verified_at', 'pending_email'])
      .where('id', '=', accountId)
      .executeTakeFirstOrThrow();
    return {
      email: account.email,
      verified: account.email_verified_at !== null,
      pendingEmail: account.pending_email,
      kinds: await kindSwitches(app.store.db, 'mail_muted_kinds', accountId, SENDER_MAIL_KINDS),
    };
  }

  app.get(
    '/admin/mail',
    {
      onRequest: mailGuard('readOutbox'),
      schema: {
        tags: ['mail'],
        summary:
          'The newest messages with their status, and whether they go over SMTP or into .eml files under DATA_DIR/mail (superadmin)',
        response: { 200: outgoingMailListSchema, ...errorResponses(...GUARD_CODES) },
      },
    },
    async (_request, reply) => {
      void reply.header('cache-control', 'private, no-store');
      const rows = await app.store.db
        .selectFrom('mail_outbox')
        .select([
          'id',
          'to_address',
          'template',
          'subject',
          'created_at',
          'attempts',
          'sent_at',
          'failed_at',
          'last_error',
          'file_name',
        ])
        .orderBy('id', 'desc')
        .limit(LISTED)
        .execute();
      return {
        transport: app.mail.transport.kind,
        items: rows.map((row) => ({
          id: row.id,
          to: row.to_address,
          template: row.template as MailTemplate,
          subject: row.subject,
          createdAt: row.created_at,
          status: mailStatusOf({ sentAt: row.sent_at, failedAt: row.failed_at }),
          attempts: row.attempts,
          sentAt: row.sent_at,
          lastError: row.last_error,
          fileName: row.file_name,
        })),
      };
    },
  );
};
