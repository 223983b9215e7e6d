import type { FeedChange } from '../db/change-feed.ts';
import type { AccountRow } from '../db/schema.ts';

/**
 * The longest a session read from the database is served from memory without being read again,
 * whatever the change feed says (docs/decisions/0032). The feed normally drops it within its
 * delivery (a NOTIFY: milliseconds); this bounds the rest, e.g. a change made while this instance
 * was not listening.
 */
export const SESSION_CACHE_MS = 10_000;
/** Sessions held at most; the oldest read goes first. */
const SESSION_CACHE_ENTRIES = 20_000;

interface Cached {
  account: AccountRow;
  /** The session's own end (ISO, as stored): never served past it. */
  expiresAt: string;
  readAt: number;
}

/**
 * Signed-in requests' sessions with their accounts, kept in memory on PostgreSQL (issue 31), where
 * looking each request's session up is a round trip to a database that shares the app's cores.
 * An account's sessions are dropped when the feed says the account changed or sessions of it
 * ended (`account_changed`, written by the database's triggers, migration 0027), everything when a
 * change could not be read; a read that began before a drop is not kept (`epoch`).
 */
export class SessionCache {
  private readonly byToken = new Map<string, Cached>();
  private readonly byAccount = new Map<number, Set<string>>();
  /** Moves on every drop: a read begun before it may hold what was dropped. */
  private dropped = 0;

  constructor(
    private readonly maxAgeMs = SESSION_CACHE_MS,
    private readonly maxEntries = SESSION_CACHE_ENTRIES,
    private readonly now: () => number = Date.now,
  ) {}

  get size() {
    return this.byToken.size;
  }

  /** Where a database read begins: pass it to `set` with what the read found. */
  get epoch() {
    return this.dropped;
  }

  get(tokenHash: string, nowIso: string): AccountRow | undefined {
    const cached = this.byToken.get(tokenHash);
    if (!cached) return undefined;
    if (this.now() - cached.readAt > this.maxAgeMs || cached.expiresAt <= nowIso) {
      this.forget(tokenHash, cached.account.id);
      return undefined;
    }
    return cached.account;
  }

  set(tokenHash: string, account: AccountRow, expiresAt: string, readFrom: number) {
    if (readFrom !== this.dropped) return;
    if (this.byToken.size >= this.maxEntries) {
      const oldest = this.byToken.entries().next().value;
      if (oldest) this.forget(oldest[0], oldest[1].account.id);
    }
    this.byToken.set(tokenHash, { account, expiresAt, readAt: this.now() });
    let tokens = this.byAccount.get(account.id);
    if (!tokens) {
      tokens = new Set();
      this.byAccount.set(account.id, tokens);
    }
    tokens.add(tokenHash);
  }

  /** What the feed says: an account's change drops its sessions; one that cannot be read drops all. */
  heard(change: FeedChange) {
    if (change.kind !== 'account_changed') return;
    if (Number.isSafeInteger(change.accountId)) this.dropAccount(change.accountId);
    else this.clear();
  }

  dropAccount(accountId: number) {
    this.dropped++;
    for (const tokenHash of this.byAccount.get(accountId) ?? []) this.byToken.delete(tokenHash);
    this.byAccount.delete(accountId);
  }

  clear() {
    this.dropped++;
    this.byToken.clear();
    this.byAccount.clear();
  }

  private forget(tokenHash: string, accountId: number) {
    this.byToken.delete(tokenHash);
    const tokens = this.byAccount.get(accountId);
    tokens?.delete(tokenHash);
    if (tokens?.size === 0) this.byAccount.delete(accountId);
  }
}
