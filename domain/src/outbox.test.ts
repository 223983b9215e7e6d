import { describe, expect, it } from 'vitest';
import {
  type AttemptResult,
  backoffMs,
  classifyAnswer,
  dueActions,
  mergeLocationPoints,
  nextAttemptAt,
  OUTBOX_BACKOFF_BASE_MS,
  OUTBOX_BACKOFF_MAX_MS,
  type OutboxAction,
  sendInOrder,
} from './outbox.ts';

const action = (seq: number, group: string, notBefore = 0): OutboxAction => ({
  key: `key-${seq}`,
  kind: 'pickUp',
  method: 'POST',
  path: `/parcels/${group}/pickup`,
  body: {},
  group,
  madeAt: new Date(1_700_000_000_000 + seq * 1000).toISOString(),
  seq,
  attempts: 0,
  notBefore,
});

describe('dueActions', () => {
  it('sends in making order, one action per parcel at a time', () => {
    const queued = [action(3, 'B'), action(2, 'A'), action(1, 'A'), action(4, 'C')];
    expect(dueActions(queued, 0).map((a) => a.seq)).toEqual([1, 3, 4]);
  });

  it('holds a parcel whose first action backs off, but not the other parcels', () => {
    const queued = [action(1, 'A', 10_000), action(2, 'A'), action(3, 'B')];
    expect(dueActions(queued, 5_000).map((a) => a.seq)).toEqual([3]);
    expect(dueActions(queued, 10_000).map((a) => a.seq)).toEqual([1, 3]);
  });

  it('answers nothing for an empty outbox', () => {
    expect(dueActions([], 0)).toEqual([]);
    expect(nextAttemptAt([])).toBeUndefined();
    expect(nextAttemptAt([action(1, 'A', 30), action(2, 'B', 20)])).toBe(20);
  });

  it('wakes up for a parcel when its first action is due, not when one behind it would be', () => {
    // The second pickup's own time has passed, but it waits for the first: no busy wake-ups.
    expect(nextAttemptAt([action(2, 'A', 5), action(1, 'A', 40_000)])).toBe(40_000);
    expect(nextAttemptAt([action(2, 'A', 5), action(1, 'A', 40_000), action(3, 'B', 9_000)])).toBe(9_000);
  });
});

describe('backoffMs', () => {
  it('doubles from 5 s and stops at 5 minutes', () => {
    expect(backoffMs(1)).toBe(OUTBOX_BACKOFF_BASE_MS);
    expect(backoffMs(2)).toBe(2 * OUTBOX_BACKOFF_BASE_MS);
    expect(backoffMs(4)).toBe(8 * OUTBOX_BACKOFF_BASE_MS);
    expect(backoffMs(30)).toBe(OUTBOX_BACKOFF_MAX_MS);
  });

  it('adds at most a quarter at random', () => {
    expect(backoffMs(1, 0.999)).toBeLessThanOrEqual(OUTBOX_BACKOFF_BASE_MS * 1.25);
    expect(backoffMs(1, 0.5)).toBeGreaterThan(OUTBOX_BACKOFF_BASE_MS);
  });
});

describe('classifyAnswer', () => {
  it('takes a success or a refusal as the result', () => {
    expect(classifyAnswer(200, undefined)).toBe('done');
    expect(classifyAnswer(201, undefined)).toBe('done');
    expect(classifyAnswer(409, 'parcel_taken')).toBe('done');
    expect(classifyAnswer(422, 'too_far')).toBe('done');
    expect(classifyAnswer(400, 'validation_failed')).toBe('done');
  });

  it('tries again while the same key is in flight or the server is not ready', () => {
    expect(classifyAnswer(409, 'idempotency_key_in_flight')).toBe('retry');
    expect(classifyAnswer(503, 'not_ready')).toBe('retry');
    expect(classifyAnswer(401, 'sign_in_required')).toBe('retry');
  });

  it('reports a key reused for another body as a bug', () => {
    expect(classifyAnswer(422, 'idempotency_key_reused')).toBe('bug');
  });
});

describe('mergeLocationPoints', () => {
  const point = (minute: number) => ({
    lat: 47.5,
    lng: 19.05,
    accuracy: 10,
    occurredAt: new Date(Date.UTC(2025, 0, 1, 10, minute)).toISOString(),
  });

  it('keeps the batch in time order and drops the oldest beyond the limit', () => {
    const merged = mergeLocationPoints([point(1), point(3)], point(2), 10);
    expect(merged.map((p) => p.occurredAt)).toEqual([point(1), point(2), point(3)].map((p) => p.occurredAt));
    expect(mergeLocationPoints([point(1), point(2)], point(3), 2)).toEqual([point(2), point(3)]);
  });
});

describe('sendInOrder', () => {
  /** A queue the attempts change as the outbox does: a done action leaves it, a retried one stays. */
  function run(queue: OutboxAction[], answers: Record<string, AttemptResult>) {
    const sent: string[] = [];
    const result = sendInOrder(
      () => queue,
      1_000,
      async (a) => {
        sent.push(a.key);
        const answer = answers[a.key] ?? 'done';
        if (answer === 'done') queue.splice(queue.indexOf(a), 1);
        return answer;
      },
    );
    return { sent, result };
  }

  it("sends a parcel's actions one after another, as each is answered, other parcels between", async () => {
    const { sent, result } = run([action(1, 'A'), action(2, 'B'), action(3, 'A'), action(4, 'A')], {});
    expect(await result).toEqual({ untried: [] });
    expect(sent).toEqual(['key-1', 'key-2', 'key-3', 'key-4']);
  });

  it('holds the actions behind one to be retried, and sends the other parcels', async () => {
    const { sent, result } = run([action(1, 'A'), action(2, 'A'), action(3, 'B')], { 'key-1': 'retry' });
    expect(await result).toEqual({ untried: [] });
    expect(sent).toEqual(['key-1', 'key-3']);
  });

  it('stops when the network fails, naming what was left untried', async () => {
    const queue = [action(1, 'A'), action(2, 'B'), action(3, 'C')];
    const { sent, result } = run(queue, { 'key-2': 'network' });
    const { failed, untried } = await result;
    expect(sent).toEqual(['key-1', 'key-2']);
    expect(failed?.key).toBe('key-2');
    expect(untried.map((a) => a.key)).toEqual(['key-3']);
  });

  it('leaves an action backing off alone until its time', async () => {
    const { sent, result } = run([action(1, 'A', 5_000), action(2, 'B')], {});
    expect(await result).toEqual({ untried: [] });
    expect(sent).toEqual(['key-2']);
  });
});
