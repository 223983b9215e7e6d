import { createHash } from 'node:crypto';
import { IDEMPOTENCY_KEY_MAX_LENGTH, IDEMPOTENCY_KEY_TTL_MS } from '@csomag/domain/constants';
import type { ErrorCode } from '@csomag/domain/errors';
import { messages } from '@csomag/domain/messages';
import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  onResponseAsyncHookHandler,
  onSendAsyncHookHandler,
  preValidationAsyncHookHandler,
} from 'fastify';
import fp from 'fastify-plugin';
import type { Kysely, Transaction } from 'kysely';
import { z } from 'zod';
import { isUniqueViolation } from '../db/errors.ts';
import type { Database } from '../db/schema.ts';
import { refuse, withErrorCodes } from '../errors.ts';

/**
 * Idempotent writes (IETF httpapi Idempotency-Key draft; docs/decisions/0017, 0027). A signed-in
 * account's state-changing request may carry `Idempotency-Key`; then:
 *
 * - its key row is reserved before the route reads or checks anything (one INSERT, the unique key
 *   deciding between copies sent at once), so a second request with the key is refused as in
 *   flight (409) whatever the route does — through the change feed or not;
 * - the change's own transaction marks the row (the change feed's request hook): with its answer
 *   when the route says how it answers from the transaction's value (`config.idempotentAnswer`:
 *   every parcel change), else as changed-without-answer (status 0, in flight until the answer is
 *   stored in onSend). So a committed change always leaves the key taken: never a second change;
 * - a repeat — same account, key, method, route, params, query and body — gets the stored status and
 *   JSON body back with `Idempotent-Replayed: true`, running nothing;
 * - the same key for another request → 422, while the first is under way → 409; a refusal (4xx)
 *   or failure (5xx) before any change frees the key: nothing changed, so asking again gives the
 *   answer as it is then. A reservation whose request died before changing anything (a crash) is
 *   taken over after RESERVATION_ABANDONED_MS.
 *
 * Sign-in, registration and sign-out (/api/auth/…) never take part: their answers set cookies a
 * stored answer could not. Keys are kept IDEMPOTENCY_KEY_TTL_MS, then treated as new and pruned.
 */

export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';
export const REPLAYED_HEADER = 'idempotent-replayed';

/** The refusals every route that takes part may answer. */
export const IDEMPOTENCY_CODES = [
  'idempotency_key_invalid',
  'idempotency_key_in_flight',
  'idempotency_key_reused',
] as const satisfies readonly ErrorCode[];

/**
 * POST (and PUT, the runner's position): the writes a client retries blindly. PATCH and DELETE have
 * their own guard against a repeat (the edit's version, a 404).
 */
const RETRIED_WRITES = new Set(['POST', 'PUT']);
const PRUNE_EVERY_MS = 60 * 60_000;
/**
 * A reservation (status null: nothing committed under it) this old belongs to a request that died:
 * no request lives longer than REQUEST_TIMEOUT (30 s by default) plus a transaction's commit.
 */
export const RESERVATION_ABANDONED_MS = 5 * 60_000;
/** The status of a key whose change committed before its answer was stored: in flight, never abandoned. */
const CHANGED_WITHOUT_ANSWER = 0;
/** The draft's key is a structured-field string ("…"); a bare token is taken too. Visible ASCII only. */
const KEY_PATTERN = new RegExp(`^[\\x21-\\x7e]{1,${IDEMPOTENCY_KEY_MAX_LENGTH}}$`);

/** A route option's hooks as a list (Fastify takes one or many). */
const hookList = <T>(hooks: T | T[] | undefined): T[] =>
  hooks === undefined ? [] : Array.isArray(hooks) ? hooks : [hooks];

/** Whether requests to this route may carry a key: POST and PUT API routes outside /api/auth. */
const takesPart = (method: string, url: string) =>
  RETRIED_WRITES.has(method) && url.startsWith('/api/') && !url.startsWith('/api/auth/');

/**
 * How a route answers with what its change's transaction returned (route option
 * `config.idempotentAnswer`): the answer is then written on the key's row inside that transaction,
 * so a change is never committed without the answer a repeat gets.
 */
export interface IdempotentAnswer {
  status: number;
  /** The body the route sends, from the transaction's value; omitted for a 204. */
  present?: (value: unknown) => unknown;
}

/** A route's IdempotentAnswer, typed by the value its transaction returns. */
export const answerWith = <T>(status: number, present?: (value: T) => unknown): IdempotentAnswer => ({
  status,
  ...(present ? { present: present as (value: unknown) => unknown } : {}),
});

declare module 'fastify' {
  interface FastifyContextConfig {
    idempotentAnswer?: IdempotentAnswer;
  }
}

/** A request that carries a key nobody has used yet. */
interface Pending {
  accountId: number;
  key: string;
  fingerprint: string;
  reply: FastifyReply;
  /** The change-feed transaction that marks its key row, while it runs. */
  writing: Transaction<Database> | undefined;
  /** A change was committed under its key (the row says so: answered, or status 0). */
  changed: boolean;
  /** The answer written with the change, when the route says how (IdempotentAnswer). */
  stored: { status: number; body: string | null } | undefined;
}

/** The key as sent, or undefined when none; a malformed one is refused (400), nothing done. */
function keyOf(request: FastifyRequest): string | undefined {
  const raw = request.headers[IDEMPOTENCY_KEY_HEADER];
  if (raw === undefined) return undefined;
  const value = typeof raw === 'string' ? raw : raw.join(', ');
  const key = value.length >= 2 && value.startsWith('"') && value.endsWith('"') ? value.slice(1, -1) : value;
  if (!KEY_PATTERN.test(key)) {
    throw refuse('idempotency_key_invalid', messages.idempotencyKeyInvalid(IDEMPOTENCY_KEY_MAX_LENGTH));
  }
  return key;
}

/** JSON with every object's keys sorted: the same body however its keys were ordered. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([name, item]) => `${JSON.stringify(name)}:${canonicalJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/** What makes two requests the same request: method, route, its params and query, and the body as parsed. */
export function requestFingerprint(request: FastifyRequest): string {
  const route = request.routeOptions.url ?? request.url;
  const what = canonicalJson([request.method, route, request.params ?? {}, request.query ?? {}, request.body ?? null]);
  return createHash('sha256').update(what).digest('base64url');
}

/** Forgets keys older than they are kept (every instance runs it hourly; deleting twice costs nothing). */
export async function pruneIdempotencyKeys(db: Kysely<Database>, now = Date.now()) {
  await db
    .deleteFrom('idempotency_keys')
    .where('created_ms', '<', now - IDEMPOTENCY_KEY_TTL_MS)
    .execute();
}

/** Writes the answer a repeat gets on the key's row (in the change's transaction, or after it). */
const storeAnswer = (executor: Kysely<Database>, keyed: Pending, status: number, body: string | null) =>
  executor
    .updateTable('idempotency_keys')
    .set({ status, body })
    .where('account_id', '=', keyed.accountId)
    .where('key', '=', keyed.key)
    .execute();

/** The header as documented on every route that takes part (checked by the hook, not by this schema). */
const documentedHeaders = z.looseObject({
  [IDEMPOTENCY_KEY_HEADER]: z
    .string()
    .optional()
    .describe(
      `Optional, 1–${IDEMPOTENCY_KEY_MAX_LENGTH} visible ASCII characters (or a quoted string): a repeat with the same key and request gets the first successful answer again (header Idempotent-Replayed: true) and changes nothing; the same key with another request → 422, while the first is under way → 409. Kept 7 days.`,
    ),
});

export const idempotencyPlugin = fp(async (app: FastifyInstance) => {
  const pending = new Map<string, Pending>();
  const db = app.store.db;

  // Before the body is validated: a repeat is answered as the first was, even when its
  // occurredAt has since grown too old to be accepted afresh.
  const reserve: preValidationAsyncHookHandler = async (request, reply) => {
    const account = request.account;
    if (!account || !takesPart(request.method, request.routeOptions.url ?? '')) return;
    const key = keyOf(request);
    if (key === undefined) return;
    const fingerprint = requestFingerprint(request);
    const now = Date.now();
    const stored = await db
      .selectFrom('idempotency_keys')
      .select(['fingerprint', 'created_ms', 'status', 'body'])
      .where('account_id', '=', account.id)
      .where('key', '=', key)
      .executeTakeFirst();
    const expired = stored && Number(stored.created_ms) < now - IDEMPOTENCY_KEY_TTL_MS;
    const abandoned =
      stored?.status === null &&
      stored.fingerprint === fingerprint &&
      Number(stored.created_ms) < now - RESERVATION_ABANDONED_MS;
    if (stored && !expired && !abandoned) {
      if (stored.fingerprint !== fingerprint) throw refuse('idempotency_key_reused', messages.idempotencyKeyReused);
      if (stored.status === null || stored.status === CHANGED_WITHOUT_ANSWER) {
        throw refuse('idempotency_key_in_flight', messages.idempotencyKeyInFlight);
      }
      request.log.info({ replayedStatus: stored.status }, 'idempotent request replayed');
      reply.code(stored.status).header(REPLAYED_HEADER, 'true');
      if (stored.body === null) return reply.send();
      return reply.type('application/json; charset=utf-8').send(stored.body);
    }
    if (stored) {
      // Expired, or a dead request's reservation: the key is new again (one of any copies takes it).
      await db
        .deleteFrom('idempotency_keys')
        .where('account_id', '=', account.id)
        .where('key', '=', key)
        .where('created_ms', '=', stored.created_ms)
        .execute();
    }
    try {
      await db
        .insertInto('idempotency_keys')
        .values({ account_id: account.id, key, fingerprint, created_ms: now, status: null, body: null })
        .execute();
    } catch (error) {
      // A copy sent at the same time reserved it first.
      if (isUniqueViolation(error)) throw refuse('idempotency_key_in_flight', messages.idempotencyKeyInFlight);
      throw error;
    }
    pending.set(request.id, {
      accountId: account.id,
      key,
      fingerprint,
      reply,
      writing: undefined,
      changed: false,
      stored: undefined,
    });
  };

  app.changeFeed.setRequestHook({
    async begin(trx: Transaction<Database>, requestId: string) {
      const request = pending.get(requestId);
      // The request's first change marks the key; a later transaction of the same request does not.
      if (request && !request.changed && request.writing === undefined) request.writing = trx;
    },
    async beforeCommit(trx: Transaction<Database>, requestId: string, value: unknown) {
      const request = pending.get(requestId);
      if (!request || request.writing !== trx) return;
      request.writing = undefined;
      const answer = request.reply.request.routeOptions.config.idempotentAnswer;
      if (!answer) {
        // Changed, answered later (onSend): taken from now on, whatever becomes of the answer.
        await storeAnswer(trx, request, CHANGED_WITHOUT_ANSWER, null);
        return;
      }
      // The route's own serializer for its status: the bytes the client will get.
      const body = answer.present ? String(request.reply.code(answer.status).serialize(answer.present(value))) : null;
      await storeAnswer(trx, request, answer.status, body);
      request.stored = { status: answer.status, body };
    },
    committed(requestId: string) {
      const request = pending.get(requestId);
      if (request) request.changed = true;
    },
  });

  // The answer is stored before the client has it: a repeat can never overtake it.
  const storeSent: onSendAsyncHookHandler = async (request, reply, payload) => {
    const keyed = pending.get(request.id);
    if (!keyed) return payload;
    pending.delete(request.id);
    const succeeded = reply.statusCode < 400;
    const body = typeof payload === 'string' && payload.length > 0 ? payload : null;
    try {
      if (succeeded) {
        // Written with the change (IdempotentAnswer), as sent: nothing left to store.
        if (keyed.stored?.status === reply.statusCode && keyed.stored.body === body) return payload;
        await storeAnswer(db, keyed, reply.statusCode, body);
      } else if (!keyed.changed) {
        // Refused before any change: the key is free again, for the answer as things are then.
        await db
          .deleteFrom('idempotency_keys')
          .where('account_id', '=', keyed.accountId)
          .where('key', '=', keyed.key)
          .where('status', 'is', null)
          .execute();
      }
      // A failure after the change committed keeps the key taken (409): never a second change.
    } catch (error) {
      // The change is made: its answer goes out even when it could not be kept for a repeat.
      request.log.error({ err: error }, 'storing an idempotent answer failed');
    }
    return payload;
  };
  const forget: onResponseAsyncHookHandler = async (request) => {
    pending.delete(request.id);
  };

  // Every route that takes part lists the header and the refusals it adds (OpenAPI, serialisation),
  // and runs the hooks first among its own; no other route pays for them (GETs, most requests).
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (!methods.some((method) => takesPart(method, route.url))) return;
    if (route.schema) {
      route.schema.headers ??= documentedHeaders;
      route.schema.response = withErrorCodes(
        (route.schema.response ?? {}) as Record<string, unknown>,
        IDEMPOTENCY_CODES,
      );
    }
    route.preValidation = [reserve, ...hookList(route.preValidation)];
    route.onSend = [storeSent, ...hookList(route.onSend)];
    route.onResponse = [forget, ...hookList(route.onResponse)];
  });

  let pruneTimer: NodeJS.Timeout | undefined;
  app.addHook('onReady', async () => {
    pruneTimer = setInterval(() => {
      pruneIdempotencyKeys(db).catch((error) => app.log.warn({ err: error }, 'pruning idempotency keys failed'));
    }, PRUNE_EVERY_MS).unref();
  });
  app.addHook('onClose', async () => clearInterval(pruneTimer));
});
