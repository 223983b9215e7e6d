import type { replays as hu } from '../hu/replays.ts';
import type { Translation } from '../translation.ts';

/** Idempotent writes and the time an action happened (issue 12, docs/decisions/0017). */
export const replays = {
  // the Idempotency-Key header
  idempotencyKeyInvalid: (maxLength: number) =>
    `Invalid Idempotency-Key header: it must be 1–${maxLength} visible ASCII characters (no spaces).`,
  idempotencyKeyInFlight: 'This action is still in progress. Wait a moment, then try again.',
  idempotencyKeyReused: 'You already used this action ID for a different request; a new action needs a new ID.',

  // occurredAt: when the runner says it happened
  occurredAtInvalid:
    'The time is invalid: it must be an ISO 8601 date and time with a time zone (e.g. 2025-05-01T10:15:00+02:00).',
  occurredAtInFuture: "The time can't be in the future.",
  occurredAtTooOld: (hours: number) => `The time can be at most ${hours} ${hours === 1 ? 'hour' : 'hours'} before now.`,

  // a timeline step sent later: the person's time is shown, the server's beside it
  eventReceivedAt: (time: string) => `— recorded offline, sent: ${time}`,

  // location batches
  locationBatchEmpty: 'Send at least one position.',
  locationBatchTooLarge: (max: number) =>
    `You can send at most ${max} ${max === 1 ? 'position' : 'positions'} at a time.`,
  locationBatchInvalid: 'The list of positions is invalid.',
  locationBatchOrSingle: 'Send either one position (lat, lng, accuracy) or a list of positions (points), not both.',
  locationPointTimeRequired: 'Every position in the list needs the time it was taken (occurredAt).',
} as const satisfies Translation<typeof hu>;
