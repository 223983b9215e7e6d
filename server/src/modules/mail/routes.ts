import { type MailTemplate, outgoingMailListSchema } from '@csomag/domain/mail';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponses } from '../../errors.ts';
import { GUARD_CODES } from '../../plugins/auth.ts';
import { mailGuard } from './policy.ts';

/** How many of the newest messages the back office's list shows. */
const LISTED = 100;

/** 'Kimenő levelek' (issue 29): what went out, is waiting or failed, and where. */
export const mailRoutes: FastifyPluginAsyncZod = async (app) => {
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
          status: row.sent_at ? ('sent' as const) : row.failed_at ? ('failed' as const) : ('pending' as const),
          attempts: row.attempts,
          sentAt: row.sent_at,
          lastError: row.last_error,
          fileName: row.file_name,
        })),
      };
    },
  );
};
