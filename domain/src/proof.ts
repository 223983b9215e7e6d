import { z } from 'zod';
import { messages } from './messages.ts';
import type { ParcelStatus } from './parcel.ts';

/**
 * Proof of delivery (issue 15, docs/decisions/0023): the runner's photo and the receiver's
 * signature, stored re-encoded without metadata and shown only to the sender, the receiver and
 * the superadmin.
 */

export const PROOF_KINDS = ['photo', 'signature'] as const;
export type ProofKind = (typeof PROOF_KINDS)[number];
export const proofKindSchema = z.enum(PROOF_KINDS, { error: messages.notFound });

/** The upload the server takes: one file up to this size (413 above). */
export const PROOF_PHOTO_MAX_BYTES = 8 * 1024 * 1024;
/** Width × height refused before decoding: a small file can claim a huge image (a decompression bomb). */
export const PROOF_MAX_INPUT_PIXELS = 40_000_000;
/** The long side of a stored photo; the browser scales to this before sending, the server again. */
export const PROOF_PHOTO_LONG_SIDE = 1600;
/** The browser's JPEG quality when it scales a photo down. */
export const PROOF_PHOTO_BROWSER_QUALITY = 0.85;
/** After the delivery, its last runner may still add (or retake) the photo this long: the QR flow confirms first. */
export const PROOF_PHOTO_AFTER_DELIVERY_MS = 15 * 60 * 1000;

/** Whether a parcel's runner may (still) add its delivery photo at `now`: in transit, or delivered within the window. */
export const photoWindowOpen = (status: ParcelStatus, deliveredAt: string | null, now: number) =>
  status === 'in_transit' ||
  (status === 'delivered' && deliveredAt !== null && Date.parse(deliveredAt) >= now - PROOF_PHOTO_AFTER_DELIVERY_MS);

/** A signature as a PNG data URL, at most this many bytes of base64 text. */
export const SIGNATURE_MAX_DATA_URL_BYTES = 300 * 1024;
/** A signature's pad size limit (signature_pad draws at the canvas's size). */
export const SIGNATURE_MAX_SIDE = 2000;
export const SIGNATURE_MAX_STROKES = 200;
export const SIGNATURE_MAX_POINTS = 10_000;

const PNG_DATA_URL = /^data:image\/png;base64,[A-Za-z0-9+/]+={0,2}$/;

/** One point of signature_pad's toData(): x, y, time and pressure. */
const pointSchema = z.object({
  x: z.number().finite(),
  y: z.number().finite(),
  time: z.number().finite(),
  pressure: z.number().finite().optional(),
});

/** One stroke of signature_pad 5's toData(); extra pen options are dropped. */
const strokeSchema = z.object({
  penColor: z.string().max(40).optional(),
  dotSize: z.number().finite().optional(),
  minWidth: z.number().finite().optional(),
  maxWidth: z.number().finite().optional(),
  velocityFilterWeight: z.number().finite().optional(),
  compositeOperation: z.string().max(40).optional(),
  points: z.array(pointSchema).max(SIGNATURE_MAX_POINTS, { error: messages.signatureTooManyPoints }),
});

/** The receiver's signature with the handover confirmation: the image as drawn and the strokes. */
export const signatureSchema = z.object(
  {
    image: z
      .string({ error: messages.signatureInvalid })
      .max(SIGNATURE_MAX_DATA_URL_BYTES, { error: messages.signatureTooLarge(SIGNATURE_MAX_DATA_URL_BYTES / 1024) })
      .regex(PNG_DATA_URL, { error: messages.signatureInvalid }),
    strokes: z
      .array(strokeSchema, { error: messages.signatureInvalid })
      .min(1, { error: messages.signatureInvalid })
      .max(SIGNATURE_MAX_STROKES, { error: messages.signatureTooManyPoints })
      .refine((strokes) => strokes.reduce((sum, stroke) => sum + stroke.points.length, 0) <= SIGNATURE_MAX_POINTS, {
        error: messages.signatureTooManyPoints,
      }),
  },
  { error: messages.signatureInvalid },
);
export type Signature = z.infer<typeof signatureSchema>;

const isoTime = z.iso.datetime();

/** One proof as listed (GET /api/parcels/:id/proofs): never the bytes, never a public URL. */
export const proofInfoSchema = z.object({
  kind: z.enum(PROOF_KINDS),
  sha256: z.string(),
  createdAt: isoTime,
  /** false once the image was removed after the retention period (the hash stays). */
  available: z.boolean(),
  removedAt: isoTime.nullable(),
  width: z.number().int(),
  height: z.number().int(),
});
export type ProofInfo = z.infer<typeof proofInfoSchema>;
export const proofListSchema = z.object({ items: z.array(proofInfoSchema) });
export type ProofList = z.infer<typeof proofListSchema>;

/** The API path of a proof's image: read with the session cookie, never cached. */
export const proofImagePath = (parcelId: string, kind: ProofKind) =>
  `/api/parcels/${encodeURIComponent(parcelId)}/proof/${kind}`;
