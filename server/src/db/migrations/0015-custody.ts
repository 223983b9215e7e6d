import type { CustodyEventKind, CustodyHolderKind, CustodyPartyKind } from '@csomag/domain/relay';
import { type Migration, sql } from 'kysely';
import { custodyHash, GENESIS_HASH } from '../../modules/relay/chain.ts';
import type { Dialect } from '../database.ts';
import type { MigrationDb } from './index.ts';

/**
 * Custody (issue 14, docs/decisions/0022): every parcel has exactly one holder (`holder_kind`,
 * `holder_id`) and a `custody_seq`, the seq of its last custody event; `custody_events` is the
 * hash-chained history of who held it. Existing parcels are backfilled from what their row
 * says: `created` (none → sender), then `picked_up` (sender → runner) once past waiting, then
 * `delivered` (runner → receiver), each marked `how = 'migration'`, so every chain verifies.
 */
export const custody = (dialect: Dialect): Migration => ({
  async up(db: MigrationDb) {
    await db.schema
      .alterTable('parcels')
      .addColumn('holder_kind', 'text', (c) => c.notNull().defaultTo('sender'))
      .execute();
    await db.schema.alterTable('parcels').addColumn('holder_id', 'integer').execute();
    await db.schema
      .alterTable('parcels')
      .addColumn('custody_seq', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    // Runner → runner changes of hands (relays and overrides): > 0 is a multi-leg parcel.
    await db.schema
      .alterTable('parcels')
      .addColumn('runner_handovers', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    // The back office's 'többszakaszos' filter, newest first like parcels_created and
    // parcels_status_created, but holding only the few multi-leg parcels: a page is read from them
    // alone at any table size (with a status, too: the full status index would walk every delivered
    // parcel looking for them). The query must say `runner_handovers > 0` with a literal 0 for
    // either store to use them.
    for (const [name, columns] of [
      ['parcels_multi_leg_created', ['created_at', 'id']],
      ['parcels_multi_leg_status_created', ['status', 'created_at', 'id']],
    ] as const) {
      await db.schema
        .createIndex(name)
        .on('parcels')
        .columns([...columns])
        .where(sql.ref('runner_handovers'), '>', 0)
        .execute();
    }
    await db.schema
      .createTable('custody_events')
      .addColumn('id', dialect === 'postgres' ? 'serial' : 'integer', (c) =>
        dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement(),
      )
      .addColumn('parcel_id', 'text', (c) => c.notNull())
      .addColumn('seq', 'integer', (c) => c.notNull())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('from_kind', 'text', (c) => c.notNull())
      .addColumn('from_id', 'integer')
      .addColumn('to_kind', 'text', (c) => c.notNull())
      .addColumn('to_id', 'integer')
      .addColumn('lat', 'double precision')
      .addColumn('lng', 'double precision')
      .addColumn('at', 'text', (c) => c.notNull())
      .addColumn('confirmed_by', 'integer')
      .addColumn('how', 'text', (c) => c.notNull())
      .addColumn('reason', 'text')
      .addColumn('prev_hash', 'text', (c) => c.notNull())
      .addColumn('hash', 'text', (c) => c.notNull())
      .addUniqueConstraint('custody_events_parcel_seq', ['parcel_id', 'seq'])
      .execute();
    await backfill(db);
    // Relay offers ('Továbbadnám'): open while not closed, before `until`, and while the parcel is
    // still held by the offering runner at the custody_seq the offer was made at.
    await db.schema
      .createTable('relay_offers')
      .addColumn('id', dialect === 'postgres' ? 'serial' : 'integer', (c) =>
        dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement(),
      )
      .addColumn('parcel_id', 'text', (c) => c.notNull())
      .addColumn('runner_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
      .addColumn('custody_seq', 'integer', (c) => c.notNull())
      .addColumn('lat', 'double precision', (c) => c.notNull())
      .addColumn('lng', 'double precision', (c) => c.notNull())
      .addColumn('place_label', 'text')
      .addColumn('window_from', 'text', (c) => c.notNull())
      .addColumn('window_until', 'text', (c) => c.notNull())
      .addColumn('taken_by', 'integer', (c) => c.references('accounts.id').onDelete('set null'))
      .addColumn('taken_at', 'text')
      .addColumn('closed_at', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('relay_offers_open_parcel')
      .on('relay_offers')
      .column('parcel_id')
      .unique()
      .where(sql.ref('closed_at'), 'is', null)
      .execute();
    await db.schema.createIndex('relay_offers_until').on('relay_offers').column('window_until').execute();
  },
  async down(db: MigrationDb) {
    await db.schema.dropTable('relay_offers').execute();
    await db.schema.dropTable('custody_events').execute();
    await db.schema.dropIndex('parcels_multi_leg_status_created').execute();
    await db.schema.dropIndex('parcels_multi_leg_created').execute();
    await db.schema.alterTable('parcels').dropColumn('runner_handovers').execute();
    await db.schema.alterTable('parcels').dropColumn('custody_seq').execute();
    await db.schema.alterTable('parcels').dropColumn('holder_id').execute();
    await db.schema.alterTable('parcels').dropColumn('holder_kind').execute();
  },
});

interface OldParcel {
  id: string;
  status: string;
  sender_id: number;
  runner_id: number | null;
  created_at: string;
  picked_up_at: string | null;
  delivered_at: string | null;
}

/** Parcels per page: up to 3 events × 15 values each stays well under SQLite's bound parameters. */
const PAGE = 200;

async function backfill(db: MigrationDb) {
  let after = '';
  for (;;) {
    const page: OldParcel[] = await db
      .selectFrom('parcels')
      .select(['id', 'status', 'sender_id', 'runner_id', 'created_at', 'picked_up_at', 'delivered_at'])
      .where('id', '>', after)
      .orderBy('id')
      .limit(PAGE)
      .execute();
    if (page.length === 0) break;
    const rows = page.flatMap(chainOf);
    if (rows.length > 0) await db.insertInto('custody_events').values(rows).execute();
    for (const parcel of page) {
      const last = rows.filter((row) => row.parcel_id === parcel.id).at(-1);
      if (!last || last.seq === 0) continue;
      await db
        .updateTable('parcels')
        .set({ holder_kind: last.to_kind, holder_id: last.to_id, custody_seq: last.seq })
        .where('id', '=', parcel.id)
        .execute();
    }
    after = page.at(-1)?.id ?? after;
  }
  // The sender holds every parcel nobody has picked up (the column default says only the kind).
  await db
    .updateTable('parcels')
    .set((eb) => ({ holder_id: eb.ref('sender_id') }))
    .where('holder_kind', '=', 'sender')
    .execute();
}

function chainOf(parcel: OldParcel) {
  const steps: {
    kind: CustodyEventKind;
    from: [CustodyPartyKind, number | null];
    to: [CustodyHolderKind, number | null];
    at: string;
  }[] = [{ kind: 'created', from: ['none', null], to: ['sender', parcel.sender_id], at: parcel.created_at }];
  if (parcel.status === 'in_transit' || parcel.status === 'delivered') {
    steps.push({
      kind: 'picked_up',
      from: ['sender', parcel.sender_id],
      to: ['runner', parcel.runner_id],
      at: parcel.picked_up_at ?? parcel.created_at,
    });
  }
  if (parcel.status === 'delivered') {
    steps.push({
      kind: 'delivered',
      from: ['runner', parcel.runner_id],
      to: ['receiver', null],
      at: parcel.delivered_at ?? parcel.picked_up_at ?? parcel.created_at,
    });
  }
  let prevHash = GENESIS_HASH;
  return steps.map((step, seq) => {
    const fields = {
      parcel_id: parcel.id,
      seq,
      kind: step.kind,
      from_kind: step.from[0],
      from_id: step.from[1],
      to_kind: step.to[0],
      to_id: step.to[1],
      lat: null,
      lng: null,
      at: step.at,
      confirmed_by: null,
      how: 'migration' as const,
      reason: null,
    };
    const hash = custodyHash(prevHash, fields);
    const row = { ...fields, prev_hash: prevHash, hash };
    prevHash = hash;
    return row;
  });
}
