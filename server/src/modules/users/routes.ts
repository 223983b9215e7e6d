import { accountResponseSchema, profileUpdateSchema, userNameField } from '@csomag/domain/account';
import { ROLES } from '@csomag/domain/roles';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses } from '../../errors.ts';
import { requireRole, signedIn } from '../../plugins/auth.ts';
import { presentAccount } from '../auth/present.ts';
import { findManagedAccount, updateProfile } from './service.ts';

const params = z.object({ userName: userNameField });
const errors = errorResponses(400, 401, 403, 404, 409);

export const userRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/users/:userName',
    {
      onRequest: requireRole(...ROLES),
      schema: {
        tags: ['users'],
        summary: 'A profile (its owner or the superadmin)',
        params,
        response: { 200: accountResponseSchema, ...errors },
      },
    },
    async (request) => {
      const account = await findManagedAccount(app.store.db, signedIn(request), request.params.userName);
      return { account: presentAccount(account) };
    },
  );

  app.patch(
    '/users/:userName',
    {
      onRequest: requireRole(...ROLES),
      schema: {
        tags: ['users'],
        summary: 'Edit a profile (its owner or the superadmin); an empty password keeps the old one',
        params,
        body: profileUpdateSchema,
        response: { 200: accountResponseSchema, ...errors },
      },
    },
    async (request) => {
      const actor = signedIn(request);
      const target = await findManagedAccount(app.store.db, actor, request.params.userName);
      const keepSession = actor.id === target.id ? request.sessionTokenHash : null;
      const updated = await updateProfile(app.store.db, target, request.body, keepSession);
      request.log.info({ userName: updated.user_name, by: actor.user_name }, 'profile updated');
      return { account: presentAccount(updated) };
    },
  );
};
