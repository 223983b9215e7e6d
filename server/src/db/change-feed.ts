import { EventEmitter } from 'node:events';
import type { LiveChangeKind } from '@csomag/domain/live';
import type { ParcelStatus } from '@csomag/domain/parcel';
import type { FastifyBaseLogger } from 'fastify';
import { sql, type Transaction } from 'kysely';
import type pg from 'pg';
import type { Store } from './database.ts';
import type { Database } from './schema.ts';

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
}

export type PublishChange = (change: ParcelChange) => Promise<void>;
export type ChangeListener = (change: ParcelChange) => void;
export type ChangeWork<T> = (trx: Transaction<Database>, publish: PublishChange) => Promise<T>;

export interface ChangeFeed {
  /** Runs `work` in one transaction; what it publishes reaches listeners only if, and after, it commits. */
  transaction<T>(work: ChangeWork<T>): Promise<T>;
  subscribe(listener: ChangeListener): () => void;
  /** PostgreSQL: opens the LISTEN connection. Changes committed before it are not heard. */
  start(): Promise<void>;
  close(): Promise<void>;
}

type Log = Pick<FastifyBaseLogger, 'warn' | 'error'>;

/** Listeners live in this process; a throwing listener must not fail the write that published. */
abstract class BaseFeed {
  protected readonly emitter = new EventEmitter().setMaxListeners(0);

  constructor(protected readonly log: Log) {}

  subscribe(listener: ChangeListener): () => void {
    const safe = (change: ParcelChange) => {
      try {
        listener(change);
      } catch (error) {
        this.log.error({ err: error }, 'change listener failed');
      }
    };
    this.emitter.on('change', safe);
    return () => this.emitter.off('change', safe);
  }

  protected deliver(change: ParcelChange) {
    this.emitter.emit('change', change);
  }
}

/** SQLite is one process: changes are emitted in memory once the transaction has committed. */
class LocalChangeFeed extends BaseFeed implements ChangeFeed {
  constructor(
    private readonly store: Store,
    log: Log,
  ) {
    super(log);
  }

  async transaction<T>(work: ChangeWork<T>): Promise<T> {
    const committed: ParcelChange[] = [];
    const result = await this.store.db.transaction().execute((trx) =>
      work(trx, async (change) => {
        committed.push(change);
      }),
    );
    for (const change of committed) this.deliver(change);
    return result;
  }

  async start() {}

  async close() {
    this.emitter.removeAllListeners();
  }
}

/**
 * PostgreSQL: pg_notify inside the writing transaction (PostgreSQL delivers it only on commit,
 * to every instance), and one dedicated LISTEN connection per app instance.
 */
class PostgresChangeFeed extends BaseFeed implements ChangeFeed {
  private client: pg.PoolClient | undefined;
  private closed = false;
  private retry: NodeJS.Timeout | undefined;

  constructor(
    private readonly store: Store,
    private readonly pool: pg.Pool,
    private readonly channel: string,
    log: Log,
  ) {
    super(log);
  }

  transaction<T>(work: ChangeWork<T>): Promise<T> {
    return this.store.db.transaction().execute((trx) =>
      work(trx, async (change) => {
        await sql`select pg_notify(${this.channel}, ${JSON.stringify(change)})`.execute(trx);
      }),
    );
  }

  async start() {
    if (!this.client && !this.closed) await this.listen();
  }

  private async listen() {
    const client = await this.pool.connect();
    client.on('notification', (message) => {
      if (message.channel === this.channel && message.payload) this.deliver(JSON.parse(message.payload));
    });
    client.on('error', (error) => this.lost(client, error));
    client.on('end', () => this.lost(client, new Error('LISTEN connection ended')));
    try {
      await client.query(`listen "${this.channel}"`);
    } catch (error) {
      client.release(error instanceof Error ? error : true);
      throw error;
    }
    if (this.closed) client.release(true);
    else this.client = client;
  }

  /** The LISTEN connection dropped (database restart): reconnect with backoff; changes meanwhile are missed. */
  private lost(client: pg.PoolClient, error: Error) {
    if (this.client !== client) return;
    this.client = undefined;
    this.log.error({ err: error }, 'change feed lost its LISTEN connection, reconnecting');
    client.release(error);
    this.reconnect(1000);
  }

  private reconnect(delayMs: number) {
    if (this.closed) return;
    this.retry = setTimeout(() => {
      this.listen().catch((error) => {
        this.log.warn({ err: error }, 'change feed could not LISTEN yet');
        this.reconnect(Math.min(delayMs * 2, 30_000));
      });
    }, delayMs).unref();
  }

  async close() {
    this.closed = true;
    clearTimeout(this.retry);
    const client = this.client;
    this.client = undefined;
    // Destroyed, not returned to the pool: closing the connection is what ends the LISTEN.
    client?.release(true);
    this.emitter.removeAllListeners();
  }
}

/** NOTIFY is per database; tests share one, so each test schema gets its own channel. */
export function changeChannel(pgSchema: string | undefined): string {
  if (pgSchema === undefined) return 'csk_changes';
  if (!/^[a-z_][a-z0-9_]{0,50}$/.test(pgSchema)) throw new Error(`unusable schema name for a channel: ${pgSchema}`);
  return `csk_changes_${pgSchema}`;
}

export function createChangeFeed(store: Store, log: Log): ChangeFeed {
  if (store.dialect === 'postgres' && store.pgPool) {
    return new PostgresChangeFeed(store, store.pgPool, changeChannel(store.pgSchema), log);
  }
  return new LocalChangeFeed(store, log);
}
