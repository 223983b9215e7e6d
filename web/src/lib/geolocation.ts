import type { Position } from '@csomag/domain/delivery';
import { messages } from '@csomag/domain/messages';
import { useSyncExternalStore } from 'react';

// GeolocationPositionError's codes: 1 permission denied, 2 position unavailable, 3 timeout.
const reasons: Record<number, string> = {
  1: messages.geolocationDenied,
  2: messages.geolocationPositionUnknown,
  3: messages.geolocationTimedOut,
};

/** What to tell the person when no position could be had. */
export function geolocationError(error: GeolocationPositionError | null): string {
  const reason = error ? reasons[error.code] : undefined;
  return reason ? `${messages.geolocationUnavailable} ${reason}` : messages.geolocationUnavailable;
}

const toPosition = ({ coords }: GeolocationPosition): Position => ({
  lat: coords.latitude,
  lng: coords.longitude,
  accuracy: coords.accuracy,
});

/**
 * A recent position fix for delivering: at most 10 s old (a walker moves ~14 m in that time; the
 * server also subtracts the reported accuracy). The runner's own watch keeps such a fix at hand,
 * and asking for a brand-new one can hang on devices that only report when they move.
 */
export function currentPosition(): Promise<Position> {
  return new Promise((resolve, reject) => {
    if (!('geolocation' in navigator)) return reject(new Error(geolocationError(null)));
    navigator.geolocation.getCurrentPosition(
      (position) => resolve(toPosition(position)),
      (error) => reject(new Error(geolocationError(error))),
      { enableHighAccuracy: true, timeout: 15_000, maximumAge: 10_000 },
    );
  });
}

type Fix = { position: Position | null; error: string | null };

const NO_FIX: Fix = { position: null, error: null };
let fix: Fix = NO_FIX;
const followers = new Set<() => void>();
let watchId: number | null = null;

function publish(next: Fix) {
  fix = next;
  for (const follower of followers) follower();
}

/**
 * One watch a page, shared by everything that follows the position. A second watch started later
 * is handed only a fix younger than its maximumAge, and a phone standing still may not report
 * another: a page opened while the runner waits would never learn where they are (the runner map
 * without 'Ez te vagy', a hand-over recorded without its place). The shared watch's last fix is
 * at hand for whoever follows next.
 */
function follow(follower: () => void) {
  followers.add(follower);
  if (followers.size === 1) {
    if ('geolocation' in navigator) {
      watchId = navigator.geolocation.watchPosition(
        (next) => publish({ position: toPosition(next), error: null }),
        (failure) => publish({ position: fix.position, error: geolocationError(failure) }),
        { enableHighAccuracy: true, maximumAge: 5_000 },
      );
    } else {
      publish({ position: null, error: geolocationError(null) });
    }
  }
  return () => {
    followers.delete(follower);
    if (followers.size > 0) return;
    if (watchId !== null) navigator.geolocation.clearWatch(watchId);
    watchId = null;
    // A watch started again begins afresh: the device is asked, never an old fix shown as current.
    fix = NO_FIX;
  };
}

const unfollowed = () => () => {};
const currentFix = () => fix;
const noFix = () => NO_FIX;

/** Follows the device's position while mounted (and `enabled`). */
export function useWatchedPosition(enabled = true): Fix {
  return useSyncExternalStore(enabled ? follow : unfollowed, enabled ? currentFix : noFix, noFix);
}
