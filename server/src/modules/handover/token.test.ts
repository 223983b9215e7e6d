import { HANDOVER_TOKEN_TTL_MS } from '@csomag/domain/constants';
import { handoverTokenField } from '@csomag/domain/delivery';
import { describe, expect, it } from 'vitest';
import { handoverKey, signHandoverToken, verifyHandoverToken } from './token.ts';

const key = handoverKey('teszt-titok');
const claims = { parcelId: 'ABCDEFGH12', runnerId: 42 };
const now = Date.parse('2025-03-14T10:00:00.000Z');

describe('handover tokens', () => {
  it('verifies a token it signed for the same parcel and runner, within 15 minutes', () => {
    const { token, expiresAt } = signHandoverToken(key, claims, now);
    expect(expiresAt.getTime()).toBe(now + HANDOVER_TOKEN_TTL_MS);
    expect(handoverTokenField.safeParse(token).success).toBe(true);
    expect(verifyHandoverToken(key, claims, token, now)).toBe('valid');
    expect(verifyHandoverToken(key, claims, token, now + HANDOVER_TOKEN_TTL_MS - 1)).toBe('valid');
  });

  it('calls a genuine token expired from its expiry on', () => {
    const { token } = signHandoverToken(key, claims, now);
    expect(verifyHandoverToken(key, claims, token, now + HANDOVER_TOKEN_TTL_MS)).toBe('expired');
    expect(verifyHandoverToken(key, claims, token, now + 24 * 60 * 60 * 1000)).toBe('expired');
  });

  it('refuses a token for another parcel or another runner', () => {
    const { token } = signHandoverToken(key, claims, now);
    expect(verifyHandoverToken(key, { ...claims, parcelId: 'ABCDEFGH13' }, token, now)).toBe('invalid');
    expect(verifyHandoverToken(key, { ...claims, runnerId: 43 }, token, now)).toBe('invalid');
  });

  it('refuses a token signed with another secret', () => {
    const { token } = signHandoverToken(handoverKey('masik-titok'), claims, now);
    expect(verifyHandoverToken(key, claims, token, now)).toBe('invalid');
  });

  it('refuses a token whose expiry was pushed later, even one already expired', () => {
    const { token } = signHandoverToken(key, claims, now - 2 * HANDOVER_TOKEN_TTL_MS);
    const [, signature] = token.split('.');
    const later = (now + HANDOVER_TOKEN_TTL_MS).toString(36);
    expect(verifyHandoverToken(key, claims, `${later}.${signature}`, now)).toBe('invalid');
    // A leading zero spells the same expiry differently: still not ours.
    expect(verifyHandoverToken(key, claims, `0${token}`, now - 2 * HANDOVER_TOKEN_TTL_MS)).toBe('invalid');
  });

  it('refuses a flipped signature character and malformed text', () => {
    const { token } = signHandoverToken(key, claims, now);
    const last = token.at(-1) === 'A' ? 'B' : 'A';
    for (const tampered of [
      `${token.slice(0, -1)}${last}`,
      token.slice(0, -1),
      `${token}A`,
      token.replace('.', ''),
      '',
      'nem-token',
    ]) {
      expect(verifyHandoverToken(key, claims, tampered, now)).toBe('invalid');
    }
  });
});
