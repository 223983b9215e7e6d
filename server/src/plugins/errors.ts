import { messages } from '@csomag/domain/messages';
import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { isDatabaseUnavailable } from '../db/errors.ts';
import { AppError } from '../errors.ts';

// Schema refusals without a message of our own (a wrong type, say) are told in the product's language too.
z.config(z.locales.hu());

/** Seconds a client is asked to wait when the database is unreachable (restarts take a few). */
const RETRY_AFTER_S = 5;

function validationFields(error: FastifyError): Record<string, string> {
  const fields: Record<string, string> = {};
  if (!hasZodFastifySchemaValidationErrors(error)) return fields;
  for (const issue of error.validation) {
    const key = issue.instancePath.replace(/^\//, '').replaceAll('/', '.') || '_';
    fields[key] ??= issue.message ?? messages.invalidBody;
  }
  return fields;
}

/** One JSON error shape for every failure; unknown errors become a 500 without internals. */
export function registerErrorHandlers(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof AppError) {
      return reply.status(error.statusCode).send({
        error: { code: error.code, message: error.message, ...(error.fields ? { fields: error.fields } : {}) },
      });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      return reply
        .status(400)
        .send({ error: { code: 'invalid_body', message: messages.invalidBody, fields: validationFields(error) } });
    }
    if (error.statusCode === 429) {
      return reply.status(429).send({ error: { code: 'rate_limited', message: messages.tooManyRequests } });
    }
    if (error.statusCode === 413) {
      return reply.status(413).send({ error: { code: 'body_too_large', message: messages.bodyTooLarge } });
    }
    if (error.statusCode === 415) {
      return reply
        .status(415)
        .send({ error: { code: 'unsupported_media_type', message: messages.unsupportedMediaType } });
    }
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      // Fastify's own other client errors (bad JSON, an empty body): 400, said in Hungarian.
      return reply.status(400).send({ error: { code: 'invalid_body', message: messages.invalidBody } });
    }
    if (isDatabaseUnavailable(error)) {
      request.log.warn({ err: error }, 'database unavailable');
      app.metrics.databaseUnavailable();
      return reply
        .status(503)
        .header('retry-after', String(RETRY_AFTER_S))
        .send({ error: { code: 'unavailable', message: messages.databaseUnavailable } });
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send({ error: { code: 'internal', message: messages.serverError } });
  });
}
