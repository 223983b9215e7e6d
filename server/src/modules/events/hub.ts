import { randomInt } from 'node:crypto';
import type { Socket } from 'node:net';
import { LIVE_EVENT, type LiveChange, type LiveTopic } from '@csomag/domain/live';
import type { FastifyBaseLogger } from 'fastify';
import { isParcelEntry, type LoggedChange, type ParcelChange, type RunnerTrustChange } from '../../db/change-feed.ts';
import { TimeSlice } from '../../time-slice.ts';
import { type ChangeFacts, describeChange, mayHearOffer, type Subscriber, topicsOf } from './topics.ts';

/** What was committed after an event id, from the shared change log; null when it cannot say. */
export type Replay = (afterId: number, limit: number) => Promise<LoggedChange[] | null>;

export interface HubOptions {
  replay: Replay;
  log?: Pick<FastifyBaseLogger, 'info' | 'debug' | 'warn'> | undefined;
  heartbeatMs?: number;
  /** At most this many missed changes are replayed; a client further behind refetches (it does on reconnect). */
  replayLimit?: number;
  retryMs?: number;
  /** A stream with more than this many bytes waiting for its client is dropped (docs/decisions/0014). */
  maxBufferedBytes?: number;
  /** How long a fan-out writes before the event loop gets a turn (other requests are answered in between). */
  sliceMs?: number;
}

/** Released when its stream ends: the per-client stream cap (leases.ts). */
export interface StreamOwner {
  release(): void;
}

/** One open stream: kept small, there may be tens of thousands (docs/decisions/0014). */
interface Stream {
  socket: Socket;
  subscriber: Subscriber;
  /** Changes up to this id are not sent again (the client said it has them). */
  after: number;
  /** Live changes that arrive while the replay is read wait here, so the client gets them in order. */
  pending: LoggedChange<ParcelChange>[] | undefined;
  lease: StreamOwner | undefined;
}

export const MAX_BUFFERED_BYTES = 256 * 1024;
/** ~300 streams here: a request arriving mid-fan-out waits at most about this long. */
const SLICE_MS = 5;
/** How many streams are written between two looks at the clock. */
const CLOCK_EVERY = 32;
const HEARTBEAT = Buffer.from(': heartbeat\n\n');

/**
 * The bytes of one change's messages, made once per topic and shared by every stream that gets
 * them: a change reaching 10,000 `parcels` streams is serialised once, not 10,000 times.
 */
class ChangeMessages {
  private readonly byTopic = new Map<LiveTopic, Buffer>();
  readonly facts: ChangeFacts;
  /** Streams it was written to, for the log. */
  reached = 0;

  constructor(readonly entry: LoggedChange<ParcelChange>) {
    this.facts = describeChange(entry.change);
  }

  for(topic: LiveTopic): Buffer {
    let message = this.byTopic.get(topic);
    if (!message) {
      const { kind, parcelId, status } = this.entry.change;
      const data: LiveChange = { topic, kind, parcelId, status };
      message = Buffer.from(`id: ${this.entry.id}\nevent: ${LIVE_EVENT}\ndata: ${JSON.stringify(data)}\n\n`);
      this.byTopic.set(topic, message);
    }
    return message;
  }
}

/**
 * This instance's Server-Sent-Events clients. Each committed change is written to every stream
 * whose topics it matches, as one message per matched topic, under the change's id from the
 * shared log — the same id on every instance, so a client resumes anywhere:
 * `id: <n>\nevent: change\ndata: {"topic","kind","parcelId","status"}\n\n`.
 *
 * Streams are sockets whose response head the route wrote; the hub writes the pre-encoded
 * messages to them directly (no chunked framing, nothing per stream but the write). Changes go
 * out in order, in slices of streams with the event loop's turn in between, so a fan-out to
 * thousands never holds up other requests; changes arriving meanwhile go out together next.
 */
export class LiveHub {
  private readonly streams = new Set<Stream>();
  private readonly bySocket = new WeakMap<Socket, Stream>();
  private readonly heartbeat: NodeJS.Timeout;
  private readonly replay: Replay;
  private readonly log: HubOptions['log'];
  private readonly replayLimit: number;
  private readonly retryMs: number;
  private readonly maxBufferedBytes: number;
  private readonly sliceMs: number;
  /** Committed changes not yet written to every stream, in commit order. */
  private queue: LoggedChange<ParcelChange>[] = [];
  private fanningOut = false;
  /** One listener for every socket: a closure per stream would cost memory per stream. */
  private readonly onSocketClose: (this: Socket) => void;

  constructor({
    replay,
    log,
    heartbeatMs = 25_000,
    replayLimit = 1000,
    retryMs = 3000,
    maxBufferedBytes = MAX_BUFFERED_BYTES,
    sliceMs = SLICE_MS,
  }: HubOptions) {
    this.replay = replay;
    this.log = log;
    this.replayLimit = replayLimit;
    this.retryMs = retryMs;
    this.maxBufferedBytes = maxBufferedBytes;
    this.sliceMs = sliceMs;
    const hub = this;
    this.onSocketClose = function (this: Socket) {
      const stream = hub.bySocket.get(this);
      if (stream) hub.forget(stream);
    };
    // A comment line keeps proxies and load balancers from closing a quiet stream.
    this.heartbeat = setInterval(() => void this.writeAll(HEARTBEAT), heartbeatMs).unref();
  }

  get size() {
    return this.streams.size;
  }

  /**
   * Takes over a socket whose response head is in `head` (written here with the first bytes);
   * replays what a client resuming from `lastEventId` missed, then goes live. `lease` is released
   * when the stream ends. Resolves once the replay is written.
   */
  async add(
    socket: Socket,
    {
      head,
      subscriber,
      lastEventId,
      lease,
    }: { head: string; subscriber: Subscriber; lastEventId?: string | undefined; lease?: StreamOwner },
  ) {
    // Gone while its lease was taken: 'close' has fired already.
    if (!socket.writable) {
      lease?.release();
      return;
    }
    const resumeFrom = lastEventId && /^\d{1,15}$/.test(lastEventId) ? Number(lastEventId) : undefined;
    const stream: Stream = { socket, subscriber, after: resumeFrom ?? 0, pending: resumeFrom ? [] : undefined, lease };
    this.streams.add(stream);
    this.bySocket.set(socket, stream);
    socket.on('close', this.onSocketClose);
    socket.write(`${head}retry: ${this.retryMs}\n\n`);
    if (resumeFrom === undefined) return;
    const missed = await this.replay(resumeFrom, this.replayLimit).catch((error: unknown) => {
      this.log?.warn({ err: error }, 'replaying missed changes failed');
      return null;
    });
    // Unknown or too far behind: nothing to replay; the client refetches its lists on reconnect.
    for (const entry of [...(missed ?? []).filter(isParcelEntry), ...(stream.pending ?? [])]) {
      this.send(stream, new ChangeMessages(entry));
    }
    stream.pending = undefined;
  }

  /**
   * A trip offer (docs/decisions/0021) to one runner's `me` streams on this instance: serialised once
   * for that runner, written without an `id:` line (not replayed: an offer is for now, and its
   * parcel is in the waiting list anyway). Streams still reading their replay miss it.
   */
  offer(userName: string, data: LiveChange) {
    let message: Buffer | undefined;
    for (const stream of this.streams) {
      if (stream.pending || !mayHearOffer(stream.subscriber, userName)) continue;
      message ??= Buffer.from(`event: ${LIVE_EVENT}\ndata: ${JSON.stringify(data)}\n\n`);
      this.write(stream, message);
    }
  }

  /**
   * Queues a committed parcel change for every stream it concerns; it goes out after those before
   * it. A runner's new trust takes effect at once on their open streams, changes still queued
   * included: suspended, they hear no more of the waiting pool or offers; reinstated, they do again.
   */
  publish(entry: LoggedChange) {
    if (isParcelEntry(entry)) {
      this.queue.push(entry);
      if (!this.fanningOut) void this.fanOut();
    } else if (entry.change.kind === 'runner_trust') this.retrust(entry.change);
  }

  private retrust(change: RunnerTrustChange) {
    for (const stream of this.streams) {
      const { subscriber } = stream;
      if (subscriber.actor === null || subscriber.userName !== change.runner) continue;
      const actor = { ...subscriber.actor, approved_at: change.approvedAt, suspended_at: change.suspendedAt };
      stream.subscriber = { ...subscriber, actor };
    }
  }

  /**
   * Draining: each client is told to come back after a short, spread-out pause — by then this
   * instance no longer accepts connections, so the load balancer sends it to another — and its
   * stream is ended. Last-Event-ID makes the other instance replay what happened in between.
   */
  drain(retryMs = 1000) {
    for (const stream of this.streams) {
      const { socket } = stream;
      if (socket.writable) socket.end(`retry: ${retryMs + randomInt(retryMs)}\n\n`);
      this.forget(stream);
    }
  }

  /** Ends every stream (app.close()); browsers reconnect to another instance. */
  close() {
    clearInterval(this.heartbeat);
    this.drain();
  }

  /** Writes the queued changes, oldest first, to every stream; then what arrived meanwhile. */
  private async fanOut() {
    this.fanningOut = true;
    try {
      while (this.queue.length > 0) {
        const started = performance.now();
        const batch = this.queue.map((entry) => new ChangeMessages(entry));
        this.queue = [];
        // Several changes to one stream leave in one system call.
        const corked = batch.length > 1;
        await this.eachStream((stream) => {
          if (corked) stream.socket.cork();
          for (const messages of batch) {
            if (stream.pending) stream.pending.push(messages.entry);
            else if (this.send(stream, messages)) messages.reached++;
          }
          if (corked) stream.socket.uncork();
        });
        // How long the last stream waited for this batch: the fan-out's share of delivery time.
        const ms = Math.round(performance.now() - started);
        for (const { entry, reached } of batch) {
          const { parcelId, kind } = entry.change;
          this.log?.[kind === 'runner_located' ? 'debug' : 'info'](
            { reqId: entry.requestId, changeId: entry.id, parcelId, kind, reached, ms },
            'change sent to live streams',
          );
        }
      }
    } finally {
      this.fanningOut = false;
    }
  }

  private writeAll(bytes: Buffer) {
    return this.eachStream((stream) => this.write(stream, bytes));
  }

  /** Visits the streams open now, a slice of time at a time. */
  private async eachStream(visit: (stream: Stream) => void) {
    const streams = [...this.streams];
    const slice = new TimeSlice(this.sliceMs);
    for (let i = 0; i < streams.length; i++) {
      if (i % CLOCK_EVERY === CLOCK_EVERY - 1 && slice.due) await slice.pause();
      const stream = streams[i] as Stream;
      // Ended meanwhile (drained, dropped, gone): nothing more is written to it.
      if (stream.socket.writable) visit(stream);
    }
  }

  private send(stream: Stream, messages: ChangeMessages): boolean {
    const { entry } = messages;
    if (entry.id <= stream.after) return false;
    stream.after = entry.id;
    let sent = false;
    for (const topic of topicsOf(stream.subscriber, messages.facts))
      sent = this.write(stream, messages.for(topic)) || sent;
    return sent;
  }

  /**
   * A client that stopped reading is dropped once more than maxBufferedBytes wait for it, rather
   * than buffered for without limit; the bytes it is sent are shared, so until then it costs
   * little. Its browser reconnects with Last-Event-ID when it can, and gets what it missed.
   */
  private write(stream: Stream, bytes: Buffer): boolean {
    const { socket } = stream;
    if (!socket.writable) return false;
    if (socket.writableLength > this.maxBufferedBytes) {
      this.log?.warn({ buffered: socket.writableLength }, 'live stream dropped: its client stopped reading');
      socket.destroy();
      this.forget(stream);
      return false;
    }
    socket.write(bytes);
    return true;
  }

  private forget(stream: Stream) {
    if (!this.streams.delete(stream)) return;
    stream.socket.off('close', this.onSocketClose);
    this.bySocket.delete(stream.socket);
    stream.lease?.release();
  }
}
