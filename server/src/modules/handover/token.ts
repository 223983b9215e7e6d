import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import { HANDOVER_TOKEN_TTL_MS } from '@csomag/domain/constants';

/**
 * Signed, expiring handover tokens for the QR link (DESIGN §9): `<expiry ms, base 36>.<mac>`,
 * the mac an HMAC-SHA256 over the parcel id, the runner's account id and the expiry. No
 * storage: a token is good for the parcel while that runner carries it, until it expires.
 * Pure: the clock is a parameter.
 */

export interface HandoverClaims {
  parcelId: string;
  runnerId: number;
}

export type HandoverVerdict = 'valid' | 'invalid' | 'expired';

/** A key of its own, derived from the session secret, so a handover mac is never valid as anything else. */
export function handoverKey(sessionSecret: string): Buffer {
  return Buffer.from(hkdfSync('sha256', sessionSecret, '', 'csomagkuldo/handover-token/v1', 32));
}

const mac = (key: Buffer, { parcelId, runnerId }: HandoverClaims, expiresMs: number) =>
  createHmac('sha256', key).update(`${parcelId}|${runnerId}|${expiresMs}`).digest();

export function signHandoverToken(
  key: Buffer,
  claims: HandoverClaims,
  nowMs: number,
  ttlMs = HANDOVER_TOKEN_TTL_MS,
): { token: string; expiresAt: Date } {
  const expiresMs = nowMs + ttlMs;
  return {
    token: `${expiresMs.toString(36)}.${mac(key, claims, expiresMs).toString('base64url')}`,
    expiresAt: new Date(expiresMs),
  };
}

/** `invalid` for anything not signed by us for exactly these claims; `expired` only for a genuine token. */
export function verifyHandoverToken(
  key: Buffer,
  claims: HandoverClaims,
  token: string,
  nowMs: number,
): HandoverVerdict {
  const match = /^([0-9a-z]{1,11})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!match) return 'invalid';
  const [, expiry = '', signature = ''] = match;
  const expiresMs = Number.parseInt(expiry, 36);
  // One spelling per token: no leading zeros in the expiry either.
  if (expiresMs.toString(36) !== expiry) return 'invalid';
  const given = Buffer.from(signature, 'base64url');
  const expected = mac(key, claims, expiresMs);
  // Re-encoding catches a second spelling of the same bytes (base64url's unused trailing bits).
  if (given.length !== expected.length || given.toString('base64url') !== signature) return 'invalid';
  if (!timingSafeEqual(given, expected)) return 'invalid';
  return nowMs < expiresMs ? 'valid' : 'expired';
}
