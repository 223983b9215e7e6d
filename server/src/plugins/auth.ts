import { createHash, randomBytes } from 'node:crypto';
import { SESSION_COOKIE, SESSION_TTL_MS } from '@csomag/domain/constants';
import { messages } from '@csomag/domain/messages';
import type { FastifyReply, FastifyRequest, preHandlerHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import { compiledOnce } from '../db/compiled-once.ts';
import { nowIso } from '../db/database.ts';
import type { AccountRow } from '../db/schema.ts';
import { type AppError, refuse } from '../errors.ts';
import type { ReceiverByLink } from '../policy.ts';
import { SessionCache } from './session-cache.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** PostgreSQL: sessions read lately, dropped through the change feed (null on SQLite, where a look-up is in process). */
    sessionCache: SessionCache | null;
  }
  interface FastifyRequest {
    /** The signed-in account, or null. Set for every /api request. */
    account: AccountRow | null;
    sessionTokenHash: string | null;
    /** The receiver without an account, proven by their mail's link for this request's parcel, or null. */
    receiverLink: ReceiverByLink | null;
  }
}

export const hashToken = (token: string) => createHash('sha256').update(token).digest('base64url');

/** Loads the session from its cookie; the token itself is never stored, only its hash. */
export const authPlugin = fp(async (app) => {
  app.decorateRequest('account', null);
  app.decorateRequest('sessionTokenHash', null);
  app.decorateRequest('receiverLink', null);
  // Built once: every signed-in request runs it.
  const sessionAccount = compiledOnce(app.store.db, 2, (db, tokenHash: string, now: string) =>
    db
      .selectFrom('sessions')
      .innerJoin('accounts', 'accounts.id', 'sessions.account_id')
      .selectAll('accounts')
      .select('sessions.expires_at as session_expires_at')
      .where('sessions.token_hash', '=', tokenHash)
      .where('sessions.expires_at', '>', now),
  );
  const feed = app.changeFeed;
  const cache = app.store.dialect === 'postgres' ? new SessionCache() : null;
  app.decorate('sessionCache', cache);
  if (cache) {
    feed.subscribe(({ change }) => cache.heard(change));
    feed.onUnreadable(() => cache.clear());
    // This instance's own trust changes at once, before the database's word comes back (rare: all go).
    feed.onCommit((changes) => {
      if (changes.some((change) => change.kind === 'runner_trust')) cache.clear();
    });
  }
  // A callback hook, not an async one: most requests (no cookie, not the API) leave at once,
  // without a promise and a microtask each.
  app.addHook('onRequest', (request, _reply, done) => {
    // By the matched route, not the raw URL: /%61pi/… reaches the same routes as /api/….
    const token = request.routeOptions.url?.startsWith('/api/') ? request.cookies[SESSION_COOKIE] : undefined;
    if (!token) return done();
    const tokenHash = hashToken(token);
    const now = nowIso();
    // Only while the feed is heard: a change it missed would not drop what is kept.
    const kept = cache && feed.listening ? cache : null;
    const cached = kept?.get(tokenHash, now);
    if (cached) {
      request.account = cached;
      request.sessionTokenHash = tokenHash;
      return done();
    }
    const readFrom = kept?.epoch ?? 0;
    sessionAccount(tokenHash, now).then(([row]) => {
      if (row) {
        const { session_expires_at: expiresAt, ...account } = row;
        kept?.set(tokenHash, account, expiresAt, readFrom);
        request.account = account;
        request.sessionTokenHash = tokenHash;
      }
      done();
    }, done);
  });
});

export async function startSession(request: FastifyRequest, reply: FastifyReply, accountId: number) {
  const token = randomBytes(32).toString('base64url');
  const expires = new Date(Date.now() + SESSION_TTL_MS);
  await request.server.store.db
    .insertInto('sessions')
    .values({
      token_hash: hashToken(token),
      account_id: accountId,
      expires_at: expires.toISOString(),
      created_at: nowIso(),
    })
    .execute();
  reply.setCookie(SESSION_COOKIE, token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: request.protocol === 'https',
    expires,
  });
}

export async function endSession(request: FastifyRequest, reply: FastifyReply) {
  if (request.sessionTokenHash) {
    await request.server.store.db.deleteFrom('sessions').where('token_hash', '=', request.sessionTokenHash).execute();
    // Here at once; the other instances when the feed brings the database's word (migration 0027).
    if (request.account) request.server.sessionCache?.dropAccount(request.account.id);
  }
  reply.clearCookie(SESSION_COOKIE, { path: '/' });
}

/** The refusals of a route guard, for the routes' error lists. */
export const GUARD_CODES = ['sign_in_required', 'forbidden'] as const;

/**
 * A route's guard, asking its module's policy why the signed-in account may not do what the route
 * does to some thing (parcels/policy.ts `parcelRefusal`): 401 when signed out, the policy's
 * refusal when it has one. The service asks the same policy again with the thing in hand.
 */
export function guardedBy(refusal: (actor: AccountRow) => AppError | null): preHandlerHookHandler {
  return async (request) => assertGuard(request, refusal);
}

/** What a guard does: 401 when signed out, else the policy's refusal when it has one. */
export function assertGuard(request: FastifyRequest, refusal: (actor: AccountRow) => AppError | null) {
  if (!request.account) throw refuse('sign_in_required', messages.signInRequired);
  const refused = refusal(request.account);
  if (refused) throw refused;
}

/** The signed-in account inside a guarded handler. */
export function signedIn(request: FastifyRequest): AccountRow {
  if (!request.account) throw refuse('sign_in_required', messages.signInRequired);
  return request.account;
}
