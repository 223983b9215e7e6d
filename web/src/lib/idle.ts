/**
 * Runs `run` at the browser's first idle moment, or after `timeout` ms at the latest (at once where
 * the browser has no idle callbacks); returns a cancel.
 */
export function whenIdle(run: () => void, timeout: number): () => void {
  if (typeof requestIdleCallback !== 'function') {
    const timer = setTimeout(run, 1);
    return () => clearTimeout(timer);
  }
  const handle = requestIdleCallback(run, { timeout });
  return () => cancelIdleCallback(handle);
}
