import { randomInt } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { LIVE_EVENT, type LiveChange } from '@csomag/domain/live';
import type { ParcelChange } from '../../db/change-feed.ts';
import { type Subscriber, topicsFor } from './topics.ts';

export interface HubOptions {
  heartbeatMs?: number;
  /** Recent changes kept so a reconnecting browser (Last-Event-ID) gets what it missed. */
  replayLimit?: number;
  retryMs?: number;
}

interface Stream {
  response: ServerResponse;
  subscriber: Subscriber;
  /** Account or IP, to cap the streams one client holds open. */
  clientKey: string;
}

/** A client that stopped reading is dropped rather than buffered for without limit. */
const MAX_BUFFERED_BYTES = 256 * 1024;

/**
 * This instance's Server-Sent-Events clients. Each change from the feed gets the next id and is
 * written to every stream whose topics it matches, as one message per matched topic:
 * `id: <n>\nevent: change\ndata: {"topic","kind","parcelId","status"}\n\n`.
 */
export class LiveHub {
  private readonly streams = new Set<Stream>();
  private readonly recent: { id: number; change: ParcelChange }[] = [];
  /** Random start: ids from another instance or an earlier process are not mistaken for ours. */
  private lastId = randomInt(2 ** 40);
  private readonly heartbeat: NodeJS.Timeout;
  private readonly replayLimit: number;
  private readonly retryMs: number;

  constructor({ heartbeatMs = 25_000, replayLimit = 1000, retryMs = 3000 }: HubOptions = {}) {
    this.replayLimit = replayLimit;
    this.retryMs = retryMs;
    // A comment line keeps proxies and load balancers from closing a quiet stream.
    this.heartbeat = setInterval(() => {
      for (const stream of this.streams) this.write(stream, ': heartbeat\n\n');
    }, heartbeatMs).unref();
  }

  countFor(clientKey: string): number {
    let count = 0;
    for (const stream of this.streams) if (stream.clientKey === clientKey) count++;
    return count;
  }

  /** Takes over an open response whose headers are written; replays what a reconnecting client missed. */
  add(response: ServerResponse, subscriber: Subscriber, clientKey: string, lastEventId: string | undefined) {
    const stream: Stream = { response, subscriber, clientKey };
    this.streams.add(stream);
    response.on('close', () => this.streams.delete(stream));
    this.write(stream, `retry: ${this.retryMs}\n\n`);
    for (const { id, change } of this.missedSince(lastEventId)) this.send(stream, id, change);
  }

  publish(change: ParcelChange) {
    const id = ++this.lastId;
    this.recent.push({ id, change });
    if (this.recent.length > this.replayLimit) this.recent.shift();
    for (const stream of this.streams) this.send(stream, id, change);
  }

  /** Ends every stream (app.close(), graceful shutdown); browsers reconnect to another instance. */
  close() {
    clearInterval(this.heartbeat);
    for (const stream of this.streams) stream.response.end();
    this.streams.clear();
  }

  private missedSince(lastEventId: string | undefined) {
    const last = Number(lastEventId);
    const oldest = this.recent[0]?.id;
    // Unknown or too old: nothing to replay; the client refetches its lists on reconnect anyway.
    if (!lastEventId || !Number.isSafeInteger(last) || oldest === undefined) return [];
    if (last < oldest - 1 || last > this.lastId) return [];
    return this.recent.filter(({ id }) => id > last);
  }

  private send(stream: Stream, id: number, change: ParcelChange) {
    for (const topic of topicsFor(stream.subscriber, change)) {
      const data: LiveChange = { topic, kind: change.kind, parcelId: change.parcelId, status: change.status };
      this.write(stream, `id: ${id}\nevent: ${LIVE_EVENT}\ndata: ${JSON.stringify(data)}\n\n`);
    }
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
