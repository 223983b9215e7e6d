/**
 * Helpers shared by the HTTP benchmarks: the real app in a child process (bench/lib/app-child.ts)
 * listening on 127.0.0.1:<free port> over a given data dir, a small JSON client on node:http, and
 * percentiles. Loopback only; the child exits when the benchmark closes it or disappears.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import http from 'node:http';
import { cpus, loadavg } from 'node:os';

export interface AppProcess {
  origin: string;
  port: number;
  pid: number;
  /** The server process's memory, after a full garbage collection. */
  memory(): Promise<NodeJS.MemoryUsage>;
  close(): Promise<void>;
}

const childFile = new URL('./app-child.ts', import.meta.url).pathname;

function waitFor<T>(child: ChildProcess, type: string, timeoutMs: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => done(new Error(`app process: no '${type}' within ${timeoutMs} ms`)), timeoutMs);
    const onMessage = (message: { type?: string } & T) => {
      if (message.type === type) done(null, message);
    };
    const onExit = (code: number | null) => done(new Error(`app process exited (${code}) before '${type}'`));
    function done(error: Error | null, value?: T) {
      clearTimeout(timer);
      child.off('message', onMessage);
      child.off('exit', onExit);
      if (error) reject(error);
      else resolve(value as T);
    }
    child.on('message', onMessage);
    child.on('exit', onExit);
  });
}

/**
 * Starts the real app on 127.0.0.1 (port 0) over `dataDir` (it migrates); `bare`: bare Fastify with
 * GET / → constant JSON instead, to measure the machine's ceiling with the same load generator.
 */
export async function startAppProcess(
  dataDir: string,
  options: {
    trustProxy?: boolean;
    bare?: boolean;
    /** bare: a JSON file of path → response text, each answered as those exact bytes. */
    bareRoutes?: string;
    /** The app at its default log level (as in production), its stdout thrown away. */
    logs?: boolean;
    /** Writes a V8 CPU profile of the server process into this folder when it exits. */
    cpuProfileDir?: string;
  } = {},
): Promise<AppProcess> {
  const child = fork(childFile, [], {
    execArgv: [
      '--import',
      'tsx',
      '--expose-gc',
      ...(options.cpuProfileDir ? ['--cpu-prof', '--cpu-prof-dir', options.cpuProfileDir] : []),
    ],
    env: {
      ...process.env,
      BENCH_DATA_DIR: dataDir,
      BENCH_TRUST_PROXY: options.trustProxy ? '1' : '0',
      BENCH_BARE: options.bare ? '1' : '0',
      BENCH_BARE_ROUTES: options.bareRoutes ?? '',
      BENCH_LOGS: options.logs ? '1' : '0',
    },
    stdio: ['ignore', options.logs ? 'ignore' : 'inherit', 'inherit', 'ipc'],
  });
  const { port } = await waitFor<{ port: number }>(child, 'ready', 60_000);
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    pid: child.pid ?? -1,
    async memory() {
      const reply = waitFor<{ memory: NodeJS.MemoryUsage }>(child, 'memory', 10_000);
      child.send({ type: 'memory' });
      return (await reply).memory;
    },
    async close() {
      if (child.exitCode === null && child.connected) child.send({ type: 'close' });
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

export interface JsonResponse {
  status: number;
  body: unknown;
  text: string;
  cookie: string | undefined;
  /** performance.now() when the request was sent and when its response had fully arrived. */
  sentAt: number;
  receivedAt: number;
}

export interface JsonRequest {
  method?: string;
  cookie?: string | undefined;
  body?: unknown;
  /** Presented as the client's address (the app trusts it only with TRUST_PROXY). */
  forwardedFor?: string;
  /** The loopback address to connect from (127.x.y.z): the app sees it as the client's address. */
  localAddress?: string;
  agent?: http.Agent;
}

/** One JSON request on node:http; the session cookie of the response, if any, comes back ready to send. */
export function requestJson(origin: string, path: string, options: JsonRequest = {}): Promise<JsonResponse> {
  const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
  const headers: http.OutgoingHttpHeaders = { accept: 'application/json' };
  if (payload !== undefined) headers['content-type'] = 'application/json';
  if (options.cookie) headers.cookie = options.cookie;
  if (options.forwardedFor) headers['x-forwarded-for'] = options.forwardedFor;
  return new Promise((resolve, reject) => {
    const sentAt = performance.now();
    const request = http.request(
      new URL(path, origin),
      {
        method: options.method ?? 'GET',
        headers,
        ...(options.localAddress ? { localAddress: options.localAddress } : {}),
        ...(options.agent ? { agent: options.agent } : {}),
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', reject);
        response.on('end', () => {
          const receivedAt = performance.now();
          const text = Buffer.concat(chunks).toString('utf8');
          let body: unknown = text;
          try {
            body = JSON.parse(text);
          } catch {}
          const session = (response.headers['set-cookie'] ?? [])
            .map((line) => line.split(';')[0] ?? '')
            .find((pair) => pair.startsWith('csk_session='));
          resolve({ status: response.statusCode ?? 0, body, text, cookie: session, sentAt, receivedAt });
        });
      },
    );
    request.on('error', reject);
    request.end(payload);
  });
}

/** Fails with the response when the status is not the expected one (set-up steps, never timings). */
export function expectStatus(response: JsonResponse, status: number, what: string): JsonResponse {
  if (response.status !== status) throw new Error(`${what}: HTTP ${response.status} ${response.text.slice(0, 300)}`);
  return response;
}

/** Registers a throwaway user or runner through the API; returns its session cookie. */
export async function signUpOverHttp(
  origin: string,
  role: 'user' | 'runner',
  userName: string,
  connection: Pick<JsonRequest, 'forwardedFor' | 'localAddress'> = {},
): Promise<string> {
  const response = await requestJson(origin, '/api/auth/register', {
    method: 'POST',
    ...connection,
    body: {
      role,
      name: `Bench ${role === 'user' ? 'Elek' : 'Futár'} ${userName}`,
      userName,
      email: `${userName}@example.hu`,
      password: 'titkos-jelszo',
      phoneNumber: '+36 30 111 2222',
      address: '1052 Budapest, Váci utca 12',
    },
  });
  const { cookie } = expectStatus(response, 201, `register ${userName}`);
  if (!cookie) throw new Error(`no session cookie for ${userName}`);
  return cookie;
}

/** Runs `task` over `items`, at most `limit` at a time. */
export async function inBatches<T, R>(
  items: readonly T[],
  limit: number,
  task: (item: T, index: number) => Promise<R>,
) {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await task(items[index] as T, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/** A distinct client address per call, from a private range: 10.a.b.c. */
export function addressSequence(first = 1): () => string {
  let n = first;
  return () => {
    const value = n++;
    return `10.${(value >> 16) & 255}.${(value >> 8) & 255}.${value & 255}`;
  };
}

export const percentile = (sorted: readonly number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? Number.NaN;

/**
 * CPU seconds (user + system, every thread) a process has used so far, from /proc (Linux): what a
 * server spends per request, whatever share of the cores the load generator beside it takes.
 */
export function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The fields after the command name (which may hold spaces) start at field 3; utime and stime are 14 and 15.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND;
}
/** CPU seconds used so far by every process named postgres on this machine (all its databases). */
export function postgresCpuSeconds(): number {
  let total = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (!stat.includes('(postgres)')) continue;
      total += cpuSeconds(Number(entry));
    } catch {
      // Gone meanwhile.
    }
  }
  return total;
}

/** sysconf(_SC_CLK_TCK): 100 on every Linux Node supports. */
const CLOCK_TICKS_PER_SECOND = 100;

export const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;

/** The machine, and how busy it already is (others may be working on it: read the figures with that). */
export const machine = () =>
  `${cpus().length} cores (${cpus()[0]?.model.trim() ?? 'unknown CPU'}), Node ${process.version},` +
  ` load average ${loadavg()
    .map((n) => n.toFixed(2))
    .join(' ')} at the start`;
