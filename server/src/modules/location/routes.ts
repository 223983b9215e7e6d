import { locationBodySchema } from '@csomag/domain/delivery';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses } from '../../errors.ts';
import { GUARD_CODES, signedIn } from '../../plugins/auth.ts';
import { answerWith } from '../../plugins/idempotency.ts';
import { reportLocation } from '../parcels/changes.ts';
import { accountGuard } from '../users/policy.ts';

export const locationRoutes: FastifyPluginAsyncZod = async (app) => {
  app.put(
    '/runners/me/location',
    {
      onRequest: accountGuard('reportLocation'),
      config: { idempotentAnswer: answerWith(204) },
      // Only the global per-client limit: a phone catching up after a tunnel sends a burst.
      schema: {
        tags: ['location'],
        summary:
          'My live position (runner): one `{lat, lng, accuracy, occurredAt?}`, or `{points: [...]}` recorded offline (1–500, each with occurredAt), of which only the newest counts and only if newer than the one stored; tracking pages of the parcels I carry follow it',
        body: locationBodySchema,
        response: {
          204: z.null().describe('stored (or older than the position already stored, and so ignored)'),
          ...errorResponses(...GUARD_CODES),
        },
      },
    },
    async (request, reply) => {
      const [first, ...rest] = request.body;
      if (first) await reportLocation(app.changeFeed.forRequest(request.id), signedIn(request), first, ...rest);
      return reply.status(204).send(null);
    },
  );
};
