import { addressKey } from '@csomag/domain/address';
import { houseNumberKey } from '@csomag/domain/address-parse';
import { distanceMetres } from '@csomag/domain/geo';
import type { PlaceKind } from '@csomag/domain/places';
import { type Kysely, sql } from 'kysely';
import { nowIso } from '../../db/database.ts';
import type { Database, PlacesTable } from '../../db/schema.ts';
import { cellOf, cellsAround } from './grid.ts';
import { stationKeyOf, streetKeyOf } from './keys.ts';
import { type PlaceRecord, readPlaces } from './osm/read-osm.ts';
import { budapestDistrictOfPostalCode, settlementByKey } from './settlements.ts';

export type PlaceRow = Omit<PlacesTable, 'id'> & { id: number };
type NewPlace = Omit<PlacesTable, 'id'>;
export type ImportCounts = Record<PlaceKind, number>;

/** Rows per INSERT: 15 columns × 1,000 stays under both stores' limit on bound values. */
const INSERT_ROWS = 1_000;
const DELETE_ROWS = 20_000;

/** Only the active import is ever read: a look-up sees the old import or the new one, whole. */
const activeImport = sql<number>`(select id from place_imports where status = 'active')`;

/**
 * Which settlement (and Budapest district) a street, station or landmark is in: OpenStreetMap says
 * it on addresses only, so the addresses around a point vote (in ~1 km squares), and the nearest
 * settlement's point answers where no address is near.
 */
class SettlementsByArea {
  private readonly squares = new Map<number, { settlementKey: string; postalCode: string | null }>();
  private readonly points: { key: string; lat: number; lng: number }[] = [];

  private static square(lat: number, lng: number) {
    return Math.floor(lat * 100) * 100_000 + Math.floor(lng * 66);
  }

  noteAddress(lat: number, lng: number, settlementKey: string, postalCode: string | null) {
    this.squares.set(SettlementsByArea.square(lat, lng), { settlementKey, postalCode });
  }

  noteSettlement(lat: number, lng: number, key: string) {
    this.points.push({ key, lat, lng });
  }

  at(lat: number, lng: number): { settlementKey: string | null; postalCode: string | null } {
    for (const dLat of [0, 0.01, -0.01]) {
      for (const dLng of [0, 0.015, -0.015]) {
        const found = this.squares.get(SettlementsByArea.square(lat + dLat, lng + dLng));
        if (found) return found;
      }
    }
    let best: string | null = null;
    let bestMetres = 10_000;
    for (const point of this.points) {
      const metres = distanceMetres({ lat, lng }, point);
      if (metres < bestMetres) [best, bestMetres] = [point.key, metres];
    }
    return { settlementKey: best, postalCode: null };
  }
}

const SETTLEMENT_TYPES = new Set(['city', 'town', 'village', 'hamlet']);

const needsArea = (record: PlaceRecord) =>
  record.kind !== 'address' && !(record.kind === 'settlement' && SETTLEMENT_TYPES.has(record.placeType ?? ''));

/** The settlement key as the national list knows it ("Bp." is Budapest), else as written. */
function settlementKeyOf(written: string): string {
  const key = addressKey(written);
  return settlementByKey(key)?.key ?? key;
}

function districtOf(settlementKey: string | null, postalCode: string | null): number | null {
  return settlementKey === 'budapest' && postalCode ? budapestDistrictOfPostalCode(postalCode) : null;
}

function rowOf(importId: number, record: PlaceRecord, area: SettlementsByArea): NewPlace | null {
  const base = {
    import_id: importId,
    kind: record.kind,
    lat: record.lat,
    lng: record.lng,
    cell: cellOf(record.lat, record.lng),
    name: record.name,
    postal_code: record.postalCode,
    place_type: record.placeType,
    street: null,
    street_key: null,
    house_number: null,
  };
  if (record.kind === 'address') {
    if (!record.houseNumber || !record.street || !record.settlement) return null;
    const settlementKey = settlementKeyOf(record.settlement);
    area.noteAddress(record.lat, record.lng, settlementKey, record.postalCode);
    return {
      ...base,
      name_key: null,
      settlement_key: settlementKey,
      district: districtOf(settlementKey, record.postalCode),
      street: record.street,
      street_key: streetKeyOf(record.street),
      house_number: houseNumberKey(record.houseNumber),
    };
  }
  if (!record.name) return null;
  if (record.kind === 'settlement') {
    const key = addressKey(record.name);
    // A suburb or quarter is in a settlement; a village is one.
    if (SETTLEMENT_TYPES.has(record.placeType ?? '')) {
      area.noteSettlement(record.lat, record.lng, key);
      return { ...base, name_key: key, settlement_key: key, district: null };
    }
  }
  const { settlementKey, postalCode } = area.at(record.lat, record.lng);
  const district = districtOf(settlementKey, postalCode);
  switch (record.kind) {
    case 'street':
      return {
        ...base,
        name_key: streetKeyOf(record.name),
        settlement_key: settlementKey,
        district,
        street: record.name,
        street_key: streetKeyOf(record.name),
      };
    case 'station':
      return { ...base, name_key: stationKeyOf(record.name, settlementKey), settlement_key: settlementKey, district };
    default:
      return { ...base, name_key: addressKey(record.name), settlement_key: settlementKey, district };
  }
}

async function deleteImportRows(db: Kysely<Database>, importIds: number[]) {
  if (importIds.length === 0) return;
  for (;;) {
    const { numDeletedRows } = await db
      .deleteFrom('places')
      .where('id', 'in', (q) =>
        q.selectFrom('places').select('id').where('import_id', 'in', importIds).limit(DELETE_ROWS),
      )
      .executeTakeFirst();
    if (Number(numDeletedRows) === 0) break;
  }
  await db.deleteFrom('place_imports').where('id', 'in', importIds).execute();
}

export interface ImportOptions {
  onProgress?: (stage: string, count: number) => void;
}

/**
 * Loads an OpenStreetMap extract (`npm run places:import -- FILE`) beside the import in use, in
 * short transactions, then makes it the active one in one update and removes the one it replaces.
 * A malformed or truncated file is refused (OsmFormatError) and the import in use stays.
 */
export async function importPlaces(db: Kysely<Database>, file: string, options: ImportOptions = {}) {
  // What an earlier import left when it failed or was stopped.
  const stale = await db.selectFrom('place_imports').select('id').where('status', '=', 'loading').execute();
  await deleteImportRows(
    db,
    stale.map((row) => row.id),
  );
  const started = await db
    .insertInto('place_imports')
    .values({ file_name: file.split('/').at(-1) ?? file, status: 'loading', counts: null, started_at: nowIso() })
    .returning('id')
    .executeTakeFirstOrThrow();
  const importId = started.id;
  const counts: ImportCounts = { address: 0, street: 0, settlement: 0, station: 0, landmark: 0 };
  const area = new SettlementsByArea();
  const insert = async (records: PlaceRecord[]) => {
    const rows: NewPlace[] = [];
    for (const record of records) {
      const row = rowOf(importId, record, area);
      if (!row) continue;
      rows.push(row);
      counts[row.kind]++;
    }
    await db.transaction().execute(async (trx) => {
      for (let at = 0; at < rows.length; at += INSERT_ROWS) {
        await trx
          .insertInto('places')
          .values(rows.slice(at, at + INSERT_ROWS))
          .execute();
      }
    });
  };
  // Streets, stations and landmarks wait for every address and settlement: which settlement they
  // are in is known only then (OSM writes it on addresses, in no particular order).
  const placedLater: PlaceRecord[] = [];
  try {
    for await (const batch of readPlaces(file, options)) {
      const now: PlaceRecord[] = [];
      for (const record of batch) (needsArea(record) ? placedLater : now).push(record);
      await insert(now);
    }
    for (let at = 0; at < placedLater.length; at += 10_000) await insert(placedLater.slice(at, at + 10_000));
  } catch (error) {
    await deleteImportRows(db, [importId]);
    throw error;
  }
  const replaced = await db.transaction().execute(async (trx) => {
    const previous = await trx.selectFrom('place_imports').select('id').where('status', '=', 'active').execute();
    await trx.updateTable('place_imports').set({ status: 'replaced' }).where('status', '=', 'active').execute();
    await trx
      .updateTable('place_imports')
      .set({ status: 'active', counts: JSON.stringify(counts), finished_at: nowIso() })
      .where('id', '=', importId)
      .execute();
    return previous.map((row) => row.id);
  });
  await deleteImportRows(db, replaced);
  return { importId, counts };
}

/** The place look-ups of the geocoder, on the active import. */
export class PlaceStore {
  constructor(private readonly db: Kysely<Database>) {}

  private places() {
    return this.db.selectFrom('places').selectAll().where('import_id', '=', activeImport);
  }

  /** The doors of a house number on a street of a settlement. */
  doors(settlementKey: string, streetKey: string, houseNumber: string): Promise<PlaceRow[]> {
    return this.places()
      .where('kind', '=', 'address')
      .where('settlement_key', '=', settlementKey)
      .where('street_key', '=', streetKey)
      .where('house_number', '=', houseNumber)
      .limit(20)
      .execute();
  }

  /** The street's stretches (and, where OSM has no named way, its addresses) in a settlement. */
  async street(settlementKey: string, streetKey: string): Promise<PlaceRow[]> {
    const ways = await this.places()
      .where('name_key', '=', streetKey)
      .where('kind', '=', 'street')
      .where('settlement_key', '=', settlementKey)
      .limit(200)
      .execute();
    if (ways.length > 0) return ways;
    return this.places()
      .where('kind', '=', 'address')
      .where('settlement_key', '=', settlementKey)
      .where('street_key', '=', streetKey)
      .limit(500)
      .execute();
  }

  /** The settlements that have a street of this name (for "which one did you mean?"). */
  async settlementsWithStreet(streetKey: string): Promise<string[]> {
    const rows = await this.db
      .selectFrom('places')
      .select('settlement_key')
      .distinct()
      .where('import_id', '=', activeImport)
      .where('name_key', '=', streetKey)
      .where('kind', '=', 'street')
      .where('settlement_key', 'is not', null)
      .limit(10)
      .execute();
    return rows.flatMap((row) => (row.settlement_key ? [row.settlement_key] : []));
  }

  /** Places of these kinds by name, in a settlement when one is given. */
  named(nameKey: string, kinds: readonly PlaceKind[], settlementKey: string | null): Promise<PlaceRow[]> {
    let query = this.places().where('name_key', '=', nameKey).where('kind', 'in', kinds);
    if (settlementKey) query = query.where('settlement_key', '=', settlementKey);
    return query.limit(50).execute();
  }

  /** The places in the squares within `ring` squares of a point. */
  around(point: { lat: number; lng: number }, ring: number): Promise<PlaceRow[]> {
    return this.places()
      .where('cell', 'in', cellsAround(point.lat, point.lng, ring))
      .execute();
  }
}
