/**
 * bench:live's floor: the least any Node server can do to fan a message out over TCP — a bare
 * node:net server that answers every connection with a fixed event-stream head and `retry:`,
 * and on {type:'send', seq, parcelId} writes one change message (the app's bytes for it) to every
 * socket in a single loop. What the app's figures compare with on the same machine, as bench:api
 * compares with bare Fastify. Answers {seq} when the loop is done. Started by startBareFanOut().
 */
import { fork } from 'node:child_process';
import net from 'node:net';

if (process.env.BENCH_LIVE_BARE === '1') {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    socket.setNoDelay(true);
    socket.once('data', () => {
      sockets.add(socket);
      socket.write('HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\nconnection: close\r\n\r\nretry: 3000\n\n');
    });
    socket.on('error', () => {});
    socket.on('close', () => sockets.delete(socket));
  });
  server.listen({ host: '127.0.0.1', port: 0, backlog: 511 }, () => {
    const address = server.address() as net.AddressInfo;
    process.send?.({ type: 'ready', port: address.port });
  });
  let id = 0;
  process.on('message', (message: { type: string; seq: number; parcelId: string }) => {
    if (message.type !== 'send') return;
    id++;
    const data = JSON.stringify({ topic: 'parcels', kind: 'created', parcelId: message.parcelId, status: 'waiting' });
    const bytes = Buffer.from(`id: ${id}\nevent: change\ndata: ${data}\n\n`);
    for (const socket of sockets) socket.write(bytes);
    process.send?.({ seq: message.seq });
  });
  process.on('disconnect', () => process.exit(0));
}

export interface BareFanOut {
  port: number;
  /** Writes a `created` change of `parcelId` to every socket; resolves when the loop is done. */
  send(parcelId: string): Promise<void>;
  close(): void;
}

export async function startBareFanOut(): Promise<BareFanOut> {
  const child = fork(new URL(import.meta.url).pathname, [], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, BENCH_LIVE_BARE: '1' },
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('message', (message: { port: number }) => resolve(message.port));
    child.once('exit', (code) => reject(new Error(`bare fan-out server exited (${code})`)));
  });
  let seq = 0;
  return {
    port,
    send: (parcelId) =>
      new Promise((resolve) => {
        const mine = ++seq;
        const onMessage = (message: { seq?: number }) => {
          if (message.seq !== mine) return;
          child.off('message', onMessage);
          resolve();
        };
        child.on('message', onMessage);
        child.send({ type: 'send', seq: mine, parcelId });
      }),
    close: () => child.kill(),
  };
}
