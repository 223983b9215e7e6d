import { createHash } from 'node:crypto';
import type { CustodyHolderKind, CustodyPartyKind } from '@csomag/domain/relay';
import type { Kysely, Selectable, Transaction } from 'kysely';
import type { CustodyEventsTable, Database } from '../../db/schema.ts';

/**
 * The chain of custody (docs/decisions/0022): each event's hash is SHA-256 over the previous
 * event's hash and the event's canonical fields, so editing, removing or reordering a row breaks
 * every hash after it. Pure apart from the two database helpers at the end.
 */

/** The previous hash of a parcel's first event (seq 0). */
export const GENESIS_HASH = '0'.repeat(64);

export interface CustodyParty {
  kind: CustodyPartyKind;
  id: number | null;
}

/** The fields a custody event's hash covers (custodyHash lists them in its fixed order): all but the row id and the hashes. */
export type CustodyFields = Omit<Selectable<CustodyEventsTable>, 'id' | 'prev_hash' | 'hash'>;

export function custodyHash(prevHash: string, event: CustodyFields): string {
  const canonical = JSON.stringify([
    event.parcel_id,
    event.seq,
    event.kind,
    event.from_kind,
    event.from_id,
    event.to_kind,
    event.to_id,
    event.lat,
    event.lng,
    event.at,
    event.confirmed_by,
    event.how,
    event.reason,
  ]);
  return createHash('sha256').update(`${prevHash}\n${canonical}`).digest('hex');
}

type StoredEvent = Omit<CustodyEventsTable, 'id'>;

/** Seq 0 must be first, seqs consecutive, each prev_hash the one before's hash, each hash right. */
export function firstBadSeq(events: readonly StoredEvent[]): number | null {
  let prev = GENESIS_HASH;
  for (const [index, event] of events.entries()) {
    if (event.seq !== index || event.prev_hash !== prev || custodyHash(prev, event) !== event.hash) return event.seq;
    prev = event.hash;
  }
  return null;
}

/** Whether two custody parties are the same one (a change of hands that is none moves no custody). */
export const sameParty = (a: CustodyParty, b: CustodyParty) => a.kind === b.kind && a.id === b.id;

/** The holder a parcel's status and runner imply (the sender until pickup, a runner, the receiver). */
export function holderOf(
  status: string,
  runnerId: number | null,
  senderId: number,
): CustodyParty & {
  kind: CustodyHolderKind;
} {
  if (status === 'in_transit') return { kind: 'runner', id: runnerId };
  if (status === 'delivered') return { kind: 'receiver', id: null };
  return { kind: 'sender', id: senderId };
}

/** The parcel columns that name a holder. */
export const holderColumns = (holder: CustodyParty & { kind: CustodyHolderKind }) => ({
  holder_kind: holder.kind,
  holder_id: holder.id,
});

/**
 * The custody event numbered `seq` (the parcel's custody_seq after the compare-and-swap that moved
 * it, inside the same transaction), hashed onto the one before: written with the change's timeline
 * event (changes.ts `record`), where the unique (parcel_id, seq) refuses a second event with the
 * same number, so two changes can never both follow the same event.
 */
export async function custodyEvent(
  trx: Transaction<Database>,
  {
    prev_hash: known,
    ...event
  }: Omit<CustodyFields, 'lat' | 'lng' | 'confirmed_by' | 'reason' | 'at'> & {
    at?: string;
    lat?: number | null;
    lng?: number | null;
    confirmed_by?: number | null;
    reason?: string | null;
    /** The previous event's hash when the caller has read it already (with the change's own UPDATE). */
    prev_hash?: string | null;
  },
): Promise<CustodyEventRow> {
  const previous =
    event.seq === 0
      ? undefined
      : known
        ? { hash: known }
        : await trx
            .selectFrom('custody_events')
            .select('hash')
            .where('parcel_id', '=', event.parcel_id)
            .where('seq', '=', event.seq - 1)
            .executeTakeFirst();
  const prevHash = previous?.hash ?? GENESIS_HASH;
  const fields: CustodyFields = {
    ...event,
    at: event.at ?? new Date().toISOString(),
    lat: event.lat ?? null,
    lng: event.lng ?? null,
    confirmed_by: event.confirmed_by ?? null,
    reason: event.reason ?? null,
  };
  return { ...fields, prev_hash: prevHash, hash: custodyHash(prevHash, fields) };
}

/** A custody event as it is written. */
export type CustodyEventRow = CustodyFields & { prev_hash: string; hash: string };

/** A custody event's columns as written and read (all but the row id). */
export const CUSTODY_COLUMNS = [
  'parcel_id',
  'seq',
  'kind',
  'from_kind',
  'from_id',
  'to_kind',
  'to_id',
  'lat',
  'lng',
  'at',
  'confirmed_by',
  'how',
  'reason',
  'prev_hash',
  'hash',
] as const satisfies readonly (keyof CustodyEventRow)[];

/** A parcel's custody events in order. */
export const readChain = (db: Kysely<Database>, parcelId: string) =>
  db.selectFrom('custody_events').select(CUSTODY_COLUMNS).where('parcel_id', '=', parcelId).orderBy('seq').execute();

export type ChainVerdict =
  | { parcelId: string; ok: true; events: number }
  | { parcelId: string; ok: false; events: number; badSeq: number | null; problem: 'hash' | 'holder' | 'missing' };

/**
 * Verifies one parcel's chain: every hash and link (the first bad row's seq), then that the last
 * event's `to` is the parcel's holder and its seq the parcel's custody_seq (a deleted or
 * withdrawn parcel's last event goes to `none`).
 */
export async function verifyChain(db: Kysely<Database>, parcelId: string): Promise<ChainVerdict> {
  const events = await readChain(db, parcelId);
  const parcel = await db
    .selectFrom('parcels')
    .select(['holder_kind', 'holder_id', 'custody_seq'])
    .where('id', '=', parcelId)
    .executeTakeFirst();
  const count = events.length;
  if (count === 0) return { parcelId, ok: false, events: 0, badSeq: null, problem: 'missing' };
  const bad = firstBadSeq(events);
  if (bad !== null) return { parcelId, ok: false, events: count, badSeq: bad, problem: 'hash' };
  const last = events[count - 1] as StoredEvent;
  const holds = parcel
    ? last.seq === parcel.custody_seq &&
      sameParty({ kind: last.to_kind, id: last.to_id }, { kind: parcel.holder_kind, id: parcel.holder_id })
    : last.to_kind === 'none';
  return holds
    ? { parcelId, ok: true, events: count }
    : { parcelId, ok: false, events: count, badSeq: last.seq, problem: 'holder' };
}

/** Every parcel's chain (parcels and parcels whose history outlived them), in id order. */
export async function* verifyAllChains(db: Kysely<Database>): AsyncGenerator<ChainVerdict> {
  let after = '';
  for (;;) {
    const ids = await db
      .selectFrom('custody_events')
      .select('parcel_id')
      .distinct()
      .where('parcel_id', '>', after)
      .union(db.selectFrom('parcels').select('id as parcel_id').where('id', '>', after))
      .orderBy('parcel_id')
      .limit(500)
      .execute();
    if (ids.length === 0) return;
    for (const { parcel_id } of ids) yield await verifyChain(db, parcel_id);
    after = ids.at(-1)?.parcel_id ?? after;
  }
}
