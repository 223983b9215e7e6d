import type { Server } from 'node:http';
import type { Socket } from 'node:net';

/** How long a connection opened while draining may take to send its request. */
const DRAINING_GRACE_MS = 1000;

/**
 * Counts the requests in flight on each connection, so that draining can close every connection
 * that has none — including one a browser opened ahead of time and never used, which Node's own
 * closeIdleConnections() does not count as idle and which kept shutdown waiting for its timeout.
 */
export function trackConnections(server: Server) {
  const inFlight = new Map<Socket, number>();
  let draining = false;
  const closeIfIdle = (socket: Socket) => {
    if (draining && inFlight.get(socket) === 0) socket.end();
  };
  server.on('connection', (socket: Socket) => {
    inFlight.set(socket, 0);
    socket.on('close', () => inFlight.delete(socket));
    if (draining) setTimeout(() => closeIfIdle(socket), DRAINING_GRACE_MS).unref();
  });
  server.on('request', (request, response) => {
    const socket = request.socket;
    inFlight.set(socket, (inFlight.get(socket) ?? 0) + 1);
    response.on('close', () => {
      inFlight.set(socket, Math.max(0, (inFlight.get(socket) ?? 1) - 1));
      closeIfIdle(socket);
    });
  });
  return {
    /** From now on, a connection is closed as soon as it has no request in flight. */
    drain() {
      draining = true;
      for (const socket of inFlight.keys()) closeIfIdle(socket);
    },
  };
}
