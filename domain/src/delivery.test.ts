import { describe, expect, it } from 'vitest';
import { deliverBodySchema, handoverBodySchema, handoverTokenField, positionSchema } from './delivery.ts';

describe('positions', () => {
  it('accepts a browser reading, from the poles to the date line, accuracy 0 to 100 km', () => {
    for (const position of [
      { lat: 47.4979, lng: 19.0402, accuracy: 12.5 },
      { lat: -90, lng: -180, accuracy: 0 },
      { lat: 90, lng: 180, accuracy: 100_000 },
    ]) {
      expect(positionSchema.parse(position)).toEqual(position);
    }
  });

  it.each([
    [{ lat: 90.1, lng: 19, accuracy: 5 }, 'lat', 'Érvénytelen koordináta.'],
    [{ lat: 47, lng: -181, accuracy: 5 }, 'lng', 'Érvénytelen koordináta.'],
    [{ lat: 47, lng: 19, accuracy: -1 }, 'accuracy', 'A pontosság 0 és 100000 méter közötti szám legyen.'],
    [{ lat: 47, lng: 19, accuracy: 100_000.5 }, 'accuracy', 'A pontosság 0 és 100000 méter közötti szám legyen.'],
    [{ lat: 47, lng: 19 }, 'accuracy', 'A pontosság 0 és 100000 méter közötti szám legyen.'],
  ])('refuses %j naming %s', (position, field, message) => {
    const result = positionSchema.safeParse(position);
    expect(result.success).toBe(false);
    expect(result.error?.issues).toEqual([expect.objectContaining({ path: [field], message })]);
  });

  it('lets a delivery body be absent or empty (the superadmin), but never out of range', () => {
    expect(deliverBodySchema.parse(null)).toBeNull();
    expect(deliverBodySchema.parse(undefined)).toBeUndefined();
    expect(deliverBodySchema.parse({})).toEqual({});
    expect(deliverBodySchema.safeParse({ lat: 91 }).success).toBe(false);
  });
});

describe('handover', () => {
  const token = `${(1_741_946_400_000).toString(36)}.${'A'.repeat(43)}`;

  it('accepts a token of our shape and the user names SPEC’s link carries', () => {
    expect(handoverTokenField.parse(token)).toBe(token);
    expect(handoverBodySchema.parse({ token, futar: 'futar_anna', felado: 'bela.k' })).toEqual({
      token,
      futar: 'futar_anna',
      felado: 'bela.k',
    });
  });

  it.each(['', 'nem-token', token.toUpperCase(), `${token}A`, token.replace('.', ''), `${token.slice(0, -1)}=`])(
    'refuses the token %j with the QR message',
    (text) => {
      const result = handoverTokenField.safeParse(text);
      expect(result.error?.issues[0]?.message).toBe('A QR kód érvénytelen vagy lejárt.');
    },
  );
});
