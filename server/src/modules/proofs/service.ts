import { messages } from '@csomag/domain/messages';
import type { ProofKind, ProofList } from '@csomag/domain/proof';
import type { Kysely } from 'kysely';
import type { ChangeFeed } from '../../db/change-feed.ts';
import { nowIso } from '../../db/database.ts';
import type { AccountRow, Database } from '../../db/schema.ts';
import { refuse } from '../../errors.ts';
import { addPhotoProof, assertPhotoAllowed } from '../parcels/changes.ts';
import { mayParty, PARCEL_FACT_COLUMNS, type Party } from '../parcels/policy.ts';
import { encodePhoto } from './image.ts';

export interface ProofsContext {
  db: Kysely<Database>;
  changes: Pick<ChangeFeed, 'transaction'>;
}

const notFound = () => refuse('parcel_not_found', messages.parcelNotFound);

/**
 * Who sees a parcel's proof (the parcel policy's seeProof): its sender, its receiver and the
 * superadmin. Everyone else gets the same 404 as for a parcel that does not exist: the proof's
 * existence is not revealed either.
 */
export async function assertMaySeeProof(db: Kysely<Database>, party: Party, parcelId: string) {
  const parcel = await db
    .selectFrom('parcels')
    .select(PARCEL_FACT_COLUMNS)
    .where('id', '=', parcelId)
    .executeTakeFirst();
  if (!parcel || !mayParty(party, 'seeProof', parcelId, parcel)) throw notFound();
}

/** GET /api/parcels/:id/proofs: what proof there is, never the bytes. */
export async function listProofs(db: Kysely<Database>, actor: AccountRow, parcelId: string): Promise<ProofList> {
  await assertMaySeeProof(db, actor, parcelId);
  const rows = await db
    .selectFrom('proofs')
    .select(['kind', 'sha256', 'created_at', 'removed_at', 'width', 'height'])
    .select((eb) => eb('image', 'is not', null).as('available'))
    .where('parcel_id', '=', parcelId)
    .orderBy('kind')
    .execute();
  return {
    items: rows.map((row) => ({
      kind: row.kind,
      sha256: row.sha256,
      createdAt: row.created_at,
      available: Boolean(row.available),
      removedAt: row.removed_at,
      width: row.width,
      height: row.height,
    })),
  };
}

/** GET /api/parcels/:id/proof/:kind: the stored image, or 404 (none, removed, or not the caller's to see). */
export async function readProofImage(db: Kysely<Database>, actor: AccountRow, parcelId: string, kind: ProofKind) {
  await assertMaySeeProof(db, actor, parcelId);
  const row = await db
    .selectFrom('proofs')
    .select(['image', 'mime', 'sha256'])
    .where('parcel_id', '=', parcelId)
    .where('kind', '=', kind)
    .executeTakeFirst();
  if (!row?.image) throw notFound();
  return { image: Buffer.from(row.image), mime: row.mime, sha256: row.sha256 };
}

/**
 * Before the upload is read: the runner carries the parcel (or carried it until a moment ago).
 * Cheap, and keeps strangers from making the server decode images; addPhotoProof checks it
 * again on the row it writes.
 */
export async function assertMayAddPhoto(db: Kysely<Database>, runner: AccountRow, parcelId: string, now: number) {
  const parcel = await db
    .selectFrom('parcels')
    .select([...PARCEL_FACT_COLUMNS, 'status', 'delivered_at'])
    .where('id', '=', parcelId)
    .executeTakeFirst();
  assertPhotoAllowed(runner, parcel, now);
}

/** Re-encodes the runner's photo and stores it with its timeline event (changes.ts addPhotoProof). */
export async function addPhoto(ctx: ProofsContext, runner: AccountRow, parcelId: string, bytes: Buffer, now: number) {
  const encoded = await encodePhoto(bytes);
  await addPhotoProof(
    ctx.changes,
    parcelId,
    runner,
    { ...encoded, kind: 'photo', strokes: null, createdBy: runner.id },
    now,
  );
  return listProofs(ctx.db, { ...runner, role: 'superadmin' }, parcelId);
}

/** How often the retention sweep runs. */
export const PROOF_RETENTION_SWEEP_MS = 60 * 60 * 1000;

/** Images removed per statement: a sweep after a long pause works in bounded steps. */
const RETENTION_BATCH = 200;

/**
 * Removes the images of parcels delivered more than `days` ago: image null, removed_at set; the
 * hash and the timeline event stay (docs/decisions/0023). Every instance may run it: a second
 * run finds nothing left to remove. The candidates are read first (on SQLite from the reader): a
 * sweep with nothing to do writes nothing, so it never waits for or holds the writer.
 * Returns how many images went.
 */
export async function removeExpiredProofImages(db: Kysely<Database>, days: number, now = Date.now()) {
  const cutoff = new Date(now - days * 24 * 60 * 60 * 1000).toISOString();
  const proofs = await inBatches(
    () =>
      db
        .selectFrom('proofs')
        .innerJoin('parcels', 'parcels.id', 'proofs.parcel_id')
        .select('proofs.id')
        .where('proofs.image', 'is not', null)
        // A proof is made at the delivery or before it: only older proofs are candidates (index).
        .where('proofs.created_at', '<', cutoff)
        // Delivered or back with its sender (issue 28): delivered_at is when it was handed over.
        .where('parcels.status', 'in', ['delivered', 'returned'])
        .where('parcels.delivered_at', '<', cutoff)
        .limit(RETENTION_BATCH)
        .execute(),
    (ids) =>
      db
        .updateTable('proofs')
        .set({ image: null, removed_at: nowIso() })
        .where('id', 'in', ids)
        .where('image', 'is not', null)
        .executeTakeFirst(),
  );
  // Photos of failed attempts (issue 28) go like a delivery's: taken before the cutoff, of a parcel
  // handed over before it (delivered, or back with its sender) or no longer there at all.
  const attempts = await inBatches(
    () =>
      db
        .selectFrom('delivery_attempts')
        .leftJoin('parcels', 'parcels.id', 'delivery_attempts.parcel_id')
        .select('delivery_attempts.id')
        .where('delivery_attempts.photo', 'is not', null)
        .where('delivery_attempts.photo_at', '<', cutoff)
        .where((eb) =>
          eb.or([
            eb('parcels.id', 'is', null),
            eb.and([eb('parcels.status', 'in', ['delivered', 'returned']), eb('parcels.delivered_at', '<', cutoff)]),
          ]),
        )
        .limit(RETENTION_BATCH)
        .execute(),
    (ids) =>
      db
        .updateTable('delivery_attempts')
        .set({ photo: null, photo_removed_at: nowIso() })
        .where('id', 'in', ids)
        .where('photo', 'is not', null)
        .executeTakeFirst(),
  );
  // Photos of incidents decided before the cutoff: the decision stays.
  const incidents = await inBatches(
    () =>
      db
        .selectFrom('incident_photos')
        .innerJoin('incidents', 'incidents.id', 'incident_photos.incident_id')
        .select('incident_photos.id')
        .where('incident_photos.image', 'is not', null)
        .where('incidents.resolved_at', '<', cutoff)
        .limit(RETENTION_BATCH)
        .execute(),
    (ids) =>
      db
        .updateTable('incident_photos')
        .set({ image: null })
        .where('id', 'in', ids)
        .where('image', 'is not', null)
        .executeTakeFirst(),
  );
  return proofs + attempts + incidents;
}

/**
 * Removes in batches what `due` finds until it finds less than a batch. The candidates are read
 * first (on SQLite from the reader): a sweep with nothing to do writes nothing.
 */
async function inBatches(
  due: () => Promise<{ id: number }[]>,
  remove: (ids: number[]) => Promise<{ numUpdatedRows: bigint }>,
) {
  let removed = 0;
  for (;;) {
    const rows = await due();
    if (rows.length === 0) return removed;
    removed += Number((await remove(rows.map((row) => row.id))).numUpdatedRows);
    if (rows.length < RETENTION_BATCH) return removed;
  }
}
