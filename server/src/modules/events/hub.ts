import { randomInt } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { LIVE_EVENT, type LiveChange } from '@csomag/domain/live';
import type { FastifyBaseLogger } from 'fastify';
import type { LoggedChange } from '../../db/change-feed.ts';
import { type Subscriber, topicsFor } from './topics.ts';

/** What was committed after an event id, from the shared change log; null when it cannot say. */
export type Replay = (afterId: number, limit: number) => Promise<LoggedChange[] | null>;

export interface HubOptions {
  replay: Replay;
  log?: Pick<FastifyBaseLogger, 'info' | 'debug' | 'warn'> | undefined;
  heartbeatMs?: number;
  /** At most this many missed changes are replayed; a client further behind refetches (it does on reconnect). */
  replayLimit?: number;
  retryMs?: number;
}

interface Stream {
  response: ServerResponse;
  subscriber: Subscriber;
  /** Changes up to this id are not sent again (the client said it has them). */
  after: number;
  /** Live changes that arrive while the replay is read wait here, so the client gets them in order. */
  pending: LoggedChange[] | undefined;
}

/** A client that stopped reading is dropped rather than buffered for without limit. */
const MAX_BUFFERED_BYTES = 256 * 1024;

/**
 * This instance's Server-Sent-Events clients. Each committed change is written to every stream
 * whose topics it matches, as one message per matched topic, under the change's id from the
 * shared log — the same id on every instance, so a client resumes anywhere:
 * `id: <n>\nevent: change\ndata: {"topic","kind","parcelId","status"}\n\n`.
 */
export class LiveHub {
  private readonly streams = new Set<Stream>();
  private readonly heartbeat: NodeJS.Timeout;
  private readonly replay: Replay;
  private readonly log: HubOptions['log'];
  private readonly replayLimit: number;
  private readonly retryMs: number;

  constructor({ replay, log, heartbeatMs = 25_000, replayLimit = 1000, retryMs = 3000 }: HubOptions) {
    this.replay = replay;
    this.log = log;
    this.replayLimit = replayLimit;
    this.retryMs = retryMs;
    // A comment line keeps proxies and load balancers from closing a quiet stream.
    this.heartbeat = setInterval(() => {
      for (const stream of this.streams) this.write(stream, ': heartbeat\n\n');
    }, heartbeatMs).unref();
  }

  get size() {
    return this.streams.size;
  }

  /**
   * Takes over an open response whose headers are written; replays what a client resuming from
   * `lastEventId` missed, then goes live. Resolves once the replay is written.
   */
  async add(response: ServerResponse, subscriber: Subscriber, lastEventId: string | undefined) {
    const resumeFrom = lastEventId && /^\d{1,15}$/.test(lastEventId) ? Number(lastEventId) : undefined;
    const stream: Stream = { response, subscriber, after: resumeFrom ?? 0, pending: resumeFrom ? [] : undefined };
    this.streams.add(stream);
    response.on('close', () => this.streams.delete(stream));
    this.write(stream, `retry: ${this.retryMs}\n\n`);
    if (resumeFrom === undefined) return;
    const missed = await this.replay(resumeFrom, this.replayLimit).catch((error: unknown) => {
      this.log?.warn({ err: error }, 'replaying missed changes failed');
      return null;
    });
    // Unknown or too far behind: nothing to replay; the client refetches its lists on reconnect.
    for (const entry of [...(missed ?? []), ...(stream.pending ?? [])]) this.send(stream, entry);
    stream.pending = undefined;
  }

  /** Writes a committed change to every stream it concerns; returns how many it reached. */
  publish(entry: LoggedChange): number {
    let reached = 0;
    for (const stream of this.streams) {
      if (stream.pending) stream.pending.push(entry);
      else if (this.send(stream, entry)) reached++;
    }
    const level = entry.change.kind === 'runner_located' ? 'debug' : 'info';
    this.log?.[level](
      { reqId: entry.requestId, changeId: entry.id, parcelId: entry.change.parcelId, kind: entry.change.kind, reached },
      'change sent to live streams',
    );
    return reached;
  }

  /**
   * Draining: each client is told to come back after a short, spread-out pause — by then this
   * instance no longer accepts connections, so the load balancer sends it to another — and its
   * stream is ended. Last-Event-ID makes the other instance replay what happened in between.
   */
  drain(retryMs = 1000) {
    for (const stream of this.streams) {
      this.write(stream, `retry: ${retryMs + randomInt(retryMs)}\n\n`);
      stream.response.end();
    }
    this.streams.clear();
  }

  /** Ends every stream (app.close()); browsers reconnect to another instance. */
  close() {
    clearInterval(this.heartbeat);
    this.drain();
  }

  private send(stream: Stream, entry: LoggedChange): boolean {
    if (entry.id <= stream.after) return false;
    stream.after = entry.id;
    let sent = false;
    for (const topic of topicsFor(stream.subscriber, entry.change)) {
      const { kind, parcelId, status } = entry.change;
      const data: LiveChange = { topic, kind, parcelId, status };
      this.write(stream, `id: ${entry.id}\nevent: ${LIVE_EVENT}\ndata: ${JSON.stringify(data)}\n\n`);
      sent = true;
    }
    return sent;
  }

  private write(stream: Stream, text: string) {
    const { response } = stream;
    if (response.writableEnded || response.destroyed) return;
    if (response.writableLength > MAX_BUFFERED_BYTES) {
      this.streams.delete(stream);
      response.destroy();
      return;
    }
    response.write(text);
  }
}
