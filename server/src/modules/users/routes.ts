import { accountResponseSchema, profileUpdateSchema, userNameField } from '@csomag/domain/account';
import { SESSION_COOKIE } from '@csomag/domain/constants';
import { messages } from '@csomag/domain/messages';
import { eraseAccountBodySchema, personalDataSchema } from '@csomag/domain/personal-data';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses, refuse } from '../../errors.ts';
import { GUARD_CODES, signedIn } from '../../plugins/auth.ts';
import { findAccountByUserName } from '../auth/accounts.ts';
import { presentAccount } from '../auth/present.ts';
import { placedMatchKey } from '../places/match-key.ts';
import { eraseAccount } from './erase.ts';
import { personalData } from './personal-data.ts';
import { accountGuard, accountRelationship, mayAccount } from './policy.ts';
import { findManagedAccount, updateProfile } from './service.ts';

const params = z.object({ userName: userNameField });

export const userRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/users/:userName',
    {
      onRequest: accountGuard('viewProfile'),
      schema: {
        tags: ['users'],
        summary: 'A profile (its owner or the superadmin)',
        params,
        response: { 200: accountResponseSchema, ...errorResponses(...GUARD_CODES, 'account_not_found') },
      },
    },
    async (request) => {
      const account = await findManagedAccount(app.store.db, signedIn(request), request.params.userName, 'viewProfile');
      return { account: presentAccount(account) };
    },
  );

  app.patch(
    '/users/:userName',
    {
      onRequest: accountGuard('editProfile'),
      schema: {
        tags: ['users'],
        summary: 'Edit a profile (its owner or the superadmin); an empty password keeps the old one',
        params,
        body: profileUpdateSchema,
        response: {
          200: accountResponseSchema,
          ...errorResponses(...GUARD_CODES, 'account_not_found', 'email_taken', 'email_read_only'),
        },
      },
    },
    async (request) => {
      const actor = signedIn(request);
      const target = await findManagedAccount(app.store.db, actor, request.params.userName, 'editProfile');
      const keepSession = accountRelationship.self(actor, target) ? request.sessionTokenHash : null;
      const { address } = request.body;
      const placedKey = address === undefined ? undefined : await placedMatchKey(app.geocoder, address);
      const updated = await updateProfile(
        app.store.db,
        actor,
        target,
        request.body,
        keepSession,
        placedKey,
        app.config.mailOrigin,
      );
      // This instance at once; the others when the feed brings the database's word (migration 0027).
      app.sessionCache?.dropAccount(updated.id);
      // A new email's verification link (issue 29).
      app.mail.nudge();
      request.log.info({ userName: updated.user_name, by: actor.user_name }, 'profile updated');
      return { account: presentAccount(updated) };
    },
  );

  app.get(
    '/users/:userName/export',
    {
      onRequest: accountGuard('exportData'),
      schema: {
        tags: ['users'],
        summary: 'My data: everything kept about the person, as JSON to download (that person only, GDPR Art. 15, 20)',
        params,
        response: { 200: personalDataSchema, ...errorResponses(...GUARD_CODES, 'account_not_found') },
      },
    },
    async (request, reply) => {
      const actor = signedIn(request);
      const account = await findAccountByUserName(app.store.db, request.params.userName);
      if (!account || !mayAccount(actor, 'exportData', account)) throw refuse('forbidden', messages.forbidden);
      void reply
        .header('cache-control', 'private, no-store')
        .header('content-disposition', `attachment; filename="csomagkuldo-${account.user_name}.json"`);
      request.log.info({ userName: account.user_name }, 'personal data exported');
      return personalData(app.store.db, account);
    },
  );

  // DELETE, not POST: a repeat finds the session gone (the idempotency of POSTs is not needed).
  app.delete(
    '/users/:userName',
    {
      onRequest: accountGuard('eraseAccount'),
      schema: {
        tags: ['users'],
        summary:
          'Erase my account: the person, with their password; refused while their parcels are on their way (GDPR Art. 17)',
        params,
        body: eraseAccountBodySchema,
        response: {
          204: z.null(),
          ...errorResponses(...GUARD_CODES, 'wrong_password', 'account_has_parcels_in_progress'),
        },
      },
    },
    async (request, reply) => {
      const actor = signedIn(request);
      const account = await findAccountByUserName(app.store.db, request.params.userName);
      if (!account || !mayAccount(actor, 'eraseAccount', account)) throw refuse('forbidden', messages.forbidden);
      await eraseAccount(app.store.db, account, request.body.password);
      app.sessionCache?.dropAccount(account.id);
      request.log.info({ accountId: account.id }, 'account erased');
      reply.clearCookie(SESSION_COOKIE, { path: '/' });
      return reply.status(204).send(null);
    },
  );
};
