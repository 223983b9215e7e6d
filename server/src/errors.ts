import { apiErrorSchema, type ErrorCode } from '@csomag/domain/errors';

/** An error meant for the client: a status, a stable code and a Hungarian message. */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: ErrorCode,
    message: string,
    readonly fields?: Record<string, string>,
  ) {
    super(message);
  }
}

export const badRequest = (message: string, fields?: Record<string, string>) =>
  new AppError(400, 'bad_request', message, fields);
export const unauthorized = (message: string) => new AppError(401, 'unauthorized', message);
export const forbidden = (message: string) => new AppError(403, 'forbidden', message);
export const notFound = (message: string) => new AppError(404, 'not_found', message);
export const conflict = (message: string, fields?: Record<string, string>) =>
  new AppError(409, 'conflict', message, fields);
export const unprocessable = (message: string, fields?: Record<string, string>) =>
  new AppError(422, 'unprocessable', message, fields);
export const rateLimited = (message: string) => new AppError(429, 'rate_limited', message);

/** The response schemas of a route's possible failures: every one is the same JSON error body. */
export function errorResponses<const Statuses extends readonly number[]>(
  ...statuses: Statuses
): { [Status in Statuses[number]]: typeof apiErrorSchema } {
  return Object.fromEntries(statuses.map((status) => [status, apiErrorSchema])) as {
    [Status in Statuses[number]]: typeof apiErrorSchema;
  };
}
