import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { connect, createServer, type Socket } from 'node:net';

/**
 * A TCP hop between the app and PostgreSQL that a test can cut, the way a database restart, a
 * failover or a network fault would: every connection through it dies, new ones are refused
 * until it is back. The database itself stays untouched.
 */
export interface TcpProxy {
  /** host:port to connect to instead of the target. */
  address: string;
  /** Ends every open connection and refuses new ones. */
  cut(): void;
  /** Accepts connections again. */
  restore(): void;
  close(): Promise<void>;
}

export async function openTcpProxy(targetHost: string, targetPort: number): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  let down = false;
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
  };
  const server = createServer((client) => {
    track(client);
    if (down) {
      client.destroy();
      return;
    }
    const upstream = connect(targetPort, targetHost);
    track(upstream);
    client.pipe(upstream).pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  const cut = () => {
    down = true;
    for (const socket of sockets) socket.destroy();
  };
  return {
    address: `127.0.0.1:${port}`,
    cut,
    restore() {
      down = false;
    },
    async close() {
      cut();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
