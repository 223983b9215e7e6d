import { addressKey } from '@csomag/domain/address';
import { messages } from '@csomag/domain/messages';
import type {
  Parcel,
  ParcelContacts,
  ParcelCreateBody,
  ParcelDetail,
  ParcelListQuery,
  ParcelState,
  TrackingView,
} from '@csomag/domain/parcel';
import type { Kysely } from 'kysely';
import type { ChangeFeed } from '../../db/change-feed.ts';
import { decodeCursor, pageOf } from '../../db/cursor.ts';
import { nowIso } from '../../db/database.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import type { AccountRow, Database, ParcelRow } from '../../db/schema.ts';
import { refuse, refuseField } from '../../errors.ts';
import { findAccountByUserName } from '../auth/accounts.ts';
import type { Geocoder } from '../geo/geocoder.ts';
import { type PlacedPoint, placeEnd, placeEnds } from '../places/ends.ts';
import { destinationMatchKey } from '../places/match-key.ts';
import { precisionColumns } from '../places/precision.ts';
import { ratingSummaries } from '../ratings/service.ts';
import { carrierStateRefusal, insertParcel, type NewParcelRow } from './changes.ts';
import { newParcelId } from './parcel-id.ts';
import { type Actor, mayParcel, type ParcelAction, type ParcelFacts, relationship } from './policy.ts';
import { type ParcelWithNames, presentParcel, presentTimelineEvent, presentTracking } from './present.ts';

/** What parcel commands need; the app passes its own, the demo seed a quiet one. */
export interface ParcelsContext {
  db: Kysely<Database>;
  changes: Pick<ChangeFeed, 'transaction'>;
  geocoder: Geocoder;
}

/** Parcels with the user names of their sender and runner, for every list and view. */
export function selectParcels(db: Kysely<Database>) {
  return db
    .selectFrom('parcels')
    .innerJoin('accounts as sender', 'sender.id', 'parcels.sender_id')
    .leftJoin('accounts as runner', 'runner.id', 'parcels.runner_id')
    .leftJoin('drop_points', 'drop_points.id', 'parcels.drop_point_id')
    .selectAll('parcels')
    .select([
      'sender.user_name as sender_user_name',
      'runner.user_name as runner_user_name',
      'drop_points.name as drop_point_name',
      'drop_points.address as drop_point_address',
    ]);
}

export type ParcelQuery = ReturnType<typeof selectParcels>;

/** Newest first, one page; the cursor is the last row's (created_at, id). `present`: a list's own item shape. */
export async function newestFirst<Item = Parcel>(
  query: ParcelQuery,
  { limit, cursor }: ParcelListQuery,
  present: (row: ParcelWithNames) => Item = presentParcel as (row: ParcelWithNames) => Item,
): Promise<{ items: Item[]; nextCursor: string | null }> {
  let page = query;
  if (cursor) {
    const [createdAt = '', id = ''] = decodeCursor(cursor, 2);
    page = page.where((eb) => eb(eb.refTuple('parcels.created_at', 'parcels.id'), '<', eb.tuple(createdAt, id)));
  }
  const rows = await page
    .orderBy('parcels.created_at', 'desc')
    .orderBy('parcels.id', 'desc')
    .limit(limit + 1)
    .execute();
  return pageOf(rows, limit, present, (last) => [last.created_at, last.id]);
}

/** A user sends as themself; the superadmin must name an existing account of role user. */
async function resolveSender(db: Kysely<Database>, actor: AccountRow, senderUser: string | undefined) {
  if (!mayParcel(actor, 'sendForOthers')) {
    if (senderUser !== undefined && senderUser.toLowerCase() !== actor.user_name.toLowerCase()) {
      throw refuseField('sender_not_self', 'senderUser', messages.senderUserNotSelf);
    }
    return actor;
  }
  if (!senderUser) throw refuseField('sender_required', 'senderUser', messages.senderUserRequired);
  const sender = await findAccountByUserName(db, senderUser);
  if (!sender) throw refuseField('sender_not_found', 'senderUser', messages.accountNotFound);
  if (!mayParcel(sender, 'beSender')) throw refuseField('sender_not_user', 'senderUser', messages.senderUserNotUser);
  return sender;
}

/**
 * Both ends of a parcel on the map: the pins the sender placed (as precise as the sender says:
 * where the address was placed, or by hand; in Hungary, under an address that passes the national
 * check), else geocoded. Nothing is saved if either fails; each failing end's field says why.
 */
async function placeBothEnds(geocoder: Geocoder, body: ParcelCreateBody): Promise<[PlacedPoint, PlacedPoint]> {
  return placeEnds([
    placeEnd(geocoder, body.senderAddress, 'senderAddress', body.senderCoordinates, body.senderPrecision),
    placeEnd(geocoder, body.receiverAddress, 'receiverAddress', body.receiverCoordinates, body.receiverPrecision),
  ]);
}

/** An active drop point by id, or the create form's field refused. */
async function activeDropPoint(db: Kysely<Database>, id: number) {
  const point = await db
    .selectFrom('drop_points')
    .select(['id', 'name', 'address', 'lat', 'lng'])
    .where('id', '=', id)
    .where('active', '=', 1)
    .executeTakeFirst();
  if (!point) throw refuseField('drop_point_not_found', 'dropPointId', messages.dropPointNotFound);
  return point;
}

/**
 * Creates a waiting parcel with its `created` timeline entry in one transaction and announces
 * it on the change feed once committed.
 */
export async function createParcel(ctx: ParcelsContext, actor: AccountRow, body: ParcelCreateBody): Promise<Parcel> {
  const sender = await resolveSender(ctx.db, actor, body.senderUser);
  const [from, placed] = await placeBothEnds(ctx.geocoder, body);
  const receiverKey = await destinationMatchKey(ctx.geocoder, body.receiverAddress, placed);
  // Sent to a drop point (issue 28): delivered there, its point the destination; the address says whose it is.
  const dropPoint = body.dropPointId === undefined ? undefined : await activeDropPoint(ctx.db, body.dropPointId);
  const to = dropPoint ? { lat: dropPoint.lat, lng: dropPoint.lng, precision: 'manual' as const } : placed;
  for (let attempt = 1; ; attempt++) {
    const row: NewParcelRow = {
      id: newParcelId(),
      sender_id: sender.id,
      runner_id: null,
      category: body.category,
      weight_grams: body.weightGrams,
      status: 'waiting',
      sender_address: body.senderAddress,
      receiver_address: body.receiverAddress,
      receiver_key: receiverKey,
      sender_key: addressKey(body.senderAddress),
      sender_lat: from.lat,
      sender_lng: from.lng,
      receiver_lat: to.lat,
      receiver_lng: to.lng,
      ...precisionColumns('sender', from.precision),
      ...precisionColumns('receiver', to.precision),
      recipient_name: body.recipientName ?? null,
      recipient_phone: body.recipientPhone ?? null,
      receiver_email: body.receiverEmail ?? null,
      created_at: nowIso(),
      picked_up_at: null,
      delivered_at: null,
      version: 1,
      photo_required: body.photoRequired ? 1 : 0,
    };
    try {
      return presentParcel(await insertParcel(ctx.changes, row, sender, actor, body.occurredAt, dropPoint));
    } catch (error) {
      // 50 random bits make a clash vanishingly rare; if one happens, draw another id.
      if (!isUniqueViolation(error) || attempt >= 3) throw error;
    }
  }
}

/**
 * A list's state filter (issue 28): a status, or one of the two states of a parcel in transit —
 * failed attempts, on its way back — told apart by their columns on the status index's rows.
 */
export function whereState<Q extends ParcelQuery>(query: Q, state: ParcelState): Q {
  if (state === 'attempted') {
    return query
      .where('parcels.status', '=', 'in_transit')
      .where('parcels.returning', '=', 0)
      .where('parcels.attempts', '>', 0) as Q;
  }
  if (state === 'returning') {
    return query.where('parcels.status', '=', 'in_transit').where('parcels.returning', '=', 1) as Q;
  }
  return query.where('parcels.status', '=', state) as Q;
}

export const listSentParcels = (db: Kysely<Database>, account: AccountRow, query: ParcelListQuery) => {
  let parcels = selectParcels(db).where('parcels.sender_id', '=', account.id);
  if (query.status) parcels = whereState(parcels, query.status);
  return newestFirst(parcels, query);
};

/** Parcels addressed to the account's own address, compared the way addresses are (addressKey). */
export const listIncomingParcels = (db: Kysely<Database>, account: AccountRow, query: ParcelListQuery) => {
  if (!account.address_key) return Promise.resolve({ items: [], nextCursor: null });
  let parcels = selectParcels(db).where('parcels.receiver_key', '=', account.address_key);
  if (query.status) parcels = whereState(parcels, query.status);
  return newestFirst(parcels, query);
};

/**
 * Refuses a carrier's action on a parcel as read: whose it is before which state it is in, so
 * another runner learns nothing more about it. The change itself checks both again atomically.
 */
export function assertCarrierMay<P extends Pick<ParcelRow, 'status'> & ParcelFacts>(
  actor: NonNullable<Actor>,
  action: ParcelAction,
  parcel: P | undefined,
): asserts parcel is P {
  const refusal = carrierStateRefusal(parcel, parcel !== undefined && mayParcel(actor, action, parcel));
  if (refusal) throw refusal;
}

/** The full parcel with its timeline, for its sender, its runner and the superadmin. */
export async function getParcelDetail(db: Kysely<Database>, account: AccountRow, id: string): Promise<ParcelDetail> {
  const parcel = await selectParcels(db).where('parcels.id', '=', id).executeTakeFirst();
  if (!parcel) throw refuse('parcel_not_found', messages.parcelNotFound);
  if (!mayParcel(account, 'view', parcel)) throw refuse('forbidden', messages.forbidden);
  const events = await db
    .selectFrom('parcel_events')
    .leftJoin('accounts', 'accounts.id', 'parcel_events.actor_id')
    .select([
      'parcel_events.at',
      'parcel_events.kind',
      'parcel_events.occurred_at',
      'parcel_events.data',
      'accounts.user_name as actor_user_name',
    ])
    .where('parcel_events.parcel_id', '=', id)
    .orderBy('parcel_events.id')
    .execute();
  // The carrier and the back office call people; the sender knows whom they wrote down.
  const contacts = relationship.sender(account, parcel) ? null : ((await contactsOf(db, [id])).get(id) ?? null);
  const withConfirmer = mayParcel(account, 'seeHandoverConfirmer', parcel);
  return {
    ...presentParcel(parcel),
    version: parcel.version,
    events: events.map((event) => presentTimelineEvent(event, withConfirmer)),
    contacts,
  };
}

/** Who to call about each parcel: the recipient the sender named, and the sender. */
export async function contactsOf(db: Kysely<Database>, ids: string[]): Promise<Map<string, ParcelContacts>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('parcels')
    .innerJoin('accounts as sender', 'sender.id', 'parcels.sender_id')
    .select(['parcels.id', 'parcels.recipient_name', 'parcels.recipient_phone', 'sender.name', 'sender.phone'])
    .where('parcels.id', 'in', ids)
    .execute();
  return new Map(
    rows.map((row) => [
      row.id,
      {
        recipientName: row.recipient_name,
        recipientPhone: row.recipient_phone,
        senderName: row.name,
        senderPhone: row.phone,
      },
    ]),
  );
}

/** The public tracking view; null for an id no parcel has. */
export async function getTrackingView(db: Kysely<Database>, id: string): Promise<TrackingView | null> {
  const parcel = await selectParcels(db)
    .select([
      'runner.last_lat as runner_lat',
      'runner.last_lng as runner_lng',
      'runner.located_at as runner_located_at',
    ])
    .where('parcels.id', '=', id)
    .executeTakeFirst();
  if (!parcel) return null;
  const events = await db
    .selectFrom('parcel_events')
    .select(['at', 'kind', 'occurred_at', 'data'])
    .where('parcel_id', '=', id)
    .orderBy('id')
    .execute();
  // The runner's average while on its way. The tracking cache keeps it until the parcel (or the
  // runner's position) changes next: a new rating may show a little later, never a wrong runner.
  const runnerId = parcel.status === 'in_transit' ? parcel.runner_id : null;
  const rating = runnerId === null ? null : ((await ratingSummaries(db, [runnerId])).get(runnerId) ?? null);
  return presentTracking(parcel, events, rating);
}
