import { lazy, Suspense } from 'react';
import { Loading } from '../components/loading.tsx';
import type { MapViewProps } from './map-view.tsx';

const MapView = lazy(() => import('./map-view.tsx'));

/** Leaflet stays out of the first download: maps load when a page shows one. */
export function LazyMap(props: MapViewProps) {
  return (
    <Suspense fallback={<Loading />}>
      <MapView {...props} />
    </Suspense>
  );
}
