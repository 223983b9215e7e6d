import { DESKTOP_MIN_WIDTH_PX } from '@csomag/domain/constants';
import { useSyncExternalStore } from 'react';

const subscribe = (onChange: () => void) => {
  window.addEventListener('resize', onChange);
  return () => window.removeEventListener('resize', onChange);
};

/** The window width, tracked as SPEC §1 asks (the desktop layout switches at 1024 px). */
export function useWindowWidth(): number {
  return useSyncExternalStore(subscribe, () => window.innerWidth);
}

export function useIsDesktop(): boolean {
  return useWindowWidth() >= DESKTOP_MIN_WIDTH_PX;
}
