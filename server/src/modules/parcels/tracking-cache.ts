import type { TrackingView } from '@csomag/domain/parcel';
import type { ChangeFeed } from '../../db/change-feed.ts';
import { bump, trim } from '../../lru.ts';

/** Parcels whose tracking view is kept: the ones strangers are opening from shared links now. */
export const TRACKING_CACHE_SIZE = 5_000;

/**
 * The public tracking view served from memory while its parcel does not change (the hottest read:
 * docs/decisions/0013). Every change to a parcel, its runner's position included, reaches every
 * instance through the change feed and drops that parcel's view: at once for this instance's own
 * writes (onCommit, before the write answers), through LISTEN for other instances' (the moment
 * their live updates go out too). While this instance does not hear other instances' changes
 * (LISTEN down), nothing is served from memory.
 *
 * A view read while its parcel changed is not kept: every change counts up `sequence`, and a read
 * keeps its result only if no change to that parcel came after the read began. Changes are
 * remembered per parcel for a bounded number of parcels; for one forgotten, the newest forgotten
 * change stands in, which only ever errs towards reading again.
 */
export class TrackingCache {
  private readonly views = new Map<string, TrackingView>();
  private readonly changedAt = new Map<string, number>();
  private sequence = 0;
  private forgottenUpTo = 0;

  constructor(
    private readonly feed: Pick<ChangeFeed, 'listening' | 'subscribe' | 'onCommit'>,
    private readonly load: (parcelId: string) => Promise<TrackingView | null>,
    private readonly size = TRACKING_CACHE_SIZE,
  ) {
    feed.subscribe((entry) => this.changed(entry.change.parcelId));
    feed.onCommit((changes) => {
      for (const change of changes) this.changed(change.parcelId);
    });
  }

  async get(parcelId: string): Promise<TrackingView | null> {
    if (!this.feed.listening) {
      this.views.clear();
      return this.load(parcelId);
    }
    const cached = this.views.get(parcelId);
    if (cached) {
      bump(this.views, parcelId, cached);
      return cached;
    }
    const startedAt = this.sequence;
    const view = await this.load(parcelId);
    const lastChange = this.changedAt.get(parcelId) ?? this.forgottenUpTo;
    // An id nobody has stays uncached: probing random ids must not fill memory.
    if (view && lastChange <= startedAt && this.feed.listening) {
      this.views.set(parcelId, view);
      trim(this.views, this.size);
    }
    return view;
  }

  private changed(parcelId: string) {
    this.sequence += 1;
    this.views.delete(parcelId);
    bump(this.changedAt, parcelId, this.sequence);
    // Remember more changes than views, so a busy parcel's reads are judged by its own changes.
    const forgotten = trim(this.changedAt, this.size * 4);
    if (forgotten !== undefined) this.forgottenUpTo = forgotten;
  }
}
