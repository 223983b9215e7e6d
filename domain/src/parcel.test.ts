import { describe, expect, it } from 'vitest';
import {
  backOfficeStatusChange,
  isFinal,
  PARCEL_STATES,
  PARCEL_STATUSES,
  parcelCreateBodySchema,
  parcelListQuerySchema,
  parcelStateLabels,
  parcelStateOf,
  trackingViewSchema,
} from './parcel.ts';

const valid = {
  senderAddress: '6720 Szeged, Kárász utca 5',
  receiverAddress: '1052 Budapest, Váci utca 12',
  category: 'Könyv',
  weightGrams: 850,
};

/** The Hungarian message zod gives for the first problem with this field. */
function fieldError(body: Record<string, unknown>, field: string): string | undefined {
  const result = parcelCreateBodySchema.safeParse(body);
  return result.error?.issues.find((issue) => issue.path[0] === field)?.message;
}

describe('parcel create body', () => {
  it('accepts a minimal body and trims text', () => {
    expect(parcelCreateBodySchema.parse({ ...valid, category: '  Könyv ' })).toEqual(valid);
  });

  it('accepts pins and a sender user name', () => {
    const body = { ...valid, senderCoordinates: { lat: 46.25, lng: 20.15 }, senderUser: 'anna_01' };
    expect(parcelCreateBodySchema.parse(body)).toEqual(body);
  });

  it.each([0, -1, 1.5, '0 g', Number.NaN, null])('refuses weight %j in whole positive grams', (weightGrams) => {
    expect(fieldError({ ...valid, weightGrams }, 'weightGrams')).toBe('A súly pozitív egész szám legyen (gramm).');
  });

  it('reads a weight typed with a unit into whole grams (weight.test.ts has the whole table)', () => {
    expect(parcelCreateBodySchema.parse({ ...valid, weightGrams: '1,5 kg' }).weightGrams).toBe(1500);
  });

  it('refuses a weight over 50 kg', () => {
    expect(fieldError({ ...valid, weightGrams: 50_001 }, 'weightGrams')).toBe('A súly legfeljebb 50000 gramm lehet.');
    expect(fieldError({ ...valid, weightGrams: 50_000 }, 'weightGrams')).toBeUndefined();
  });

  it('requires both addresses and a category, in Hungarian', () => {
    for (const field of ['senderAddress', 'receiverAddress', 'category']) {
      expect(fieldError({ ...valid, [field]: ' ' }, field)).toBe('Kötelező mező.');
      expect(fieldError({ ...valid, [field]: undefined }, field)).toBe('Kötelező mező.');
    }
  });

  it('refuses coordinates off the globe', () => {
    expect(fieldError({ ...valid, receiverCoordinates: { lat: 47, lng: 181 } }, 'receiverCoordinates')).toBe(
      'Érvénytelen koordináta.',
    );
  });
});

describe('list query', () => {
  it('defaults the limit to 50 and reads numbers from the query string', () => {
    expect(parcelListQuerySchema.parse({})).toEqual({ limit: 50 });
    expect(parcelListQuerySchema.parse({ limit: '10', status: 'in_transit' })).toEqual({
      limit: 10,
      status: 'in_transit',
    });
  });

  it('refuses an unknown status and a limit outside 1..200', () => {
    expect(parcelListQuerySchema.safeParse({ status: 'várakozik' }).success).toBe(false);
    expect(parcelListQuerySchema.safeParse({ limit: '201' }).error?.issues[0]?.message).toBe(
      'A limit 1 és 200 közötti egész szám legyen.',
    );
  });
});

describe('tracking view', () => {
  it('has no field for addresses, emails or account ids', () => {
    const fields = Object.keys(trackingViewSchema.shape);
    for (const forbidden of ['senderAddress', 'receiverAddress', 'email', 'phoneNumber', 'senderId', 'runnerId']) {
      expect(fields).not.toContain(forbidden);
    }
  });
});

describe('the states of issue 28', () => {
  it('tells a carried parcel with failed attempts and one on its way back from one in transit', () => {
    expect(parcelStateOf({ status: 'in_transit', attempts: 0, returning: false })).toBe('in_transit');
    expect(parcelStateOf({ status: 'in_transit', attempts: 1, returning: false })).toBe('attempted');
    expect(parcelStateOf({ status: 'in_transit', attempts: 1, returning: true })).toBe('returning');
    for (const status of PARCEL_STATUSES.filter((s) => s !== 'in_transit')) {
      expect(parcelStateOf({ status, attempts: 2, returning: true })).toBe(status);
    }
    for (const state of PARCEL_STATES) expect(parcelStateLabels[state]).toBeTruthy();
  });

  it('leaves the states their own flows reach to those flows: the back office’s field neither reaches nor leaves them', () => {
    const ownFlow = ['with_neighbour', 'at_drop_point', 'returned', 'lost'] as const;
    for (const from of PARCEL_STATUSES) {
      for (const to of PARCEL_STATUSES) {
        if (from === to) continue;
        const own = (ownFlow as readonly string[]).includes(from) || (ownFlow as readonly string[]).includes(to);
        expect(backOfficeStatusChange(from, to) === 'own_flow', `${from} → ${to}`).toBe(own);
      }
    }
    expect(isFinal('lost') && isFinal('returned') && isFinal('delivered')).toBe(true);
    expect(isFinal('with_neighbour') || isFinal('at_drop_point') || isFinal('in_transit')).toBe(false);
  });
});
