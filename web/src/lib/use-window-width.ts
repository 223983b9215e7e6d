import { DESKTOP_MIN_WIDTH_PX } from '@csomag/domain/constants';
import { useSyncExternalStore } from 'react';

const subscribe = (onChange: () => void) => {
  window.addEventListener('resize', onChange);
  return () => window.removeEventListener('resize', onChange);
};

/**
 * The window width, tracked as SPEC §1 asks (the desktop layout switches at 1024 px). Pages
 * rendered at build time assume a phone; the browser switches after hydrating.
 */
export function useWindowWidth(): number {
  return useSyncExternalStore(
    subscribe,
    () => window.innerWidth,
    () => 0,
  );
}

export function useIsDesktop(): boolean {
  return useWindowWidth() >= DESKTOP_MIN_WIDTH_PX;
}
