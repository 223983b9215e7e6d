import { describe, expect, it } from 'vitest';
import {
  deliverBodySchema,
  handoverBodySchema,
  handoverTokenField,
  locationBodySchema,
  positionSchema,
} from './delivery.ts';
import { messages } from './messages.ts';
import { occurredAtField } from './parcel.ts';

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

describe('occurredAt', () => {
  const HOUR = 3_600_000;
  it('takes a time with an offset within bounds and gives it as UTC', () => {
    const at = new Date(Date.now() - HOUR);
    const local = `${new Date(at.getTime() + 2 * HOUR).toISOString().slice(0, 23)}+02:00`;
    expect(occurredAtField.parse(local)).toBe(at.toISOString());
    expect(occurredAtField.safeParse(new Date(Date.now() + 60_000).toISOString()).success).toBe(true);
  });

  it.each([
    [
      'ahead of the clock by more than 2 minutes',
      new Date(Date.now() + 3 * 60_000).toISOString(),
      messages.occurredAtInFuture,
    ],
    ['more than 72 hours back', new Date(Date.now() - 73 * 3_600_000).toISOString(), messages.occurredAtTooOld(72)],
    ['without an offset', '2025-05-01T10:15:00', messages.occurredAtInvalid],
    ['not a time', 'tegnap', messages.occurredAtInvalid],
  ])('refuses a time %s', (_what, value, message) => {
    expect(occurredAtField.safeParse(value).error?.issues.map((issue) => issue.message)).toEqual([message]);
  });
});

describe('location bodies', () => {
  const point = { lat: 47.5, lng: 19, accuracy: 5 };
  it('reads one position or a batch as a list of points', () => {
    expect(locationBodySchema.parse(point)).toEqual([point]);
    const occurredAt = new Date(Date.now() - 60_000).toISOString();
    expect(locationBodySchema.parse({ points: [{ ...point, occurredAt }] })).toEqual([{ ...point, occurredAt }]);
  });

  it('refuses a batch with a position beside it, and a position missing a part', () => {
    const occurredAt = new Date().toISOString();
    expect(
      locationBodySchema.safeParse({ ...point, points: [{ ...point, occurredAt }] }).error?.issues[0]?.message,
    ).toBe(messages.locationBatchOrSingle);
    expect(locationBodySchema.safeParse({ lat: 47.5, lng: 19 }).error?.issues[0]?.path).toEqual(['accuracy']);
  });
});
