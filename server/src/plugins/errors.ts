import type { Language } from '@csomag/domain/language';
import { messages } from '@csomag/domain/messages';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { isDatabaseUnavailable } from '../db/errors.ts';
import { AppError } from '../errors.ts';
import { requestLanguage, sayIn, sayIssueIn } from '../i18n.ts';

// Schema refusals without a message of our own (a wrong type, say) are told in the product's language too.
z.config(z.locales.hu());

/** Seconds a client is asked to wait when the database is unreachable (restarts take a few). */
const RETRY_AFTER_S = 5;

function validationFields(error: FastifyError, language: Language): Record<string, string> {
  const fields: Record<string, string> = {};
  if (!hasZodFastifySchemaValidationErrors(error)) return fields;
  for (const issue of error.validation) {
    const path = issue.instancePath.replace(/^\//, '').split('/').filter(Boolean);
    const key = path.join('.') || '_';
    const message = issue.message ?? messages.invalidBody;
    fields[key] ??= sayIssueIn(language, message, { ...issue.params, code: issue.keyword, path, message } as never);
  }
  return fields;
}

/**
 * A refusal in the request's language (issue 30), its fields' messages too, saying which. A
 * schema's field messages come said already (`saidFields`: zod's own need the issue to be said).
 */
export function sendError(
  request: FastifyRequest,
  reply: FastifyReply,
  status: number,
  error: { code: string; message: string; fields?: Record<string, string> | undefined },
  saidFields?: { language: Language; fields: Record<string, string> },
) {
  const language = saidFields?.language ?? requestLanguage(request);
  const say = (text: string) => sayIn(language, text);
  const fields =
    saidFields?.fields ??
    (error.fields && Object.fromEntries(Object.entries(error.fields).map(([key, text]) => [key, say(text)])));
  return reply
    .status(status)
    .header('content-language', language)
    .send({ error: { code: error.code, message: say(error.message), ...(fields ? { fields } : {}) } });
}

/** One JSON error shape for every failure; unknown errors become a 500 without internals. */
export function registerErrorHandlers(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof AppError) {
      return sendError(request, reply, error.statusCode, error);
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const language = requestLanguage(request);
      const fields = validationFields(error, language);
      return sendError(
        request,
        reply,
        400,
        { code: 'invalid_body', message: messages.invalidBody },
        { language, fields },
      );
    }
    if (error.statusCode === 429) {
      return sendError(request, reply, 429, { code: 'rate_limited', message: messages.tooManyRequests });
    }
    if (error.statusCode === 413) {
      return sendError(request, reply, 413, { code: 'body_too_large', message: messages.bodyTooLarge });
    }
    if (error.statusCode === 415) {
      return sendError(request, reply, 415, { code: 'unsupported_media_type', message: messages.unsupportedMediaType });
    }
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      // Fastify's own other client errors (bad JSON, an empty body): 400, in our words.
      return sendError(request, reply, 400, { code: 'invalid_body', message: messages.invalidBody });
    }
    if (isDatabaseUnavailable(error)) {
      request.log.warn({ err: error }, 'database unavailable');
      app.metrics.databaseUnavailable();
      reply.header('retry-after', String(RETRY_AFTER_S));
      return sendError(request, reply, 503, { code: 'unavailable', message: messages.databaseUnavailable });
    }
    request.log.error({ err: error }, 'unhandled error');
    return sendError(request, reply, 500, { code: 'internal', message: messages.serverError });
  });
}
