import { Agent, type ClientRequest, request as httpRequest, type IncomingMessage } from 'node:http';
import { connect, type Socket } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { buildRegistration } from '../test/harness.ts';
import {
  type EventStream,
  type Instance,
  instanceStores,
  openStream,
  removeStores,
  request,
  startInstance,
  storeEnvironment,
} from '../test/instances.ts';

/**
 * SIGTERM on a single real instance (main.ts), with the connections a load balancer and browsers
 * leave open: an idle keep-alive socket, a connection opened ahead and never used, an event
 * stream, and a request still being received on
 * another keep-alive connection. The defect this guards: that request was answered with
 * `Connection: keep-alive`, its socket stayed open, and SIGTERM exited with code 1 after 10 s
 * without closing the store.
 */

const openedStreams: EventStream[] = [];
afterAll(async () => {
  for (const stream of openedStreams) stream.close();
  await removeStores();
});

/** A request whose headers are sent now and whose body only when finish() is called: in flight meanwhile. */
function slowRequest(baseUrl: string, path: string, body: unknown, agent: Agent) {
  const payload = Buffer.from(JSON.stringify(body));
  const half = Math.floor(payload.length / 2);
  let req: ClientRequest | undefined;
  const response = new Promise<{ status: number; json: unknown }>((resolve, reject) => {
    req = httpRequest(`${baseUrl}${path}`, {
      method: 'POST',
      agent,
      headers: { 'content-type': 'application/json', 'content-length': String(payload.length) },
    });
    req.on('error', reject);
    req.on('response', async (res: IncomingMessage) => {
      res.setEncoding('utf8');
      let text = '';
      for await (const chunk of res) text += chunk;
      resolve({ status: res.statusCode ?? 0, json: text ? JSON.parse(text) : undefined });
    });
    req.flushHeaders();
    req.write(payload.subarray(0, half));
  });
  // Awaited by the test; a drain that cuts the request off must fail the test, not the run.
  response.catch(() => {});
  return { response, finish: () => req?.end(payload.subarray(half)) };
}

/** Resolves true once the socket is closed, false if it is still open after the time given. */
function closedWithin(socket: Socket, timeoutMs: number): Promise<boolean> {
  if (socket.destroyed) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), timeoutMs);
    socket.once('close', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

describe.each(instanceStores)('SIGTERM on one instance ($store)', ({ store, enabled }) => {
  it.runIf(enabled)(
    'closes the idle keep-alive socket, ends the event stream with a retry hint, lets the request in flight finish, closes the store and exits 0',
    async () => {
      const env: Record<string, string> = {
        ...(await storeEnvironment(store, `shutdown-${store}`)),
        // Longer than the test holds a request in flight; a drain that hangs is cut off by it (exit 1).
        SHUTDOWN_TIMEOUT: '20',
        // A request is logged as it arrives only at debug level (the info line comes with its answer).
        LOG_LEVEL: 'debug',
      };
      const instance: Instance = await startInstance({ name: `shutdown-${store}`, env });
      expect((await request(instance.url, '/api/health')).json).toEqual({ status: 'ok', store });

      const person = buildRegistration();
      expect((await request(instance.url, '/api/auth/register', { method: 'POST', body: person })).status).toBe(201);

      // A keep-alive socket, as a load balancer or browser leaves one: one request, then idle.
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      expect((await request(instance.url, '/api/health', { agent })).status).toBe(200);
      const idle = Object.values(agent.freeSockets).flat()[0];
      if (!idle) throw new Error('the keep-alive agent kept no socket');

      // A connection a browser opened ahead of time and never used: Node does not count it as idle.
      const { hostname, port } = new URL(instance.url);
      const preconnected = connect(Number(port), hostname);
      await new Promise((resolve) => preconnected.once('connect', resolve));
      preconnected.on('error', () => {});

      const stream = await openStream(instance.url, 'parcel:AAAAAAAAAA');
      openedStreams.push(stream);
      expect(stream.status).toBe(200);
      const retryHintsAtOpen = stream.blocks.filter((block) => block.retry !== undefined).length;

      // A sign-in whose body is only half sent, on a keep-alive connection of its own: the server has
      // routed it, its handler waits for the rest. Once answered, its socket is idle too (the defect).
      const busyAgent = new Agent({ keepAlive: true, maxSockets: 1 });
      const signIn = slowRequest(
        instance.url,
        '/api/auth/login',
        { email: person.email, password: person.password },
        busyAgent,
      );
      await instance.waitForLog(
        (line) => line.msg === 'incoming request' && (line.req as { url?: string })?.url === '/api/auth/login',
      );

      // Soft from here on: each step of the drain is reported, not only the first that fails.
      instance.kill('SIGTERM');

      // The event stream is told when to come back (to another instance) and ended.
      await Promise.race([stream.ended, new Promise((resolve) => setTimeout(resolve, 15_000))]);
      expect.soft(stream.isEnded(), 'the event stream ended').toBe(true);
      const retryHints = stream.blocks.filter((block) => block.retry !== undefined);
      expect.soft(retryHints.length, 'a retry: hint sent when draining').toBeGreaterThan(retryHintsAtOpen);

      // The idle socket is closed by the server, while the process still waits for the request in flight.
      expect.soft(await closedWithin(idle, 15_000), 'the idle keep-alive socket closed by the server').toBe(true);
      expect
        .soft(await closedWithin(preconnected, 15_000), 'the never-used connection closed by the server')
        .toBe(true);
      expect.soft(instance.hasExited(), 'exited with a request still in flight').toBe(false);

      signIn.finish();
      const answer = await signIn.response.catch((error: Error) => ({ status: 0, json: error.message }));
      expect.soft(answer, 'the request in flight at SIGTERM').toMatchObject({
        status: 200,
        json: { account: { email: person.email } },
      });

      const exit = await instance.exited;
      agent.destroy();
      busyAgent.destroy();
      expect
        .soft(exit, `exit after SIGTERM; log:\n${instance.logs().slice(-3000)}`)
        .toMatchObject({ code: 0, signal: null });
      const messages = instance.logLines().map((line) => line.msg ?? '');
      expect.soft(messages, 'the store closed').toContain('shutdown complete');
      expect
        .soft(
          messages.filter((msg) => /timed out|forced/i.test(msg)),
          'a drain cut off',
        )
        .toEqual([]);
    },
  );
});
