import { apiErrorSchema } from '@csomag/domain/errors';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sql } from 'kysely';
import { z } from 'zod';

export const systemRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/health',
    {
      config: { rateLimit: false },
      schema: {
        tags: ['system'],
        response: { 200: z.object({ status: z.literal('ok'), store: z.string() }), 503: apiErrorSchema },
      },
    },
    async (request, reply) => {
      try {
        await sql`select 1`.execute(app.store.db);
        return { status: 'ok' as const, store: app.store.dialect };
      } catch (error) {
        request.log.error({ err: error }, 'health check failed');
        return reply.status(503).send({ error: { code: 'internal', message: 'Az adatbázis nem elérhető.' } });
      }
    },
  );

  app.get(
    '/config',
    {
      schema: {
        tags: ['system'],
        response: { 200: z.object({ tileUrl: z.string(), publicUrl: z.string().nullable() }) },
      },
    },
    async () => ({ tileUrl: app.config.tileUrl, publicUrl: app.config.publicUrl ?? null }),
  );
};
