import { EventEmitter } from 'node:events';
import type { LiveChangeKind } from '@csomag/domain/live';
import type { ParcelStatus } from '@csomag/domain/parcel';
import type { FastifyBaseLogger } from 'fastify';
import { type Kysely, sql, type Transaction } from 'kysely';
import pg from 'pg';
import { compiledPerStore } from './compiled-once.ts';
import { changeChannel, pgConnectionOptions, type Store, sendBehind } from './database.ts';
import type { Database } from './schema.ts';

/** Defined with the connection options that name it (database.ts); tests and benchmarks import it here. */
export { changeChannel };

/**
 * What a committed write tells the live-update hub (DESIGN §5). Server-internal: clients only
 * ever get the `{topic, kind, parcelId, status}` their topics allow.
 */
export interface ParcelChange {
  kind: LiveChangeKind;
  parcelId: string;
  status: ParcelStatus;
  /** The runner's user name; null while waiting. */
  runner: string | null;
  senderUser: string;
  /** addressKey of the receiver address: users living there see the parcel as incoming. */
  receiverKey: string;
  /** The parcel before this change (null when new), so a parcel leaving someone's list still reaches them. */
  previous: { status: ParcelStatus; runner: string | null; receiverKey: string } | null;
  /** runner_located: the runner came near the receiver's door for the first time (mail, issue 29). */
  nearReceiver?: true;
  /** The back office decided it (an incident's decision), not a rule of time or the parcel's own people. */
  byBackOffice?: true;
}

/**
 * Not a parcel's change: the back office approved, suspended or reinstated a runner (issue 24). Every
 * instance's live hub narrows or widens what that runner's open streams hear at once. Never sent
 * to a client; nothing is cached under it.
 */
export interface RunnerTrustChange {
  kind: 'runner_trust';
  /** Lower case, as the live hub's subscribers hold it. */
  runner: string;
  approvedAt: string | null;
  suspendedAt: string | null;
}

/**
 * Not a parcel's change either: an account's fields that a request's rights rest on changed, the
 * account was deleted, or sessions of it ended (issue 31). Written by the database's own triggers
 * on PostgreSQL (migration 0027), never by the app; the session cache drops the account's sessions.
 */
export interface AccountChange {
  kind: 'account_changed';
  accountId: number;
}

/** What the change feed carries: a parcel's change, a runner's trust, an account's change. */
export type FeedChange = ParcelChange | RunnerTrustChange | AccountChange;

/** Of a parcel, by its id (a change read from the log or a NOTIFY may be of any kind). */
export const isParcelChange = (change: FeedChange): change is ParcelChange =>
  typeof (change as Partial<ParcelChange>).parcelId === 'string';

/** A change as committed: its id is the same on every instance and increases in commit order. */
export interface LoggedChange<C extends FeedChange = FeedChange> {
  id: number;
  /** Epoch ms when it was written (about its commit): delivery lag. */
  at: number;
  /** The request that caused it, so its log lines and its notifications share one id. */
  requestId: string | null;
  change: C;
}

/** A parcel's change as committed (what caches, pushes and offers are about). */
export const isParcelEntry = (entry: LoggedChange): entry is LoggedChange<ParcelChange> => isParcelChange(entry.change);

export type PublishChange = (change: FeedChange) => Promise<void>;
export type ChangeListener = (entry: LoggedChange) => void;
export type ChangeWork<T> = (trx: Transaction<Database>, publish: PublishChange) => Promise<T>;
export type ChangesHook = (trx: Transaction<Database>, changes: readonly FeedChange[]) => Promise<void>;

/**
 * What a request adds to each of its write transactions: `begin` runs inside, before the work, so
 * whatever it writes commits with the change or not at all, and a row it takes (the
 * Idempotency-Key's, plugins/idempotency.ts) is held before the change's own rows are touched;
 * `committed` is told once the transaction has committed.
 */
export interface RequestCommitHook {
  begin(trx: Transaction<Database>, requestId: string): Promise<void>;
  /** Last inside the transaction, with what its work returned: the request's answer goes in with its change. */
  beforeCommit(trx: Transaction<Database>, requestId: string, value: unknown): Promise<void>;
  committed(requestId: string): void;
}

export interface ChangeFeed {
  /**
   * Runs `work` in one transaction; what it publishes reaches listeners only if, and after, it
   * commits. `requestId`: the request that made the changes, kept with them in the log.
   */
  transaction<T>(work: ChangeWork<T>, requestId?: string | null): Promise<T>;
  /** The same feed, for one request's writes: their changes carry its id through the log to the hub's log line. */
  forRequest(requestId: string): Pick<ChangeFeed, 'transaction'>;
  /** Joins `hook` to every transaction made for a request (forRequest); one hook per feed. */
  setRequestHook(hook: RequestCommitHook): void;
  /**
   * Joins `hook` to every transaction that publishes: it runs inside, after the work, with its
   * changes, so what it writes (the mail a change causes, modules/mail) commits with them or not at all.
   */
  setChangesHook(hook: ChangesHook): void;
  subscribe(listener: ChangeListener): () => void;
  /**
   * Told when a NOTIFY could not be read (not JSON, no id): what it said is lost to this instance
   * until the log is read again, so whatever keeps state from the feed must drop it (caches).
   */
  onUnreadable(listener: () => void): () => void;
  /**
   * This instance's own changes, as soon as their transaction has committed and before the write
   * answers its client: what must not wait for the change to come back through LISTEN (caches).
   */
  onCommit(listener: (changes: readonly FeedChange[]) => void): () => void;
  /**
   * What was committed after `id`, oldest first, for a browser resuming from Last-Event-ID; null
   * when `id` is older than the log keeps or more than `limit` changes behind (it must refetch).
   */
  since(id: number, limit: number): Promise<LoggedChange[] | null>;
  /** Forgets changes older than the log keeps (run every minute by each instance). */
  prune(now?: number): Promise<void>;
  /** Whether changes of other instances are heard (the LISTEN connection is up; always on SQLite). */
  readonly listening: boolean;
  /** Starts listening. PostgreSQL: changes committed before it are not heard. */
  start(): Promise<void>;
  close(): Promise<void>;
}

export interface ChangeFeedOptions {
  /** How long the log keeps a change for replay (default 15 minutes). */
  keepMs?: number;
  /** Told when the LISTEN connection comes up or goes down (metrics). */
  onListening?: (up: boolean) => void;
}

type Log = Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;

const DEFAULT_KEEP_MS = 15 * 60_000;
const PRUNE_EVERY_MS = 60_000;

interface ChangeLogRow {
  id: number | string;
  created_ms: number | string;
  request_id: string | null;
  change: string;
}

const fromRow = (row: ChangeLogRow): LoggedChange => ({
  id: Number(row.id),
  at: Number(row.created_ms),
  requestId: row.request_id,
  change: JSON.parse(row.change),
});

/** A NOTIFY's payload as 0011's trigger writes it, or null for anything else. */
function readNotification(payload: string): LoggedChange | null {
  try {
    const entry = JSON.parse(payload) as Partial<LoggedChange> | null;
    if (!entry || typeof entry.id !== 'number' || typeof entry.change !== 'object' || entry.change === null)
      return null;
    return entry as LoggedChange;
  } catch {
    return null;
  }
}

/**
 * Both stores write every change to change_log in the transaction that makes it, so ids are
 * shared by every instance; listeners live in this process, and a throwing listener must not
 * fail the write that published.
 */
abstract class BaseFeed {
  private readonly emitter = new EventEmitter().setMaxListeners(0);
  /** The newest id delivered here: a change heard twice (catch-up, then NOTIFY) is passed on once. */
  protected lastDelivered = 0;
  private pruneTimer: NodeJS.Timeout | undefined;
  private requestHook: RequestCommitHook | undefined;
  private changesHook: ChangesHook | undefined;

  constructor(
    protected readonly store: Store,
    protected readonly log: Log,
    private readonly keepMs: number,
  ) {}

  subscribe(listener: ChangeListener): () => void {
    return this.addListener('change', listener);
  }

  onCommit(listener: (changes: readonly FeedChange[]) => void): () => void {
    return this.addListener('commit', listener);
  }

  onUnreadable(listener: () => void): () => void {
    return this.addListener('unreadable', listener);
  }

  protected unreadable() {
    this.emitter.emit('unreadable');
  }

  /** A listener that throws is logged, never passed on to the write that published. */
  private addListener<T>(event: 'change' | 'commit' | 'unreadable', listener: (value: T) => void): () => void {
    const safe = (value: T) => {
      try {
        listener(value);
      } catch (error) {
        this.log.error({ err: error, event }, 'change listener failed');
      }
    };
    this.emitter.on(event, safe);
    return () => this.emitter.off(event, safe);
  }

  abstract transaction<T>(work: ChangeWork<T>, requestId?: string | null): Promise<T>;

  forRequest(requestId: string): Pick<ChangeFeed, 'transaction'> {
    return { transaction: (work) => this.transaction(work, requestId) };
  }

  setRequestHook(hook: RequestCommitHook) {
    this.requestHook = hook;
  }

  setChangesHook(hook: ChangesHook) {
    this.changesHook = hook;
  }

  /** What the changes add to their own transaction (a throw there changes nothing). */
  protected async changesFor(trx: Transaction<Database>, changes: readonly FeedChange[]) {
    if (changes.length > 0 && this.changesHook) await this.changesHook(trx, changes);
  }

  /** The request's own rows, first inside its transaction (a throw there changes nothing). */
  protected async beginFor(trx: Transaction<Database>, requestId: string | null) {
    if (requestId !== null && this.requestHook) await this.requestHook.begin(trx, requestId);
  }

  protected async beforeCommitFor(trx: Transaction<Database>, requestId: string | null, value: unknown) {
    if (requestId !== null && this.requestHook) await this.requestHook.beforeCommit(trx, requestId, value);
  }

  protected committedFor(requestId: string | null) {
    if (requestId !== null) this.requestHook?.committed(requestId);
  }

  protected committed(changes: readonly FeedChange[]) {
    if (changes.length > 0) this.emitter.emit('commit', changes);
  }

  async since(id: number, limit: number): Promise<LoggedChange[] | null> {
    const oldest = await this.store.db
      .selectFrom('change_log')
      .select('id')
      .orderBy('id', 'asc')
      .limit(1)
      .executeTakeFirst();
    // The log no longer reaches back to `id` (pruned, or nothing kept): something in between may be gone.
    if (!oldest || Number(oldest.id) > id + 1) return null;
    const rows = await this.store.db
      .selectFrom('change_log')
      .selectAll()
      .where('id', '>', id)
      .orderBy('id', 'asc')
      .limit(limit + 1)
      .execute();
    return rows.length > limit ? null : rows.map(fromRow);
  }

  protected deliver(entry: LoggedChange) {
    if (entry.id <= this.lastDelivered) return;
    this.lastDelivered = entry.id;
    this.emitter.emit('change', entry);
  }

  /** Where this instance starts: nothing committed before it is announced again. */
  protected async startAtNewest() {
    const newest = await this.store.db
      .selectFrom('change_log')
      .select((eb) => eb.fn.max('id').as('id'))
      .executeTakeFirst();
    this.lastDelivered = Math.max(this.lastDelivered, Number(newest?.id ?? 0));
    this.pruneTimer ??= setInterval(() => {
      this.prune().catch((error) => this.log.warn({ err: error }, 'pruning the change log failed'));
    }, PRUNE_EVERY_MS).unref();
  }

  /** Every instance prunes; deleting what another already deleted costs nothing. */
  async prune(now = Date.now()) {
    await this.store.db
      .deleteFrom('change_log')
      .where('created_ms', '<', now - this.keepMs)
      .execute();
  }

  protected stop() {
    clearInterval(this.pruneTimer);
    this.emitter.removeAllListeners();
  }
}

/** SQLite: one writer at a time, so ids are in commit order; changes are emitted once committed. */
class LocalChangeFeed extends BaseFeed implements ChangeFeed {
  readonly listening = true;

  async transaction<T>(work: ChangeWork<T>, requestId: string | null = null): Promise<T> {
    let committed: LoggedChange[] = [];
    const changes: FeedChange[] = [];
    const result = await this.store.db.transaction().execute(async (trx) => {
      await this.beginFor(trx, requestId);
      const value = await work(trx, async (change) => {
        changes.push(change);
      });
      await this.changesFor(trx, changes);
      if (changes.length > 0) committed = await this.append(trx, changes, requestId);
      await this.beforeCommitFor(trx, requestId, value);
      return value;
    });
    this.committedFor(requestId);
    this.committed(changes);
    for (const entry of committed) this.deliver(entry);
    return result;
  }

  /** The transaction's changes as its last log rows: one writer at a time, so their ids are in commit order. */
  private async append(
    trx: Transaction<Database>,
    changes: FeedChange[],
    requestId: string | null,
  ): Promise<LoggedChange[]> {
    const at = Date.now();
    const rows = await trx
      .insertInto('change_log')
      .values(changes.map((change) => ({ created_ms: at, request_id: requestId, change: JSON.stringify(change) })))
      .returning('id')
      .execute();
    return rows.map((row, index) => ({ id: Number(row.id), at, requestId, change: changes[index] as ParcelChange }));
  }

  start() {
    return this.startAtNewest();
  }

  async close() {
    this.stop();
  }
}

/** A change's log row on PostgreSQL: its id a placeholder below zero until its commit numbers it. */
const logRow = (at: number, requestId: string | null, change: string) => ({
  id: sql<number>`-nextval('change_log_placeholder_seq')`,
  created_ms: at,
  request_id: requestId,
  change,
});
/** The one log row of most transactions, its INSERT compiled once. */
const logInsert = compiledPerStore(3, (db: Kysely<Database>, at: number, requestId: string | null, change: string) =>
  db.insertInto('change_log').values(logRow(at, requestId, change)),
);

/**
 * PostgreSQL: a transaction's log rows get their ids and NOTIFYs from the database at its commit,
 * under one lock held to its end — so ids are handed out in commit order (docs/decisions/0011,
 * migration 0011), and PostgreSQL delivers each NOTIFY, on commit only, to every instance.
 * Each instance has its own LISTEN connection outside the pool; when it drops, the instance
 * reconnects and catches up from the log, so nobody misses a change.
 */
class PostgresChangeFeed extends BaseFeed implements ChangeFeed {
  private client: pg.Client | undefined;
  private closed = false;
  private retry: NodeJS.Timeout | undefined;
  /** While catching up from the log, notifications wait here so that order is kept. */
  private held: LoggedChange[] | undefined;

  constructor(
    store: Store,
    log: Log,
    keepMs: number,
    private readonly channel: string,
    private readonly onListening: (up: boolean) => void,
  ) {
    super(store, log, keepMs);
  }

  get listening() {
    return this.client !== undefined && this.held === undefined;
  }

  async transaction<T>(work: ChangeWork<T>, requestId: string | null = null): Promise<T> {
    const changes: FeedChange[] = [];
    const result = await this.store.db.transaction().execute(async (trx) => {
      await this.beginFor(trx, requestId);
      const value = await work(trx, async (change) => {
        changes.push(change);
      });
      await this.changesFor(trx, changes);
      if (changes.length > 0) await this.logForCommit(trx, changes, requestId);
      await this.beforeCommitFor(trx, requestId, value);
      return value;
    });
    this.committedFor(requestId);
    this.committed(changes);
    return result;
  }

  /**
   * The transaction's log rows, with placeholder ids below zero: at its COMMIT the database gives
   * each its id under the change log's lock and sends its NOTIFY (migration 0011). The lock is held
   * only while the commit lasts, and ids follow commit order (docs/decisions/0011, 0016).
   */
  private async logForCommit(trx: Transaction<Database>, changes: FeedChange[], requestId: string | null) {
    const at = Date.now();
    const [only] = changes;
    // Nothing reads them back in the transaction: sent with its COMMIT (ADR 0033).
    if (only && changes.length === 1) {
      await sendBehind(trx, logInsert.compile(trx, at, requestId, JSON.stringify(only)));
      return;
    }
    await sendBehind(
      trx,
      trx.insertInto('change_log').values(changes.map((change) => logRow(at, requestId, JSON.stringify(change)))),
    );
  }

  async start() {
    if (this.client || this.closed) return;
    await this.startAtNewest();
    await this.listen();
  }

  private async listen() {
    const client = new pg.Client(pgConnectionOptions(this.store, 'csomagkuldo-listen'));
    client.on('notification', (message) => {
      if (message.channel !== this.channel || !message.payload) return;
      const entry = readNotification(message.payload);
      if (!entry) {
        this.log.error({ payload: message.payload.slice(0, 200) }, 'change feed got a NOTIFY it cannot read');
        this.unreadable();
        return;
      }
      if (this.held) this.held.push(entry);
      else this.deliver(entry);
    });
    client.on('error', (error) => this.lost(client, error));
    client.on('end', () => this.lost(client, new Error('LISTEN connection ended')));
    try {
      await client.connect();
      await client.query(`listen "${this.channel}"`);
    } catch (error) {
      client.removeAllListeners('end');
      await client.end().catch(() => {});
      throw error;
    }
    if (this.closed) {
      await client.end();
      return;
    }
    this.client = client;
    await this.catchUp();
    this.onListening(true);
  }

  /** Delivers what was committed while nobody here listened, then what NOTIFY brought meanwhile. */
  private async catchUp() {
    this.held = [];
    try {
      for (;;) {
        const rows = await this.store.db
          .selectFrom('change_log')
          .selectAll()
          .where('id', '>', this.lastDelivered)
          .orderBy('id', 'asc')
          .limit(1000)
          .execute();
        for (const row of rows) this.deliver(fromRow(row));
        if (rows.length < 1000) break;
      }
    } finally {
      const held = this.held;
      this.held = undefined;
      for (const entry of held) this.deliver(entry);
    }
  }

  /** The LISTEN connection dropped (database restart, pg_terminate_backend): reconnect with backoff. */
  private lost(client: pg.Client, error: Error) {
    if (this.client !== client) return;
    this.client = undefined;
    this.onListening(false);
    this.log.error({ err: error }, 'change feed lost its LISTEN connection, reconnecting');
    client.end().catch(() => {});
    this.reconnect(500);
  }

  private reconnect(delayMs: number) {
    if (this.closed) return;
    this.retry = setTimeout(() => {
      this.listen().then(
        () => this.log.info('change feed listening again'),
        (error) => {
          this.log.warn({ err: error }, 'change feed could not LISTEN yet');
          if (this.client) this.lost(this.client, error);
          else this.reconnect(Math.min(delayMs * 2, 10_000));
        },
      );
    }, delayMs).unref();
  }

  async close() {
    this.closed = true;
    clearTimeout(this.retry);
    const client = this.client;
    this.client = undefined;
    this.stop();
    // Closing the connection is what ends the LISTEN.
    await client?.end().catch(() => {});
  }
}

export function createChangeFeed(store: Store, log: Log, options: ChangeFeedOptions = {}): ChangeFeed {
  const keepMs = options.keepMs ?? DEFAULT_KEEP_MS;
  if (store.dialect === 'postgres') {
    return new PostgresChangeFeed(store, log, keepMs, changeChannel(store.pgSchema), options.onListening ?? (() => {}));
  }
  return new LocalChangeFeed(store, log, keepMs);
}
