/**
 * The child half of bench/lib/live-clients.ts: one process holding a share of bench:live's
 * subscribers (raw sockets, bench/lib/live-socket.ts), or probing GET /api/health back to back.
 * Talks to the parent over the fork IPC channel; every request carries a `seq` that its answer
 * repeats. Not run directly: started by startClientProcess().
 */
import http from 'node:http';
import { type OpenedStream, openStream, type StreamRequest } from './live-socket.ts';

export type ClientRequest =
  | { seq: number; type: 'open'; requests: StreamRequest[]; concurrency: number }
  | { seq: number; type: 'collect'; key: string; expected: number; since: string; timeoutMs: number }
  | { seq: number; type: 'probe'; port: number }
  | { seq: number; type: 'stop-probe' }
  | { seq: number; type: 'count-open' }
  | { seq: number; type: 'close' };

if (!process.send)
  throw new Error('live-client-child.ts is started by startClientProcess() (bench/lib/live-clients.ts)');
const reply = (seq: number, answer: object) => process.send?.({ seq, ...answer });

const streams: OpenedStream[] = [];
/** `${kind}:${parcelId}` → when each subscriber here got it. */
const arrivals = new Map<string, bigint[]>();
const waiting = new Map<string, { expected: number; done: () => void }>();

function arrived(key: string, at: bigint) {
  let times = arrivals.get(key);
  if (!times) {
    times = [];
    arrivals.set(key, times);
  }
  times.push(at);
  const waiter = waiting.get(key);
  if (waiter && times.length >= waiter.expected) waiter.done();
}

async function open(requests: StreamRequest[], concurrency: number) {
  const refusals: string[] = [];
  let opened = 0;
  let next = 0;
  const worker = async () => {
    while (next < requests.length) {
      const request = requests[next++] as StreamRequest;
      const stream = await openStream(request, (change) =>
        arrived(`${change.kind}:${change.parcelId}`, change.arrivedAt),
      );
      if (stream.status === 200) {
        streams.push(stream);
        opened++;
      } else {
        if (refusals.length < 5) refusals.push(`${stream.status} ${stream.error ?? ''}`.slice(0, 300));
        stream.socket.destroy();
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, requests.length) }, worker));
  return { opened, refused: requests.length - opened, refusals };
}

/** Waits until `expected` subscribers here got the change (or the time is up); ms from `since` to each. */
async function collect(key: string, expected: number, since: bigint, timeoutMs: number) {
  if ((arrivals.get(key)?.length ?? 0) < expected) {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, timeoutMs);
      function done() {
        clearTimeout(timer);
        waiting.delete(key);
        resolve();
      }
      waiting.set(key, { expected, done });
    });
  }
  const times = arrivals.get(key) ?? [];
  arrivals.delete(key);
  return { latencies: times.map((at) => Number(at - since) / 1e6) };
}

/** GET /api/health one after another on one kept-alive connection, until stopped. */
let probing: { stop: boolean; latencies: number[]; failures: number; finished: Promise<void> } | undefined;
function probe(port: number) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const state = { stop: false, latencies: [] as number[], failures: 0, finished: Promise.resolve() };
  const once = () =>
    new Promise<void>((resolve) => {
      const started = performance.now();
      const request = http.get({ host: '127.0.0.1', port, path: '/api/health', agent }, (response) => {
        response.resume();
        response.on('end', () => {
          if (response.statusCode === 200) state.latencies.push(performance.now() - started);
          else state.failures++;
          resolve();
        });
      });
      request.on('error', () => {
        state.failures++;
        resolve();
      });
    });
  state.finished = (async () => {
    while (!state.stop) await once();
    agent.destroy();
  })();
  probing = state;
}

process.on('message', async (message: ClientRequest) => {
  switch (message.type) {
    case 'open':
      reply(message.seq, await open(message.requests, message.concurrency));
      break;
    case 'collect':
      reply(message.seq, await collect(message.key, message.expected, BigInt(message.since), message.timeoutMs));
      break;
    case 'probe':
      probe(message.port);
      reply(message.seq, {});
      break;
    case 'stop-probe': {
      const state = probing;
      if (state) {
        state.stop = true;
        await state.finished;
      }
      reply(message.seq, { latencies: state?.latencies ?? [], failures: state?.failures ?? 0 });
      break;
    }
    case 'count-open':
      reply(message.seq, { open: streams.filter((stream) => !stream.socket.destroyed).length });
      break;
    case 'close':
      for (const stream of streams) stream.socket.destroy();
      process.exit(0);
  }
});
// The benchmark died or was interrupted: never outlive it.
process.on('disconnect', () => process.exit(0));
process.send({ type: 'ready' });
