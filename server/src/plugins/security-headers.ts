import fastifyHelmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';

const HSTS = 'max-age=31536000; includeSubDomains';

function tileOrigin(tileUrl: string): string {
  try {
    return new URL(tileUrl.replace(/\{[a-z]\}/g, 'a')).origin;
  } catch {
    return "'self'";
  }
}

/**
 * Helmet's headers on every response. The two that only make sense over HTTPS are added to
 * requests that came over HTTPS, or to all when the public URL is https (docs/decisions/0007).
 */
export async function registerSecurityHeaders(app: FastifyInstance, config: Pick<Config, 'tileUrl' | 'publicUrl'>) {
  await app.register(fastifyHelmet, {
    contentSecurityPolicy: {
      directives: {
        'img-src': ["'self'", 'data:', 'blob:', tileOrigin(config.tileUrl)],
        'style-src': ["'self'", "'unsafe-inline'"],
        'connect-src': ["'self'"],
        'upgrade-insecure-requests': null,
      },
    },
    strictTransportSecurity: false,
  });
  const alwaysHttps = config.publicUrl?.startsWith('https://') === true;
  // Sent over plain HTTP (a phone at http://<lan-ip>:3000) they move every asset to https, where nothing answers.
  app.addHook('onRequest', (request, reply, done) => {
    if (alwaysHttps || request.protocol === 'https') {
      const csp = reply.getHeader('content-security-policy');
      reply.header('content-security-policy', `${csp};upgrade-insecure-requests`);
      reply.header('strict-transport-security', HSTS);
    }
    done();
  });
}
