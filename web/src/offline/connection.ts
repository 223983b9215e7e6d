/**
 * Whether the server can be reached, as the last API request found it (and the browser's own
 * `navigator.onLine`), and when data last arrived: what the offline banner says. A tiny module, so
 * the API client can report to it without loading anything else.
 */
type Listener = () => void;

interface Connection {
  /** The last request reached the server (any answer counts) and the browser thinks it is online. */
  online: boolean;
  /** When an answer last arrived (ms since the epoch); from the kept data when started offline. */
  lastAnswerAt: number | undefined;
}

let state: Connection = { online: typeof navigator === 'undefined' || navigator.onLine, lastAnswerAt: undefined };
let reachable = true;
const listeners = new Set<Listener>();
const reconnectListeners = new Set<Listener>();

function update(next: Partial<Connection>) {
  const merged = { ...state, ...next };
  if (merged.online === state.online && merged.lastAnswerAt === state.lastAnswerAt) return;
  const cameBack = merged.online && !state.online;
  state = merged;
  for (const listener of listeners) listener();
  if (cameBack) for (const listener of reconnectListeners) listener();
}

const browserOnline = () => typeof navigator === 'undefined' || navigator.onLine;

/** From the API client: a request got an answer (true) or could not reach the server (false). */
export function reportReachable(answered: boolean) {
  reachable = answered;
  update({ online: answered && browserOnline(), ...(answered ? { lastAnswerAt: Date.now() } : {}) });
}

/** When the kept data was fetched, for an app started offline. */
export function reportKeptDataAt(at: number) {
  if (state.lastAnswerAt === undefined || at > state.lastAnswerAt) update({ lastAnswerAt: at });
}

export const getConnection = () => state;

export function subscribeConnection(listener: Listener) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Called when the connection comes back (the browser's `online`, or a request answered again). */
export function onReconnect(listener: Listener) {
  reconnectListeners.add(listener);
  return () => reconnectListeners.delete(listener);
}

if (typeof window !== 'undefined') {
  window.addEventListener('online', () => update({ online: reachable }));
  window.addEventListener('offline', () => update({ online: false }));
}
