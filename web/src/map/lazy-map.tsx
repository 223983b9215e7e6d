import { lazy, Suspense, useEffect, useState } from 'react';
import { Loading } from '../components/loading.tsx';
import { whenIdle } from '../lib/idle.ts';
import type { MapViewProps } from './map-view.tsx';

const MapView = lazy(() => import('./map-view.tsx'));

/** True once the browser has had a moment with nothing to do (at most `timeout` ms). */
function useIdle(timeout: number): boolean {
  const [idle, setIdle] = useState(false);
  useEffect(() => whenIdle(() => setIdle(true), timeout), [timeout]);
  return idle;
}

/**
 * Leaflet stays out of the first download: maps load when a page shows one, after the page's own
 * content has painted. The map's space is kept meanwhile, so nothing below it jumps.
 */
export function LazyMap(props: MapViewProps) {
  const idle = useIdle(1000);
  const placeholder = (
    <div className="map" style={{ height: props.height }}>
      <Loading />
    </div>
  );
  return idle ? (
    <Suspense fallback={placeholder}>
      <MapView {...props} />
    </Suspense>
  ) : (
    placeholder
  );
}
