import type { Coordinates, PointPrecision } from '@csomag/domain/parcel';
import { AppError } from '../../errors.ts';
import type { Geocoder } from '../geo/geocoder.ts';
import { AddressRefusal, assertInHungary, checkAddress, placeAddressField } from './geocoder.ts';

/** `label`: how the geocoder named the address, when it placed it (a pin has none). */
export type PlacedPoint = Coordinates & { precision: PointPrecision; label?: string };

/**
 * One end of a parcel: a pin placed on the form (where the address was placed, or by hand: it must
 * be in Hungary, and the address under it must not contradict itself — a postal code of another
 * settlement is refused even there; an address that is only a description, "the blue gate", is
 * the sender's own words), else the address geocoded.
 */
export async function placeEnd(
  geocoder: Geocoder,
  address: string,
  field: string,
  pin: Coordinates | undefined,
  precision: PointPrecision | undefined,
): Promise<PlacedPoint> {
  if (!pin) {
    const found = await placeAddressField(geocoder, address, field);
    return { lat: found.lat, lng: found.lng, precision: found.precision, label: found.label };
  }
  assertInHungary(pin, field);
  try {
    checkAddress(address);
  } catch (error) {
    if (!(error instanceof AddressRefusal) || error.code === 'address_unparsable')
      return { ...pin, precision: precision ?? 'manual' };
    throw new AppError(error.code, error.message, { [field]: error.message });
  }
  return { ...pin, precision: precision ?? 'manual' };
}

/** Both ends placed, or one refusal naming every end that failed (nothing is saved). */
export async function placeEnds<From, To>(ends: [Promise<From>, Promise<To>]): Promise<[From, To]> {
  const [from, to] = await Promise.allSettled(ends);
  if (from.status === 'fulfilled' && to.status === 'fulfilled') return [from.value, to.value];
  const refusals = [from, to].flatMap((end) => (end.status === 'rejected' ? [end.reason as unknown] : []));
  const unexpected = refusals.find((refusal) => !(refusal instanceof AppError));
  if (unexpected !== undefined) throw unexpected;
  const [first] = refusals as AppError[];
  if (!first) throw new Error('unreachable');
  const fields = Object.assign({}, ...(refusals as AppError[]).map((refusal) => refusal.fields ?? {}));
  throw new AppError(first.code, first.message, fields);
}
