import { AsyncLocalStorage, AsyncResource } from 'node:async_hooks';
import type { FastifyInstance } from 'fastify';

interface RequestContext {
  requestId: string;
}

const storage = new AsyncLocalStorage<RequestContext>();
const scope = Symbol('request async scope');

/** The id of the request this code runs for, if any: it travels with the changes the request causes. */
export const currentRequestId = (): string | null => storage.getStore()?.requestId ?? null;

/**
 * Answers with the request's id, and runs each request's hooks and handler inside its own context. The body arrives on the socket's
 * events, outside the context entered in onRequest, so it is entered again before validation
 * (the way @fastify/request-context does it).
 */
export function registerRequestContext(app: FastifyInstance) {
  app.addHook('onRequest', (request, reply, done) => {
    // The client (and the proxy's log) can quote the id back to us.
    reply.header('x-request-id', request.id);
    storage.run({ requestId: request.id }, () => {
      const resource = new AsyncResource('csomagkuldo-request');
      (request as unknown as Record<symbol, AsyncResource>)[scope] = resource;
      resource.runInAsyncScope(done, request.raw);
    });
  });
  app.addHook('preValidation', (request, _reply, done) => {
    const resource = (request as unknown as Record<symbol, AsyncResource | undefined>)[scope];
    if (resource) resource.runInAsyncScope(done, request.raw);
    else done();
  });
}
