import { RELAY_OFFER_KIND } from '@csomag/domain/live';
import type { FastifyReply } from 'fastify';
import { type ChangeFeed, isParcelChange, type ParcelChange } from '../../db/change-feed.ts';
import { bump, trim } from '../../lru.ts';

type Feed = Pick<ChangeFeed, 'listening' | 'subscribe' | 'onCommit'>;

/**
 * Reads served from memory while nothing they show changes (docs/decisions/0013). Each kept read
 * names what it depends on (its tags: a parcel's id, "the lists of sender x"); every change says
 * which tags it touches, and drops the reads that name one. Changes reach every instance through
 * the change feed: at once for this instance's own writes (onCommit, before the write answers),
 * through LISTEN for other instances' (the moment their live updates go out). While this instance
 * does not hear other instances' changes (LISTEN down), nothing is served from memory.
 *
 * A read that ran while one of its tags changed is not kept: every change counts up `sequence`,
 * and a read keeps its result only if none of its tags changed after it began. Changes are
 * remembered per tag for a bounded number of tags; for one forgotten, the newest forgotten change
 * stands in, which only ever errs towards reading again.
 */
export class ReadCache<V> {
  private readonly entries = new Map<string, { value: V; tags: readonly string[] }>();
  private readonly keysByTag = new Map<string, Set<string>>();
  private readonly changedAt = new Map<string, number>();
  private sequence = 0;
  private forgottenUpTo = 0;

  constructor(
    private readonly feed: Feed,
    /** The tags a change touches. */
    tagsOf: (change: ParcelChange) => readonly string[],
    private readonly size: number,
  ) {
    // A runner's trust changes no parcel: nothing is kept under it.
    feed.subscribe((entry) => {
      if (isParcelChange(entry.change)) this.changed(tagsOf(entry.change));
    });
    feed.onCommit((changes) => {
      for (const change of changes) if (isParcelChange(change)) this.changed(tagsOf(change));
    });
  }

  /** The kept value for `key`, or `load`'s, kept under `tags` unless null (nothing found is never kept). */
  async get<T extends V | null>(key: string, tags: readonly string[], load: () => Promise<T>): Promise<T> {
    if (!this.feed.listening) {
      this.clear();
      return load();
    }
    const kept = this.entries.get(key);
    if (kept) {
      bump(this.entries, key, kept);
      return kept.value as T;
    }
    const startedAt = this.sequence;
    const value = await load();
    const unchanged = tags.every((tag) => (this.changedAt.get(tag) ?? this.forgottenUpTo) <= startedAt);
    if (value !== null && unchanged && this.feed.listening) this.keep(key, tags, value as V);
    return value;
  }

  private keep(key: string, tags: readonly string[], value: V) {
    this.entries.set(key, { value, tags });
    for (const tag of tags) {
      const keys = this.keysByTag.get(tag) ?? new Set();
      keys.add(key);
      this.keysByTag.set(tag, keys);
    }
    while (this.entries.size > this.size) {
      const oldest = this.entries.keys().next().value as string;
      this.drop(oldest);
    }
  }

  private drop(key: string) {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    for (const tag of entry.tags) {
      const keys = this.keysByTag.get(tag);
      keys?.delete(key);
      if (keys?.size === 0) this.keysByTag.delete(tag);
    }
  }

  private clear() {
    this.entries.clear();
    this.keysByTag.clear();
  }

  private changed(tags: readonly string[]) {
    this.sequence += 1;
    for (const tag of tags) {
      for (const key of this.keysByTag.get(tag) ?? []) this.drop(key);
      bump(this.changedAt, tag, this.sequence);
    }
    // Remember more changes than reads, so a busy tag's reads are judged by its own changes.
    const forgotten = trim(this.changedAt, this.size * 4);
    if (forgotten !== undefined) this.forgottenUpTo = forgotten;
  }
}

/**
 * Answers with the JSON text kept for `key`, or with `load`'s result written by the route's own
 * serializer (its schema decides what leaves) and kept: a list from memory costs no query and no
 * serialisation.
 */
export async function replyFromMemory(
  cache: ReadCache<string>,
  reply: FastifyReply,
  key: string,
  tags: readonly string[],
  load: () => Promise<unknown>,
) {
  // The route's serializers answer text (fast-json-stringify, or zod's JSON.stringify).
  const text = await cache.get(key, tags, async () => reply.serialize(await load()) as string);
  return reply.type('application/json; charset=utf-8').send(text);
}

/** Lists of parcels kept: one entry per person, filter and page (~25 KiB each at 50 parcels). */
export const MY_LISTS_CACHE_SIZE = 256;

// User names are unique regardless of case; receivers are matched by address key (addressKey).
export const senderTag = (userName: string) => `sender:${userName.toLowerCase()}`;
export const receiverTag = (addressKey: string) => `receiver:${addressKey}`;

/**
 * What a change touches of the sent and incoming lists: its sender's, and its receiver's before
 * and after (an edit can move a parcel to another address). A runner moving changes no list.
 */
export function myListTagsOf(change: ParcelChange): string[] {
  // A relay offer changes no parcel: nobody's list of their own parcels shows it.
  if (change.kind === 'runner_located' || change.kind === RELAY_OFFER_KIND) return [];
  const tags = [senderTag(change.senderUser), receiverTag(change.receiverKey)];
  if (change.previous && change.previous.receiverKey !== change.receiverKey) {
    tags.push(receiverTag(change.previous.receiverKey));
  }
  return tags;
}

/** Pages of the waiting pool kept (longest waiting first, in a map view, nearest to a point). */
export const WAITING_CACHE_SIZE = 256;
export const WAITING_TAG = 'waiting';

/** A change touches the waiting pool when the parcel waits before or after it (a new one, a pickup, an edit). */
export const touchesWaitingPool = (change: ParcelChange) =>
  change.status === 'waiting' || change.previous?.status === 'waiting';

export const waitingTagsOf = (change: ParcelChange): string[] => (touchesWaitingPool(change) ? [WAITING_TAG] : []);
