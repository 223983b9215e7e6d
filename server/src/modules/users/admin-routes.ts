import { accountListQuerySchema, accountListSchema } from '@csomag/domain/admin';
import { apiErrorSchema } from '@csomag/domain/errors';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireRole } from '../../plugins/auth.ts';
import { accountsByName } from './directory.ts';

/** The back office's account search: the parcel form's sender picker (role=user) and the like. */
export const userDirectoryRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/users',
    {
      onRequest: requireRole('superadmin'),
      schema: {
        tags: ['back office'],
        summary: 'Accounts by name; role narrows to one role, q searches name and user name',
        querystring: accountListQuerySchema,
        response: {
          200: accountListSchema,
          400: apiErrorSchema,
          401: apiErrorSchema,
          403: apiErrorSchema,
        },
      },
    },
    async (request) => accountsByName(app.store.db, request.query.role, request.query),
  );
};
