import type {
  Incident,
  IncidentBody,
  IncidentDetail,
  IncidentList,
  IncidentListQuery,
  ResolveIncidentBody,
} from '@csomag/domain/incidents';
import { INCIDENT_PHOTOS_MAX } from '@csomag/domain/incidents';
import { messages } from '@csomag/domain/messages';
import { type Kysely, type SqlBool, sql, type Transaction } from 'kysely';
import type { ChangeFeed } from '../../db/change-feed.ts';
import { cursorNumber, decodeCursor, pageOf } from '../../db/cursor.ts';
import { nowIso } from '../../db/database.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import type { AccountRow, Database } from '../../db/schema.ts';
import { AppError, refuse } from '../../errors.ts';
import { listAttempts } from '../attempts/service.ts';
import { parcelForStaff } from '../drop-points/service.ts';
import { listParcelMessages } from '../mail/parcel-messages.ts';
import {
  type Also,
  type IncidentReporter,
  reportIncident,
  returnFromDropPoint,
  startReturn,
  writeOff,
} from '../parcels/changes.ts';
import { mayParcel, PARCEL_FACT_COLUMNS } from '../parcels/policy.ts';
import { assertCarrierMay, getParcelDetail } from '../parcels/service.ts';
import { encodePhoto } from '../proofs/image.ts';
import { listProofs } from '../proofs/service.ts';
import { getCustodyChain } from '../relay/service.ts';

/**
 * Incidents ('Probléma bejelentése', issue 28, docs/decisions/0030): the runner carrying a parcel
 * reports it damaged or lost, with photos; the back office decides once — carry on, send it back
 * to its sender, or write it off as lost. A decision that changes the parcel is made in the
 * parcel change's own transaction (changes.ts), so the two never part.
 */

export interface IncidentsContext {
  db: Kysely<Database>;
  changes: Pick<ChangeFeed, 'transaction'>;
}

const selectIncidents = (db: Kysely<Database>) =>
  db
    .selectFrom('incidents as i')
    .leftJoin('accounts as reporter', 'reporter.id', 'i.reporter_id')
    .leftJoin('accounts as resolver', 'resolver.id', 'i.resolved_by')
    .select([
      'i.id',
      'i.parcel_id',
      'i.kind',
      'i.description',
      'i.created_at',
      'i.decision',
      'i.note',
      'i.resolved_at',
      'reporter.user_name as reporter_user_name',
      'resolver.user_name as resolver_user_name',
    ]);
type IncidentRow = Awaited<ReturnType<ReturnType<typeof selectIncidents>['executeTakeFirstOrThrow']>>;

async function presentIncidents(db: Kysely<Database>, rows: IncidentRow[]): Promise<Incident[]> {
  const photos =
    rows.length === 0
      ? []
      : await db
          .selectFrom('incident_photos')
          .select(['incident_id', 'number'])
          .where(
            'incident_id',
            'in',
            rows.map((row) => row.id),
          )
          .where('image', 'is not', null)
          .orderBy('number')
          .execute();
  const numbers = new Map<number, number[]>();
  for (const photo of photos) numbers.set(photo.incident_id, [...(numbers.get(photo.incident_id) ?? []), photo.number]);
  return rows.map((row) => ({
    id: row.id,
    parcelId: row.parcel_id,
    kind: row.kind,
    description: row.description,
    reporter: row.reporter_user_name,
    createdAt: row.created_at,
    photos: numbers.get(row.id) ?? [],
    decision: row.decision,
    note: row.note,
    resolvedBy: row.resolver_user_name,
    resolvedAt: row.resolved_at,
  }));
}

async function findIncident(db: Kysely<Database>, id: number): Promise<Incident> {
  const row = await selectIncidents(db).where('i.id', '=', id).executeTakeFirst();
  if (!row) throw refuse('incident_not_found', messages.incidentNotFound);
  return (await presentIncidents(db, [row]))[0] as Incident;
}

/**
 * 'Probléma bejelentése', one open incident per parcel: the runner carrying the parcel, or the
 * staff of the drop point where it waits.
 */
export async function reportIncidentOn(
  ctx: IncidentsContext,
  account: AccountRow,
  parcelId: string,
  body: IncidentBody,
) {
  let reporter: IncidentReporter;
  if (mayParcel(account, 'reportIncident')) {
    const parcel = await ctx.db
      .selectFrom('parcels')
      .select([...PARCEL_FACT_COLUMNS, 'status'])
      .where('id', '=', parcelId)
      .executeTakeFirst();
    assertCarrierMay(account, 'reportIncident', parcel);
    reporter = { runner: account };
  } else {
    const parcel = await parcelForStaff(ctx.db, account, parcelId, 'reportIncident');
    reporter = { staff: account, dropPointId: parcel.drop_point_id };
  }
  return findIncident(ctx.db, await reportIncident(ctx.changes, parcelId, reporter, body));
}

/**
 * A photo of an open incident, by the person who reported it: at most INCIDENT_PHOTOS_MAX, each
 * re-encoded like a proof. Checked before the upload is read.
 */
export async function addIncidentPhoto(
  db: Kysely<Database>,
  reporter: AccountRow,
  id: number,
  readPhoto: () => Promise<Buffer>,
) {
  const incident = await db
    .selectFrom('incidents')
    .select('id')
    .where('id', '=', id)
    .where('reporter_id', '=', reporter.id)
    .executeTakeFirst();
  if (!incident) throw refuse('incident_not_found', messages.incidentNotFound);
  const encoded = await encodePhoto(await readPhoto());
  // Numbered in the insert's transaction; two at once take the next number.
  for (let attempt = 0; ; attempt++) {
    try {
      await db.transaction().execute(async (trx) => {
        const last = await trx
          .selectFrom('incident_photos')
          .select((eb) => [eb.fn.countAll<number>().as('count'), eb.fn.max('number').as('number')])
          .where('incident_id', '=', id)
          .executeTakeFirstOrThrow();
        if (Number(last.count) >= INCIDENT_PHOTOS_MAX) {
          throw refuse('incident_photos_full', messages.incidentPhotosFull(INCIDENT_PHOTOS_MAX));
        }
        await trx
          .insertInto('incident_photos')
          .values({
            incident_id: id,
            number: Number(last.number ?? 0) + 1,
            image: encoded.image,
            mime: encoded.mime,
            sha256: encoded.sha256,
            width: encoded.width,
            height: encoded.height,
            created_at: nowIso(),
          })
          .execute();
      });
      return findIncident(db, id);
    } catch (error) {
      if (!isUniqueViolation(error) || attempt >= 3) throw error;
    }
  }
}

/** An incident's photo: the back office's (the route's guard). */
export async function readIncidentPhoto(db: Kysely<Database>, id: number, number: number) {
  const row = await db
    .selectFrom('incident_photos')
    .select(['image', 'mime', 'sha256'])
    .where('incident_id', '=', id)
    .where('number', '=', number)
    .executeTakeFirst();
  if (!row?.image) throw refuse('incident_not_found', messages.incidentNotFound);
  return { image: Buffer.from(row.image), mime: row.mime, sha256: row.sha256 };
}

/** The back office's queue, newest first: open or decided. */
export async function listIncidents(db: Kysely<Database>, query: IncidentListQuery): Promise<IncidentList> {
  let page = selectIncidents(db).where('i.resolved_at', query.status === 'open' ? 'is' : 'is not', null);
  if (query.cursor) {
    const [createdAt = '', id = ''] = decodeCursor(query.cursor, 2);
    page = page.where(sql<SqlBool>`(i.created_at, i.id) < (${createdAt}, ${cursorNumber(id, { integer: true })})`);
  }
  const rows = await page
    .orderBy('i.created_at', 'desc')
    .orderBy('i.id', 'desc')
    .limit(query.limit + 1)
    .execute();
  const page_ = pageOf(
    rows,
    query.limit,
    (row) => row,
    (last) => [last.created_at, String(last.id)],
  );
  return { items: await presentIncidents(db, page_.items), nextCursor: page_.nextCursor };
}

/**
 * An incident with what the decision rests on: the parcel's timeline, custody chain, failed
 * attempts, proofs and the mail written about it.
 */
export async function getIncident(
  db: Kysely<Database>,
  admin: AccountRow,
  id: number,
  returnAfter: number,
): Promise<IncidentDetail> {
  const incident = await findIncident(db, id);
  const exists = await db.selectFrom('parcels').select('id').where('id', '=', incident.parcelId).executeTakeFirst();
  return {
    incident,
    parcel: exists ? await getParcelDetail(db, admin, incident.parcelId) : null,
    custody: exists ? await getCustodyChain(db, incident.parcelId) : null,
    attempts: exists ? (await listAttempts(db, admin, incident.parcelId, returnAfter)).items : [],
    proofs: exists ? (await listProofs(db, admin, incident.parcelId)).items : [],
    // Kept for a deleted parcel too: what its people were told stays part of the record.
    messages: await listParcelMessages(db, incident.parcelId),
  };
}

/**
 * The back office sends a parcel back to its sender: its carrier turns back, or — waiting at a
 * drop point — it waits there for its sender (or a runner who takes it to them).
 */
async function sendBack(ctx: IncidentsContext, admin: AccountRow, parcelId: string, reason: string, also: Also) {
  const parcel = await ctx.db
    .selectFrom('parcels')
    .select(['status', 'returning', 'custody_seq'])
    .where('id', '=', parcelId)
    .executeTakeFirst();
  if (parcel?.status !== 'at_drop_point') {
    await startReturn(ctx.changes, parcelId, admin, reason, { byBackOffice: { also } });
    return;
  }
  if (parcel.returning === 1) throw refuse('already_returning', messages.alreadyReturning);
  const cause = { backOffice: admin, reason, also };
  const turned = await returnFromDropPoint(ctx.changes, parcelId, parcel.custody_seq, cause);
  if (!turned) throw refuse('parcel_changed_meanwhile', messages.parcelChangedMeanwhile);
}

/**
 * The back office's decision, recorded once: carry on (nothing changes), send it back to its
 * sender (the return, made by the back office), or write it off (`lost`). The incident is marked
 * decided inside the parcel change's transaction: if either cannot be, neither is.
 */
export async function resolveIncident(
  ctx: IncidentsContext,
  admin: AccountRow,
  id: number,
  body: ResolveIncidentBody,
): Promise<Incident> {
  const incident = await findIncident(ctx.db, id);
  if (incident.resolvedAt !== null) throw refuse('incident_resolved', messages.incidentResolved);
  const decide = async (trx: Kysely<Database> | Transaction<Database>) => {
    const result = await trx
      .updateTable('incidents')
      .set({ decision: body.decision, note: body.note, resolved_by: admin.id, resolved_at: nowIso() })
      .where('id', '=', id)
      .where('resolved_at', 'is', null)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) throw refuse('incident_resolved', messages.incidentResolved);
  };
  try {
    if (body.decision === 'continue') await decide(ctx.db);
    else if (body.decision === 'return') await sendBack(ctx, admin, incident.parcelId, body.note, decide);
    else await writeOff(ctx.changes, incident.parcelId, admin, body.note, decide);
  } catch (error) {
    // The parcel is not where the decision needs it (delivered meanwhile, already on its way back).
    if (
      error instanceof AppError &&
      ['parcel_not_in_transit', 'parcel_already_delivered', 'already_returning', 'parcel_not_found'].includes(
        error.code,
      )
    ) {
      throw refuse(
        'incident_decision_impossible',
        body.decision === 'return' ? messages.incidentReturnNotPossible : messages.incidentWriteOffNotPossible,
      );
    }
    throw error;
  }
  return findIncident(ctx.db, id);
}
