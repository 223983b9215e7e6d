import type { PointPrecision } from '@csomag/domain/parcel';
import type { LegacyPrecision } from '../../db/schema.ts';

/**
 * A point's precision as stored (migration 0021): the newer column when the row has it, else the
 * older one read in its own vocabulary, where 'street' was what may be delivered to by position.
 */
export function placePrecision(current: PointPrecision | null, legacy: LegacyPrecision | null): PointPrecision | null {
  if (current) return current;
  return legacy === 'street' ? 'door' : legacy;
}

/** What the release before this one reads in the older column: only a door is 'street' there. */
export function legacyPrecision(precision: PointPrecision): LegacyPrecision {
  if (precision === 'door') return 'street';
  return precision === 'manual' ? 'manual' : 'settlement';
}

/** Both columns of an end, for a parcel row being written. */
export function precisionColumns<End extends 'sender' | 'receiver'>(end: End, precision: PointPrecision) {
  return {
    [`${end}_precision`]: legacyPrecision(precision),
    [`${end}_place_precision`]: precision,
  } as Record<`${End}_precision`, LegacyPrecision> & Record<`${End}_place_precision`, PointPrecision>;
}
