import { messages } from '@csomag/domain/messages';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';
import { refuse } from '../errors.ts';

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Where a browser may send a state-changing request from: the public origin and the one it was served on. */
function isOwnOrigin(origin: string, request: FastifyRequest, publicUrl: string | undefined): boolean {
  if (publicUrl && origin === new URL(publicUrl).origin) return true;
  return origin === `${request.protocol}://${request.host}`;
}

/**
 * Refuses a state-changing request that a browser says comes from another site (CSRF): the
 * session cookie's SameSite=Lax does not cover a sibling subdomain, nor old browsers. Clients
 * that are not browsers send neither header and are not affected.
 */
export function registerOriginCheck(app: FastifyInstance, config: Config) {
  app.addHook('onRequest', (request, _reply, done) => {
    if (!STATE_CHANGING.has(request.method)) return done();
    const site = request.headers['sec-fetch-site'];
    const origin = request.headers.origin;
    const crossSite = site !== undefined && site !== 'same-origin' && site !== 'none';
    if (crossSite || (origin !== undefined && !isOwnOrigin(origin, request, config.publicUrl))) {
      request.log.warn({ origin, site }, 'cross-origin request refused');
      return done(refuse('cross_origin', messages.crossOrigin));
    }
    done();
  });
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Bodies must be valid UTF-8: Node would quietly turn bad bytes into U+FFFD, and an address
 * would be saved as "V\ufffdci utca". JSON is then parsed by Fastify's own parser (prototype
 * poisoning checks included).
 */
export function registerStrictBodies(app: FastifyInstance) {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  const decode = (body: Buffer) => {
    try {
      return strictUtf8.decode(body);
    } catch {
      return undefined;
    }
  };
  app.removeContentTypeParser(['application/json', 'text/plain']);
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    const text = decode(body as Buffer);
    if (text === undefined) done(refuse('invalid_encoding', messages.invalidEncoding), undefined);
    else parseJson(request, text, done);
  });
  app.addContentTypeParser('text/plain', { parseAs: 'buffer' }, (_request, body, done) => {
    const text = decode(body as Buffer);
    if (text === undefined) done(refuse('invalid_encoding', messages.invalidEncoding), undefined);
    else done(null, text);
  });
}
