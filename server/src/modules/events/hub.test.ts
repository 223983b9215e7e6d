import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LoggedChange, ParcelChange } from '../../db/change-feed.ts';
import { openEventStream } from '../../test/sse.ts';
import { LiveHub } from './hub.ts';
import { subscriberOf } from './topics.ts';

const HEAD = 'HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\nconnection: close\r\n\r\n';
const hub = new LiveHub({ heartbeatMs: 50, replay: async () => null });
/** A bare HTTP server in front of the hub: every request becomes a stream of parcel:AAAAAAAAAA. */
const server = createServer((request) => {
  const lastEventId = request.headers['last-event-id'];
  void hub.add(request.socket, {
    head: HEAD,
    subscriber: subscriberOf(null, ['parcel:AAAAAAAAAA']),
    lastEventId: typeof lastEventId === 'string' ? lastEventId : undefined,
  });
});
let baseUrl: string;
beforeAll(async () => {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  hub.close();
  server.close();
});

let nextId = 100;
const entry = (kind: ParcelChange['kind']): LoggedChange => ({
  id: ++nextId,
  at: Date.now(),
  requestId: null,
  change: {
    kind,
    parcelId: 'AAAAAAAAAA',
    status: 'waiting',
    runner: null,
    senderUser: 'anna',
    receiverKey: 'x',
    previous: null,
  },
});

describe('live hub', () => {
  it('sends a heartbeat comment while nothing happens', async () => {
    const stream = await openEventStream(baseUrl, 'x');
    expect(await stream.next(200)).toBeNull();
    expect(stream.raw).toContain(': heartbeat');
    stream.close();
  });

  it('does not send a client a change it said it already has', async () => {
    const ahead = await openEventStream(baseUrl, 'x', { 'last-event-id': String(nextId + 1) });
    hub.publish(entry('created'));
    hub.publish(entry('edited'));
    expect((await ahead.next())?.data).toMatchObject({ kind: 'edited' });
    ahead.close();
  });

  it('tells every client when to come back and ends its stream when draining', async () => {
    const drainer = new LiveHub({ replay: async () => null });
    const local = createServer((request) => {
      void drainer.add(request.socket, { head: HEAD, subscriber: subscriberOf(null, ['parcel:AAAAAAAAAA']) });
    });
    local.listen(0, '127.0.0.1');
    await once(local, 'listening');
    const drained = await openEventStream(`http://127.0.0.1:${(local.address() as AddressInfo).port}`, 'x');
    drainer.drain(500);
    expect(await drained.next(2000)).toBeNull();
    const hint = drained.raw.filter((block) => block.startsWith('retry: ')).at(-1);
    expect(Number(hint?.slice('retry: '.length))).toBeGreaterThanOrEqual(500);
    expect(Number(hint?.slice('retry: '.length))).toBeLessThan(1000);
    drainer.close();
    local.close();
  });
});
