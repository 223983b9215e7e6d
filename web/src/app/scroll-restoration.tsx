import { useEffect, useLayoutEffect, useRef } from 'react';
import { type Location, useLocation, useNavigationType } from '../lib/router.tsx';

/*
 * Where each page starts (issue 27): a new page at its top (or at the element its #hash names), a
 * page gone back or forward to where it was left. The browser's own restoration jumps before
 * a page gone back to has drawn its list, so the shell does it here, by history entry.
 */

const STORAGE_KEY = 'csomag.scrollPositions';
/** Positions kept for the tab's history (a reload goes back to where it was). */
const KEPT = 50;
/** How long a page gone back to may take to grow tall enough for its old position (its list arriving). */
const RESTORE_MS = 3_000;
/** What the person does that ends a restoration: their own scrolling wins. */
const OWN_SCROLLING = ['wheel', 'touchstart', 'keydown', 'pointerdown'] as const;

/**
 * One history entry's key. The first page a tab opens, like any page loaded from its address, has
 * the key 'default' (lib/router.tsx), so its path goes with it.
 */
const entryOf = (location: Location) => `${location.key}:${location.pathname}${location.search}`;

function storedPositions(): Map<string, number> {
  try {
    const stored: unknown = JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? '[]');
    return new Map(Array.isArray(stored) ? (stored as [string, number][]) : []);
  } catch {
    return new Map();
  }
}

/** Scrolls to `top` as soon as the page is tall enough, until RESTORE_MS or the person scrolls; returns a stop. */
function restoreTo(top: number): () => void {
  const until = performance.now() + RESTORE_MS;
  let frame = 0;
  const stop = () => {
    cancelAnimationFrame(frame);
    for (const event of OWN_SCROLLING) window.removeEventListener(event, stop);
  };
  const attempt = () => {
    window.scrollTo(0, top);
    if (Math.abs(window.scrollY - top) <= 1 || performance.now() > until) stop();
    else frame = requestAnimationFrame(attempt);
  };
  for (const event of OWN_SCROLLING) window.addEventListener(event, stop, { passive: true });
  attempt();
  return stop;
}

export function ScrollRestoration() {
  const location = useLocation();
  const navigationType = useNavigationType();
  const positions = useRef<Map<string, number> | null>(null);
  const current = useRef<string | null>(null);
  const previousPath = useRef<string | null>(null);

  // The browser's own restoration would jump before the page gone back to has rendered.
  useEffect(() => {
    positions.current ??= storedPositions();
    const before = window.history.scrollRestoration;
    window.history.scrollRestoration = 'manual';
    const remember = () => {
      if (current.current) positions.current?.set(current.current, window.scrollY);
    };
    const keep = () => {
      remember();
      const kept = [...(positions.current ?? [])].filter(([entry]) => !entry.startsWith('default:')).slice(-KEPT);
      sessionStorage.setItem(STORAGE_KEY, JSON.stringify(kept));
    };
    window.addEventListener('scroll', remember, { passive: true });
    window.addEventListener('pagehide', keep);
    return () => {
      window.history.scrollRestoration = before;
      window.removeEventListener('scroll', remember);
      window.removeEventListener('pagehide', keep);
    };
  }, []);

  // Before the browser paints the new page. Runs for a new history entry only (its key).
  // biome-ignore lint/correctness/useExhaustiveDependencies: the entry's key says a navigation happened
  useLayoutEffect(() => {
    positions.current ??= storedPositions();
    const entry = entryOf(location);
    current.current = entry;
    const samePage = previousPath.current === location.pathname;
    previousPath.current = location.pathname;

    if (navigationType === 'POP') {
      const saved = positions.current.get(entry);
      return saved === undefined ? undefined : restoreTo(saved);
    }
    const target = location.hash ? document.getElementById(decodeURIComponent(location.hash.slice(1))) : null;
    if (target) target.scrollIntoView();
    // The same page with other search parameters (a filter) stays where it is.
    else if (!samePage) window.scrollTo(0, 0);
    return undefined;
  }, [location.key]);

  return null;
}
