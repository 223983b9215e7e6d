import type { OutgoingHttpHeaders } from 'node:http';
import { parseTopics } from '@csomag/domain/live';
import { messages } from '@csomag/domain/messages';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses, refuse, refuseField } from '../../errors.ts';
import { GUARD_CODES } from '../../plugins/auth.ts';
import { LiveHub } from './hub.ts';
import { openStreamLeases } from './leases.ts';
import { assertTopicsAllowed, subscriberOf } from './topics.ts';

/**
 * Several tabs are fine; thousands of idle sockets from one client are not. Counted across every
 * instance on PostgreSQL (live_streams), so a client cannot multiply it by the instance count.
 */
export const MAX_STREAMS_PER_CLIENT = 32;

export const eventRoutes: FastifyPluginAsyncZod = async (app) => {
  const hub = new LiveHub({
    replay: (afterId, limit) => app.changeFeed.since(afterId, limit),
    log: app.log,
  });
  const leases = openStreamLeases(app.store, (error) =>
    app.log.warn({ err: error }, 'stream lease bookkeeping failed'),
  );
  const unsubscribe = app.changeFeed.subscribe((entry) => {
    app.metrics.changeReceived(entry.change.kind, Date.now() - entry.at);
    hub.publish(entry);
  });
  app.metrics.countStreams(() => hub.size);
  app.lifecycle.onDrain(() => hub.drain());
  // Open streams would keep app.close() (tests, graceful shutdown) waiting forever.
  app.addHook('preClose', async () => {
    unsubscribe();
    hub.close();
    await leases.close().catch((error) => app.log.warn({ err: error }, 'releasing stream leases failed'));
  });

  app.get(
    '/events',
    {
      schema: {
        tags: ['events'],
        summary:
          'Live updates (Server-Sent Events): parcel:<id> (anyone), parcels (superadmin, runner), me (user, runner)',
        description:
          'text/event-stream. Each message: `id: <n>`, `event: change`, `data: {"topic","kind","parcelId","status"}`. ' +
          'Send Last-Event-ID (browsers do) to receive what was missed while reconnecting.',
        querystring: z.object({ topics: z.string().max(1000) }),
        response: {
          200: z.string().describe('text/event-stream'),
          ...errorResponses(...GUARD_CODES, 'invalid_topics', 'too_many_streams', 'not_ready'),
        },
      },
    },
    async (request, reply) => {
      // Draining: the load balancer is about to stop sending here; the client retries elsewhere.
      if (app.lifecycle.draining) throw refuse('not_ready', messages.notReadyDraining);
      const topics = parseTopics(request.query.topics);
      if (!topics) throw refuseField('invalid_topics', 'topics', messages.invalidTopics);
      assertTopicsAllowed(request.account, topics);
      const clientKey = request.account ? `account:${request.account.id}` : `ip:${request.ip}`;
      const lease = await leases.acquire(clientKey, MAX_STREAMS_PER_CLIENT);
      if (!lease) throw refuse('too_many_streams', messages.tooManyStreams);
      reply.raw.on('close', () => lease.release());
      // Gone while the lease was being taken: 'close' has already fired.
      if (reply.raw.closed) lease.release();

      reply.hijack();
      const headers: OutgoingHttpHeaders = {};
      for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) headers[name] = value;
      reply.raw.writeHead(200, {
        ...headers,
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-transform',
        // One stream per connection: when it ends, so does the socket (shutdown is not kept waiting).
        connection: 'close',
        // nginx and similar proxies must pass each message on at once.
        'x-accel-buffering': 'no',
      });
      const lastEventId = request.headers['last-event-id'];
      await hub.add(
        reply.raw,
        subscriberOf(request.account, topics),
        typeof lastEventId === 'string' ? lastEventId : undefined,
      );
    },
  );
};
