import { addressKey } from '@csomag/domain/address';
import { type ParsedAddress, parseAddress } from '@csomag/domain/address-parse';
import type { ErrorCode } from '@csomag/domain/errors';
import { distanceMetres } from '@csomag/domain/geo';
import { messages } from '@csomag/domain/messages';
import { isInHungary, type PlaceKind } from '@csomag/domain/places';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { AppError, refuseField } from '../../errors.ts';
import type { GeocodeResult, Geocoder, ReverseResult } from '../geo/geocoder.ts';
import { BUDAPEST_DISTRICTS, districtLabel } from './budapest.ts';
import { metresPerRing } from './grid.ts';
import { namesStation, parsedStreetKey, stationKeyOf } from './keys.ts';
import {
  allSettlements,
  BUDAPEST_KEY,
  isKnownPostalCode,
  type Settlement,
  settlementByKey,
  settlementsOfPostalCode,
  suggestSettlement,
} from './settlements.ts';
import { type PlaceRow, PlaceStore } from './store.ts';

/** An address refused before any geocoder is asked, with what to do about it (issue 25). */
export class AddressRefusal extends AppError {
  constructor(code: PlaceRefusalCode, message: string) {
    super(code, message);
  }
}

/** Every way an address can be refused, for the routes that place addresses. */
export const PLACE_REFUSAL_CODES = [
  'geocode_failed',
  'address_unparsable',
  'postcode_unknown',
  'postcode_mismatch',
  'settlement_unknown',
  'settlement_missing',
  'settlement_unplaced',
] as const satisfies readonly ErrorCode[];
type PlaceRefusalCode = (typeof PLACE_REFUSAL_CODES)[number];

/**
 * Places an address for a form's field: found, or an AppError naming the field — the national
 * check's own refusal, or geocode_failed when nothing knows the address.
 */
export async function placeAddressField(geocoder: Geocoder, address: string, field: string): Promise<GeocodeResult> {
  try {
    const found = await geocoder.geocode(address);
    if (found) return found;
    throw new AppError('geocode_failed', messages.geocodeFailed);
  } catch (error) {
    if (error instanceof AppError) throw new AppError(error.code, error.message, { [field]: error.message });
    throw error;
  }
}

/** A pin placed by hand must be in Hungary (create and back-office edit). */
export function assertInHungary(point: { lat: number; lng: number }, field: string) {
  if (!isInHungary(point)) throw refuseField('outside_hungary', field, messages.outsideHungary);
}

/** An address as the national check read it: the settlement it is in, known to exist. */
export interface CheckedAddress {
  parsed: ParsedAddress;
  /** null only when no settlement was named and the street or place must tell which one. */
  settlement: Settlement | null;
  district: number | null;
}

const lookup = (folded: string) => settlementByKey(folded)?.name;

/**
 * Hungary's postal codes and settlements check every address before any geocoder: an unknown
 * postal code, a postal code of another settlement and a misspelt settlement are told as such.
 */
export function checkAddress(text: string): CheckedAddress {
  const parsed = parseAddress(text, lookup);
  const { postalCode } = parsed;
  if (postalCode && !isKnownPostalCode(postalCode)) {
    throw new AddressRefusal('postcode_unknown', messages.postcodeUnknown(postalCode));
  }
  let settlement = parsed.settlementKey ? settlementByKey(parsed.settlementKey) : undefined;
  if (parsed.settlement && !settlement) {
    const suggestion = suggestSettlement(parsed.settlement);
    throw new AddressRefusal(
      'settlement_unknown',
      suggestion
        ? messages.settlementSuggestion(parsed.settlement, suggestion.name)
        : messages.settlementUnknown(parsed.settlement),
    );
  }
  const owners = postalCode ? settlementsOfPostalCode(postalCode) : [];
  if (settlement && postalCode && !owners.some((owner) => owner.key === settlement?.key)) {
    throw new AddressRefusal(
      'postcode_mismatch',
      messages.postcodeMismatch(postalCode, settlement.name, owners.map((owner) => owner.name).join(', ')),
    );
  }
  settlement ??= owners[0];
  if (!settlement && !parsed.street && !parsed.houseNumber) {
    throw new AddressRefusal('address_unparsable', messages.addressUnparsable);
  }
  return { parsed, settlement: settlement ?? null, district: parsed.district };
}

const nearestTo = (rows: PlaceRow[], point: { lat: number; lng: number } | null) =>
  point ? rows.toSorted((a, b) => distanceMetres(a, point) - distanceMetres(b, point))[0] : rows[0];

/** The middle of a street: the stretch (or address) nearest the middle of them all. */
function middleOf(rows: PlaceRow[]): PlaceRow | undefined {
  if (rows.length === 0) return undefined;
  const lat = rows.reduce((sum, row) => sum + row.lat, 0) / rows.length;
  const lng = rows.reduce((sum, row) => sum + row.lng, 0) / rows.length;
  return nearestTo(rows, { lat, lng });
}

function doorLabel(row: PlaceRow, settlementName: string) {
  const postal = row.postal_code ? `${row.postal_code} ` : '';
  return `${postal}${settlementName}, ${row.street} ${row.house_number}.`;
}

/**
 * Addresses placed from what Hungary's open data says: the door from an OpenStreetMap import, else
 * the street, a station or landmark by name, else the settlement's (or Budapest district's) centre
 * — each said as such. A settlement whose position no data gives is refused with the map as the way
 * on. Another geocoder (an operator's Photon or Nominatim) may answer first, after the national check.
 */
export class PlacesGeocoder implements Geocoder {
  constructor(
    private readonly store: PlaceStore,
    private readonly provider: Geocoder | null = null,
    private readonly log: Pick<FastifyBaseLogger, 'warn'> | null = null,
  ) {}

  async geocode(address: string): Promise<GeocodeResult | null> {
    const checked = checkAddress(address);
    if (this.provider) {
      try {
        const found = await this.provider.geocode(address);
        if (found && isInHungary(found)) return found;
      } catch (error) {
        this.log?.warn({ err: error }, 'geocoder failed, using the imported places');
      }
    }
    return (await this.fromImport(checked)) ?? this.centreOf(checked);
  }

  private centre(checked: CheckedAddress): { lat: number; lng: number } | null {
    if (checked.settlement?.key === BUDAPEST_KEY && checked.district) {
      const [lat, lng] = BUDAPEST_DISTRICTS[checked.district - 1] ?? [];
      if (lat !== undefined && lng !== undefined) return { lat, lng };
    }
    return checked.settlement?.position ?? null;
  }

  private async fromImport(checked: CheckedAddress): Promise<GeocodeResult | null> {
    const { parsed } = checked;
    let settlement = checked.settlement;
    const streetKey = parsed.streetKey ? parsedStreetKey(parsed.streetKey, parsed.streetType) : null;
    if (!settlement) {
      // A street without its settlement is found only when one settlement has it.
      const candidates = streetKey ? await this.store.settlementsWithStreet(streetKey) : [];
      const named = candidates.flatMap((key) => settlementByKey(key) ?? []);
      if (named.length !== 1) {
        if (named.length > 1) {
          const some = named
            .slice(0, 3)
            .map((one) => one.name)
            .join(', ');
          throw new AddressRefusal('settlement_missing', messages.settlementMissing(parsed.street ?? '', some));
        }
        throw new AddressRefusal('address_unparsable', messages.addressUnparsable);
      }
      settlement = named[0] ?? null;
      if (!settlement) return null;
    }
    const near = this.centre({ ...checked, settlement });
    const district = (row: PlaceRow) => checked.district === null || row.district === checked.district;
    if (streetKey && parsed.houseNumber) {
      const doors = (await this.store.doors(settlement.key, streetKey, parsed.houseNumber)).filter(district);
      const door = nearestTo(doors, near);
      if (door) {
        return {
          lat: door.lat,
          lng: door.lng,
          label: doorLabel(door, settlement.name),
          source: 'import',
          precision: 'door',
        };
      }
    }
    const stationLike = namesStation([parsed.street, parsed.streetType].filter(Boolean).join(' '));
    if (streetKey && !stationLike) {
      const street = middleOf((await this.store.street(settlement.key, streetKey)).filter(district));
      if (street) {
        const label = messages.streetCentreLabel(street.street ?? street.name ?? '', settlement.name);
        return { lat: street.lat, lng: street.lng, label, source: 'import', precision: 'street' };
      }
    }
    const place = await this.namedPlace(parsed, settlement, near);
    if (place)
      return { lat: place.lat, lng: place.lng, label: place.name ?? '', source: 'import', precision: 'street' };
    if (!settlement.position) {
      // A village the national list has no point for may be in the import.
      const [node] = await this.store.named(settlement.key, ['settlement'], settlement.key);
      if (node)
        return { lat: node.lat, lng: node.lng, label: settlement.name, source: 'import', precision: 'settlement' };
    }
    return null;
  }

  /** A station or landmark by its name: "Keleti pályaudvar", "Budapest-Keleti", "Hősök tere". */
  private async namedPlace(parsed: ParsedAddress, settlement: Settlement, near: { lat: number; lng: number } | null) {
    const written = [parsed.street, parsed.streetType].filter(Boolean).join(' ');
    if (!written) return undefined;
    const kinds: PlaceKind[] = ['station', 'landmark', 'settlement', 'street'];
    const stations = await this.store.named(stationKeyOf(written, settlement.key), ['station'], settlement.key);
    const found =
      stations.length > 0
        ? stations
        : await this.store.named(parsedStreetKey(parsed.streetKey, parsed.streetType), kinds, settlement.key);
    return nearestTo(found, near);
  }

  private centreOf(checked: CheckedAddress): GeocodeResult {
    const { settlement } = checked;
    if (!settlement) throw new AddressRefusal('address_unparsable', messages.addressUnparsable);
    const point = this.centre(checked);
    if (!point) throw new AddressRefusal('settlement_unplaced', messages.settlementUnplaced(settlement.name));
    const label =
      settlement.key === BUDAPEST_KEY && checked.district ? districtLabel(checked.district) : settlement.name;
    return { ...point, label, source: 'settlements', precision: 'settlement' };
  }

  async reverse(point: { lat: number; lng: number }): Promise<ReverseResult | null> {
    if (this.provider) {
      try {
        const found = await this.provider.reverse(point);
        if (found) return found;
      } catch (error) {
        this.log?.warn({ err: error }, 'reverse geocoder failed, using the imported places');
      }
    }
    return reverseFromImport(this.store, point);
  }
}

/** The nearest imported place within ~110 m, else ~440 m; else the nearest settlement or district. */
async function nearestImported(store: PlaceStore, point: { lat: number; lng: number }) {
  for (const ring of [1, 4]) {
    const nearest = nearestTo(await store.around(point, ring), point);
    if (!nearest) continue;
    const metres = Math.round(distanceMetres(point, nearest));
    if (metres <= metresPerRing(ring)) return { row: nearest, metres };
  }
  return null;
}

function settlementNameOf(row: PlaceRow): string | null {
  return row.settlement_key ? (settlementByKey(row.settlement_key)?.name ?? null) : null;
}

/** "Budapest-Keleti" and "Hollókő" say their settlement already; a street or landmark gets it in front. */
function placeLabel(row: PlaceRow, name: string): string {
  const settlementName = settlementNameOf(row);
  if (row.kind === 'settlement' || !settlementName || addressKey(name).startsWith(`${row.settlement_key} `))
    return name;
  return `${settlementName}, ${name}`;
}

async function reverseFromImport(
  store: PlaceStore,
  point: { lat: number; lng: number },
): Promise<ReverseResult | null> {
  const found = await nearestImported(store, point);
  if (!found) return nearestSettlement(point);
  const { row, metres } = found;
  if (row.kind === 'address') {
    return { label: doorLabel(row, settlementNameOf(row) ?? ''), precision: metres <= 30 ? 'door' : 'street', metres };
  }
  const precision = row.kind === 'settlement' ? 'settlement' : 'street';
  return { label: placeLabel(row, row.name ?? ''), precision, metres };
}

/**
 * A place's name for a point that other people read (a relay's place on the public timeline): a
 * station, landmark or street from the import — never a house number, which could be someone's
 * home — else the nearest settlement or district.
 */
export async function placeNameNear(db: Kysely<Database>, point: { lat: number; lng: number }): Promise<string | null> {
  const found = await nearestImported(new PlaceStore(db), point);
  if (!found) return nearestPlaceName(point);
  const { row } = found;
  return placeLabel(row, row.kind === 'address' ? (row.street ?? '') : (row.name ?? ''));
}

/** Beyond this, a point is told by its coordinates only: 'near Szob' would mislead in a forest. */
const NEAREST_SETTLEMENT_MAX_M = 5_000;

/**
 * The settlement nearest a point from the national list alone, Budapest's districts standing for
 * Budapest (its centre says little 15 km out); null when none lies within NEAREST_SETTLEMENT_MAX_M.
 */
export function nearestSettlement(point: { lat: number; lng: number }): ReverseResult | null {
  let best: ReverseResult | null = null;
  const consider = (label: string, at: { lat: number; lng: number }) => {
    const metres = Math.round(distanceMetres(point, at));
    if (metres <= NEAREST_SETTLEMENT_MAX_M && (!best || metres < best.metres)) {
      best = { label, precision: 'settlement', metres };
    }
  };
  for (const settlement of allSettlements()) {
    if (settlement.position && settlement.key !== BUDAPEST_KEY) consider(settlement.name, settlement.position);
  }
  for (const [index, [lat, lng]] of BUDAPEST_DISTRICTS.entries()) consider(districtLabel(index + 1), { lat, lng });
  return best;
}

/** A place's name for a point without asking a service (trip ends, relay places): the nearest settlement or district. */
export const nearestPlaceName = (point: { lat: number; lng: number }) => nearestSettlement(point)?.label ?? null;
