import { HANDOVER_TOKEN_TTL_MS } from '@csomag/domain/constants';
import { derivedKey, signToken, verifyToken } from '../../signed-token.ts';

/**
 * Signed, expiring handover tokens for the QR link (DESIGN §9): `<expiry ms, base 36>.<mac>`,
 * the mac over the parcel id, the runner's account id and the expiry (signed-token.ts). No
 * storage: a token is good for the parcel while that runner carries it, until it expires.
 */

export interface HandoverClaims {
  parcelId: string;
  runnerId: number;
}

export type HandoverVerdict = 'valid' | 'invalid' | 'expired';

export const handoverKey = (sessionSecret: string) => derivedKey(sessionSecret, 'csomagkuldo/handover-token/v1');

export function signHandoverToken(
  key: Buffer,
  claims: HandoverClaims,
  nowMs: number,
  ttlMs = HANDOVER_TOKEN_TTL_MS,
): { token: string; expiresAt: Date } {
  const expiresMs = nowMs + ttlMs;
  return { token: signToken(key, [claims.parcelId, claims.runnerId], [], expiresMs), expiresAt: new Date(expiresMs) };
}

/** `invalid` for anything not signed by us for exactly these claims; `expired` only for a genuine token. */
export function verifyHandoverToken(
  key: Buffer,
  claims: HandoverClaims,
  token: string,
  nowMs: number,
): HandoverVerdict {
  return verifyToken(key, [claims.parcelId, claims.runnerId], 0, token, nowMs).verdict;
}
