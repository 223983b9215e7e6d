import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { type Agent, request as httpRequest, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SESSION_COOKIE } from '@csomag/domain/constants';
import { LIVE_EVENT, type LiveChange } from '@csomag/domain/live';
import { liveChangeSchema } from '@csomag/domain/live-schemas';
import pg from 'pg';
import { parseSseBlock, type SseBlock } from './sse.ts';

/**
 * Real instances of the server as child processes (`node --import tsx server/src/main.ts`), the
 * way a load balancer sees them: their own ports, their own process state, signals, exit codes
 * and JSON log lines. For what only several processes or a real SIGTERM can show; everything else
 * is tested in process with test/harness.ts.
 */

const repoRoot = new URL('../../../', import.meta.url).pathname;
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A free port on loopback: the OS picks one for a listener that is closed at once. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** A secret that the instances of one test share, as the instances behind one load balancer must. */
export const newSessionSecret = () => randomBytes(32).toString('base64url');

/** One pino log line as the server writes it. */
export interface LogLine {
  level: number;
  msg?: string;
  [field: string]: unknown;
}

export interface InstanceExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** From the last kill() (or the spawn, when never signalled) to the exit. For diagnostics, not for assertions. */
  afterMs: number;
}

export interface Instance {
  name: string;
  url: string;
  pid: number;
  /** Everything the process wrote so far, stdout and stderr interleaved as received. */
  logs(): string;
  /** The JSON lines of logs(); anything else (a stack trace, console.log) is left out. */
  logLines(): LogLine[];
  /** Waits until a log line matches; throws with the log when none did within the time. */
  waitForLog(match: (line: LogLine) => boolean, timeoutMs?: number): Promise<LogLine>;
  kill(signal?: NodeJS.Signals): void;
  hasExited(): boolean;
  exited: Promise<InstanceExit>;
}

export interface StartOptions {
  name: string;
  /** On top of the defaults below: DATABASE_URL, SESSION_SECRET, ADMIN_EMAIL, SHUTDOWN_TIMEOUT… */
  env?: Record<string, string>;
  /** How long to wait for GET /api/health to answer 200. */
  readyWithinMs?: number;
}

const running = new Set<{ child: ChildProcess; instance: Instance }>();
const scratchDirs: string[] = [];

/** The tail of an instance's output, for an error message. */
const tail = (text: string, lines = 60) => text.split('\n').slice(-lines).join('\n');

/**
 * Starts one instance and resolves once GET /api/health answers 200. The environment is built from
 * scratch (not the test runner's), so nothing of the developer's shell leaks in: an API-only
 * server on loopback, offline geocoder, no demo data, its own scratch DATA_DIR unless given.
 */
export async function startInstance({ name, env = {}, readyWithinMs = 30_000 }: StartOptions): Promise<Instance> {
  const port = await freePort();
  const dataDir = env.DATA_DIR ?? mkdtempSync(join(tmpdir(), `csomag-it-${name.replace(/\W/g, '')}-`));
  if (!env.DATA_DIR) scratchDirs.push(dataDir);
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/src/main.ts'], {
    cwd: repoRoot,
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: process.env.HOME ?? tmpdir(),
      PORT: String(port),
      HOST: '127.0.0.1',
      WEB_DIST: '',
      LOG_LEVEL: 'info',
      DEMO_DATA: '0',
      GEOCODER: 'offline',
      DATA_DIR: dataDir,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    output += chunk;
  });
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    output += chunk;
  });
  let signalledAt = Date.now();
  let exitedNow = false;
  const exited = new Promise<InstanceExit>((resolve) => {
    // 'close', not 'exit': by then every line the process wrote has been read.
    child.on('close', (code, signal) => {
      exitedNow = true;
      resolve({ code, signal, afterMs: Date.now() - signalledAt });
    });
  });

  const logLines = () => {
    const lines: LogLine[] = [];
    for (const text of output.split('\n')) {
      if (!text.startsWith('{')) continue;
      try {
        lines.push(JSON.parse(text) as LogLine);
      } catch {
        // A line still being written.
      }
    }
    return lines;
  };
  const instance: Instance = {
    name,
    url: `http://127.0.0.1:${port}`,
    pid: child.pid ?? 0,
    logs: () => output,
    logLines,
    async waitForLog(match, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = logLines().find(match);
        if (found) return found;
        if (Date.now() >= deadline)
          throw new Error(`${name}: no such log line within ${timeoutMs} ms\n${tail(output)}`);
        await sleep(50);
      }
    },
    kill(signal = 'SIGTERM') {
      signalledAt = Date.now();
      child.kill(signal);
    },
    hasExited: () => exitedNow,
    exited,
  };
  const entry = { child, instance };
  running.add(entry);
  void exited.then(() => running.delete(entry));

  const deadline = Date.now() + readyWithinMs;
  for (;;) {
    if (exitedNow) {
      const { code, signal } = await exited;
      throw new Error(`${name} exited before it answered (code ${code}, signal ${signal})\n${tail(output)}`);
    }
    const health = await request(instance.url, '/api/health').catch(() => undefined);
    if (health?.status === 200) return instance;
    if (Date.now() >= deadline) {
      child.kill('SIGKILL');
      throw new Error(`${name} did not answer /api/health within ${readyWithinMs} ms\n${tail(output)}`);
    }
    await sleep(100);
  }
}

/** For afterAll: kills whatever a test left running (SIGKILL) and removes the scratch data dirs. */
export async function stopAllInstances(): Promise<void> {
  const left = [...running];
  for (const { child } of left) child.kill('SIGKILL');
  await Promise.all(left.map(({ instance }) => instance.exited));
  for (const dir of scratchDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/* ------------------------------------------------------------------ PostgreSQL */

export interface TestDatabase {
  name: string;
  /** DATABASE_URL for the instances. */
  url: string;
  /** A query on this database (checks the tests make from outside the app). */
  query<Row extends pg.QueryResultRow = pg.QueryResultRow>(text: string, values?: unknown[]): Promise<Row[]>;
  /** A query on the maintenance database of TEST_DATABASE_URL (ALTER DATABASE, terminating backends). */
  adminQuery<Row extends pg.QueryResultRow = pg.QueryResultRow>(text: string, values?: unknown[]): Promise<Row[]>;
  /** Drops the database, whoever is still connected to it. */
  drop(): Promise<void>;
}

/**
 * A fresh, empty database beside TEST_DATABASE_URL's, one per test file: instances started on it
 * migrate it themselves, as in production (the in-process harness uses a schema instead).
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) throw new Error('createTestDatabase needs TEST_DATABASE_URL');
  const name = `csk_it_${randomBytes(6).toString('hex')}`;
  const run = async <Row extends pg.QueryResultRow>(connectionString: string, text: string, values?: unknown[]) => {
    const client = new pg.Client({ connectionString, application_name: 'csomagkuldo-test' });
    await client.connect();
    try {
      return (await client.query<Row>(text, values)).rows;
    } finally {
      await client.end();
    }
  };
  await run(adminUrl, `create database ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    query: (text, values) => run(url.toString(), text, values),
    adminQuery: (text, values) => run(adminUrl, text, values),
    async drop() {
      await run(adminUrl, `drop database if exists ${name} with (force)`);
    },
  };
}

/** The stores instances run on in these tests: SQLite always, PostgreSQL when TEST_DATABASE_URL is set. */
export const instanceStores = [
  { store: 'sqlite', enabled: true },
  { store: 'postgres', enabled: Boolean(process.env.TEST_DATABASE_URL) },
] as const;

const storeDatabases: TestDatabase[] = [];

/**
 * The environment for instances that share one store: a session secret, a data folder kept
 * across restarts, and on PostgreSQL a database of their own. All removed by removeStores.
 */
export async function storeEnvironment(store: 'sqlite' | 'postgres', name: string): Promise<Record<string, string>> {
  const dataDir = mkdtempSync(join(tmpdir(), `csomag-it-${name.replace(/\W/g, '')}-`));
  scratchDirs.push(dataDir);
  const env: Record<string, string> = { SESSION_SECRET: newSessionSecret(), DATA_DIR: dataDir };
  if (store === 'postgres') {
    const database = await createTestDatabase();
    storeDatabases.push(database);
    env.DATABASE_URL = database.url;
  }
  return env;
}

/** For afterAll: stops every instance, then drops the stores storeEnvironment made. */
export async function removeStores(): Promise<void> {
  await stopAllInstances();
  for (const database of storeDatabases.splice(0)) await database.drop();
}

/* ------------------------------------------------------------------ HTTP */

export interface ApiResponse {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  /** The body parsed as JSON; undefined when it is not JSON. */
  json: unknown;
  /** `csk_session=…` when the response set a session cookie. */
  cookie: string | undefined;
}

export interface RequestOptions {
  method?: string;
  body?: unknown;
  cookie?: string | undefined;
  headers?: Record<string, string>;
  /** Own connection by default (Connection: close); pass a keep-alive agent to keep the socket. */
  agent?: Agent | false;
}

/**
 * One API request over a real socket, with node:http rather than fetch: no Origin or Sec-Fetch-*
 * headers the test did not ask for, and control over the connection.
 */
export function request(baseUrl: string, path: string, options: RequestOptions = {}): Promise<ApiResponse> {
  const { method = 'GET', body, cookie, headers = {}, agent = false } = options;
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      `${baseUrl}${path}`,
      {
        method,
        agent,
        headers: {
          accept: 'application/json',
          ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
          ...(cookie ? { cookie } : {}),
          ...headers,
        },
      },
      (response) => {
        readResponse(response).then(resolve, reject);
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

async function readResponse(response: IncomingMessage): Promise<ApiResponse> {
  response.setEncoding('utf8');
  let text = '';
  for await (const chunk of response) text += chunk;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  const session = (response.headers['set-cookie'] ?? []).find((c) => c.startsWith(`${SESSION_COOKIE}=`));
  return {
    status: response.statusCode ?? 0,
    headers: response.headers,
    text,
    json,
    cookie: session?.split(';')[0],
  };
}

/** Whether an error is the socket being refused or reset: the instance is not listening (any more). */
export const isConnectionError = (error: unknown) =>
  error instanceof Error &&
  ['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT'].includes((error as NodeJS.ErrnoException).code ?? '');

/* ------------------------------------------------------------------ Server-Sent Events */

export interface EventStream {
  status: number;
  headers: IncomingHttpHeaders;
  /** The JSON error body when the stream was refused. */
  json: unknown;
  /** Every block received so far, parsed, in order (heartbeats and `retry:` included). */
  blocks: SseBlock[];
  /** Resolves when the response ended, was closed or failed, from either side. */
  ended: Promise<void>;
  isEnded(): boolean;
  /** Waits for a block (already received or coming) that matches; null when the stream ended or time ran out first. */
  waitForBlock(match: (block: SseBlock) => boolean, timeoutMs?: number): Promise<SseBlock | null>;
  close(): void;
}

/**
 * Opens GET /api/events on its own connection and reads it block by block. Resolves with the
 * refusal (status and JSON body) when it is not a 200, and after the first block (the `retry:`
 * hint the hub writes once the stream is subscribed) when it is.
 */
export function openStream(
  baseUrl: string,
  topics: string,
  headers: Record<string, string> = {},
  subscribedWithinMs = 10_000,
): Promise<EventStream> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${baseUrl}/api/events?topics=${encodeURIComponent(topics)}`, {
      agent: false,
      headers: { accept: 'text/event-stream', ...headers },
    });
    req.on('error', reject);
    // Until the headers come; after that a quiet stream is normal (heartbeats every 25 s).
    const noAnswer = setTimeout(
      () => req.destroy(new Error(`${baseUrl}: no answer to the event stream within ${subscribedWithinMs} ms`)),
      subscribedWithinMs,
    );
    req.on('response', (response) => {
      clearTimeout(noAnswer);
      if (response.statusCode !== 200) {
        readResponse(response).then(
          ({ status, headers: responseHeaders, json }) =>
            resolve({
              status,
              headers: responseHeaders,
              json,
              blocks: [],
              ended: Promise.resolve(),
              isEnded: () => true,
              waitForBlock: async () => null,
              close: () => {},
            }),
          reject,
        );
        return;
      }
      response.setEncoding('utf8');
      const blocks: SseBlock[] = [];
      const waiters = new Set<() => void>();
      const wakeAll = () => {
        for (const wake of waiters) wake();
      };
      let buffer = '';
      let ended = false;
      let endStream: () => void = () => {};
      const endedPromise = new Promise<void>((done) => {
        endStream = done;
      });
      const finish = () => {
        if (ended) return;
        ended = true;
        endStream();
        wakeAll();
      };
      response.on('data', (chunk: string) => {
        buffer += chunk;
        for (let end = buffer.indexOf('\n\n'); end !== -1; end = buffer.indexOf('\n\n')) {
          blocks.push(parseSseBlock(buffer.slice(0, end)));
          buffer = buffer.slice(end + 2);
        }
        wakeAll();
      });
      response.on('end', finish);
      response.on('close', finish);
      response.on('error', finish);
      req.on('close', finish);

      const waitForBlock = async (match: (block: SseBlock) => boolean, timeoutMs = 10_000) => {
        const deadline = Date.now() + timeoutMs;
        for (;;) {
          const found = blocks.find(match);
          if (found) return found;
          if (ended || Date.now() >= deadline) return null;
          await new Promise<void>((wake) => {
            const timer = setTimeout(done, deadline - Date.now());
            function done() {
              clearTimeout(timer);
              waiters.delete(done);
              wake();
            }
            waiters.add(done);
          });
        }
      };
      const stream: EventStream = {
        status: 200,
        headers: response.headers,
        json: undefined,
        blocks,
        ended: endedPromise,
        isEnded: () => ended,
        waitForBlock,
        close: () => {
          response.destroy();
          req.destroy();
        },
      };
      waitForBlock(() => true, subscribedWithinMs).then((first) => {
        if (first) resolve(stream);
        else {
          stream.close();
          reject(new Error(`${baseUrl}: the event stream sent nothing within ${subscribedWithinMs} ms`));
        }
      }, reject);
    });
    req.end();
  });
}

/** A change message as one client received it, and from which instance. */
export interface ReceivedChange extends LiveChange {
  id: string | undefined;
  from: string;
}

export interface Upstream {
  name: string;
  url: string;
}

export interface Connection {
  to: string;
  /** The Last-Event-ID sent when opening it. */
  lastEventId: string | undefined;
}

/**
 * A browser's EventSource behind a load balancer: it reads one instance's stream, and when the
 * stream ends or fails it waits the server's `retry:` hint and reconnects to the next instance in
 * the list that accepts it, sending `Last-Event-ID` with the last id it received.
 */
export class ReconnectingEventSource {
  /** Every change message received, in order, across all connections. */
  readonly received: ReceivedChange[] = [];
  /** Every stream that was opened and subscribed, in order. */
  readonly connections: Connection[] = [];
  lastEventId: string | undefined;
  /** The server's latest `retry:` hint; 3 s until one comes, like a browser. */
  retryMs = 3000;
  private stream: EventStream | undefined;
  private streamOn: string | undefined;
  private closed = false;
  private hold: Promise<void> | undefined;
  private releaseHold: (() => void) | undefined;
  private readonly waiters = new Set<() => void>();

  constructor(
    private readonly upstreams: Upstream[],
    private readonly topics: string,
    private readonly headers: Record<string, string> = {},
  ) {}

  /** The instance whose stream is open and subscribed now; undefined while reconnecting. */
  get connectedTo(): string | undefined {
    return this.stream && !this.stream.isEnded() ? this.streamOn : undefined;
  }

  /** Connects to the first instance (from `startAt`) that accepts; resolves once subscribed, then keeps going. */
  async start(startAt = 0): Promise<void> {
    const index = await this.connectFrom(startAt);
    if (index === undefined) throw new Error(`no instance accepted the stream ${this.topics}`);
    void this.follow(index);
  }

  /** From now on, a lost stream waits for release() before it reconnects (after the retry hint). */
  holdReconnects() {
    this.hold ??= new Promise((resolve) => {
      this.releaseHold = resolve;
    });
  }

  releaseReconnects() {
    this.releaseHold?.();
    this.hold = undefined;
    this.releaseHold = undefined;
  }

  /** Waits until a received change matches; throws with what was received when none did in time. */
  async waitFor(match: (change: ReceivedChange) => boolean, timeoutMs = 15_000): Promise<ReceivedChange> {
    const found = await this.until(() => this.received.find(match), timeoutMs);
    if (!found) {
      throw new Error(`no matching change within ${timeoutMs} ms; received ${JSON.stringify(this.received)}`);
    }
    return found;
  }

  /** Waits until the stream is open and subscribed on this instance. */
  async waitUntilConnectedTo(name: string, timeoutMs = 20_000): Promise<void> {
    const on = await this.until(() => this.connectedTo === name || undefined, timeoutMs);
    if (!on) throw new Error(`not connected to ${name} within ${timeoutMs} ms (on ${this.connectedTo ?? 'none'})`);
  }

  /** Waits until the current stream has ended. */
  async waitUntilDisconnected(timeoutMs = 20_000): Promise<boolean> {
    return (await this.until(() => this.connectedTo === undefined || undefined, timeoutMs)) ?? false;
  }

  close() {
    this.closed = true;
    this.releaseReconnects();
    this.stream?.close();
    this.notify();
  }

  private async until<T>(check: () => T | undefined, timeoutMs: number): Promise<T | undefined> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = check();
      if (value !== undefined) return value;
      if (this.closed || Date.now() >= deadline) return undefined;
      await new Promise<void>((wake) => {
        const timer = setTimeout(done, Math.min(deadline - Date.now(), 250));
        const waiters = this.waiters;
        function done() {
          clearTimeout(timer);
          waiters.delete(done);
          wake();
        }
        waiters.add(done);
      });
    }
  }

  private notify() {
    for (const wake of this.waiters) wake();
  }

  /** Tries each instance once, from `from` on, wrapping round; the index of the one that took the stream. */
  private async connectFrom(from: number): Promise<number | undefined> {
    for (let step = 0; step < this.upstreams.length && !this.closed; step++) {
      const index = (from + step) % this.upstreams.length;
      const upstream = this.upstreams[index];
      if (!upstream) continue;
      const lastEventId = this.lastEventId;
      const stream = await openStream(upstream.url, this.topics, {
        ...this.headers,
        ...(lastEventId === undefined ? {} : { 'last-event-id': lastEventId }),
      }).catch(() => undefined);
      if (stream?.status !== 200) continue;
      if (this.closed) {
        stream.close();
        return undefined;
      }
      this.stream = stream;
      this.streamOn = upstream.name;
      this.connections.push({ to: upstream.name, lastEventId });
      this.watch(stream, upstream.name);
      return index;
    }
    return undefined;
  }

  /** Takes in what a stream sends, as it comes. */
  private watch(stream: EventStream, from: string) {
    let seen = 0;
    const take = () => {
      for (; seen < stream.blocks.length; seen++) {
        const block = stream.blocks[seen];
        if (!block) continue;
        if (block.retry !== undefined) this.retryMs = block.retry;
        if (block.id !== undefined) this.lastEventId = block.id;
        if (block.event === LIVE_EVENT && block.data !== undefined) {
          const change = liveChangeSchema.parse(JSON.parse(block.data));
          this.received.push({ ...change, id: block.id, from });
        }
      }
      this.notify();
    };
    take();
    void (async () => {
      while (!stream.isEnded()) {
        await stream.waitForBlock((_block) => stream.blocks.length > seen, 60_000);
        take();
      }
      take();
    })();
  }

  /** The reconnect loop: after each lost stream, the retry hint, the hold if any, then the next instance. */
  private async follow(index: number) {
    let current = index;
    while (!this.closed) {
      await this.stream?.ended;
      this.notify();
      if (this.closed) return;
      await sleep(this.retryMs);
      if (this.hold) await this.hold;
      let next: number | undefined;
      while (!this.closed && next === undefined) {
        next = await this.connectFrom(current + 1);
        if (next === undefined) await sleep(this.retryMs);
      }
      if (next !== undefined) current = next;
    }
  }
}
