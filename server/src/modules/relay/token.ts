import { HANDOVER_TOKEN_TTL_MS } from '@csomag/domain/constants';
import { derivedKey, signToken, verifyToken } from '../../signed-token.ts';

/**
 * Signed, expiring, single-use runner → runner hand-over tokens (docs/decisions/0022), made like
 * the receiver's handover token (signed-token.ts): `<issuer id>.<custody seq>.<expiry ms>.<mac>`,
 * the mac over the parcel id, the issuer's account id, the custody seq at issue and the expiry,
 * under a key of its own. No storage: the relay's compare-and-swap names that holder and seq, so
 * once the parcel changes hands (this link or any other change) the token can never match again.
 */

export interface RelayClaims {
  parcelId: string;
  issuerId: number;
  seq: number;
}

export type RelayVerdict =
  | { verdict: 'valid'; issuerId: number; seq: number }
  | { verdict: 'expired'; issuerId: number; seq: number }
  | { verdict: 'invalid' };

export const relayKey = (sessionSecret: string) => derivedKey(sessionSecret, 'csomagkuldo/relay-token/v1');

export function signRelayToken(
  key: Buffer,
  claims: RelayClaims,
  nowMs: number,
  ttlMs = HANDOVER_TOKEN_TTL_MS,
): { token: string; expiresAt: Date } {
  const expiresMs = nowMs + ttlMs;
  return {
    token: signToken(key, [claims.parcelId], [claims.issuerId, claims.seq], expiresMs),
    expiresAt: new Date(expiresMs),
  };
}

/** `invalid` for anything not signed by us for this parcel; `expired` only for a genuine token. */
export function verifyRelayToken(key: Buffer, parcelId: string, token: string, nowMs: number): RelayVerdict {
  const checked = verifyToken(key, [parcelId], 2, token, nowMs);
  if (checked.verdict === 'invalid') return checked;
  const [issuerId = 0, seq = 0] = checked.carried;
  return { verdict: checked.verdict, issuerId, seq };
}
