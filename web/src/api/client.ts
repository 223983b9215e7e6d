import type { ErrorCode } from '@csomag/domain/errors';
import { messages } from '@csomag/domain/messages';
import type { z } from 'zod';
import { pageLanguage } from '../lib/language.ts';
import { reportReachable } from '../offline/connection.ts';

/**
 * What a failed call is told by: the server's stable codes (domain/src/errors.ts) and the web's
 * own — 'network' (the server could not be reached) and 'queued' (kept in the outbox to be sent
 * later, src/offline/outbox.ts).
 */
export type ApiErrorCode = ErrorCode | 'network' | 'queued';

/**
 * A failed API call, carrying its code, its message and per-field errors. Callers branch on
 * `code`, never on `status` or the message.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ApiErrorCode,
    message: string,
    readonly fields: Record<string, string> = {},
  ) {
    super(message);
  }
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * The one typed way the web talks to the server: the response is parsed with the same
 * domain schema the server answers with, so its type is never written by hand.
 */
export async function apiRequest<S extends z.ZodType>(
  method: Method,
  path: string,
  schema: S,
  body?: unknown,
  signal?: AbortSignal,
  headers?: Record<string, string>,
): Promise<z.infer<S>> {
  return schema.parse(await requestJson(method, path, body, signal, headers));
}

/**
 * The request itself, answering the body as unknown JSON. Only for callers that parse the body
 * themselves: the session check parses with zod only when there is an account to read, so a
 * stranger's first page loads no schema library (docs/decisions/0008-small-first-download.md).
 */
export async function requestJson(
  method: Method,
  path: string,
  body?: unknown,
  signal?: AbortSignal,
  headers: Record<string, string> = {},
): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(`/api${path}`, {
      method,
      credentials: 'same-origin',
      // The page's language, which the person may have chosen over their browser's (issue 30).
      headers: {
        'accept-language': pageLanguage(),
        ...headers,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      ...(signal ? { signal } : {}),
    });
  } catch (error) {
    if (signal?.aborted) throw error;
    // What the offline banner and the outbox go by (src/offline/connection.ts).
    reportReachable(false);
    throw new ApiError(0, 'network', messages.networkError);
  }
  reportReachable(true);
  const text = await response.text();
  const json: unknown = text ? safeJson(text) : null;
  if (!response.ok) throw await apiError(response.status, json);
  return json;
}

/**
 * The server's refusal, from its one error body. Errors are rare: their schema (and zod with it)
 * loads only when one arrives. A code this page does not know (a newer server's) is a server
 * error, said in the server's words.
 */
export async function apiError(status: number, json: unknown): Promise<ApiError> {
  const { apiErrorSchema, errorCodeSchema } = await import('@csomag/domain/errors');
  const parsed = apiErrorSchema.safeParse(json);
  if (!parsed.success) return new ApiError(status, 'internal', messages.serverError);
  const { code, message, fields } = parsed.data.error;
  return new ApiError(status, errorCodeSchema.catch('internal').parse(code), message, fields);
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

export const errorMessage = (error: unknown) => (error instanceof Error ? error.message : messages.serverError);

/** Failures that asking again may cure: the server unreachable, failing or not ready; never a refusal. */
const TRANSIENT_CODES: ReadonlySet<ApiErrorCode> = new Set(['network', 'internal', 'unavailable', 'not_ready']);
export const isTransient = (error: unknown) => !(error instanceof ApiError) || TRANSIENT_CODES.has(error.code);
