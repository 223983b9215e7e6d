import { COMMON_ERROR_CODES, ERROR_STATUS, type ErrorCode } from '@csomag/domain/errors';
import { z } from 'zod';

/** An error meant for the client: a stable code (which fixes the status) and a Hungarian message. */
export class AppError extends Error {
  readonly statusCode: number;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly fields?: Record<string, string>,
  ) {
    super(message);
    this.statusCode = ERROR_STATUS[code];
  }
}

/** A refusal with its code and message. */
export const refuse = (code: ErrorCode, message: string) => new AppError(code, message);

/** A refusal that concerns one field of a form: the message is shown beside that field too. */
export const refuseField = (code: ErrorCode, field: string, message: string) =>
  new AppError(code, message, { [field]: message });

const errorBody = (codes: readonly [ErrorCode, ...ErrorCode[]]) =>
  z.object({
    error: z.object({
      code: z.enum(codes),
      message: z.string(),
      fields: z.record(z.string(), z.string()).optional(),
    }),
  });
type ErrorBodySchema = ReturnType<typeof errorBody>;

type Listed<C extends ErrorCode> = C | (typeof COMMON_ERROR_CODES)[number];

/**
 * The response schemas of a route's refusals, grouped by status: the OpenAPI document lists each
 * route's codes, and a code a route does not list fails serialisation (a 500 that tests catch).
 * The codes every route may answer (COMMON_ERROR_CODES) are added here.
 */
export function errorResponses<const Codes extends readonly ErrorCode[]>(
  ...codes: Codes
): { [C in Listed<Codes[number]> as (typeof ERROR_STATUS)[C]]: ErrorBodySchema } {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of new Set<ErrorCode>([...COMMON_ERROR_CODES, ...codes])) {
    const status = ERROR_STATUS[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return Object.fromEntries(
    [...byStatus].map(([status, listed]) => [status, errorBody(listed as [ErrorCode, ...ErrorCode[]])]),
  ) as never;
}

/**
 * A route's response schemas with `codes` added to its refusals (a plugin that can refuse on every
 * route it joins, such as plugins/idempotency.ts); a status whose schema is not an error body is left as it is.
 */
export function withErrorCodes(
  response: Record<string, unknown>,
  codes: readonly ErrorCode[],
): Record<string, unknown> {
  const merged = { ...response };
  for (const code of codes) {
    const status = String(ERROR_STATUS[code]);
    const existing = merged[status] as Partial<ErrorBodySchema> | undefined;
    if (existing !== undefined && !existing.shape?.error) continue;
    const listed = existing?.shape?.error.shape.code.options ?? [];
    merged[status] = errorBody([...new Set([...listed, code])] as [ErrorCode, ...ErrorCode[]]);
  }
  return merged;
}
