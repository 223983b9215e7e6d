import { createHash } from 'node:crypto';
import { messages } from '@csomag/domain/messages';
import {
  PROOF_MAX_INPUT_PIXELS,
  PROOF_PHOTO_LONG_SIDE,
  PROOF_PHOTO_MAX_BYTES,
  SIGNATURE_MAX_SIDE,
} from '@csomag/domain/proof';
import sharp, { type Metadata, type OutputInfo, type Sharp } from 'sharp';
import { refuse } from '../../errors.ts';
import type { NewProof } from '../parcels/changes.ts';

/** Formats a photo may arrive in, told from its bytes (never from its name or the declared type). */
const PHOTO_FORMATS = new Set(['jpeg', 'png', 'webp']);

type Encoded = Pick<NewProof, 'image' | 'mime' | 'sha256' | 'width' | 'height'>;

/**
 * What the bytes really are, and how many pixels they claim, from the header alone: a small file
 * may claim 20,000 × 20,000 pixels (a decompression bomb), refused before anything is decoded.
 */
async function inspect(bytes: Buffer, formats: Set<string>) {
  let meta: Metadata;
  try {
    meta = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch {
    throw refuse('unsupported_media_type', messages.proofNotImage);
  }
  if (!meta.format || !formats.has(meta.format)) throw refuse('unsupported_media_type', messages.proofNotImage);
  const pixels = (meta.width ?? 0) * (meta.height ?? 0);
  if (pixels > PROOF_MAX_INPUT_PIXELS) {
    throw refuse('body_too_large', messages.proofTooManyPixels(PROOF_MAX_INPUT_PIXELS / 1_000_000));
  }
  return meta;
}

/** Decodes within the pixel limit (again, by libvips itself) and re-encodes; sharp keeps no metadata unless asked. */
async function encode(pipeline: Sharp, mime: string): Promise<Encoded> {
  let output: { data: Buffer; info: OutputInfo };
  try {
    output = await pipeline.toBuffer({ resolveWithObject: true });
  } catch {
    throw refuse('unsupported_media_type', messages.proofUnreadable);
  }
  const { data, info } = output;
  return {
    image: data,
    mime,
    sha256: createHash('sha256').update(data).digest('hex'),
    width: info.width,
    height: info.height,
  };
}

const decoder = (bytes: Buffer) => sharp(bytes, { limitInputPixels: PROOF_MAX_INPUT_PIXELS, failOn: 'error' });

/**
 * A delivery photo as stored: turned upright by its EXIF orientation, the long side at most
 * PROOF_PHOTO_LONG_SIDE, JPEG. No EXIF, GPS, XMP or ICC survives: only the pixels.
 */
export async function encodePhoto(bytes: Buffer): Promise<Encoded> {
  if (bytes.length === 0) throw refuse('invalid_body', messages.proofEmpty);
  if (bytes.length > PROOF_PHOTO_MAX_BYTES) {
    throw refuse('body_too_large', messages.proofTooLarge(PROOF_PHOTO_MAX_BYTES / 1024 / 1024));
  }
  await inspect(bytes, PHOTO_FORMATS);
  return encode(
    decoder(bytes)
      .autoOrient()
      .resize({
        width: PROOF_PHOTO_LONG_SIDE,
        height: PROOF_PHOTO_LONG_SIDE,
        fit: 'inside',
        withoutEnlargement: true,
      })
      .flatten({ background: '#ffffff' })
      .jpeg({ quality: 82 }),
    'image/jpeg',
  );
}

/** A signature from the pad: a PNG data URL, re-encoded as PNG (transparency kept) within SIGNATURE_MAX_SIDE. */
export async function encodeSignature(dataUrl: string): Promise<Encoded> {
  const bytes = Buffer.from(dataUrl.slice(dataUrl.indexOf(',') + 1), 'base64');
  if (bytes.length === 0) throw refuse('invalid_body', messages.signatureInvalid);
  try {
    await inspect(bytes, new Set(['png']));
  } catch {
    throw refuse('invalid_body', messages.signatureInvalid);
  }
  return encode(
    decoder(bytes)
      .resize({ width: SIGNATURE_MAX_SIDE, height: SIGNATURE_MAX_SIDE, fit: 'inside', withoutEnlargement: true })
      .png({ compressionLevel: 9 }),
    'image/png',
  );
}
