import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { constants as zlib } from 'node:zlib';
import { messages } from '@csomag/domain/messages';
import fastifyCompress from '@fastify/compress';
import fastifyCookie from '@fastify/cookie';
import fastifyRateLimit from '@fastify/rate-limit';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import { jsonSchemaTransform, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import pino from 'pino';
import type { Config } from './config.ts';
import type { Store } from './db/database.ts';
import {
  BatchedWindowCounter,
  DatabaseWindowCounter,
  openWindowCounter,
  type WindowCounter,
} from './db/rate-limits.ts';
import { refuse } from './errors.ts';
import { Lifecycle } from './lifecycle.ts';
import { attemptRoutes } from './modules/attempts/routes.ts';
import { authRoutes } from './modules/auth/routes.ts';
import { deliveryRoutes } from './modules/delivery/routes.ts';
import { dropPointDeadline } from './modules/drop-points/deadline.ts';
import { dropPointRoutes } from './modules/drop-points/routes.ts';
import { eventRoutes } from './modules/events/routes.ts';
import { createGeocoder, type Geocoder, observedGeocoder } from './modules/geo/geocoder.ts';
import { geoRoutes } from './modules/geo/routes.ts';
import { handoverRoutes } from './modules/handover/routes.ts';
import { incidentRoutes } from './modules/incidents/routes.ts';
import { locationRoutes } from './modules/location/routes.ts';
import { mailRoutes } from './modules/mail/routes.ts';
import { mailPlugin } from './modules/mail/worker.ts';
import { mapFolding } from './modules/map/fold.ts';
import { mapRoutes } from './modules/map/routes.ts';
import { operatorPageRoutes } from './modules/pages/routes.ts';
import { adminParcelRoutes } from './modules/parcels/admin-routes.ts';
import { parcelRoutes } from './modules/parcels/routes.ts';
import { proofRetention } from './modules/proofs/retention.ts';
import { proofRoutes } from './modules/proofs/routes.ts';
import { pushPlugin } from './modules/push/plugin.ts';
import { pushRoutes } from './modules/push/routes.ts';
import { ratingRoutes } from './modules/ratings/routes.ts';
import { relayRoutes } from './modules/relay/routes.ts';
import { reportRoutes } from './modules/reports/routes.ts';
import { runnerRoutes } from './modules/runners/routes.ts';
import { systemRoutes } from './modules/system/routes.ts';
import { timetablePlugin } from './modules/timetable/plugin.ts';
import { timetableRoutes } from './modules/timetable/routes.ts';
import { tripOffersPlugin } from './modules/trips/plugin.ts';
import { tripRoutes } from './modules/trips/routes.ts';
import { userDirectoryRoutes } from './modules/users/admin-routes.ts';
import { userRoutes } from './modules/users/routes.ts';
import { authPlugin } from './plugins/auth.ts';
import { changeFeedPlugin } from './plugins/change-feed.ts';
import { registerErrorHandlers, sendError } from './plugins/errors.ts';
import { idempotencyPlugin } from './plugins/idempotency.ts';
import { metricsPlugin, metricsRoutes } from './plugins/metrics.ts';
import { counterRateLimitStore } from './plugins/rate-limit-store.ts';
import { registerOriginCheck, registerQueryTextCheck, registerStrictBodies } from './plugins/request-guards.ts';
import { describeRequest, RequestLog, registerRequestIdHeader } from './plugins/request-log.ts';
import { responseSerializerCompiler } from './plugins/response-serializer.ts';
import { registerSecurityHeaders } from './plugins/security-headers.ts';
import { registerWeb } from './plugins/web.ts';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    store: Store;
    geocoder: Geocoder;
    /** Abuse-limit counters: process memory on SQLite, the shared rate_limits table on PostgreSQL. */
    limits: WindowCounter;
    /** The HTTP abuse limits' batches on PostgreSQL (null on SQLite: the plugin counts in memory). */
    httpLimits: BatchedWindowCounter | null;
    /** Draining (SIGTERM): not ready, event streams sent elsewhere. */
    lifecycle: Lifecycle;
  }
}

export interface AppOptions {
  config: Config;
  store: Store;
  /** false in tests; true logs to stdout; a stream receives the JSON lines (tests of what is logged). */
  logger?: boolean | { stream: NodeJS.WritableStream };
  /** The address geocoder; chosen from config when absent (tests pass a fake outside service). */
  geocoder?: Geocoder | undefined;
  /** Tests: every successful response is also checked against its schema by zod (response-serializer.ts). */
  checkResponses?: boolean;
}

/** A request id from the proxy in front is kept (one id from the edge to our logs) when it looks like one. */
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Builds the whole product as a Fastify instance; main.ts listens, tests inject. */
export async function buildApp({
  config,
  store,
  logger = true,
  geocoder,
  checkResponses = false,
}: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: logger && {
      level: config.logLevel,
      // Headers (cookies, Authorization) never reach a log: a request is logged as describeRequest
      // says, a response by its status only (Fastify's serializer), so nothing is left to redact.
      serializers: { req: describeRequest },
      // Written asynchronously: a request's log line never waits for stdout, and lines logged while
      // one write is under way leave in one write (docs/decisions/0013). pino flushes them on exit.
      stream: typeof logger === 'object' ? logger.stream : pino.destination({ dest: 1, sync: false }),
    },
    logController: new RequestLog(),
    trustProxy: config.trustProxy,
    bodyLimit: 64 * 1024,
    // While draining, requests still reach the routes: /api/ready answers the load balancer with
    // what is going on (not_ready, draining) instead of Fastify's bare 503.
    return503OnClosing: false,
    // Unique across instances, so one id finds a request in the logs of all of them.
    genReqId: (request: IncomingMessage) => {
      const given = request.headers['x-request-id'];
      return config.trustProxy && typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
    // A client gets this long to send its headers, and its whole request; an event stream's
    // request is complete once its headers are in, so streams are not cut.
    requestTimeout: config.requestTimeoutMs,
    http: {
      headersTimeout: config.headersTimeoutMs,
      requestTimeout: config.requestTimeoutMs,
      connectionsCheckingInterval: Math.min(1000, config.headersTimeoutMs),
    },
    // A malformed URL escape is refused before routing; it still gets the API's one error shape.
    frameworkErrors: (error, request, reply: FastifyReply) => {
      const status = error.statusCode ?? 400;
      if (status >= 500) throw error;
      void sendError(request, reply, status, { code: 'invalid_body', message: messages.badRequestUrl });
    },
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(responseSerializerCompiler({ check: checkResponses }));
  app.decorate('config', config);
  app.decorate('lifecycle', new Lifecycle());
  app.decorate('store', store);
  app.decorate(
    'geocoder',
    observedGeocoder(geocoder ?? createGeocoder(config, store.db, app.log), config.geocoder, (provider, outcome) =>
      app.metrics.geocoded(provider, outcome),
    ),
  );
  app.decorate(
    'limits',
    openWindowCounter(store, { onSweepError: (err) => app.log.warn({ err }, 'sweeping expired rate limits failed') }),
  );
  registerErrorHandlers(app);
  await app.register(metricsPlugin);
  store.observeQueries((durationMs, failed) => app.metrics.observeQuery(durationMs, failed));
  app.lifecycle.onDrain(() => app.metrics.setReady(false));
  registerRequestIdHeader(app);
  registerOriginCheck(app, config);
  registerStrictBodies(app);
  registerQueryTextCheck(app);

  await registerSecurityHeaders(app, config);
  await app.register(fastifyCookie);
  await app.register(fastifySwagger, {
    openapi: { info: { title: messages.apiTitle, version: '1.0.0' } },
    transform: jsonSchemaTransform,
  });
  // The feed first: the session cache hears account changes through it.
  await app.register(changeFeedPlugin);
  await app.register(authPlugin);
  // Before the routes: it lists its header and refusals on each state-changing route (ADR 0017).
  await app.register(idempotencyPlugin);
  // Before push: the notifier offers new parcels to saved trips by push too (docs/decisions/0021).
  await app.register(timetablePlugin);
  await app.register(tripOffersPlugin);
  await app.register(pushPlugin);
  await app.register(mailPlugin);
  await app.register(proofRetention);
  await app.register(mapFolding);
  await app.register(dropPointDeadline);

  // Only the API is compressed on the fly and rate limited: the web build beside it comes
  // precompressed and costs a person nothing to reload (docs/decisions/0007).
  await app.register(
    async (api) => {
      // Brotli at zlib's default quality (11) took 32 ms on the OpenAPI document, at 4 it takes 0.3 ms.
      // Request bodies are not decompressed: no client of ours sends them compressed.
      await api.register(fastifyCompress, {
        encodings: ['br', 'gzip'],
        threshold: 1024,
        brotliOptions: { params: { [zlib.BROTLI_PARAM_QUALITY]: 4 } },
        globalDecompression: false,
      });
      // Generous for people (a busy runner, an office behind one IP), tight for scripts (DESIGN §4).
      // SQLite is one instance: the plugin's own in-memory store. PostgreSQL may run several: every
      // limit, the routes' own included, counts in the shared rate_limits table, in batches a second
      // apart (docs/decisions/0003, issue 31).
      const httpLimits =
        app.limits instanceof DatabaseWindowCounter
          ? new BatchedWindowCounter(app.limits, {
              batchMs: config.abuseLimitBatchMs,
              onError: (err) => app.log.warn({ err }, 'adding abuse-limit hits to the shared windows failed'),
            })
          : null;
      app.decorate('httpLimits', httpLimits);
      if (httpLimits) app.addHook('onClose', () => httpLimits.close());
      await api.register(fastifyRateLimit, {
        max: 600,
        timeWindow: '1 minute',
        // The shared counter lives in the database: when that is down, the request's own work
        // answers 503, and /api/ready gets to say which part failed.
        skipOnError: true,
        ...(httpLimits ? { store: counterRateLimitStore(httpLimits) } : {}),
      });
      await api.register(fastifySwaggerUi, { routePrefix: '/docs' });
      await api.register(systemRoutes);
      await api.register(metricsRoutes);
      await api.register(authRoutes);
      await api.register(userRoutes);
      await api.register(geoRoutes);
      await api.register(parcelRoutes);
      await api.register(adminParcelRoutes);
      await api.register(runnerRoutes);
      await api.register(mapRoutes);
      await api.register(userDirectoryRoutes);
      await api.register(eventRoutes);
      await api.register(deliveryRoutes);
      await api.register(attemptRoutes);
      await api.register(handoverRoutes);
      await api.register(locationRoutes);
      await api.register(pushRoutes);
      await api.register(tripRoutes);
      await api.register(timetableRoutes);
      await api.register(relayRoutes);
      await api.register(proofRoutes);
      await api.register(ratingRoutes);
      await api.register(reportRoutes);
      await api.register(mailRoutes);
      await api.register(operatorPageRoutes);
      await api.register(incidentRoutes);
      await api.register(dropPointRoutes);
      // An attacker probes unknown URLs, so even the 404 handler is rate limited.
      api.setNotFoundHandler({ preHandler: api.rateLimit() }, () => {
        throw refuse('not_found', messages.notFound);
      });
    },
    { prefix: '/api' },
  );
  await registerWeb(app, config.webDist);
  return app;
}
