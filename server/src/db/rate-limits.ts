import type { Kysely, OnConflictBuilder } from 'kysely';
import { compiledOnce } from './compiled-once.ts';
import type { Store } from './database.ts';
import type { Database } from './schema.ts';

/** A key's count in its current window, and when that window ends (epoch ms). */
export interface WindowCount {
  count: number;
  resetAt: number;
}

/**
 * Counters in fixed windows, the storage behind the abuse limits (DESIGN §4): in process memory
 * on SQLite (one instance by design), in the `rate_limits` table on PostgreSQL so that every
 * instance counts into the same windows (docs/decisions/0003).
 */
export interface WindowCounter {
  /** Counts one hit on `key`, opening a new `windowMs` window when there is none or it has ended. */
  hit(key: string, windowMs: number): Promise<WindowCount>;
  /** Forgets `key` (a successful sign-in clears its failures). */
  reset(key: string): Promise<void>;
}

export interface WindowCounterOptions {
  /** The clock (epoch ms); tests move it. */
  now?: () => number;
}

/** Windows kept in a Map; expired ones are dropped once the map grows large. */
export class MemoryWindowCounter implements WindowCounter {
  private readonly windows = new Map<string, WindowCount>();
  private readonly now: () => number;
  private readonly sweepAbove: number;

  constructor(options: WindowCounterOptions & { sweepAbove?: number } = {}) {
    this.now = options.now ?? Date.now;
    this.sweepAbove = options.sweepAbove ?? 10_000;
  }

  /** How many keys are held (tests). */
  get size() {
    return this.windows.size;
  }

  async hit(key: string, windowMs: number): Promise<WindowCount> {
    const now = this.now();
    if (this.windows.size >= this.sweepAbove) this.sweep(now);
    const window = this.windows.get(key);
    if (!window || window.resetAt <= now) {
      const fresh = { count: 1, resetAt: now + windowMs };
      this.windows.set(key, fresh);
      return { ...fresh };
    }
    window.count += 1;
    return { ...window };
  }

  async reset(key: string): Promise<void> {
    this.windows.delete(key);
  }

  private sweep(now: number) {
    for (const [key, window] of this.windows) if (window.resetAt <= now) this.windows.delete(key);
  }
}

export interface DatabaseWindowCounterOptions extends WindowCounterOptions {
  /** At most one sweep of expired rows per this many ms, run by the hit that comes due (default 1 minute). */
  sweepEveryMs?: number;
  /** At most this many expired rows are deleted per sweep (default 1000). */
  sweepBatch?: number;
  /** Told when a sweep fails (the hit that ran it still succeeds; the next due hit retries). */
  onSweepError?: (error: unknown) => void;
}

/**
 * A window's row gains the inserted row's hits, or starts again with them once it has ended: the
 * one upsert of a hit and of a batch.
 */
const addedTo = (now: number) => (conflict: OnConflictBuilder<Database, 'rate_limits'>) =>
  conflict.column('key').doUpdateSet((eb) => {
    const ended = eb('rate_limits.reset_at', '<=', now);
    return {
      count: eb
        .case()
        .when(ended)
        .then(eb.ref('excluded.count'))
        .else(eb('rate_limits.count', '+', eb.ref('excluded.count')))
        .end(),
      reset_at: eb.case().when(ended).then(eb.ref('excluded.reset_at')).else(eb.ref('rate_limits.reset_at')).end(),
    };
  });

/**
 * Windows in the `rate_limits` table, shared by every instance on one database. A hit is one
 * atomic upsert: concurrent hits on a key, from any instance, serialise on its row, so none is
 * lost and each sees its own count. Times come from the instances' clocks (kept in step by NTP;
 * a skew only shifts when a window ends, never what is counted in it).
 */
export class DatabaseWindowCounter implements WindowCounter {
  private readonly now: () => number;
  private readonly sweepEveryMs: number;
  private readonly sweepBatch: number;
  private readonly onSweepError: (error: unknown) => void;
  private nextSweepAt = 0;
  private readonly upsert: (
    key: string,
    hits: number,
    now: number,
    resetAt: number,
  ) => Promise<{ count: number; reset_at: number }[]>;

  constructor(
    private readonly db: Kysely<Database>,
    options: DatabaseWindowCounterOptions = {},
  ) {
    this.now = options.now ?? Date.now;
    this.sweepEveryMs = options.sweepEveryMs ?? 60_000;
    this.sweepBatch = options.sweepBatch ?? 1000;
    this.onSweepError = options.onSweepError ?? (() => {});
    // Every API request on PostgreSQL runs it: built once (compiled-once.ts).
    this.upsert = compiledOnce(db, 4, (db, key: string, hits: number, now: number, resetAt: number) =>
      db
        .insertInto('rate_limits')
        .values({ key, count: hits, reset_at: resetAt })
        .onConflict(addedTo(now))
        .returning(['count', 'reset_at']),
    );
  }

  /**
   * Counts each entry's hits on its key in one statement per thousand keys (a batch from
   * BatchedWindowCounter); answers each key's window as it now is.
   */
  async addMany(
    entries: readonly { key: string; hits: number; windowMs: number }[],
  ): Promise<Map<string, WindowCount>> {
    const now = this.now();
    const answered = new Map<string, WindowCount>();
    for (let from = 0; from < entries.length; from += 1000) {
      const rows = await this.db
        .insertInto('rate_limits')
        .values(
          entries
            .slice(from, from + 1000)
            .map(({ key, hits, windowMs }) => ({ key, count: hits, reset_at: now + windowMs })),
        )
        .onConflict(addedTo(now))
        .returning(['key', 'count', 'reset_at'])
        .execute();
      for (const row of rows) answered.set(row.key, { count: Number(row.count), resetAt: Number(row.reset_at) });
    }
    // The HTTP limits write only through batches: they sweep what has ended, as single hits do.
    await this.sweepIfDue(now);
    return answered;
  }

  async hit(key: string, windowMs: number): Promise<WindowCount> {
    const now = this.now();
    const [row] = await this.upsert(key, 1, now, now + windowMs);
    if (!row) throw new Error(`rate limit upsert returned no row for ${key}`);
    await this.sweepIfDue(now);
    return { count: Number(row.count), resetAt: Number(row.reset_at) };
  }

  /** At most once per interval, by whichever write comes due: housekeeping must never fail it. */
  private async sweepIfDue(now: number) {
    if (now < this.nextSweepAt) return;
    this.nextSweepAt = now + this.sweepEveryMs;
    await this.sweep(now).catch(this.onSweepError);
  }

  async reset(key: string): Promise<void> {
    await this.db.deleteFrom('rate_limits').where('key', '=', key).execute();
  }

  /**
   * Deletes up to one batch of ended windows; returns how many. The outer `reset_at` test keeps a
   * window that another instance reopened meanwhile (PostgreSQL re-checks it on the locked row).
   */
  async sweep(now = this.now()): Promise<number> {
    const result = await this.db
      .deleteFrom('rate_limits')
      .where('reset_at', '<=', now)
      .where('key', 'in', (eb) =>
        eb.selectFrom('rate_limits').select('key').where('reset_at', '<=', now).limit(this.sweepBatch),
      )
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}

/** A key's window as one instance sees it between batches. */
interface LocalWindow {
  /** The shared count as the last batch answered it (this instance's hits in it included). */
  shared: number;
  /** This instance's hits since. */
  pending: number;
  resetAt: number;
  windowMs: number;
  /** The batch during which the last hit came. */
  lastHitBatch: number;
}

export interface BatchedWindowCounterOptions extends WindowCounterOptions {
  /** How often this instance adds its hits to the shared windows (default 1 s). */
  batchMs?: number;
  /** Told when a batch fails; its hits stay pending for the next one. */
  onError?: (error: unknown) => void;
}

/**
 * The HTTP abuse limits on PostgreSQL (issue 31, docs/decisions/0003): every API request counts,
 * so a round trip per request to the shared `rate_limits` row is most of a cached read's cost.
 * Hits are counted here at once and added to the shared windows every `batchMs`, one upsert per
 * key hit in this batch or the one before; each answer brings back what the other instances added.
 * A limit so counts this instance's own hits exactly and another instance's at most one batch
 * late: with N instances a client can pass a limit by at most what the other N−1 let through in
 * one batch. Not for limits that guard secrets (handover codes, sign-in failures): those count
 * synchronously (`app.limits`).
 */
export class BatchedWindowCounter implements WindowCounter {
  private readonly windows = new Map<string, LocalWindow>();
  private readonly now: () => number;
  private readonly onError: (error: unknown) => void;
  private readonly timer: NodeJS.Timeout;
  private flushing: Promise<void> | undefined;
  /** Batches begun so far. */
  private batch = 0;

  constructor(
    private readonly shared: Pick<DatabaseWindowCounter, 'addMany' | 'reset'>,
    options: BatchedWindowCounterOptions = {},
  ) {
    this.now = options.now ?? Date.now;
    this.onError = options.onError ?? (() => {});
    this.timer = setInterval(() => void this.flush(), options.batchMs ?? 1000).unref();
  }

  async hit(key: string, windowMs: number): Promise<WindowCount> {
    const now = this.now();
    let window = this.windows.get(key);
    if (!window || window.resetAt <= now) {
      window = { shared: 0, pending: 0, resetAt: now + windowMs, windowMs, lastHitBatch: this.batch };
      this.windows.set(key, window);
    }
    window.pending += 1;
    window.lastHitBatch = this.batch;
    return { count: window.shared + window.pending, resetAt: window.resetAt };
  }

  async reset(key: string): Promise<void> {
    this.windows.delete(key);
    await this.shared.reset(key);
  }

  /**
   * Adds every key's pending hits to the shared windows (one batch at a time), and reads back a key
   * hit in the batch before, though not since: its last answer may predate another instance's
   * batch. Windows idle longer are forgotten once ended.
   */
  flush(): Promise<void> {
    this.flushing ??= this.addPending().finally(() => {
      this.flushing = undefined;
    });
    return this.flushing;
  }

  private async addPending() {
    const now = this.now();
    const batch = this.batch++;
    const sent: { key: string; hits: number; windowMs: number; window: LocalWindow }[] = [];
    for (const [key, window] of this.windows) {
      if (window.pending === 0 && (window.resetAt <= now || window.lastHitBatch < batch - 1)) {
        if (window.resetAt <= now) this.windows.delete(key);
        continue;
      }
      sent.push({ key, hits: window.pending, windowMs: window.windowMs, window });
    }
    if (sent.length === 0) return;
    try {
      const answered = await this.shared.addMany(sent);
      for (const { key, hits, window } of sent) {
        const now = answered.get(key);
        if (!now) continue;
        // Hits that came in while the batch was on its way stay pending for the next one.
        window.pending -= hits;
        window.shared = now.count;
        window.resetAt = now.resetAt;
      }
    } catch (error) {
      this.onError(error);
    }
  }

  /** Stops the batches, adding what is pending first (shutdown). */
  async close() {
    clearInterval(this.timer);
    await this.flush();
  }
}

/** The counter for this store: the database on PostgreSQL, process memory on SQLite. */
export const openWindowCounter = (store: Store, options: DatabaseWindowCounterOptions = {}): WindowCounter =>
  store.dialect === 'postgres' ? new DatabaseWindowCounter(store.db, options) : new MemoryWindowCounter(options);
