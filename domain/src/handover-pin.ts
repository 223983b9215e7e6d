import { z } from 'zod';
import { HANDOVER_PIN_LENGTH } from './constants.ts';
import { messages } from './messages.ts';
import { occurredAtField } from './parcel.ts';

/**
 * The handover PIN (issue 28, docs/decisions/0030): instead of scanning a QR code, the person
 * receiving a parcel reads out a short code only they are shown, and the carrier types it in. One
 * code per leg (it changes with every change of hands: single use), and a few tries per leg
 * before it locks for a while, so guessing a million codes is hopeless.
 */

export { HANDOVER_PIN_LENGTH };
/** Tries per leg in one window: then only the QR code (or waiting) hands it over. */
export const HANDOVER_PIN_MAX_TRIES = 5;
export const HANDOVER_PIN_WINDOW_MS = 60 * 60 * 1000;

export const handoverPinField = z
  .string({ error: messages.handoverPinFormat(HANDOVER_PIN_LENGTH) })
  .trim()
  .regex(new RegExp(`^[0-9]{${HANDOVER_PIN_LENGTH}}$`), { error: messages.handoverPinFormat(HANDOVER_PIN_LENGTH) });

/** POST /api/parcels/:id/pin-handover: the carrier types the code the receiving person reads out. */
export const pinHandoverBodySchema = z.object({
  pin: handoverPinField,
  occurredAt: occurredAtField.optional(),
});
export type PinHandoverBody = z.infer<typeof pinHandoverBodySchema>;

/** GET /api/parcels/:id/handover-pin: the code, for the person the parcel is being brought to. */
export const handoverPinSchema = z.object({
  pin: z.string(),
  /** Whose door the parcel goes to: the receiver's, or the sender's on its way back. */
  for: z.enum(['receiver', 'sender']),
});
export type HandoverPin = z.infer<typeof handoverPinSchema>;
