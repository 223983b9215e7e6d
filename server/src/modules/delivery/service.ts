import { addressKey } from '@csomag/domain/address';
import { DELIVERY_MAX_ACCURACY_M } from '@csomag/domain/constants';
import type { DeliverBody, Position, WaitingParcelList, WaitingQuery } from '@csomag/domain/delivery';
import { distanceMetres, isWithinDeliveryRadius } from '@csomag/domain/geo';
import { messages } from '@csomag/domain/messages';
import {
  type CarriedParcelList,
  type Coordinates,
  isDoorKnown,
  type Parcel,
  type ParcelList,
  type ParcelListQuery,
} from '@csomag/domain/parcel';
import { type Kysely, type SqlBool, sql } from 'kysely';
import type { ChangeFeed } from '../../db/change-feed.ts';
import { compiledPerStore } from '../../db/compiled-once.ts';
import { cursorNumber, decodeCursor, pageOf } from '../../db/cursor.ts';
import type { AccountRow, Database } from '../../db/schema.ts';
import { AppError, refuse } from '../../errors.ts';
import { claimParcel, deliverParcel } from '../parcels/changes.ts';
import { mayParcel, PARCEL_FACT_COLUMNS } from '../parcels/policy.ts';
import { presentParcel } from '../parcels/present.ts';
import { assertCarrierMay, contactsOf, selectParcels } from '../parcels/service.ts';
import { placePrecision } from '../places/precision.ts';

export interface DeliveryContext {
  db: Kysely<Database>;
  changes: Pick<ChangeFeed, 'transaction'>;
}

type ParcelQuery = ReturnType<typeof selectParcels>;

/** Oldest first by `column`, one page; the cursor is the last row's (column, id). */
async function oldestFirst(
  query: ParcelQuery,
  column: 'parcels.created_at' | 'parcels.picked_up_at',
  { limit, cursor }: Pick<ParcelListQuery, 'limit' | 'cursor'>,
): Promise<ParcelList> {
  let page = query;
  if (cursor) {
    const [at = '', id = ''] = decodeCursor(cursor, 2);
    page = page.where((eb) => eb(eb.refTuple(column, 'parcels.id'), '>', eb.tuple(at, id)));
  }
  const rows = await page
    .orderBy(column, 'asc')
    .orderBy('parcels.id', 'asc')
    .limit(limit + 1)
    .execute();
  return pageOf(rows, limit, presentParcel, (last) => {
    const at = column === 'parcels.created_at' ? last.created_at : last.picked_up_at;
    return at ? [at, last.id] : null;
  });
}

/** How much ground a degree of longitude spans at `lat`, as a share of a degree of latitude. */
const lngScaleAt = (lat: number) => Math.cos((lat * Math.PI) / 180);

/**
 * How far a pickup point is from `from`, for ordering only: the equirectangular approximation in
 * degrees² (monotonic enough within a country), plain arithmetic that both stores compute alike.
 * The cosine is taken here, so neither store needs trigonometry.
 */
function nearness({ lat, lng }: Coordinates) {
  const lngScale = lngScaleAt(lat);
  return sql<number>`((parcels.sender_lat - ${lat}) * (parcels.sender_lat - ${lat}) + (parcels.sender_lng - ${lng}) * ${lngScale} * (parcels.sender_lng - ${lng}) * ${lngScale})`;
}

/** Half the side of the first square searched around the runner, in degrees of latitude (~2 km). */
const FIRST_SQUARE = 0.02;
/** Squares tried before the whole pool is sorted: 0.02° × 4⁴ ≈ 5° covers the country from anywhere in it. */
const SQUARES = 5;
/** A page is taken from a square only when its last row is this far inside it: a margin for rounding. */
const INSIDE = 0.999;

/**
 * Nearest pickup first, one page; the cursor is the last row's (nearness, id), so paging is stable.
 * Each item says how far it is in metres (great-circle, as the delivery rule measures).
 *
 * Sorting the whole pool by distance costs as much as the pool is large, so the page is looked for
 * in squares around the runner, read from the (status, point) index and growing until one holds a
 * full page: a square of half-side r holds every parcel nearer than r, so when the page's last row
 * is nearer than that, no parcel outside it can come before it. The answer is the whole pool's.
 */
async function nearestFirst(
  query: ParcelQuery,
  from: Coordinates,
  { limit, cursor }: Pick<ParcelListQuery, 'limit' | 'cursor'>,
): Promise<WaitingParcelList> {
  const key = nearness(from);
  let page = query.select(key.as('nearness'));
  let after = 0;
  if (cursor) {
    const [afterPart = '', id = ''] = decodeCursor(cursor, 2);
    after = cursorNumber(afterPart);
    page = page.where(sql<SqlBool>`(${key}, parcels.id) > (${after}, ${id})`);
  }
  const sorted = (rows: typeof page) =>
    rows
      .orderBy(key)
      .orderBy('parcels.id', 'asc')
      .limit(limit + 1)
      .execute();
  const lngScale = lngScaleAt(from.lat);
  // The next page starts no nearer than the cursor's row: the first square reaches a little beyond it.
  let half = Math.sqrt(Math.max(0, after)) + FIRST_SQUARE;
  let rows: Awaited<ReturnType<typeof sorted>> | undefined;
  for (let square = 0; square < SQUARES && !rows; square++, half *= 4) {
    const lngHalf = half / lngScale;
    const found = await sorted(
      page
        .where('parcels.sender_lat', '>=', from.lat - half)
        .where('parcels.sender_lat', '<=', from.lat + half)
        .where('parcels.sender_lng', '>=', from.lng - lngHalf)
        .where('parcels.sender_lng', '<=', from.lng + lngHalf),
    );
    const last = found.at(-1);
    if (found.length > limit && last && Number(last.nearness) < (half * INSIDE) ** 2) rows = found;
  }
  rows ??= await sorted(page);
  return pageOf(
    rows,
    limit,
    (row) => ({
      ...presentParcel(row),
      distanceMetres: Math.round(distanceMetres(from, { lat: row.sender_lat, lng: row.sender_lng })),
    }),
    (last) => [String(Number(last.nearness)), last.id],
  );
}

/**
 * The pool every runner picks from: the parcel that has waited longest comes first, or with
 * `near` the nearest pickup. With a view box, only parcels picked up inside it (the runner's map),
 * served by the (status, point) index; with `settlement`, only pickups whose address names it.
 */
export const listWaitingParcels = (db: Kysely<Database>, query: WaitingQuery): Promise<WaitingParcelList> => {
  let waiting = selectParcels(db).where('parcels.status', '=', 'waiting');
  // addressKey leaves only letters, digits and spaces: nothing in it is a LIKE wildcard.
  const settlement = addressKey(query.settlement ?? '');
  if (settlement) waiting = waiting.where('parcels.sender_key', 'like', `%${settlement}%`);
  const { south, west, north, east } = query;
  if (south !== undefined && west !== undefined && north !== undefined && east !== undefined) {
    waiting = waiting
      .where('parcels.sender_lat', '>=', south)
      .where('parcels.sender_lat', '<=', north)
      .where('parcels.sender_lng', '>=', west)
      .where('parcels.sender_lng', '<=', east);
  }
  return query.near ? nearestFirst(waiting, query.near, query) : oldestFirst(waiting, 'parcels.created_at', query);
};

/** What the runner carries now, in the order they picked it up, with whom to call about each. */
export async function listAssignedParcels(
  db: Kysely<Database>,
  runner: AccountRow,
  query: Pick<ParcelListQuery, 'limit' | 'cursor'>,
): Promise<CarriedParcelList> {
  const page = await oldestFirst(
    selectParcels(db).where('parcels.runner_id', '=', runner.id).where('parcels.status', '=', 'in_transit'),
    'parcels.picked_up_at',
    query,
  );
  const contacts = await contactsOf(
    db,
    page.items.map((parcel) => parcel.id),
  );
  return {
    ...page,
    items: page.items.flatMap((parcel) => {
      const found = contacts.get(parcel.id);
      return found ? [{ ...parcel, contacts: found }] : [];
    }),
  };
}

/** waiting → in transit for the runner asking; of simultaneous pickups exactly one wins (409 for the rest). */
export async function pickUpParcel(
  ctx: DeliveryContext,
  runner: AccountRow,
  parcelId: string,
  occurredAt?: string,
): Promise<Parcel> {
  return presentParcel(await claimParcel(ctx.changes, parcelId, runner, runner, 'picked_up', occurredAt));
}

/** A runner's position is required for delivery: 400 naming what is missing. */
function requirePosition(body: DeliverBody): Position {
  const { lat, lng, accuracy } = body ?? {};
  if (lat !== undefined && lng !== undefined && accuracy !== undefined) return { lat, lng, accuracy };
  const missing = Object.entries({ lat, lng, accuracy }).filter(([, value]) => value === undefined);
  throw new AppError(
    'position_required',
    messages.positionRequired,
    Object.fromEntries(missing.map(([name]) => [name, messages.required])),
  );
}

/** The columns destinationOf reads, with the carrier's facts. */
export const readForCarrier = async (db: Kysely<Database>, parcelId: string) => (await carrierRead(db, parcelId))[0];

/** readForCarrier's SELECT, built and compiled once: every delivery and attempt reads it first. */
const carrierRead = compiledPerStore(1, (db: Kysely<Database>, parcelId: string) =>
  db
    .selectFrom('parcels')
    .select([
      ...PARCEL_FACT_COLUMNS,
      'status',
      'returning',
      'receiver_lat',
      'receiver_lng',
      'receiver_precision',
      'receiver_place_precision',
      'sender_lat',
      'sender_lng',
      'sender_precision',
      'sender_place_precision',
      'drop_point_id',
    ])
    .where('id', '=', parcelId),
);
type CarrierRead = NonNullable<Awaited<ReturnType<typeof readForCarrier>>>;

/** Where a carried parcel is handed over: the receiver's door, or its sender's on the way back (issue 28). */
export function destinationOf(parcel: Omit<CarrierRead, 'status'>) {
  return parcel.returning === 1
    ? {
        lat: parcel.sender_lat,
        lng: parcel.sender_lng,
        precision: placePrecision(parcel.sender_place_precision, parcel.sender_precision),
      }
    : {
        lat: parcel.receiver_lat,
        lng: parcel.receiver_lng,
        precision: placePrecision(parcel.receiver_place_precision, parcel.receiver_precision),
      };
}

/**
 * SPEC §4's 15 m rule: the position must be good enough to say so and, less its accuracy, within
 * 15 m of `door`. Answers the distance; refuses with `tooFar`'s words otherwise.
 */
export function assertAtDoor(position: Position, door: Coordinates, tooFar: (metres: number) => string): number {
  // A fix worse than this could be anywhere in the street: 15 m would be a promise not kept.
  if (position.accuracy > DELIVERY_MAX_ACCURACY_M) {
    throw refuse(
      'position_too_imprecise',
      messages.positionTooImprecise(Math.round(position.accuracy), DELIVERY_MAX_ACCURACY_M),
    );
  }
  const distance = distanceMetres(position, door);
  if (!isWithinDeliveryRadius(distance, position.accuracy)) throw refuse('too_far', tooFar(Math.round(distance)));
  return distance;
}

/**
 * in transit → delivered. A runner delivers only their own parcel and only within 15 m of the
 * receiver (distance − accuracy, SPEC §4), measured here from the position they send; the
 * superadmin delivers without a position.
 */
export async function deliverParcelAt(
  ctx: DeliveryContext,
  actor: AccountRow,
  parcelId: string,
  body: DeliverBody,
): Promise<Parcel> {
  if (mayParcel(actor, 'deliverWithoutPosition')) {
    const occurredAt = body?.occurredAt;
    return presentParcel(await deliverParcel(ctx.changes, parcelId, actor, { kind: 'delivered', occurredAt }));
  }
  const position = requirePosition(body);
  const parcel = await readForCarrier(ctx.db, parcelId);
  // Whose and in which state before how far: another runner learns nothing about the destination.
  assertCarrierMay(actor, 'deliver', parcel);
  // Bound for a drop point, it is handed to its staff, who give the code (handover/pin.ts).
  if (parcel.drop_point_id !== null && parcel.returning === 0) {
    throw refuse('drop_point_needs_code', messages.dropPointNeedsCode);
  }
  const destination = destinationOf(parcel);
  // 15 m from a town's centre says nothing about the door: only the receiver's QR confirmation does.
  if (!isDoorKnown(destination.precision)) throw refuse('destination_imprecise', messages.destinationImprecise);
  const distance = assertAtDoor(position, destination, messages.tooFar);
  // The transition checks status and runner again: a parcel reassigned meanwhile is refused there.
  const delivered = await deliverParcel(ctx.changes, parcelId, actor, {
    kind: 'delivered',
    runnerId: actor.id,
    data: { distanceMetres: Math.round(distance), accuracyMetres: Math.round(position.accuracy) },
    occurredAt: body?.occurredAt,
    place: { lat: position.lat, lng: position.lng },
    // The sender's 'Fotó szükséges a leadáskor' holds on this path only (docs/decisions/0023).
    photoRequiredCheck: true,
  });
  return presentParcel(delivered);
}
