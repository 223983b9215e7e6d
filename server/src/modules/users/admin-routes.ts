import { accountListQuerySchema, accountListSchema } from '@csomag/domain/admin';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponses } from '../../errors.ts';
import { GUARD_CODES } from '../../plugins/auth.ts';
import { accountsByName } from './directory.ts';
import { accountGuard } from './policy.ts';

/** The back office's account search: the parcel form's sender picker (role=user) and the like. */
export const userDirectoryRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/users',
    {
      onRequest: accountGuard('searchUsers'),
      schema: {
        tags: ['back office'],
        summary: 'Accounts by name; role narrows to one role, q searches name and user name',
        querystring: accountListQuerySchema,
        response: {
          200: accountListSchema,
          ...errorResponses(...GUARD_CODES, 'invalid_cursor'),
        },
      },
    },
    async (request) => accountsByName(app.store, request.query.role, request.query),
  );
};
