import { useSyncExternalStore } from 'react';

const never = () => () => {};

/** False while React takes over a page rendered at build time, true from then on (and on every other page). */
export const useHydrated = () =>
  useSyncExternalStore(
    never,
    () => true,
    () => false,
  );
