import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { messages } from '@csomag/domain/messages';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

/**
 * Serves the built SPA with history fallback, so one process is the whole product.
 * Unknown /api paths stay JSON 404s; every other GET that wants HTML gets index.html.
 */
export async function registerWeb(app: FastifyInstance, webDist: string | undefined) {
  const hasWeb = webDist !== undefined && existsSync(join(webDist, 'index.html'));
  if (hasWeb) {
    await app.register(fastifyStatic, {
      root: webDist,
      wildcard: false,
      index: false,
      setHeaders(res, path) {
        // Vite's hashed assets never change; index.html must always be fresh.
        res.setHeader('cache-control', path.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }
  app.setNotFoundHandler(
    // An attacker probes unknown URLs, so even the 404 handler is rate limited.
    { preHandler: app.rateLimit() },
    (request, reply) => {
      const isPage = request.method === 'GET' && !request.url.startsWith('/api') && !request.url.startsWith('/assets/');
      if (hasWeb && isPage) return reply.header('cache-control', 'no-cache').sendFile('index.html');
      return reply.status(404).send({ error: { code: 'not_found', message: messages.notFound } });
    },
  );
}
