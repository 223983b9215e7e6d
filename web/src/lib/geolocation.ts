import type { Position } from '@csomag/domain/delivery';
import { messages } from '@csomag/domain/messages';
import { useEffect, useState } from 'react';

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

/** Follows the device's position while mounted. */
export function useWatchedPosition(enabled = true) {
  const [position, setPosition] = useState<Position | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (!enabled) return;
    if (!('geolocation' in navigator)) {
      setError(geolocationError(null));
      return;
    }
    const id = navigator.geolocation.watchPosition(
      (next) => {
        setPosition(toPosition(next));
        setError(null);
      },
      (failure) => setError(geolocationError(failure)),
      { enableHighAccuracy: true, maximumAge: 5_000 },
    );
    return () => navigator.geolocation.clearWatch(id);
  }, [enabled]);
  return { position, error };
}
