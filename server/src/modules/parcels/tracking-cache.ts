import { RELAY_OFFER_KIND } from '@csomag/domain/live';
import type { TrackingView } from '@csomag/domain/parcel';
import type { ChangeFeed } from '../../db/change-feed.ts';
import { ReadCache } from './read-cache.ts';

/** Parcels whose tracking view is kept: the ones strangers are opening from shared links now. */
export const TRACKING_CACHE_SIZE = 5_000;

/**
 * The public tracking view served from memory while its parcel does not change (the hottest read:
 * docs/decisions/0013): every change to a parcel, its runner's position included, drops it.
 */
export class TrackingCache {
  private readonly views: ReadCache<TrackingView>;

  constructor(
    feed: Pick<ChangeFeed, 'listening' | 'subscribe' | 'onCommit'>,
    private readonly load: (parcelId: string) => Promise<TrackingView | null>,
    size = TRACKING_CACHE_SIZE,
  ) {
    // A relay offer is not on the tracking page: it keeps the view.
    this.views = new ReadCache(feed, (change) => (change.kind === RELAY_OFFER_KIND ? [] : [change.parcelId]), size);
  }

  /** An id nobody has stays uncached: probing random ids must not fill memory. */
  get(parcelId: string): Promise<TrackingView | null> {
    return this.views.get(parcelId, [parcelId], () => this.load(parcelId));
  }
}
