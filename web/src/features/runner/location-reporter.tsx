import { LOCATION_REPORT_MIN_DISTANCE_M, LOCATION_REPORT_MIN_INTERVAL_MS } from '@csomag/domain/constants';
import type { Position } from '@csomag/domain/delivery';
import { distanceMetres } from '@csomag/domain/geo';
import { useEffect, useRef } from 'react';
import { useWatchedPosition } from '../../lib/geolocation.ts';
import { reportLocation } from './api.ts';

/**
 * While a runner is signed in, their position goes to the server whenever they have moved 25 m
 * or 10 s have passed since the last report — enough for a live marker of the runner on the tracking page, light on
 * battery and server. The server shows it only on parcels the runner carries.
 */
export default function RunnerLocationReporter() {
  const { position } = useWatchedPosition();
  const last = useRef<{ position: Position; at: number } | null>(null);
  useEffect(() => {
    if (!position) return;
    const previous = last.current;
    const now = Date.now();
    const moved = previous ? distanceMetres(previous.position, position) : Number.POSITIVE_INFINITY;
    if (previous && moved < LOCATION_REPORT_MIN_DISTANCE_M && now - previous.at < LOCATION_REPORT_MIN_INTERVAL_MS) {
      return;
    }
    last.current = { position, at: now };
    reportLocation(position).catch(() => {
      // A lost report is replaced by the next one; nothing to tell the runner.
      last.current = previous;
    });
  }, [position]);
  return null;
}
