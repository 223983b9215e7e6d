/**
 * bench:live's subscriber processes (bench/lib/live-client-child.ts): the machine's event loops
 * that read the streams, apart from the server's and from the benchmark's own.
 */
import { type ChildProcess, fork } from 'node:child_process';
import type { ClientRequest } from './live-client-child.ts';
import type { StreamRequest } from './live-socket.ts';

/** Each kind of request to the child, without the `seq` added when it is sent. */
type WithoutSeq<T> = T extends unknown ? Omit<T, 'seq'> : never;
type Question = WithoutSeq<ClientRequest>;

export interface ClientProcess {
  pid: number;
  /** Opens the streams, `concurrency` at a time; resolves when each is open or refused. */
  open(
    requests: StreamRequest[],
    concurrency: number,
  ): Promise<{ opened: number; refused: number; refusals: string[] }>;
  /**
   * Waits until `expected` subscribers of this process got the change `key` (`kind:parcelId`), or
   * `timeoutMs` passed; ms from `since` (process.hrtime.bigint()) to each arrival.
   */
  collect(key: string, expected: number, since: bigint, timeoutMs: number): Promise<number[]>;
  /** Starts GET /api/health back to back; stopProbe() answers each one's ms. */
  probe(port: number): Promise<void>;
  stopProbe(): Promise<{ latencies: number[]; failures: number }>;
  /** How many of this process's streams are still open. */
  countOpen(): Promise<number>;
  close(): Promise<void>;
}

const childFile = new URL('./live-client-child.ts', import.meta.url).pathname;

export async function startClientProcess(): Promise<ClientProcess> {
  const child: ChildProcess = fork(childFile, [], { execArgv: ['--import', 'tsx'], stdio: 'inherit' });
  const answers = new Map<number, { resolve: (answer: unknown) => void; reject: (error: Error) => void }>();
  let seq = 0;
  let exited = false;
  const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  void gone.then(() => {
    exited = true;
    for (const { reject } of answers.values()) reject(new Error('client process exited'));
  });
  await new Promise<void>((resolve, reject) => {
    child.once('message', () => resolve());
    child.once('exit', (code) => reject(new Error(`client process exited (${code}) before it was ready`)));
  });
  child.on('message', (message: { seq?: number }) => {
    const answer = message.seq === undefined ? undefined : answers.get(message.seq);
    if (!answer || message.seq === undefined) return;
    answers.delete(message.seq);
    answer.resolve(message);
  });
  const ask = <T>(question: Question): Promise<T> =>
    new Promise((resolve, reject) => {
      if (exited) return reject(new Error('client process exited'));
      const id = ++seq;
      answers.set(id, { resolve: (answer) => resolve(answer as T), reject });
      child.send({ ...question, seq: id });
    });
  return {
    pid: child.pid ?? -1,
    open: (requests, concurrency) => ask({ type: 'open', requests, concurrency }),
    async collect(key, expected, since, timeoutMs) {
      const { latencies } = await ask<{ latencies: number[] }>({
        type: 'collect',
        key,
        expected,
        since: since.toString(),
        timeoutMs,
      });
      return latencies;
    },
    probe: async (port) => {
      await ask({ type: 'probe', port });
    },
    stopProbe: () => ask({ type: 'stop-probe' }),
    countOpen: async () => (await ask<{ open: number }>({ type: 'count-open' })).open,
    async close() {
      if (!exited && child.connected) child.send({ type: 'close', seq: 0 });
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await gone;
      clearTimeout(timer);
    },
  };
}
