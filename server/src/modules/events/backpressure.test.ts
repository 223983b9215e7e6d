import { once } from 'node:events';
import net, { type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type SignedIn, signInSuperadmin, type TestApp } from '../../test/harness.ts';
import { parsePrometheus } from '../../test/prometheus.ts';
import { listenLocally } from '../../test/sse.ts';
import { MAX_BUFFERED_BYTES } from './hub.ts';

const PARCEL = 'AAAAAAAAAA';

let t: TestApp;
let port: number;
let admin: SignedIn;
beforeAll(async () => {
  t = await createTestApp();
  await listenLocally(t.app);
  port = (t.app.server.address() as AddressInfo).port;
  admin = await signInSuperadmin(t.app);
});
afterAll(() => t.close());

interface RawStream {
  socket: net.Socket;
  /** The id of every change message read so far, in order. */
  ids: number[];
  /** Resolves once `count` change messages have been read. */
  received(count: number): Promise<void>;
  closed: Promise<unknown>;
}

/** GET /api/events on a bare socket, as a browser's EventSource asks; resolves once `retry:` is in. */
async function openRaw(topics: string, cookie: string): Promise<RawStream> {
  const socket = net.connect({ host: '127.0.0.1', port });
  socket.write(
    `GET /api/events?topics=${topics} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\nCookie: ${cookie}\r\n\r\n`,
  );
  const ids: number[] = [];
  let statusLine: string | undefined;
  let started = false;
  let text = '';
  let wake = () => {};
  socket.on('data', (chunk: Buffer) => {
    text += chunk.toString('latin1');
    if (statusLine === undefined) {
      const headEnd = text.indexOf('\r\n\r\n');
      if (headEnd === -1) return;
      statusLine = text.slice(0, text.indexOf('\r\n'));
      text = text.slice(headEnd + 4);
    }
    for (let end = text.indexOf('\n\n'); end !== -1; end = text.indexOf('\n\n')) {
      const block = text.slice(0, end);
      text = text.slice(end + 2);
      if (block.startsWith('retry: ')) started = true;
      const id = /^id: (\d+)$/m.exec(block);
      if (id && block.includes('\ndata: ')) ids.push(Number(id[1]));
    }
    wake();
  });
  const closed = once(socket, 'close');
  const waitUntil = (done: () => boolean) =>
    new Promise<void>((resolve) => {
      const check = () => {
        if (done()) resolve();
        else wake = check;
      };
      check();
    });
  await waitUntil(() => started);
  expect(statusLine).toMatch(/^HTTP\/1\.1 200 /);
  return { socket, ids, received: (count) => waitUntil(() => ids.length >= count), closed };
}

/** `count` changes of PARCEL committed in one transaction through the real feed. */
const commitChanges = (count: number) =>
  t.app.changeFeed.transaction(async (_trx, publish) => {
    for (let i = 0; i < count; i++) {
      await publish({
        kind: 'edited',
        parcelId: PARCEL,
        status: 'waiting',
        runner: null,
        senderUser: 'anna',
        receiverKey: 'x',
        previous: null,
      });
    }
  });

const openStreams = async () => parsePrometheus(await t.app.metrics.scrape()).value('csomagkuldo_live_streams');

describe('a client that stops reading', () => {
  it('is dropped once more than the buffer limit waits for it, and every other client still gets every change', async () => {
    // Two topics that every change below matches: two messages per change, the buffers fill sooner.
    const topics = `parcels,parcel:${PARCEL}`;
    const reader = await openRaw(topics, admin.cookie);
    const stalled = await openRaw(topics, admin.cookie);
    // Reads nothing more: the kernel's buffers fill first, then the server's, up to the limit.
    stalled.socket.pause();
    expect(await openStreams()).toBe(2);

    const ROUND = 1000;
    let committed = 0;
    // Bounded: the kernel buffers a few MiB at most, each round sends ~220 KiB to each client.
    for (let round = 0; round < 200 && (await openStreams()) === 2; round++) {
      await commitChanges(ROUND);
      committed += ROUND;
      // The reader keeps up; what the stalled client is owed keeps growing.
      await reader.received(2 * committed);
    }
    expect(await openStreams()).toBe(1);
    expect(committed * 2 * 100).toBeGreaterThan(MAX_BUFFERED_BYTES);

    // What the kernel still held arrives, then the end: the rest was never buffered for it.
    stalled.socket.resume();
    await stalled.closed;
    expect(stalled.ids.length).toBeGreaterThan(0);
    expect(stalled.ids.length).toBeLessThan(2 * committed);

    // The reader got every change, in order, and its stream goes on.
    expect(reader.ids).toHaveLength(2 * committed);
    expect(reader.ids.every((id, i) => i === 0 || id >= (reader.ids[i - 1] as number))).toBe(true);
    await commitChanges(1);
    await reader.received(2 * committed + 2);
    reader.socket.destroy();
  });
});
