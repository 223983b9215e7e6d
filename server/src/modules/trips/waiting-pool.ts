import type { ParcelStatus } from '@csomag/domain/parcel';
import type { LatLngBox } from '@csomag/domain/trips';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import { type ChangeFeed, isParcelChange } from '../../db/change-feed.ts';
import type { Database } from '../../db/schema.ts';
import { ageKey } from './age-key.ts';

/** What a trip query reads of a waiting parcel: its two points and its age. */
export interface WaitingPoint {
  id: string;
  sender_lat: number;
  sender_lng: number;
  receiver_lat: number;
  receiver_lng: number;
  created_at: string;
  /** ageKey(created_at), where worked out already (the pool's, once a parcel is read). */
  age?: number;
}

type Feed = Pick<ChangeFeed, 'listening' | 'subscribe' | 'onCommit'>;

/** Read again whole this often, whatever the feed said: a gap longer than its log keeps is healed. */
const RELOAD_MS = 10 * 60_000;
/** Parcels read again in one statement. */
const READ_BATCH = 500;

/**
 * The waiting parcels' points in memory, for the trip query's candidates (issue 26, ADR 0029): a
 * box of 15 k candidates is 1 µs each from here against 1 (SQLite) to 7 (PostgreSQL, whose
 * recently written pages make every index entry a row fetch) from the database.
 *
 * Kept off the change feed as ReadCache is (ADR 0013): every parcel a change names is read again
 * (its status and points as committed now), so whatever order changes arrive in, the last read
 * wins and it is the newest. This instance's own writes arrive before they answer (onCommit), and a
 * query first waits for the reads they started: a parcel just sent is in the next query here.
 * Other instances' changes arrive as their live updates do. While the feed does not hear other
 * instances (LISTEN down), the caller reads the database instead, and the pool is read whole again
 * when it is heard anew, and every RELOAD_MS.
 */
export class WaitingPool {
  private readonly points = new Map<string, WaitingPoint>();
  private readonly pending = new Set<string>();
  /** Whether the whole pool is being read, and the parcels of the batch being read. */
  private wholeReads = 0;
  private readonly inRead = new Set<string>();
  /** Of those, the ones a change heard meanwhile left not waiting. */
  private readonly readAgainIfWaiting = new Set<string>();
  private loaded: Promise<void> | null = null;
  private loadedAt = 0;
  private reading: Promise<void> | null = null;
  private stale = false;
  /** Counts whole reads: a batch read across one is read again. */
  private generation = 0;
  private readonly unsubscribe: (() => void)[] = [];
  /** The clock deciding when to read the pool whole again; tests set it. */
  now: () => number = Date.now;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly feed: Feed,
    private readonly log: Pick<FastifyBaseLogger, 'error'>,
  ) {}

  /** Listens to the feed, then reads the pool whole (a failure is tried again at the first query). */
  start() {
    if (this.unsubscribe.length > 0) return;
    this.unsubscribe.push(
      this.feed.subscribe((entry) => {
        if (isParcelChange(entry.change)) this.heard(entry.change.parcelId, entry.change.status);
      }),
      this.feed.onCommit((changes) => {
        for (const change of changes) if (isParcelChange(change)) this.changed(change.parcelId);
      }),
    );
    this.loaded = this.load();
    this.loaded.catch(() => {
      this.stale = true;
    });
  }

  close() {
    for (const stop of this.unsubscribe.splice(0)) stop();
  }

  /**
   * The waiting parcels whose pickup lies in `pickups` and delivery point in `deliveries`; null when
   * the pool cannot answer for every instance's changes (the feed is not listening): ask the database.
   */
  async within(pickups: LatLngBox, deliveries: LatLngBox): Promise<WaitingPoint[] | null> {
    if (this.unsubscribe.length === 0) return null;
    if (!this.feed.listening) {
      this.stale = true;
      return null;
    }
    if (this.stale || !this.loaded || this.now() - this.loadedAt >= RELOAD_MS) {
      this.stale = false;
      this.loaded = this.load();
    }
    try {
      await this.loaded;
      while (this.reading || this.pending.size > 0) await this.readPending();
      if (this.stale) return null;
    } catch (error) {
      this.log.error({ err: error }, 'reading the waiting pool failed: the database answers meanwhile');
      this.stale = true;
      return null;
    }
    const found: WaitingPoint[] = [];
    for (const point of this.points.values()) {
      if (
        point.sender_lat >= pickups.minLat &&
        point.sender_lat <= pickups.maxLat &&
        point.sender_lng >= pickups.minLng &&
        point.sender_lng <= pickups.maxLng &&
        point.receiver_lat >= deliveries.minLat &&
        point.receiver_lat <= deliveries.maxLat &&
        point.receiver_lng >= deliveries.minLng &&
        point.receiver_lng <= deliveries.maxLng
      ) {
        found.push(point);
      }
    }
    return found;
  }

  /**
   * A change heard through the feed, in the log's order, after it committed. A read still to come
   * sees it. One that leaves the parcel not waiting needs no read while the pool holds it not
   * waiting (a change after it that made it wait again is heard after it, or was read already, and
   * the pool would hold it), nor while it is being read, unless that read, perhaps begun before the
   * change, finds it waiting. On PostgreSQL this spares the second read of this instance's own
   * changes, which onCommit read.
   */
  private heard(parcelId: string, status: ParcelStatus) {
    if (this.pending.has(parcelId)) return;
    if (this.inRead.has(parcelId) && status !== 'waiting') this.readAgainIfWaiting.add(parcelId);
    else if (status === 'waiting' || this.points.has(parcelId) || this.inRead.has(parcelId) || this.wholeReads > 0) {
      this.changed(parcelId);
    }
  }

  private changed(parcelId: string) {
    this.pending.add(parcelId);
    if (!this.reading) void this.readPending();
  }

  /** The whole pool, read after listening began: a change committed meanwhile is read again after it. */
  private async load() {
    this.generation++;
    // Stamped as it begins: queries meanwhile wait for this read rather than start another.
    this.loadedAt = this.now();
    this.wholeReads++;
    const rows = await this.selectWaiting()
      .execute()
      .finally(() => {
        this.wholeReads--;
      });
    this.points.clear();
    for (const row of rows) this.points.set(row.id, aged(row));
  }

  /**
   * Reads again the parcels changes named, one batch after another (never two at once), each after
   * the whole read under way: a batch read before a whole read began would put older rows over it,
   * so it is read again instead.
   */
  private readPending(): Promise<void> {
    this.reading ??= (async () => {
      try {
        while (this.pending.size > 0) {
          await this.loaded;
          const generation = this.generation;
          const ids = [...this.pending].slice(0, READ_BATCH);
          for (const id of ids) {
            this.pending.delete(id);
            this.inRead.add(id);
          }
          const rows = await this.selectWaiting()
            .where('id', 'in', ids)
            .execute()
            .finally(() => this.inRead.clear());
          if (generation !== this.generation) {
            for (const id of ids) this.pending.add(id);
            continue;
          }
          for (const id of ids) this.points.delete(id);
          for (const row of rows) this.points.set(row.id, aged(row));
          for (const id of ids) {
            if (this.readAgainIfWaiting.delete(id) && this.points.has(id)) this.pending.add(id);
          }
        }
      } catch (error) {
        // Not read: the next query reads the pool whole.
        this.log.error({ err: error }, 'reading the waiting pool again failed');
        this.pending.clear();
        this.readAgainIfWaiting.clear();
        this.stale = true;
      } finally {
        this.reading = null;
      }
    })();
    return this.reading;
  }

  private selectWaiting() {
    return this.db
      .selectFrom('parcels')
      .select(['id', 'sender_lat', 'sender_lng', 'receiver_lat', 'receiver_lng', 'created_at'])
      .where('status', '=', 'waiting');
  }
}

/**
 * A waiting parcel with its ageKey, worked out once rather than at each trip query taking it oldest
 * first. Written out field by field: every point then has one shape, which the scan of 50 k in
 * `within` reads as fast as the rows themselves (a spread of the driver's row made it 6 ms slower).
 */
const aged = (row: WaitingPoint): WaitingPoint => ({
  id: row.id,
  sender_lat: row.sender_lat,
  sender_lng: row.sender_lng,
  receiver_lat: row.receiver_lat,
  receiver_lng: row.receiver_lng,
  created_at: row.created_at,
  age: ageKey(row.created_at),
});
