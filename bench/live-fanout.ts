/**
 * Live fan-out: N Server-Sent-Events subscribers to `parcels` (superadmins: every change) plus some
 * anonymous ones to `parcel:<id>` (tracking pages), on the real app listening on 127.0.0.1 in a
 * child process over a fresh temp data dir. Then M changes one after another, alternating a new
 * parcel (POST /api/parcels) and a pickup (POST /api/parcels/:id/pickup), and for each the delay
 * from the write's HTTP response (and from its request) to the message at every subscriber that
 * should get it. Also the server's RSS before and after the subscribers connect. Prints figures;
 * never fails on a time (DESIGN §8).
 *
 *   npm run bench:live -- [--subscribers 1000] [--parcel-subscribers 100] [--changes 100]
 *
 * Plain node:http clients, each from its own loopback address (127.x.y.z): the app allows 600
 * requests per minute per client address and 32 open streams per account or address (DESIGN §4),
 * so the `parcels` streams are shared out over several superadmin accounts, 25 streams each.
 */

import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { migrateToLatest, openStore } from '../server/src/db/database.ts';
import { ensureSuperadmin } from '../server/src/modules/auth/superadmin.ts';
import {
  type AppProcess,
  expectStatus,
  inBatches,
  machine,
  mib,
  percentile,
  requestJson,
  signUpOverHttp,
  startAppProcess,
} from './lib/app-process.ts';

const { values } = parseArgs({
  options: {
    subscribers: { type: 'string', default: '1000' },
    'parcel-subscribers': { type: 'string', default: '100' },
    changes: { type: 'string', default: '100' },
  },
});
const subscriberCount = Number(values.subscribers);
const parcelSubscriberCount = Number(values['parcel-subscribers']);
const changeCount = Number(values.changes);
const STREAMS_PER_ADMIN = 25;
const PARCELS_PER_SENDER = 100;
const WAIT_FOR_DELIVERY_MS = 10_000;
const CONNECT_BATCH = 100;
const ADMIN_PASSWORD = 'bench-admin-jelszo';

/** A distinct loopback address per call (127.1.0.1 on): the app sees each as its own client. */
const nextLoopback = (() => {
  let n = 0;
  return () => {
    const value = n++;
    return `127.${1 + Math.floor(value / 62_500)}.${Math.floor(value / 250) % 250}.${(value % 250) + 1}`;
  };
})();

/** When each subscriber got each change: `${kind}:${parcelId}` → arrival times (performance.now()). */
const arrivals = new Map<string, number[]>();

interface Subscriber {
  topic: string;
  request: http.ClientRequest;
  connected: Promise<void>;
  messages: number;
}

function subscribe(app: AppProcess, topic: string, cookie: string | undefined): Subscriber {
  let ready: () => void = () => {};
  let failed: (error: Error) => void = () => {};
  const subscriber: Subscriber = {
    topic,
    messages: 0,
    connected: new Promise<void>((resolve, reject) => {
      ready = resolve;
      failed = reject;
    }),
    request: http.request(`${app.origin}/api/events?topics=${encodeURIComponent(topic)}`, {
      agent: false,
      localAddress: nextLoopback(),
      headers: { accept: 'text/event-stream', ...(cookie ? { cookie } : {}) },
    }),
  };
  subscriber.request.on('error', (error) => failed(error));
  subscriber.request.on('response', (response) => {
    if (response.statusCode !== 200) {
      failed(new Error(`subscribe ${topic}: HTTP ${response.statusCode}`));
      response.resume();
      return;
    }
    response.setEncoding('utf8');
    let buffer = '';
    response.on('data', (chunk: string) => {
      const now = performance.now();
      // The hub writes `retry:` at once: the stream is registered.
      ready();
      buffer += chunk;
      let end = buffer.indexOf('\n\n');
      while (end !== -1) {
        const message = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        end = buffer.indexOf('\n\n');
        const data = message.split('\n').find((line) => line.startsWith('data: '));
        if (!data) continue;
        const change = JSON.parse(data.slice('data: '.length)) as { kind: string; parcelId: string };
        subscriber.messages += 1;
        const key = `${change.kind}:${change.parcelId}`;
        const times = arrivals.get(key);
        if (times) times.push(now);
        else arrivals.set(key, [now]);
      }
    });
    response.on('error', () => {});
  });
  subscriber.request.end();
  return subscriber;
}

async function waitForArrivals(key: string, expected: number): Promise<number[]> {
  const deadline = performance.now() + WAIT_FOR_DELIVERY_MS;
  while ((arrivals.get(key)?.length ?? 0) < expected && performance.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  return arrivals.get(key) ?? [];
}

// 1. A fresh database with the superadmins the `parcels` streams need (not timed).
const dataDir = mkdtempSync(join(tmpdir(), 'csomagkuldo-bench-live-'));
const adminCount = Math.max(1, Math.ceil(subscriberCount / STREAMS_PER_ADMIN));
const runTag = Date.now().toString(36);
const adminEmails = Array.from({ length: adminCount }, (_, i) => `bench.admin${i}.${runTag}@pelda.hu`);
{
  const store = openStore({ dataDir });
  try {
    await migrateToLatest(store);
    for (const email of adminEmails) await ensureSuperadmin(store.db, email, ADMIN_PASSWORD);
  } finally {
    await store.close();
  }
}

const app = await startAppProcess(dataDir);
const subscribers: Subscriber[] = [];
try {
  // 2. Sign-ins and sign-ups through the API, each from its own address.
  const adminCookies = await inBatches(adminEmails, 4, async (email) => {
    const response = await requestJson(app.origin, '/api/auth/login', {
      method: 'POST',
      body: { email, password: ADMIN_PASSWORD },
      localAddress: nextLoopback(),
    });
    const { cookie } = expectStatus(response, 200, `sign-in ${email}`);
    if (!cookie) throw new Error(`no session cookie for ${email}`);
    return cookie;
  });
  const signUp = (role: 'user' | 'runner', i: number) =>
    signUpOverHttp(app.origin, role, `bench_${role}_${runTag}_${i}`, { localAddress: nextLoopback() });
  const pickups = Math.floor(changeCount / 2);
  const creates = changeCount - pickups;
  const senderCookies = await inBatches(
    Array.from({ length: Math.ceil((pickups + creates) / PARCELS_PER_SENDER) + 1 }, (_, i) => i),
    4,
    (i) => signUp('user', i),
  );
  const runnerCookie = await signUp('runner', 0);

  // The writers keep their connections, as a browser does: the timed writes pay no TCP handshake.
  const writerAgent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const writerAddress = nextLoopback();
  let parcelsCreated = 0;
  const createParcel = () =>
    requestJson(app.origin, '/api/parcels', {
      method: 'POST',
      agent: writerAgent,
      localAddress: writerAddress,
      cookie: senderCookies[Math.floor(parcelsCreated++ / PARCELS_PER_SENDER)],
      body: {
        senderAddress: '1052 Budapest, Váci utca 12.',
        receiverAddress: '6720 Szeged, Kárász utca 5.',
        category: 'Könyv',
        weightGrams: 750,
        senderCoordinates: { lat: 47.4953, lng: 19.0536 },
        receiverCoordinates: { lat: 46.2524, lng: 20.1484 },
      },
    });
  // The parcels to be picked up, waiting before anyone subscribes (tracking pages watch them).
  const waiting: string[] = [];
  for (let i = 0; i < Math.max(1, pickups); i++) {
    const response = expectStatus(await createParcel(), 201, 'create a waiting parcel');
    waiting.push((response.body as { id: string }).id);
  }
  const watchers = new Map<string, number>();

  // 3. Memory before, connect everyone, memory after.
  const before = await app.memory();
  const connectStarted = performance.now();
  const plan: [topic: string, cookie: string | undefined][] = [];
  for (let i = 0; i < subscriberCount; i++) plan.push(['parcels', adminCookies[Math.floor(i / STREAMS_PER_ADMIN)]]);
  for (let i = 0; i < parcelSubscriberCount; i++) {
    const id = waiting[i % waiting.length] as string;
    watchers.set(id, (watchers.get(id) ?? 0) + 1);
    plan.push([`parcel:${id}`, undefined]);
  }
  // A hundred at a time, as a crowd of browsers would arrive (and within the listen backlog).
  for (let start = 0; start < plan.length; start += CONNECT_BATCH) {
    const batch = plan.slice(start, start + CONNECT_BATCH).map(([topic, cookie]) => subscribe(app, topic, cookie));
    subscribers.push(...batch);
    await Promise.all(batch.map((s) => s.connected));
  }
  const connectMs = performance.now() - connectStarted;
  const after = await app.memory();

  // 4. The changes, one at a time: each is awaited at every subscriber before the next.
  interface Measured {
    kind: 'created' | 'picked_up';
    expected: number;
    received: number;
    fromResponse: number[];
    fromRequest: number[];
  }
  const measured: Measured[] = [];
  let nextPickup = 0;
  for (let i = 0; i < changeCount; i++) {
    const pickup = i % 2 === 1 && nextPickup < waiting.length;
    const response = pickup
      ? await requestJson(app.origin, `/api/parcels/${waiting[nextPickup]}/pickup`, {
          method: 'POST',
          agent: writerAgent,
          localAddress: writerAddress,
          cookie: runnerCookie,
        })
      : await createParcel();
    expectStatus(response, pickup ? 200 : 201, pickup ? 'pickup' : 'create');
    const { id } = response.body as { id: string };
    if (pickup) nextPickup += 1;
    const kind = pickup ? 'picked_up' : 'created';
    const expected = subscriberCount + (pickup ? (watchers.get(id) ?? 0) : 0);
    const times = await waitForArrivals(`${kind}:${id}`, expected);
    measured.push({
      kind,
      expected,
      received: times.length,
      fromResponse: times.map((t) => t - response.receivedAt).sort((a, b) => a - b),
      fromRequest: times.map((t) => t - response.sentAt).sort((a, b) => a - b),
    });
  }
  writerAgent.destroy();

  // 5. Figures.
  const total = subscriberCount + parcelSubscriberCount;
  const ms = (value: number) => value.toFixed(2).padStart(8);
  console.log(`\nLive fan-out (SSE) — ${machine()}`);
  console.log(
    `server: the real app in child process ${app.pid} on ${app.origin} (SQLite); the ${total} clients and the writer` +
      ' run in this process — they share the machine',
  );
  console.log(
    `subscribers: ${subscriberCount} × 'parcels' (${adminCount} superadmins, ≤${STREAMS_PER_ADMIN} streams each: the app caps` +
      ` one account at 32) + ${parcelSubscriberCount} × 'parcel:<id>' (anonymous, over ${waiting.length} parcels)`,
  );
  console.log(`connected in ${(connectMs / 1000).toFixed(2)} s`);
  const delta = (key: 'rss' | 'heapUsed') => after[key] - before[key];
  console.log(
    `server memory (after a full GC): RSS ${mib(before.rss)} → ${mib(after.rss)} (+${mib(delta('rss'))},` +
      ` ${(delta('rss') / total / 1024).toFixed(1)} KiB per connection); heap ${mib(before.heapUsed)} → ${mib(after.heapUsed)}` +
      ` (${(delta('heapUsed') / total / 1024).toFixed(1)} KiB per connection)`,
  );
  console.log(
    `\n${changeCount} changes, one at a time (${measured.filter((m) => m.kind === 'created').length} new parcels →` +
      ` ${subscriberCount} receivers each; ${measured.filter((m) => m.kind === 'picked_up').length} pickups →` +
      ` ${subscriberCount} + that parcel's tracking subscribers)`,
  );
  console.log('delay to each subscriber, ms; per change: p50 / p95 / max over its receivers; then over the changes:');
  console.log(
    `${'change'.padEnd(12)} ${'from'.padEnd(9)} ${'p50 of min'.padStart(10)} ${'p50 of p50'.padStart(10)} ${'p50 of p95'.padStart(10)} ${'p95 of p95'.padStart(10)} ${'p50 of max'.padStart(10)} ${'max of max'.padStart(10)}  missing`,
  );
  for (const kind of ['created', 'picked_up'] as const) {
    const group = measured.filter((m) => m.kind === kind);
    if (group.length === 0) continue;
    const missing = group.reduce((sum, m) => sum + (m.expected - m.received), 0);
    for (const from of ['response', 'request'] as const) {
      const lists = group.map((m) => (from === 'response' ? m.fromResponse : m.fromRequest));
      const column = (p: number) => lists.map((l) => percentile(l, p)).sort((a, b) => a - b);
      const p50s = column(50);
      const p95s = column(95);
      const maxes = column(100);
      const mins = column(0);
      console.log(
        `${kind.padEnd(12)} ${from.padEnd(9)} ${ms(percentile(mins, 50))}   ${ms(percentile(p50s, 50))}   ${ms(percentile(p95s, 50))}   ${ms(percentile(p95s, 95))}   ${ms(percentile(maxes, 50))}   ${ms(maxes.at(-1) ?? Number.NaN)}  ${from === 'response' ? missing : ''}`,
      );
    }
  }
  const all = measured.flatMap((m) => m.fromResponse).sort((a, b) => a - b);
  console.log(
    `\nall ${all.length} deliveries, from the write's response: p50 ${percentile(all, 50).toFixed(2)} ms,` +
      ` p95 ${percentile(all, 95).toFixed(2)} ms, max ${(all.at(-1) ?? Number.NaN).toFixed(2)} ms` +
      ' (negative: the message reached the subscriber before the writer read its own response)',
  );
  console.log(
    'the server writes every stream right after the commit, before it answers the writer; all clients read in this' +
      ' one process, so the spread from the first to the last subscriber is mostly this process reading its sockets',
  );
  const final = await app.memory();
  console.log(`server RSS after the changes: ${mib(final.rss)}`);
} finally {
  await app.close();
  for (const subscriber of subscribers) subscriber.request.destroy();
  rmSync(dataDir, { recursive: true, force: true });
}
