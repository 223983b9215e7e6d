/// <reference path="./http-ece.d.ts" />
import { createECDH, createPublicKey, type ECDH, randomBytes, verify } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type PushMessage, pushMessageSchema } from '@csomag/domain/push';
import { decrypt } from 'http_ece';

/**
 * A fake push service on 127.0.0.1 (the only outside service the push tests fake): it records what
 * the server sends to each device's endpoint and answers as told — 201, 404/410 (the device is
 * gone), or never (a push service that hangs).
 */

/** A browser's push subscription, made in the test: a P-256 key pair and a 16-byte auth secret. */
export interface TestDevice {
  /** The body POST /api/me/push-devices takes (PushSubscription.toJSON()). */
  subscription: { endpoint: string; keys: { p256dh: string; auth: string } };
  ecdh: ECDH;
  /** Decrypts a payload the server sent to this device (aes128gcm). */
  open(body: Buffer): PushMessage;
}

export interface ReceivedPush {
  /** The device's path on the fake service. */
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** Whether the fake answered it (a hanging answer never is). */
  answered: boolean;
}

export type Answer = number | 'hang';

export interface FakePushService {
  origin: string;
  received: ReceivedPush[];
  /** A new device whose endpoint is on this service; `answer` is what its pushes get (201 by default). */
  device(answer?: Answer): TestDevice;
  /** Changes what a device's pushes get from now on. */
  answerFor(device: TestDevice, answer: Answer): void;
  /** What reached one device so far. */
  pushesTo(device: TestDevice): ReceivedPush[];
  /** Waits until `count` pushes reached the device (no time limit of its own: the test's applies). */
  waitForPushes(device: TestDevice, count: number): Promise<ReceivedPush[]>;
  close(): Promise<void>;
}

export async function startFakePushService(): Promise<FakePushService> {
  const received: ReceivedPush[] = [];
  const answers = new Map<string, Answer>();
  const hanging = new Set<ServerResponse>();
  let wake: (() => void)[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const path = request.url ?? '/';
      const push: ReceivedPush = { path, headers: request.headers, body: Buffer.concat(chunks), answered: false };
      received.push(push);
      for (const w of wake.splice(0)) w();
      const answer = answers.get(path) ?? 201;
      if (answer === 'hang') {
        hanging.add(response);
        return;
      }
      push.answered = true;
      response.writeHead(answer).end();
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  let counter = 0;
  const pathOf = (device: TestDevice) => new URL(device.subscription.endpoint).pathname;
  const pushesTo = (device: TestDevice) => received.filter((push) => push.path === pathOf(device));
  return {
    origin,
    received,
    device(answer = 201) {
      counter += 1;
      const path = `/push/device-${counter}-${randomBytes(4).toString('hex')}`;
      answers.set(path, answer);
      return testDevice(`${origin}${path}`);
    },
    answerFor(device, answer) {
      answers.set(pathOf(device), answer);
    },
    pushesTo,
    async waitForPushes(device, count) {
      while (pushesTo(device).length < count) await new Promise<void>((resolve) => wake.push(resolve));
      return pushesTo(device);
    },
    async close() {
      wake = [];
      for (const response of hanging) response.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A device as a browser would make it: its own key pair and auth secret. */
export function testDevice(endpoint: string): TestDevice {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const auth = randomBytes(16).toString('base64url');
  return {
    subscription: { endpoint, keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth } },
    ecdh,
    open(body) {
      const plain = decrypt(body, { version: 'aes128gcm', privateKey: ecdh, authSecret: auth });
      return pushMessageSchema.strict().parse(JSON.parse(plain.toString('utf8')));
    },
  };
}

export interface VapidClaims {
  aud: string;
  exp: number;
  sub: string;
  /** The public key the request named (k=), which signed the token. */
  publicKey: string;
}

/**
 * Reads `Authorization: vapid t=<JWT>, k=<public key>` (RFC 8292) and checks the JWT's ES256
 * signature against k; throws when it does not verify.
 */
export function vapidClaims(headers: IncomingHttpHeaders): VapidClaims {
  const match = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(headers.authorization ?? '');
  if (!match) throw new Error(`not a VAPID Authorization header: ${headers.authorization}`);
  const [, token = '', publicKey = ''] = match;
  const [header = '', payload = '', signature = ''] = token.split('.');
  const point = Buffer.from(publicKey, 'base64url');
  const key = createPublicKey({
    key: {
      kty: 'EC',
      crv: 'P-256',
      x: point.subarray(1, 33).toString('base64url'),
      y: point.subarray(33, 65).toString('base64url'),
    },
    format: 'jwk',
  });
  const signed = verify(
    'sha256',
    Buffer.from(`${header}.${payload}`),
    { key, dsaEncoding: 'ieee-p1363' },
    Buffer.from(signature, 'base64url'),
  );
  if (!signed) throw new Error('the VAPID JWT signature does not verify with its k= key');
  const head = JSON.parse(Buffer.from(header, 'base64url').toString('utf8'));
  if (head.alg !== 'ES256') throw new Error(`VAPID JWT alg ${head.alg}`);
  return { ...JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')), publicKey };
}
