/**
 * The offline outbox's rules, free of any browser API (web/src/offline/outbox.ts stores and sends;
 * docs/decisions/0019-installable-app-and-outbox.md): in which order queued actions go, how long to
 * wait after a failed attempt, and what a server's answer means for the action that got it.
 */

export const OUTBOX_ACTION_KINDS = [
  'pickUp',
  'deliver',
  'handover',
  'createParcel',
  'location',
  // issue 28: a failed attempt at the door, a hand-over with the code the person read out
  'attempt',
  'pinHandover',
] as const;
export type OutboxActionKind = (typeof OUTBOX_ACTION_KINDS)[number];

export interface OutboxAction {
  /** The action's Idempotency-Key: made once when the person tapped, reused by every retry. */
  key: string;
  kind: OutboxActionKind;
  method: 'POST' | 'PUT';
  /** Under /api. */
  path: string;
  /** The JSON body, `occurredAt` included. */
  body: unknown;
  /** Actions on one parcel go strictly one after another; others need not wait for them. */
  group: string;
  /** When the person tapped (ISO): shown while pending, sent as `occurredAt`. */
  madeAt: string;
  /** Order of making, across reloads. */
  seq: number;
  /** Failed attempts so far. */
  attempts: number;
  /** Not to be tried again before this (ms since the epoch). */
  notBefore: number;
}

/** The first retry after 5 s, doubling up to 5 minutes; a random part spreads many phones apart. */
export const OUTBOX_BACKOFF_BASE_MS = 5_000;
export const OUTBOX_BACKOFF_MAX_MS = 5 * 60_000;

/** How long to wait after the `attempts`-th failed attempt; `random` in [0, 1) adds up to a quarter. */
export function backoffMs(attempts: number, random = 0): number {
  const exponential = Math.min(OUTBOX_BACKOFF_MAX_MS, OUTBOX_BACKOFF_BASE_MS * 2 ** Math.max(0, attempts - 1));
  return Math.round(exponential * (1 + random / 4));
}

/**
 * The actions to try now, in the order to try them: by making order, and within a group only the
 * first — the next waits until its predecessor has an answer. A group whose first action is still
 * backing off holds everything behind it.
 */
export function dueActions<A extends OutboxAction>(actions: readonly A[], now: number): A[] {
  const seen = new Set<string>();
  const due: A[] = [];
  for (const action of [...actions].sort((a, b) => a.seq - b.seq)) {
    if (seen.has(action.group)) continue;
    seen.add(action.group);
    if (action.notBefore <= now) due.push(action);
  }
  return due;
}

/**
 * When to try again: the earliest time a group's first action is due (an action behind it waits for
 * it, whatever its own time); undefined when nothing is queued.
 */
export function nextAttemptAt(actions: readonly OutboxAction[]): number | undefined {
  const heads = new Map<string, OutboxAction>();
  for (const action of actions) {
    const head = heads.get(action.group);
    if (!head || action.seq < head.seq) heads.set(action.group, action);
  }
  let earliest: number | undefined;
  for (const { notBefore } of heads.values()) if (earliest === undefined || notBefore < earliest) earliest = notBefore;
  return earliest;
}

/** What became of one attempt: answered for good, to be retried later, or the server not reached. */
export type AttemptResult = 'done' | 'retry' | 'network';

/**
 * One sending round: tries every due action, a group's next one as soon as its predecessor is done
 * (`queued` is read again after each answer), until nothing more is due or the network fails. A
 * group whose action is to be retried is held for this round. Answers the action that found the
 * network down and the due ones left untried (they are to wait as long as it does).
 */
export async function sendInOrder<A extends OutboxAction>(
  queued: () => readonly A[],
  now: number,
  attempt: (action: A) => Promise<AttemptResult>,
): Promise<{ failed?: A; untried: A[] }> {
  const tried = new Set<string>();
  while (true) {
    const due = dueActions(queued(), now).filter((action) => !tried.has(action.key));
    if (due.length === 0) return { untried: [] };
    for (const [index, action] of due.entries()) {
      tried.add(action.key);
      if ((await attempt(action)) === 'network') return { failed: action, untried: due.slice(index + 1) };
    }
  }
}

/**
 * What an answer means for the action that got it:
 * - `done`: the server decided (2xx, or a refusal such as 409 parcel_taken): tell the person, drop it;
 * - `retry`: try again later with the same key (the same key still in flight, the server not ready,
 *   the session to be renewed);
 * - `bug`: the key was used for another body (422 idempotency_key_reused): drop it and report.
 */
export type AnswerOutcome = 'done' | 'retry' | 'bug';

const RETRY_CODES: ReadonlySet<string> = new Set(['idempotency_key_in_flight', 'unavailable', 'not_ready']);

export function classifyAnswer(status: number, code: string | undefined): AnswerOutcome {
  if (status >= 200 && status < 300) return 'done';
  if (code === 'idempotency_key_reused') return 'bug';
  if (code !== undefined && RETRY_CODES.has(code)) return 'retry';
  if (status === 401 || status === 503) return 'retry';
  return 'done';
}

export interface LocationPointInput {
  lat: number;
  lng: number;
  accuracy: number;
  occurredAt: string;
}

/**
 * Positions recorded offline, kept as one batch: in time order, the oldest dropped beyond `max`
 * (only the newest becomes the runner's position; the rest is history).
 */
export function mergeLocationPoints(
  queued: readonly LocationPointInput[],
  added: LocationPointInput,
  max: number,
): LocationPointInput[] {
  const points = [...queued, added].sort((a, b) => Date.parse(a.occurredAt) - Date.parse(b.occurredAt));
  return points.slice(Math.max(0, points.length - max));
}
