import { positionSchema } from '@csomag/domain/delivery';
import { apiErrorSchema } from '@csomag/domain/errors';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireRole, signedIn } from '../../plugins/auth.ts';
import { reportLocation } from './service.ts';

export const locationRoutes: FastifyPluginAsyncZod = async (app) => {
  app.put(
    '/runners/me/location',
    {
      onRequest: requireRole('runner'),
      // Only the global per-client limit: a phone catching up after a tunnel sends a burst.
      schema: {
        tags: ['location'],
        summary: 'My live position (runner); tracking pages of the parcels I carry follow it',
        body: positionSchema,
        response: {
          204: z.null().describe('stored'),
          400: apiErrorSchema,
          401: apiErrorSchema,
          403: apiErrorSchema,
          429: apiErrorSchema,
        },
      },
    },
    async (request, reply) => {
      await reportLocation(app.changeFeed, signedIn(request), request.body);
      return reply.status(204).send(null);
    },
  );
};
