/**
 * The outbox (docs/decisions/0019-installable-app-and-outbox.md): a runner's pickups, deliveries,
 * failed attempts and hand-overs with a code (issue 28), position reports, a receiver's QR confirmation and a sender's new parcel are sent at once when the
 * server can be reached, and kept in IndexedDB when it cannot — a fetch that throws; any answer, even
 * 4xx or 5xx, is a result. Each action carries its own Idempotency-Key from the tap on, and
 * `occurredAt`, so a retry never applies twice and the timeline shows when it really happened. Kept
 * actions go in making order, one parcel's strictly one after another, when the connection returns:
 * on `online`, on app start, when the page becomes visible, and on a timer that backs off.
 */
import type { Account } from '@csomag/domain/account';
import { LOCATION_BATCH_MAX_POINTS } from '@csomag/domain/constants';
import { messages } from '@csomag/domain/messages';
import {
  type AttemptResult,
  backoffMs,
  classifyAnswer,
  type LocationPointInput,
  mergeLocationPoints,
  nextAttemptAt,
  type OutboxAction,
  type OutboxActionKind,
  sendInOrder,
} from '@csomag/domain/outbox';
import type { QueryClient } from '@tanstack/react-query';
import { createStore, del, set, values } from 'idb-keyval';
import { useSyncExternalStore } from 'react';
import { ApiError, requestJson } from '../api/client.ts';
import { notify } from '../lib/notify.ts';
import { onReconnect } from './connection.ts';

/** A kept action, with the account that made it: only that account's session sends it. */
export interface QueuedAction extends OutboxAction {
  account: string | null;
}

/** Thrown by an action kept for later: the hook says so instead of an error. */
export class QueuedError extends ApiError {
  constructor() {
    super(0, 'queued', messages.actionQueued);
  }
}

export const isQueued = (error: unknown): error is QueuedError => error instanceof QueuedError;

const store = typeof indexedDB === 'undefined' ? undefined : createStore('csomag-outbox', 'actions');
let actions: readonly QueuedAction[] = [];
const listeners = new Set<() => void>();
let queryClient: QueryClient | undefined;
let lastSeq = 0;

function publish(next: readonly QueuedAction[]) {
  actions = [...next].sort((a, b) => a.seq - b.seq);
  for (const listener of listeners) listener();
}

async function readAll(): Promise<QueuedAction[]> {
  return store ? values<QueuedAction>(store) : [...actions];
}

async function put(action: QueuedAction) {
  if (store) await set(action.key, action, store);
  publish([...actions.filter((other) => other.key !== action.key), action]);
}

async function remove(key: string) {
  if (store) await del(key, store);
  publish(actions.filter((action) => action.key !== key));
}

/** A version 4 UUID; crypto.randomUUID exists only in secure contexts (a phone on plain HTTP is not). */
function newKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = [...bytes].map((byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

function nextSeq(): number {
  lastSeq = Math.max(lastSeq + 1, Date.now() * 1000);
  return lastSeq;
}

const currentAccount = () => queryClient?.getQueryData<Account | null>(['session'])?.userName ?? null;

export interface ActionSpec {
  kind: OutboxActionKind;
  method: 'POST' | 'PUT';
  path: string;
  /** The body without `occurredAt`, which is added here. */
  body: Record<string, unknown>;
  /** Whose order it keeps: the parcel's id (a new parcel: its own key). */
  group?: string;
}

function makeAction(spec: ActionSpec, madeAt = new Date().toISOString()): QueuedAction {
  const key = newKey();
  return {
    key,
    kind: spec.kind,
    method: spec.method,
    path: spec.path,
    body: { ...spec.body, occurredAt: madeAt },
    group: spec.group ?? key,
    madeAt,
    seq: nextSeq(),
    attempts: 0,
    notBefore: 0,
    account: currentAccount(),
  };
}

const send = (action: QueuedAction) =>
  requestJson(action.method, action.path, action.body, undefined, { 'idempotency-key': action.key });

const isNetworkFailure = (error: unknown) => error instanceof ApiError && error.code === 'network';

async function keep(action: QueuedAction, attempts: number) {
  await put({ ...action, attempts, notBefore: Date.now() + backoffMs(attempts, Math.random()) });
  schedule();
}

/**
 * Sends the action now, or keeps it when the server cannot be reached (or an earlier action on the
 * same parcel is still kept: it must go first), throwing QueuedError. `parse` reads the answer.
 */
export async function sendOrQueue<T>(spec: ActionSpec, parse: (json: unknown) => T): Promise<T> {
  const action = makeAction(spec);
  if (actions.some((other) => other.group === action.group)) {
    await keep(action, 0);
    throw new QueuedError();
  }
  try {
    return parse(await send(action));
  } catch (error) {
    if (!isNetworkFailure(error)) throw error;
    await keep(action, 1);
    throw new QueuedError();
  }
}

const LOCATION_GROUP = 'location';

/**
 * A position report: sent when it can be; otherwise added to the one kept batch (a new key, as its
 * body changed: a batch that reached the server without an answer is sent again, harmless for a
 * history of positions), which goes as one request when the connection returns — never as a burst
 * of old positions shown as live.
 */
export async function reportPosition(point: Omit<LocationPointInput, 'occurredAt'>): Promise<void> {
  const stamped = { ...point, occurredAt: new Date().toISOString() };
  const queued = actions.find((action) => action.group === LOCATION_GROUP);
  if (queued) {
    const points = (queued.body as { points: LocationPointInput[] }).points;
    await remove(queued.key);
    await put({
      ...queued,
      key: newKey(),
      body: { points: mergeLocationPoints(points, stamped, LOCATION_BATCH_MAX_POINTS) },
    });
    return;
  }
  const action: QueuedAction = {
    ...makeAction({ kind: 'location', method: 'PUT', path: '/runners/me/location', body: {}, group: LOCATION_GROUP }),
    body: stamped,
  };
  try {
    await send(action);
  } catch (error) {
    if (!isNetworkFailure(error)) return; // a refused report is replaced by the next one
    await keep({ ...action, body: { points: [stamped] } }, 1);
  }
}

// ——— sending what was kept ———

let flushing: Promise<void> | undefined;
let flushAgain = false;
let timer: ReturnType<typeof setTimeout> | undefined;

/** Kept actions this session may send: its own, and those made signed out (the QR confirmation). */
function sendable(action: QueuedAction) {
  return action.account === null || action.account === currentAccount();
}

function schedule() {
  if (timer !== undefined) clearTimeout(timer);
  timer = undefined;
  const at = nextAttemptAt(actions.filter(sendable));
  if (at === undefined) return;
  timer = setTimeout(() => void flush(), Math.max(0, at - Date.now()));
}

/** Every tab shares the one IndexedDB outbox: one flushes at a time (Web Locks where there are any). */
function exclusively(work: () => Promise<void>): Promise<void> {
  if (typeof navigator !== 'undefined' && navigator.locks) return navigator.locks.request('csomag-outbox', work);
  return work();
}

/**
 * Sends every kept action that is due (all of them when `now` is asked, as when the connection has
 * just come back), one parcel's in order, until the network fails again.
 */
export function flush({ now = false } = {}): Promise<void> {
  if (flushing) {
    flushAgain = true;
    return flushing;
  }
  flushing = exclusively(async () => {
    publish(await readAll());
    const { failed, untried } = await sendInOrder(
      () => actions.filter(sendable),
      now ? Number.POSITIVE_INFINITY : Date.now(),
      attempt,
    );
    // The rest would fail alike: they wait as long as the one that did (their attempts unchanged).
    const backedOff = failed && actions.find((action) => action.key === failed.key);
    if (backedOff) for (const rest of untried) await put({ ...rest, notBefore: backedOff.notBefore });
  }).finally(() => {
    flushing = undefined;
    schedule();
    if (flushAgain) {
      flushAgain = false;
      void flush();
    }
  });
  return flushing;
}

async function attempt(action: QueuedAction): Promise<AttemptResult> {
  try {
    const answer = await send(action);
    await remove(action.key);
    tell(action, { answer });
    return 'done';
  } catch (error) {
    if (isNetworkFailure(error)) {
      await keep(action, action.attempts + 1);
      return 'network';
    }
    const outcome = error instanceof ApiError ? classifyAnswer(error.status, error.code) : 'done';
    if (outcome === 'retry') {
      await keep(action, action.attempts + 1);
      return 'retry';
    }
    await remove(action.key);
    tell(action, { error, bug: outcome === 'bug' });
    return 'done';
  }
}

const SUCCESS_TEXT: Record<OutboxActionKind, string | undefined> = {
  pickUp: messages.parcelPickedUp,
  deliver: messages.parcelDelivered,
  handover: messages.parcelDelivered,
  createParcel: messages.parcelSent,
  location: undefined,
  attempt: messages.attemptRecorded,
  pinHandover: messages.pinHandoverDone,
};

/** The action's real result, as the action's own toast says it when sent at once. */
function tell(action: QueuedAction, result: { answer: unknown } | { error: unknown; bug: boolean }) {
  if ('answer' in result) {
    const text = SUCCESS_TEXT[action.kind];
    if (text) notify.success(text);
  } else if (result.bug) {
    console.error('outbox: the server refused an Idempotency-Key as reused for another body', action, result.error);
    notify.error(new Error(messages.actionDropped));
  } else if (action.kind !== 'location') {
    notify.error(result.error);
  }
  void queryClient?.invalidateQueries({ queryKey: ['parcels'] });
  void queryClient?.invalidateQueries({ queryKey: ['parcel'] });
}

// ——— the screen's view ———

/** The actions waiting to be sent, in making order (location batches included). */
export const usePendingActions = () =>
  useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => actions,
    () => actions,
  );

let started = false;

/** On app start: reads what an earlier visit kept and sends it; then whenever the connection returns. */
export function startOutbox(client: QueryClient) {
  queryClient = client;
  if (started) return;
  started = true;
  void flush({ now: true });
  window.addEventListener('online', () => void flush({ now: true }));
  onReconnect(() => void flush({ now: true }));
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') void flush({ now: true });
  });
  // A session that arrives (signed in again, or restored) may own kept actions.
  client.getQueryCache().subscribe((event) => {
    if (event.query.queryKey[0] === 'session' && event.type === 'updated' && event.action.type === 'success') {
      if (actions.length > 0) void flush();
    }
  });
}
