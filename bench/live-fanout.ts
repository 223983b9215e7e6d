/**
 * Live fan-out (issue 11): how fast one change reaches many Server-Sent-Events subscribers, what
 * each open stream costs the server, and whether other requests stay quick meanwhile.
 *
 * 1. One instance (SQLite, a fresh temp data dir; the real app in a child process at its default
 *    log level): N runners' streams on `parcels` (every new or picked-up parcel reaches all of
 *    them), raw sockets sending a browser's request headers, each from its own loopback address,
 *    held by `--client-processes` processes (one by default: on 2 cores a second one takes the
 *    server's CPU and slows delivery down). Prints the time to connect them all, the server's
 *    memory per stream (after a full GC, before and after), and for M changes made one after
 *    another (a new parcel, a pickup, in turn) the delay from the write's request to each
 *    subscriber's copy; meanwhile a process of its own asks GET /api/health back to back.
 * 2. The floor: a bare node:net server writing one message to every socket in a single loop,
 *    read by the same client processes — what no Node server on this machine does faster.
 * 3. With DATABASE_URL: two instances on that PostgreSQL, in a schema of their own (dropped
 *    afterwards): subscribers on both, changes made through A, the delay to the subscribers on B
 *    (through LISTEN/NOTIFY) and on A; then one account's streams spread over both instances, to
 *    show the per-client cap counts across them.
 *
 *   npm run bench:live -- [--subscribers 10000] [--changes 200] [--client-processes 1]
 *     [--cross-subscribers 1000] [--cross-changes 200] [--skip-single] [--skip-floor] [--cpu-prof DIR]
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run bench:live
 *
 * Times are taken with process.hrtime, one monotonic clock for every process of the machine.
 * Prints figures; never fails on a time (DESIGN §8). Everything shares the machine's cores: the
 * server, the client processes reading their sockets, the health probe and this process.
 */

import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { migrateToLatest, openStore } from '../server/src/db/database.ts';
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
import { startBareFanOut } from './lib/live-bare-child.ts';
import { type ClientProcess, startClientProcess } from './lib/live-clients.ts';
import { type OpenedStream, openStream, type StreamRequest } from './lib/live-socket.ts';

const { values } = parseArgs({
  options: {
    subscribers: { type: 'string', default: '10000' },
    changes: { type: 'string', default: '200' },
    'client-processes': { type: 'string', default: '1' },
    'cross-subscribers': { type: 'string', default: '1000' },
    'cross-changes': { type: 'string', default: '200' },
    'skip-single': { type: 'boolean', default: false },
    'skip-floor': { type: 'boolean', default: false },
    'cpu-prof': { type: 'string' },
  },
});
const subscriberCount = Number(values.subscribers);
const changeCount = Number(values.changes);
const clientProcessCount = Math.max(1, Number(values['client-processes']));
const crossSubscriberCount = Number(values['cross-subscribers']);
const crossChangeCount = Number(values['cross-changes']);
const databaseUrl = process.env.DATABASE_URL;

/** The app caps one account at 32 open streams (MAX_STREAMS_PER_CLIENT): a runner account holds 25 here. */
const STREAMS_PER_ACCOUNT = 25;
/** Parcel creation is limited to 120 per account per minute. */
const PARCELS_PER_SENDER = 100;
/** Streams being opened at once by one client process: a crowd arriving, within the listen backlog. */
const CONNECT_CONCURRENCY = 64;
const DELIVERY_TIMEOUT_MS = 15_000;

/** A distinct loopback address per call (127.1.0.1 on): the app sees each as its own client. */
const nextLoopback = (() => {
  let n = 0;
  return () => {
    const value = n++;
    return `127.${1 + Math.floor(value / 62_500)}.${Math.floor(value / 250) % 250}.${(value % 250) + 1}`;
  };
})();

const hrNow = () => process.hrtime.bigint();
const sorted = (values: number[]) => [...values].sort((x, y) => x - y);
const ms = (value: number) => `${value.toFixed(1)} ms`;
/** Percentiles of ascending values. */
const spread = (values: number[]) =>
  `p50 ${ms(percentile(values, 50))}, p95 ${ms(percentile(values, 95))}, p99 ${ms(percentile(values, 99))}, max ${ms(percentile(values, 100))}`;

/** Registers `count` runners (their streams) or users (senders), each from its own address; their cookies. */
function signUpMany(app: AppProcess, role: 'user' | 'runner', count: number, tag: string) {
  return inBatches(
    Array.from({ length: count }, (_, i) => i),
    4,
    (i) => signUpOverHttp(app.origin, role, `b_${role}_${tag}_${i}`, { localAddress: nextLoopback() }),
  );
}

/** One subscriber per request: a runner account's share of `parcels` streams, each from its own address. */
function streamRequests(app: Pick<AppProcess, 'port'>, cookies: string[], count: number): StreamRequest[] {
  return Array.from({ length: count }, (_, i) => ({
    port: app.port,
    topic: 'parcels',
    cookie: cookies[Math.floor(i / STREAMS_PER_ACCOUNT)],
    localAddress: nextLoopback(),
  }));
}

/** Opens the streams over the client processes, round robin; how many each holds. */
async function connect(clients: ClientProcess[], requests: StreamRequest[]) {
  const shares = clients.map((_, c) => requests.filter((_, i) => i % clients.length === c));
  const started = hrNow();
  const results = await Promise.all(clients.map((client, c) => client.open(shares[c] ?? [], CONNECT_CONCURRENCY)));
  const seconds = Number(hrNow() - started) / 1e9;
  const refusals = results.flatMap((r) => r.refusals);
  if (refusals.length > 0) console.log(`refused streams (first few): ${refusals.join(' | ')}`);
  return { seconds, opened: results.map((r) => r.opened) };
}

/** Makes changes through `writer`: a new parcel and a pickup in turn; their delivery to every subscriber. */
class ChangeMaker {
  private readonly agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  private readonly address = nextLoopback();
  private created = 0;
  private readonly waiting: string[] = [];

  constructor(
    private readonly writer: AppProcess,
    private readonly senders: string[],
    private readonly runner: string,
  ) {}

  /** Parcels to be picked up later, made before anyone subscribes. */
  async prepare(pickups: number) {
    for (let i = 0; i < pickups; i++) {
      const response = expectStatus(await this.create(), 201, 'create a waiting parcel');
      this.waiting.push((response.body as { id: string }).id);
    }
  }

  private create() {
    return requestJson(this.writer.origin, '/api/parcels', {
      method: 'POST',
      agent: this.agent,
      localAddress: this.address,
      cookie: this.senders[Math.floor(this.created++ / PARCELS_PER_SENDER)],
      body: {
        senderAddress: '1052 Budapest, Váci utca 12.',
        receiverAddress: '6720 Szeged, Kárász utca 5.',
        category: 'Könyv',
        weightGrams: 750,
        senderCoordinates: { lat: 47.4953, lng: 19.0536 },
        receiverCoordinates: { lat: 46.2524, lng: 20.1484 },
      },
    });
  }

  /** One change; resolves with its key (`kind:parcelId`) and when its request left and its response came. */
  async make(i: number) {
    const pickup = i % 2 === 1 && this.waiting.length > 0;
    const sentAt = hrNow();
    const response = pickup
      ? await requestJson(this.writer.origin, `/api/parcels/${this.waiting.shift()}/pickup`, {
          method: 'POST',
          agent: this.agent,
          localAddress: this.address,
          cookie: this.runner,
        })
      : await this.create();
    const answeredAt = hrNow();
    expectStatus(response, pickup ? 200 : 201, pickup ? 'pickup' : 'create');
    const { id } = response.body as { id: string };
    return { key: `${pickup ? 'picked_up' : 'created'}:${id}`, sentAt, answeredAt };
  }

  close() {
    this.agent.destroy();
  }
}

interface Delivery {
  /** ms from the write's request to each subscriber's copy, per change. */
  fromRequest: number[][];
  /** ms from the write's response to each copy (negative: it arrived before the writer had its answer). */
  fromResponse: number[][];
  missing: number;
}

type MakeChange = (i: number) => Promise<{ key: string; sentAt: bigint; answeredAt: bigint }>;

/** Makes `count` changes one after another, each awaited at every subscriber before the next. */
async function measureChanges(
  make: MakeChange,
  groups: { client: ClientProcess; expected: number }[][],
  count: number,
) {
  const results: Delivery[] = groups.map(() => ({ fromRequest: [], fromResponse: [], missing: 0 }));
  for (let i = 0; i < count; i++) {
    const { key, sentAt, answeredAt } = await make(i);
    const answerMs = Number(answeredAt - sentAt) / 1e6;
    await Promise.all(
      groups.map(async (group, g) => {
        const lists = await Promise.all(
          group.map(({ client, expected }) => client.collect(key, expected, sentAt, DELIVERY_TIMEOUT_MS)),
        );
        const latencies = lists.flat();
        const result = results[g] as Delivery;
        result.fromRequest.push(latencies);
        result.fromResponse.push(latencies.map((latency) => latency - answerMs));
        result.missing += group.reduce((sum, { expected }) => sum + expected, 0) - latencies.length;
      }),
    );
  }
  return results;
}

function printDelivery(label: string, delivery: Delivery, from = "the write's request") {
  const all = sorted(delivery.fromRequest.flat());
  const received = delivery.fromRequest.filter((list) => list.length > 0);
  const lastPerChange = sorted(received.map((list) => list.reduce((x, y) => Math.max(x, y))));
  const firstPerChange = sorted(received.map((list) => list.reduce((x, y) => Math.min(x, y))));
  const allFromResponse = sorted(delivery.fromResponse.flat());
  console.log(
    `${label}: ${all.length} deliveries of ${delivery.fromRequest.length} changes, ${delivery.missing} missing`,
  );
  console.log(`  from ${from}, every delivery: ${spread(all)}`);
  console.log(`  from ${from}, per change, first subscriber: ${spread(firstPerChange)}`);
  console.log(`  from ${from}, per change, last subscriber: ${spread(lastPerChange)}`);
  if (from === "the write's request")
    console.log(`  from the write's response, every delivery: ${spread(allFromResponse)}`);
}

async function startClients(count: number) {
  return Promise.all(Array.from({ length: count }, () => startClientProcess()));
}

/** Phase 1: N subscribers on one instance (SQLite). */
async function singleInstance() {
  const dataDir = mkdtempSync(join(tmpdir(), 'csomagkuldo-bench-live-'));
  const app = await startAppProcess(dataDir, {
    logs: true,
    ...(values['cpu-prof'] ? { cpuProfileDir: values['cpu-prof'] } : {}),
  });
  const clients = await startClients(clientProcessCount);
  const [prober] = await startClients(1);
  const tag = randomBytes(3).toString('hex');
  try {
    const runners = await signUpMany(app, 'runner', Math.ceil(subscriberCount / STREAMS_PER_ACCOUNT) + 1, tag);
    const picker = runners.pop() as string;
    const pickups = Math.floor(changeCount / 2);
    const senders = await signUpMany(app, 'user', Math.ceil((changeCount - pickups) / PARCELS_PER_SENDER) + 1, tag);
    const maker = new ChangeMaker(app, senders, picker);
    await maker.prepare(pickups);

    const before = await app.memory();
    const { seconds, opened } = await connect(clients, streamRequests(app, runners, subscriberCount));
    const after = await app.memory();
    const total = opened.reduce((sum, n) => sum + n, 0);

    await prober?.probe(app.port);
    const probeStarted = hrNow();
    const [delivery] = await measureChanges(
      (i) => maker.make(i),
      [clients.map((client, c) => ({ client, expected: opened[c] ?? 0 }))],
      changeCount,
    );
    const changesSeconds = Number(hrNow() - probeStarted) / 1e9;
    const health = (await prober?.stopProbe()) ?? { latencies: [], failures: 0 };
    maker.close();
    const final = await app.memory();
    const stillOpen = (await Promise.all(clients.map((client) => client.countOpen()))).reduce((a, b) => a + b, 0);

    console.log(`\n== One instance, SQLite: ${total} subscribers ==`);
    console.log(
      `server: the app in child process ${app.pid} (default log level, stdout discarded); subscribers in` +
        ` ${clients.length} client processes (${opened.join(' + ')}), health probe in one more`,
    );
    console.log(
      `subscribers: ${total} runners' streams on 'parcels' (${runners.length} accounts, ≤${STREAMS_PER_ACCOUNT} streams` +
        ` each), each from its own loopback address; ${subscriberCount - total} refused`,
    );
    console.log(
      `connected in ${seconds.toFixed(2)} s (${Math.round(total / seconds)} streams/s, ${CONNECT_CONCURRENCY} at a time per client process)`,
    );
    const delta = (key: 'rss' | 'heapUsed' | 'heapTotal') => after[key] - before[key];
    const perStream = (key: 'rss' | 'heapUsed' | 'heapTotal') => `${(delta(key) / total / 1024).toFixed(2)} KiB`;
    console.log(
      `server memory after a full GC: RSS ${mib(before.rss)} → ${mib(after.rss)} (+${mib(delta('rss'))},` +
        ` ${perStream('rss')} per stream); V8 heap used ${mib(before.heapUsed)} → ${mib(after.heapUsed)}` +
        ` (${perStream('heapUsed')} per stream; heap reserved ${perStream('heapTotal')} per stream)`,
    );
    console.log(
      `\n${changeCount} changes one after another (a new parcel and a pickup in turn; each reaches every` +
        ` subscriber before the next is made), ${changesSeconds.toFixed(1)} s:`,
    );
    if (delivery) printDelivery('delivery', delivery);
    const healthSorted = sorted(health.latencies);
    console.log(
      `GET /api/health meanwhile, back to back on one connection: ${health.latencies.length} answers` +
        ` (${health.failures} failed), ${spread(healthSorted)}`,
    );
    console.log(`streams still open at the end: ${stillOpen}; server RSS then: ${mib(final.rss)}`);
  } finally {
    for (const client of [...clients, ...(prober ? [prober] : [])]) await client.close();
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The floor: a bare node:net server writing each change to every socket in one loop, the same clients. */
async function bareFloor() {
  const bare = await startBareFanOut();
  const clients = await startClients(clientProcessCount);
  try {
    const { seconds, opened } = await connect(clients, streamRequests(bare, [], subscriberCount));
    const make: MakeChange = async () => {
      const key = `created:${randomBytes(5).toString('hex').toUpperCase()}`;
      const sentAt = hrNow();
      await bare.send(key.slice('created:'.length));
      return { key, sentAt, answeredAt: hrNow() };
    };
    const [delivery] = await measureChanges(
      make,
      [clients.map((client, c) => ({ client, expected: opened[c] ?? 0 }))],
      changeCount,
    );
    console.log(
      `
== Floor: a bare node:net server, ${opened.reduce((a, b) => a + b, 0)} sockets (connected in` +
        ` ${seconds.toFixed(2)} s), one loop of socket.write per change, the same client processes ==`,
    );
    if (delivery) printDelivery('delivery', delivery, 'the moment the server is told');
  } finally {
    for (const client of clients) await client.close();
    bare.close();
  }
}

/** Phase 2: two instances on one PostgreSQL: delivery from A to B, and the stream cap across them. */
async function twoInstances(url: string) {
  const schema = `bench_live_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  const dataDir = mkdtempSync(join(tmpdir(), 'csomagkuldo-bench-live-pg-'));
  const instances: AppProcess[] = [];
  const clients: ClientProcess[] = [];
  try {
    // Migrated once here: instances started together would race for it (production takes a lock).
    const store = openStore({ dataDir, databaseUrl: url, pgSchema: schema });
    await migrateToLatest(store);
    await store.close();
    process.env.BENCH_DATABASE_URL = url;
    process.env.BENCH_PG_SCHEMA = schema;
    // The same data dir: both instances share the session secret it holds, as they must.
    for (let i = 0; i < 2; i++) instances.push(await startAppProcess(dataDir, { logs: true }));
    const [a, b] = instances as [AppProcess, AppProcess];
    clients.push(...(await startClients(2)));
    const [onA, onB] = clients as [ClientProcess, ClientProcess];
    const tag = randomBytes(3).toString('hex');

    const runners = await signUpMany(a, 'runner', Math.ceil(crossSubscriberCount / STREAMS_PER_ACCOUNT) + 2, tag);
    const picker = runners.pop() as string;
    const capped = runners.pop() as string;
    const pickups = Math.floor(crossChangeCount / 2);
    const senders = await signUpMany(a, 'user', Math.ceil((crossChangeCount - pickups) / PARCELS_PER_SENDER) + 1, tag);
    const maker = new ChangeMaker(a, senders, picker);
    await maker.prepare(pickups);

    // Half of each account's streams on A, half on B.
    const requests = streamRequests(a, runners, crossSubscriberCount);
    const toB = requests.filter((_, i) => i % 2 === 1).map((request) => ({ ...request, port: b.port }));
    const toA = requests.filter((_, i) => i % 2 === 0);
    const [openedA, openedB] = await Promise.all([
      onA.open(toA, CONNECT_CONCURRENCY),
      onB.open(toB, CONNECT_CONCURRENCY),
    ]);
    const [viaB, local] = await measureChanges(
      (i) => maker.make(i),
      [[{ client: onB, expected: openedB.opened }], [{ client: onA, expected: openedA.opened }]],
      crossChangeCount,
    );
    maker.close();

    console.log(`\n== Two instances, one PostgreSQL (schema ${schema}) ==`);
    console.log(
      `instances: A (pid ${a.pid}) and B (pid ${b.pid}); ${openedA.opened} streams on A and ${openedB.opened} on B` +
        ` ('parcels', runners); ${crossChangeCount} changes made through A, one after another`,
    );
    if (viaB) printDelivery('on B (another instance: commit → NOTIFY → B → stream)', viaB);
    if (local) printDelivery('on A (the writing instance)', local);
    await showCapAcrossInstances(a, b, capped);
  } finally {
    for (const client of clients) await client.close();
    for (const instance of instances) await instance.close();
    delete process.env.BENCH_DATABASE_URL;
    delete process.env.BENCH_PG_SCHEMA;
    await admin.query(`drop schema ${schema} cascade`).catch(() => {});
    await admin.end();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * One account's streams over both instances: the 33rd is refused whichever instance it reaches,
 * and a place freed on one instance is taken on the other.
 */
async function showCapAcrossInstances(a: AppProcess, b: AppProcess, cookie: string) {
  const open = (on: AppProcess) =>
    openStream({ port: on.port, topic: 'parcels', cookie, localAddress: nextLoopback() }, () => {});
  const held: OpenedStream[] = [];
  try {
    for (let i = 0; i < 32; i++) held.push(await open(i % 2 === 0 ? a : b));
    const statuses = held.map((stream) => stream.status);
    const on = (instance: AppProcess) =>
      held.filter((stream, i) => stream.status === 200 && (i % 2 === 0 ? a : b) === instance).length;
    const [onA, onB] = [on(a), on(b)];
    const extraA = await open(a);
    const extraB = await open(b);
    held.push(extraA, extraB);
    console.log(
      `\nper-client cap across instances: one runner account opened ${statuses.filter((s) => s === 200).length} of 32` +
        ` streams (${onA} on A, ${onB} on B); a 33rd on A → ${extraA.status} (${codeOf(extraA)}), on B →` +
        ` ${extraB.status} (${codeOf(extraB)})`,
    );
    // A place freed on A (its lease row deleted once the socket closes) is taken on B.
    held[0]?.socket.destroy();
    await held[0]?.ended;
    const freedAt = hrNow();
    let again: OpenedStream | undefined;
    let attempts = 0;
    while (attempts < 100 && again?.status !== 200) {
      attempts++;
      again?.socket.destroy();
      again = await open(b);
      if (again.status !== 200) await new Promise((resolve) => setTimeout(resolve, 10));
    }
    if (again) held.push(again);
    console.log(
      `one stream closed on A → a new one on B answered ${again?.status} after ${attempts} attempt(s),` +
        ` ${ms(Number(hrNow() - freedAt) / 1e6)}`,
    );
  } finally {
    for (const stream of held) stream.socket.destroy();
  }
}

const codeOf = (stream: OpenedStream) => /"code":"([a-z_]+)"/.exec(stream.error ?? '')?.[1] ?? 'no error code';

console.log(`Live fan-out (SSE) — ${machine()}`);
if (!values['skip-single']) await singleInstance();
if (!values['skip-floor']) await bareFloor();
if (databaseUrl) await twoInstances(databaseUrl);
else console.log('\n(two instances on PostgreSQL: set DATABASE_URL, e.g. postgres://postgres@127.0.0.1:5432/test)');
