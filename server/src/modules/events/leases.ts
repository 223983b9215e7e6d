import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Store } from '../../db/database.ts';

/** One open event stream, counted against its client until released. */
export interface StreamLease {
  release(): void;
}

/** Counts the event streams each client holds open, to cap them. */
export interface StreamLeases {
  /** A lease when the client holds fewer than `max` streams, null when it has its fill. */
  acquire(clientKey: string, max: number): Promise<StreamLease | null>;
  close(): Promise<void>;
}

/** SQLite is one instance: its own streams are all there are. */
class MemoryStreamLeases implements StreamLeases {
  private readonly open = new Map<string, number>();

  async acquire(clientKey: string, max: number): Promise<StreamLease | null> {
    const count = this.open.get(clientKey) ?? 0;
    if (count >= max) return null;
    this.open.set(clientKey, count + 1);
    return new Lease(this, clientKey);
  }

  forget(clientKey: string) {
    const left = (this.open.get(clientKey) ?? 1) - 1;
    if (left > 0) this.open.set(clientKey, left);
    else this.open.delete(clientKey);
  }

  async close() {
    this.open.clear();
  }
}

const LEASE_MS = 60_000;
const RENEW_EVERY_MS = 20_000;

/**
 * PostgreSQL: every instance's streams in the live_streams table, so a client's cap counts across
 * all instances behind the load balancer. Each instance renews its rows' leases while it lives;
 * an instance that died without releasing stops counting once they lapse.
 */
class DatabaseStreamLeases implements StreamLeases {
  private readonly instanceId = randomUUID();
  private readonly renewal: NodeJS.Timeout;

  constructor(
    private readonly store: Store,
    private readonly onError: (error: unknown) => void,
  ) {
    this.renewal = setInterval(() => {
      this.store.db
        .updateTable('live_streams')
        .set({ expires_ms: Date.now() + LEASE_MS })
        .where('instance_id', '=', this.instanceId)
        .execute()
        .catch(this.onError);
    }, RENEW_EVERY_MS).unref();
  }

  async acquire(clientKey: string, max: number): Promise<StreamLease | null> {
    const id = randomUUID();
    const granted = await this.store.db.transaction().execute(async (trx) => {
      // Two streams of one client opening at once on two instances must not both take the last place.
      await sql`select pg_advisory_xact_lock(hashtext(${`live_streams:${clientKey}`}))`.execute(trx);
      const { count } = await trx
        .selectFrom('live_streams')
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .where('client_key', '=', clientKey)
        .where('expires_ms', '>', Date.now())
        .executeTakeFirstOrThrow();
      if (Number(count) >= max) return false;
      await trx
        .insertInto('live_streams')
        .values({ id, instance_id: this.instanceId, client_key: clientKey, expires_ms: Date.now() + LEASE_MS })
        .execute();
      return true;
    });
    return granted ? new Lease(this, id) : null;
  }

  forget(id: string) {
    this.store.db.deleteFrom('live_streams').where('id', '=', id).execute().catch(this.onError);
  }

  async close() {
    clearInterval(this.renewal);
    await this.store.db.deleteFrom('live_streams').where('instance_id', '=', this.instanceId).execute();
  }
}

/** One stream's place; a class, not a closure, since every open stream holds one. */
class Lease implements StreamLease {
  private released = false;

  constructor(
    private readonly leases: { forget(key: string): void },
    private readonly key: string,
  ) {}

  release() {
    if (this.released) return;
    this.released = true;
    this.leases.forget(this.key);
  }
}

export const openStreamLeases = (store: Store, onError: (error: unknown) => void): StreamLeases =>
  store.dialect === 'postgres' ? new DatabaseStreamLeases(store, onError) : new MemoryStreamLeases();
