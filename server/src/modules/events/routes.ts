import { TRIP_OFFER_KIND } from '@csomag/domain/live';
import { parseTopics } from '@csomag/domain/live-schemas';
import { messages } from '@csomag/domain/messages';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses, refuse, refuseField } from '../../errors.ts';
import { GUARD_CODES } from '../../plugins/auth.ts';
import { CARRIER_TRUST_CODES } from '../../policy.ts';
import { LiveHub } from './hub.ts';
import { openStreamLeases } from './leases.ts';
import { assertTopicsAllowed, subscriberOf } from './topics.ts';

/**
 * Several tabs are fine; thousands of idle sockets from one client are not. Counted across every
 * instance on PostgreSQL (live_streams), so a client cannot multiply it by the instance count.
 */
export const MAX_STREAMS_PER_CLIENT = 32;

type Headers = Record<string, string | number | string[] | undefined>;

const STREAM_HEADERS: Headers = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache, no-transform',
  // One stream per connection, its end marked by the socket's: no chunked framing to write around
  // every message, and shutdown is not kept waiting.
  connection: 'close',
  // nginx and similar proxies must pass each message on at once.
  'x-accel-buffering': 'no',
};

/**
 * The stream's response head, written by hand: Node's own would stay in memory for the stream's
 * whole life as a string of ~80 pieces (~2.7 KiB per stream). The headers are those the app's hooks
 * set (security headers, request id, rate limit) and the stream's own.
 */
function streamHead(headers: Headers): string {
  let head = 'HTTP/1.1 200 OK\r\n';
  for (const [name, value] of Object.entries({ ...headers, ...STREAM_HEADERS, date: new Date().toUTCString() })) {
    if (value === undefined) continue;
    for (const line of Array.isArray(value) ? value : [value]) head += `${name}: ${line}\r\n`;
  }
  return `${head}\r\n`;
}

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
  // Each instance offers new parcels to the saved trips of the runners whose streams it holds.
  const stopOffers = app.tripOffers.onOffer((offer) =>
    hub.offer(offer.userName, {
      topic: 'me',
      kind: TRIP_OFFER_KIND,
      parcelId: offer.parcelId,
      status: 'waiting',
      tripId: offer.tripId,
      addedMinutes: offer.addedMinutes,
    }),
  );
  app.metrics.countStreams(() => hub.size);
  app.lifecycle.onDrain(() => hub.drain());
  // Open streams would keep app.close() (tests, graceful shutdown) waiting forever.
  app.addHook('preClose', async () => {
    unsubscribe();
    stopOffers();
    hub.close();
    await leases.close().catch((error) => app.log.warn({ err: error }, 'releasing stream leases failed'));
  });

  app.get(
    '/events',
    {
      // A HEAD request would get the stream's head and then the stream.
      exposeHeadRoute: false,
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
          ...errorResponses(...GUARD_CODES, ...CARRIER_TRUST_CODES, 'invalid_topics', 'too_many_streams', 'not_ready'),
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

      // From here the hub writes to the socket itself; the rest lets go of what the stream no
      // longer needs, since it may stay open for hours (docs/decisions/0014).
      reply.hijack();
      // Fastify would run onResponse hooks when the response finishes; it never does (it ends
      // with its socket), and waiting would keep the request, reply and logger (~1.5 KiB).
      reply.raw.removeAllListeners('finish').removeAllListeners('error');
      const lastEventId = request.headers['last-event-id'];
      const head = streamHead(reply.getHeaders());
      // Never read again: a browser sends ~1 KiB of them.
      request.raw.headers = {};
      request.raw.rawHeaders = [];
      await hub.add(request.raw.socket, {
        head,
        subscriber: subscriberOf(request.account, topics),
        lastEventId: typeof lastEventId === 'string' ? lastEventId : undefined,
        lease,
      });
    },
  );
};
