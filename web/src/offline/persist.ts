/**
 * Offline reads (docs/decisions/0019-installable-app-and-outbox.md): the session, the parcel lists
 * and the parcel views are kept in IndexedDB as they arrive, and put back into the query cache when
 * the app starts, so an app opened without a connection shows what it last knew (the banner says
 * since when). What the cache forgets — on sign-out, on a new sign-in — is forgotten here too.
 */
import type { Query, QueryClient, QueryKey } from '@tanstack/react-query';
import { clear, createStore, del, entries, set } from 'idb-keyval';
import { reportKeptDataAt } from './connection.ts';

const KEPT_ROOTS: ReadonlySet<unknown> = new Set(['session', 'parcels', 'parcel']);
/** Enough for a runner's lists, the map's last views and the parcels they opened. */
const MAX_KEPT = 60;

interface Kept {
  key: QueryKey;
  data: unknown;
  updatedAt: number;
}

const store = typeof indexedDB === 'undefined' ? undefined : createStore('csomag-cache', 'queries');

/** Whose data the store holds: another account's session (or none) clears it first. */
let keptAccount: string | null | undefined;

const accountOf = (session: unknown) =>
  session !== null && typeof session === 'object' && 'userName' in session && typeof session.userName === 'string'
    ? session.userName
    : null;

/** Puts the kept answers back, unless a fresher one is already in the cache. */
export async function restoreQueries(queryClient: QueryClient): Promise<void> {
  if (!store) return;
  const kept = (await entries<string, Kept>(store)).sort(([, a], [, b]) => b.updatedAt - a.updatedAt);
  const session = kept.find(([, entry]) => entry.key[0] === 'session');
  keptAccount = session ? accountOf(session[1].data) : undefined;
  for (const [hash] of kept.slice(MAX_KEPT)) await del(hash, store);
  for (const [, { key, data, updatedAt }] of kept.slice(0, MAX_KEPT)) {
    const current = queryClient.getQueryState(key);
    if (current?.data !== undefined && current.dataUpdatedAt >= updatedAt) continue;
    queryClient.setQueryData(key, data, { updatedAt });
  }
  const newest = kept[0]?.[1].updatedAt;
  if (newest !== undefined) reportKeptDataAt(newest);
}

/**
 * From now on, every answer under a kept key is written through, and those already in the cache
 * (a page drawn at build time starts this once it is idle). A query the cache drops when no screen
 * used it for a while stays kept; a change of account (sign-out, another sign-in) clears all.
 */
export function keepQueries(queryClient: QueryClient) {
  if (!store) return;
  const keep = (query: Query) => {
    if (!KEPT_ROOTS.has(query.queryKey[0]) || query.state.status !== 'success' || query.state.data === undefined)
      return;
    const kept: Kept = { key: query.queryKey, data: query.state.data, updatedAt: query.state.dataUpdatedAt };
    const write = () => set(query.queryHash, kept, store);
    let written: Promise<void>;
    if (query.queryKey[0] === 'session' && accountOf(kept.data) !== keptAccount) {
      keptAccount = accountOf(kept.data);
      written = clear(store).then(write);
    } else written = write();
    written.catch(() => {
      // Not storable (private mode, full disk): the app works as before, only not offline.
    });
  };
  // The session first: a change of account clears the store before the rest is written.
  const present = queryClient.getQueryCache().getAll();
  for (const query of present.filter((query) => query.queryKey[0] === 'session')) keep(query);
  for (const query of present.filter((query) => query.queryKey[0] !== 'session')) keep(query);
  queryClient.getQueryCache().subscribe((event) => {
    if (event.type === 'updated' && event.action.type === 'success') keep(event.query);
  });
}
