import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';

/**
 * The one way the server signs a link's token (the receiver's QR handover, the runner → runner
 * relay): `<carried numbers…>.<expiry ms>.<mac>`, numbers in base 36, the mac an HMAC-SHA256 in
 * base64url over what the token is `bound` to (not in the token: the parcel id, a runner's id),
 * the carried numbers and the expiry, joined by '|'. No storage. Pure: the clock is a parameter.
 */

/** A key of its own per kind of token, derived from the session secret: one kind's mac is never valid as another's. */
export const derivedKey = (sessionSecret: string, label: string): Buffer =>
  Buffer.from(hkdfSync('sha256', sessionSecret, '', label, 32));

const mac = (key: Buffer, fields: readonly (string | number)[]) =>
  createHmac('sha256', key).update(fields.join('|')).digest();

export function signToken(
  key: Buffer,
  bound: readonly (string | number)[],
  carried: readonly number[],
  expiresMs: number,
): string {
  const head = [...carried, expiresMs].map((n) => n.toString(36)).join('.');
  return `${head}.${mac(key, [...bound, ...carried, expiresMs]).toString('base64url')}`;
}

/** `invalid` for anything not signed with `key` for exactly `bound`; `expired` only for a genuine token. */
export type TokenVerdict =
  | { verdict: 'valid' | 'expired'; carried: number[]; expiresMs: number }
  | { verdict: 'invalid' };

export function verifyToken(
  key: Buffer,
  bound: readonly (string | number)[],
  carriedCount: number,
  token: string,
  nowMs: number,
): TokenVerdict {
  const parts = token.split('.');
  if (parts.length !== carriedCount + 2) return { verdict: 'invalid' };
  const signature = parts.pop() ?? '';
  const numbers: number[] = [];
  for (const part of parts) {
    const value = /^[0-9a-z]{1,11}$/.test(part) ? Number.parseInt(part, 36) : Number.NaN;
    // One spelling per token: no leading zeros.
    if (!Number.isSafeInteger(value) || value.toString(36) !== part) return { verdict: 'invalid' };
    numbers.push(value);
  }
  if (!/^[A-Za-z0-9_-]{43}$/.test(signature)) return { verdict: 'invalid' };
  const given = Buffer.from(signature, 'base64url');
  const expected = mac(key, [...bound, ...numbers]);
  // Re-encoding catches a second spelling of the same bytes (base64url's unused trailing bits).
  if (given.length !== expected.length || given.toString('base64url') !== signature) return { verdict: 'invalid' };
  if (!timingSafeEqual(given, expected)) return { verdict: 'invalid' };
  const expiresMs = numbers.pop() ?? 0;
  return { verdict: nowMs < expiresMs ? 'valid' : 'expired', carried: numbers, expiresMs };
}
