import { mapQuerySchema, mapResponseSchema } from '@csomag/domain/admin';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponses } from '../../errors.ts';
import { GUARD_CODES } from '../../plugins/auth.ts';
import { parcelGuard } from '../parcels/policy.ts';
import { parcelsInView } from './service.ts';

/** The admin map (SPEC §2.8) at any number of parcels: only what lies in view. */
export const mapRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/map/parcels',
    {
      onRequest: parcelGuard('listAll'),
      schema: {
        tags: ['back office'],
        summary: 'Parcels whose pickup point is in view: markers when few (≤ 500), grid clusters otherwise',
        querystring: mapQuerySchema,
        response: { 200: mapResponseSchema, ...errorResponses(...GUARD_CODES) },
      },
    },
    async (request) => parcelsInView(app.store.db, request.query, app.store.dialect === 'postgres'),
  );
};
