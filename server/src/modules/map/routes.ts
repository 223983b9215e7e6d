import { mapQuerySchema, mapResponseSchema } from '@csomag/domain/admin';
import { apiErrorSchema } from '@csomag/domain/errors';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireRole } from '../../plugins/auth.ts';
import { parcelsInView } from './service.ts';

/** The admin map (SPEC §2.8) at any number of parcels: only what lies in view. */
export const mapRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/map/parcels',
    {
      onRequest: requireRole('superadmin'),
      schema: {
        tags: ['back office'],
        summary: 'Parcels whose pickup point is in view: markers when few (≤ 500), grid clusters otherwise',
        querystring: mapQuerySchema,
        response: { 200: mapResponseSchema, 400: apiErrorSchema, 401: apiErrorSchema, 403: apiErrorSchema },
      },
    },
    async (request) => parcelsInView(app.store.db, request.query),
  );
};
