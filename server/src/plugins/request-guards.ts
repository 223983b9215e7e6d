import { messages } from '@csomag/domain/messages';
import { hasForbiddenCharacter } from '@csomag/domain/text';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';
import { AppError, refuse } from '../errors.ts';

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

/**
 * A query string's text, percent-decoded as UTF-8 (a `%` that starts no escape is itself), or
 * undefined when its bytes are not UTF-8. Fastify's parser would keep such an escape as the
 * literal "%ED%A0%80", and a search would look for text nobody typed.
 */
function decodedQuery(raw: string): string | undefined {
  try {
    return decodeURIComponent(raw.replace(/%(?![0-9a-fA-F]{2})/g, '%25'));
  } catch {
    return undefined;
  }
}

/**
 * Every query string is text (issue 32): one with a control character or bytes that are not
 * UTF-8 is refused before any route reads it, so no search, filter or cursor passes a NUL to
 * SQLite (where it ends an FTS5 phrase) or PostgreSQL (which refuses it in any text).
 */
export function registerQueryTextCheck(app: FastifyInstance) {
  app.addHook('onRequest', (request, _reply, done) => {
    const start = request.url.indexOf('?');
    // Pages ignore their query string (the app reads its own); only the API's reach the store.
    if (start === -1 || !request.url.startsWith('/api/')) return done();
    const text = decodedQuery(request.url.slice(start + 1));
    if (text === undefined || hasForbiddenCharacter(text)) {
      return done(refuse('invalid_query_text', messages.invalidQueryText));
    }
    done();
  });
}

/** Where in a parsed JSON body a string holds a control character or a lone surrogate, as a field path. */
function forbiddenTextPath(value: unknown, path: string[] = []): string | undefined {
  if (typeof value === 'string') return hasForbiddenCharacter(value) ? path.join('.') || '_' : undefined;
  if (typeof value !== 'object' || value === null) return undefined;
  for (const [key, item] of Object.entries(value)) {
    const found = hasForbiddenCharacter(key) ? '_' : forbiddenTextPath(item, [...path, key]);
    if (found !== undefined) return found;
  }
  return undefined;
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Bodies must be valid UTF-8: Node would quietly turn bad bytes into U+FFFD, and an address
 * would be saved as "V\ufffdci utca". JSON is then parsed by Fastify's own parser (prototype
 * poisoning checks included), and its strings must be text: a "\u0000" escape is refused beside
 * its field, as a query string's would be.
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
    if (text === undefined) return done(refuse('invalid_encoding', messages.invalidEncoding), undefined);
    parseJson(request, text, (error, value) => {
      const field = error ? undefined : forbiddenTextPath(value);
      if (field === undefined) done(error, value);
      else done(new AppError('invalid_body', messages.invalidBody, { [field]: messages.invalidText }), undefined);
    });
  });
  app.addContentTypeParser('text/plain', { parseAs: 'buffer' }, (_request, body, done) => {
    const text = decode(body as Buffer);
    if (text === undefined) done(refuse('invalid_encoding', messages.invalidEncoding), undefined);
    else done(null, text);
  });
}
