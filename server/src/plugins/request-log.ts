import { type FastifyInstance, type FastifyReply, type FastifyRequest, LogController } from 'fastify';

/** Handover tokens travel in query strings; a log line keeps the path but never the token. */
export const redactUrl = (url: string) =>
  url.includes('=') ? url.replace(/([?&]token=)[^&#]*/gi, '$1[redacted]') : url;

/** How a request appears in a log line: never its headers (cookies, Authorization) nor a token. */
export const describeRequest = (request: FastifyRequest) => ({
  method: request.method,
  url: redactUrl(request.url),
  remoteAddress: request.ip,
});

/**
 * One line per request, written when it is answered: method, path (tokens redacted), status and
 * time, with the request's id as `reqId` (docs/decisions/0013). Fastify's own "incoming request"
 * line is kept at debug level, for following a request that never gets an answer.
 */
export class RequestLog extends LogController {
  override incomingRequest(request: FastifyRequest) {
    request.log.debug({ req: request }, 'incoming request');
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply) {
    const line = { ...describeRequest(request), status: reply.statusCode, ms: Math.round(reply.elapsedTime * 10) / 10 };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else reply.log.info(line, 'request completed');
  }
}

/** Every answer names its request's id: the client (and the proxy's log) can quote it back to us. */
export function registerRequestIdHeader(app: FastifyInstance) {
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    done();
  });
}
