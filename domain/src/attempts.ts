import { z } from 'zod';
import { positionSchema } from './delivery.ts';
import { messages } from './messages.ts';
import { occurredAtField, parcelSchema, reasonField } from './parcel.ts';

/**
 * When a delivery does not go to plan (issue 28, docs/decisions/0030): the carrier's failed
 * attempt at the door, the new time the receiver (or sender) asks for, and the return to the
 * sender. The parcel stays in its carrier's hands through all of them until someone confirms
 * receiving it.
 */

export const ATTEMPT_REASONS = ['nobody_home', 'wrong_address', 'refused', 'unsafe_access', 'other'] as const;
export type AttemptReason = (typeof ATTEMPT_REASONS)[number];

export const attemptReasonLabels: Record<AttemptReason, string> = {
  nobody_home: messages.attemptReasonNobodyHome,
  wrong_address: messages.attemptReasonWrongAddress,
  refused: messages.attemptReasonRefused,
  unsafe_access: messages.attemptReasonUnsafeAccess,
  other: messages.attemptReasonOther,
};

/** After this many failed attempts the parcel goes back to its sender (RETURN_AFTER_ATTEMPTS overrides). */
export const RETURN_AFTER_ATTEMPTS_DEFAULT = 2;
/** A refusal needs no second attempt: the parcel goes back at once. */
export const returnsAtOnce = (reason: AttemptReason) => reason === 'refused';

export const ATTEMPT_NOTE_MAX = 500;

/**
 * POST /api/parcels/:id/attempts ('Nem sikerült kézbesíteni'): why, where the carrier stands (the
 * 15 m rule of delivery applies to being there when the door is known) and, sent later from the
 * offline outbox, when. 'Egyéb' needs a few words.
 */
export const attemptBodySchema = z
  .object({
    reason: z.enum(ATTEMPT_REASONS, { error: messages.attemptReasonInvalid }),
    note: z
      .string({ error: messages.attemptNoteTooLong })
      .trim()
      .max(ATTEMPT_NOTE_MAX, { error: messages.attemptNoteTooLong })
      .optional(),
    position: positionSchema,
    occurredAt: occurredAtField.optional(),
  })
  .superRefine((body, context) => {
    if (body.reason === 'other' && (body.note ?? '').length < 3) {
      context.addIssue({ code: 'custom', path: ['note'], message: messages.attemptNoteRequired });
    }
  });
export type AttemptBody = z.infer<typeof attemptBodySchema>;

const isoTime = z.iso.datetime();

/** One failed attempt as the sender, the receiver, the carrier and the back office see it. */
export const attemptSchema = z.object({
  number: z.number().int().positive(),
  /** When the server recorded it; `occurredAt` when the carrier says it happened, if later sent. */
  at: isoTime,
  occurredAt: isoTime.nullable(),
  reason: z.enum(ATTEMPT_REASONS),
  note: z.string().nullable(),
  /** The carrier's user name (null: an account deleted since). */
  runner: z.string().nullable(),
  /** Whether a photo of the door is kept (GET …/attempts/:number/photo). */
  photo: z.boolean(),
  /** The kept photo's hash: a photo taken again is a new one to read (null: none kept). */
  photoSha256: z.string().nullable(),
  /** Whether this attempt sent the parcel back to its sender. */
  startedReturn: z.boolean(),
});
export type Attempt = z.infer<typeof attemptSchema>;
export const attemptListSchema = z.object({
  items: z.array(attemptSchema),
  /** How many failed attempts send a parcel back (the server's setting). */
  returnAfter: z.number().int().positive(),
});
export type AttemptList = z.infer<typeof attemptListSchema>;

/** What POST /api/parcels/:id/attempts answers: the parcel as it is now, and the attempt's number (its photo's address). */
export const attemptResultSchema = z.object({
  parcel: parcelSchema,
  attempt: z.number().int().positive(),
  startedReturn: z.boolean(),
});
export type AttemptResult = z.infer<typeof attemptResultSchema>;

/** The new time's window: at least this long, at most this long, at most this far ahead. */
export const REDELIVERY_MIN_MINUTES = 30;
export const REDELIVERY_MAX_HOURS = 12;
export const REDELIVERY_MAX_DAYS_AHEAD = 14;

const windowTime = z.iso.datetime({ offset: true, error: messages.redeliveryTimeInvalid });

/** POST /api/parcels/:id/redelivery: when the receiver (or sender) will be there for another attempt. */
export const redeliveryBodySchema = z
  .object({ from: windowTime, until: windowTime })
  .superRefine((body, context) => {
    const from = Date.parse(body.from);
    const until = Date.parse(body.until);
    const now = Date.now();
    const issue = (message: string) => context.addIssue({ code: 'custom', path: ['until'], message });
    if (until <= now) issue(messages.redeliveryWindowInPast);
    else if (until <= from) issue(messages.redeliveryWindowOrder);
    else if (until - from < REDELIVERY_MIN_MINUTES * 60_000) {
      issue(messages.redeliveryWindowTooShort(REDELIVERY_MIN_MINUTES));
    } else if (until - from > REDELIVERY_MAX_HOURS * 3_600_000)
      issue(messages.redeliveryWindowTooLong(REDELIVERY_MAX_HOURS));
    else if (from > now + REDELIVERY_MAX_DAYS_AHEAD * 86_400_000) {
      context.addIssue({
        code: 'custom',
        path: ['from'],
        message: messages.redeliveryTooFarAhead(REDELIVERY_MAX_DAYS_AHEAD),
      });
    }
  })
  .transform((body) => ({ from: new Date(body.from).toISOString(), until: new Date(body.until).toISOString() }));
export type RedeliveryBody = z.infer<typeof redeliveryBodySchema>;

/** POST /api/parcels/:id/return ('Visszaviszem a feladónak'): the carrier takes it back, saying why. */
export const returnBodySchema = z.object({ reason: reasonField });
export type ReturnBody = z.infer<typeof returnBodySchema>;

/**
 * POST /api/parcels/:id/neighbour ('Szomszédnál hagyom'): who (name, flat or door), confirmed by
 * the neighbour typing their name on the carrier's phone, where the carrier stands.
 */
const neighbourNameField = z
  .string({ error: messages.neighbourNameInvalid })
  .trim()
  .min(2, { error: messages.neighbourNameInvalid })
  .max(100, { error: messages.neighbourNameInvalid });
const neighbourDoorField = z
  .string({ error: messages.neighbourDoorInvalid })
  .trim()
  .min(1, { error: messages.neighbourDoorInvalid })
  .max(60, { error: messages.neighbourDoorInvalid });

export const neighbourBodySchema = z
  .object({
    name: neighbourNameField,
    door: neighbourDoorField,
    confirmedName: z.string({ error: messages.neighbourConfirmMismatch }).trim().max(100),
    position: positionSchema,
    occurredAt: occurredAtField.optional(),
  })
  .superRefine((body, context) => {
    const fold = (text: string) => text.normalize('NFC').toLocaleLowerCase('hu').replace(/\s+/g, ' ');
    if (fold(body.confirmedName) !== fold(body.name)) {
      context.addIssue({ code: 'custom', path: ['confirmedName'], message: messages.neighbourConfirmMismatch });
    }
  });
export type NeighbourBody = z.infer<typeof neighbourBodySchema>;

/** What leaving it with a neighbour answers: the parcel, and the code the receiver collects it with (for the notice). */
export const neighbourResultSchema = z.object({ parcel: parcelSchema, pin: z.string() });
export type NeighbourResult = z.infer<typeof neighbourResultSchema>;

/**
 * POST /api/parcels/:id/neighbour-wish: after a failed attempt, the receiver (or the sender) asks
 * that the parcel be left with a named neighbour; the carrier sees it with the parcel.
 */
export const neighbourWishBodySchema = z.object({ name: neighbourNameField, door: neighbourDoorField });
export type NeighbourWishBody = z.infer<typeof neighbourWishBodySchema>;
