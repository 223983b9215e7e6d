import { positionSchema } from '@csomag/domain/delivery';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses } from '../../errors.ts';
import { GUARD_CODES, signedIn } from '../../plugins/auth.ts';
import { reportLocation } from '../parcels/changes.ts';
import { accountGuard } from '../users/policy.ts';

export const locationRoutes: FastifyPluginAsyncZod = async (app) => {
  app.put(
    '/runners/me/location',
    {
      onRequest: accountGuard('reportLocation'),
      // Only the global per-client limit: a phone catching up after a tunnel sends a burst.
      schema: {
        tags: ['location'],
        summary: 'My live position (runner); tracking pages of the parcels I carry follow it',
        body: positionSchema,
        response: {
          204: z.null().describe('stored'),
          ...errorResponses(...GUARD_CODES),
        },
      },
    },
    async (request, reply) => {
      await reportLocation(app.changeFeed.forRequest(request.id), signedIn(request), request.body);
      return reply.status(204).send(null);
    },
  );
};
