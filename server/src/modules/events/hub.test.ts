import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ParcelChange } from '../../db/change-feed.ts';
import { openEventStream } from '../../test/sse.ts';
import { LiveHub } from './hub.ts';
import { subscriberOf } from './topics.ts';

const hub = new LiveHub({ heartbeatMs: 50, replayLimit: 2 });
/** A bare HTTP server in front of the hub: every request becomes a stream of parcel:AAAAAAAAAA. */
const server = createServer((request, response) => {
  response.writeHead(200, { 'content-type': 'text/event-stream' });
  const lastEventId = request.headers['last-event-id'];
  hub.add(
    response,
    subscriberOf(null, ['parcel:AAAAAAAAAA']),
    'test',
    typeof lastEventId === 'string' ? lastEventId : undefined,
  );
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

const change = (kind: ParcelChange['kind']): ParcelChange => ({
  kind,
  parcelId: 'AAAAAAAAAA',
  status: 'waiting',
  runner: null,
  senderUser: 'anna',
  receiverKey: 'x',
  previous: null,
});

describe('live hub', () => {
  it('sends a heartbeat comment while nothing happens', async () => {
    const stream = await openEventStream(baseUrl, 'x');
    expect(await stream.next(200)).toBeNull();
    expect(stream.raw).toContain(': heartbeat');
    stream.close();
  });

  it('replays only what it still remembers after the Last-Event-ID', async () => {
    const first = await openEventStream(baseUrl, 'x');
    hub.publish(change('created'));
    const seen = await first.next();
    first.close();
    hub.publish(change('edited'));

    const resumed = await openEventStream(baseUrl, 'x', { 'last-event-id': String(seen?.id) });
    expect((await resumed.next())?.data).toMatchObject({ kind: 'edited' });
    resumed.close();

    hub.publish(change('picked_up'));
    hub.publish(change('delivered'));
    // The one after `seen` has been forgotten (replayLimit 2): nothing is replayed rather than a gap.
    const tooOld = await openEventStream(baseUrl, 'x', { 'last-event-id': String(seen?.id) });
    expect(await tooOld.next(150)).toBeNull();
    const unknown = await openEventStream(baseUrl, 'x', { 'last-event-id': 'nem-szam' });
    expect(await unknown.next(150)).toBeNull();
    tooOld.close();
    unknown.close();
  });
});
