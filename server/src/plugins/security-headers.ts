import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';
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
 * The headers helmet sets for these options, worked out once. Ours depend on nothing in the
 * request (no nonces), and helmet built its whole middleware, the policy string included, on
 * every request through @fastify/helmet: a few per cent of every small response (ADR 0013).
 */
export function helmetHeaders(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader(name: string, value: unknown) {
      headers[name.toLowerCase()] = String(value);
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  helmet(options)({} as IncomingMessage, response as unknown as ServerResponse, () => {});
  return headers;
}

/**
 * Helmet's headers on every response. The two that only make sense over HTTPS are added to
 * requests that came over HTTPS, or to all when the public URL is https (docs/decisions/0007).
 */
export async function registerSecurityHeaders(app: FastifyInstance, config: Pick<Config, 'tileUrl' | 'publicUrl'>) {
  const headers = helmetHeaders({
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
  const overHttps = {
    ...headers,
    'content-security-policy': `${headers['content-security-policy']};upgrade-insecure-requests`,
    'strict-transport-security': HSTS,
  };
  const alwaysHttps = config.publicUrl?.startsWith('https://') === true;
  // Sent over plain HTTP (a phone at http://<lan-ip>:3000) they move every asset to https, where nothing answers.
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(alwaysHttps || request.protocol === 'https' ? overHttps : headers);
    done();
  });
}
