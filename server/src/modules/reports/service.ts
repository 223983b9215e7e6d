import { messages } from '@csomag/domain/messages';
import {
  NOT_RECEIVED_DAYS,
  type Report,
  type ReportDetail,
  type ReportList,
  type ReportListQuery,
} from '@csomag/domain/trust';
import { type Kysely, type SqlBool, sql } from 'kysely';
import { cursorNumber, decodeCursor, pageOf } from '../../db/cursor.ts';
import { nowIso } from '../../db/database.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import type { AccountRow, Database } from '../../db/schema.ts';
import { refuse } from '../../errors.ts';
import { mayParcel, PARCEL_FACT_COLUMNS, relationship } from '../parcels/policy.ts';
import { getParcelDetail } from '../parcels/service.ts';
import { getCustodyChain } from '../relay/service.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

const selectReports = (db: Kysely<Database>) =>
  db
    .selectFrom('not_received_reports as r')
    .leftJoin('parcels', 'parcels.id', 'r.parcel_id')
    .leftJoin('accounts as reporter', 'reporter.id', 'r.reporter_id')
    .leftJoin('accounts as runner', 'runner.id', 'parcels.runner_id')
    .leftJoin('accounts as resolver', 'resolver.id', 'r.resolved_by')
    .select([
      'r.id',
      'r.parcel_id',
      'r.reporter_id',
      'r.description',
      'r.created_at',
      'r.resolved_at',
      'r.resolution',
      'parcels.sender_id',
      'parcels.delivered_at',
      'reporter.user_name as reporter_user_name',
      'runner.user_name as runner_user_name',
      'resolver.user_name as resolver_user_name',
    ]);
type ReportRow = Awaited<ReturnType<ReturnType<typeof selectReports>['executeTakeFirstOrThrow']>>;

const presentReport = (row: ReportRow): Report => ({
  id: row.id,
  parcelId: row.parcel_id,
  reporter: row.reporter_user_name,
  reporterRole: relationship.sender({ id: row.reporter_id }, row) ? 'sender' : 'receiver',
  runner: row.runner_user_name,
  description: row.description,
  deliveredAt: row.delivered_at,
  createdAt: row.created_at,
  resolvedAt: row.resolved_at,
  resolvedBy: row.resolver_user_name,
  resolution: row.resolution,
});

const findReport = (db: Kysely<Database>, id: number) => selectReports(db).where('r.id', '=', id).executeTakeFirst();

/**
 * 'Nem érkezett meg': the sender, or the receiver (the account living at the parcel's receiver
 * address), reports a delivered parcel within NOT_RECEIVED_DAYS of delivery; one open report each.
 */
export async function reportNotReceived(
  db: Kysely<Database>,
  reporter: AccountRow,
  parcelId: string,
  description: string,
  now = new Date(),
): Promise<Report> {
  const parcel = await db
    .selectFrom('parcels')
    .select(['id', ...PARCEL_FACT_COLUMNS, 'status', 'delivered_at'])
    .where('id', '=', parcelId)
    .executeTakeFirst();
  if (!parcel) throw refuse('parcel_not_found', messages.parcelNotFound);
  if (!mayParcel(reporter, 'report', parcel)) throw refuse('report_not_party', messages.reportNotParty);
  if (parcel.status !== 'delivered' || !parcel.delivered_at) {
    throw refuse('report_not_delivered', messages.reportNotDelivered);
  }
  if (now.getTime() - Date.parse(parcel.delivered_at) > NOT_RECEIVED_DAYS * DAY_MS) {
    throw refuse('report_too_late', messages.reportTooLate);
  }
  const open = await db
    .selectFrom('not_received_reports')
    .select('id')
    .where('parcel_id', '=', parcel.id)
    .where('reporter_id', '=', reporter.id)
    .where('resolved_at', 'is', null)
    .executeTakeFirst();
  if (open) throw refuse('report_exists', messages.reportExists);
  let id: number;
  try {
    const row = await db
      .insertInto('not_received_reports')
      .values({
        parcel_id: parcel.id,
        reporter_id: reporter.id,
        description,
        created_at: now.toISOString(),
        resolved_at: null,
        resolved_by: null,
        resolution: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    id = row.id;
  } catch (error) {
    // Two reports at once: the partial unique index let one in.
    if (isUniqueViolation(error)) throw refuse('report_exists', messages.reportExists);
    throw error;
  }
  const report = await findReport(db, id);
  if (!report) throw refuse('report_not_found', messages.reportNotFound);
  return presentReport(report);
}

/** The back office's list, newest first: open or resolved. */
export async function listReports(db: Kysely<Database>, query: ReportListQuery): Promise<ReportList> {
  let page = selectReports(db).where('r.resolved_at', query.status === 'open' ? 'is' : 'is not', null);
  if (query.cursor) {
    const [createdAt = '', id = ''] = decodeCursor(query.cursor, 2);
    page = page.where(sql<SqlBool>`(r.created_at, r.id) < (${createdAt}, ${cursorNumber(id, { integer: true })})`);
  }
  const rows = await page
    .orderBy('r.created_at', 'desc')
    .orderBy('r.id', 'desc')
    .limit(query.limit + 1)
    .execute();
  return pageOf(rows, query.limit, presentReport, (last) => [last.created_at, String(last.id)]);
}

export async function getReport(
  db: Kysely<Database>,
  admin: AccountRow,
  id: number,
  proofsUrl: (parcelId: string) => string | null,
): Promise<ReportDetail> {
  const row = await findReport(db, id);
  if (!row) throw refuse('report_not_found', messages.reportNotFound);
  const parcelExists = row.sender_id !== null;
  return {
    report: presentReport(row),
    parcel: parcelExists ? await getParcelDetail(db, admin, row.parcel_id) : null,
    custody: parcelExists ? await getCustodyChain(db, row.parcel_id) : null,
    proofsUrl: parcelExists ? proofsUrl(row.parcel_id) : null,
  };
}

/** The back office's recorded decision; a report is resolved once. */
export async function resolveReport(
  db: Kysely<Database>,
  admin: AccountRow,
  id: number,
  resolution: string,
): Promise<Report> {
  const result = await db
    .updateTable('not_received_reports')
    .set({ resolved_at: nowIso(), resolved_by: admin.id, resolution })
    .where('id', '=', id)
    .where('resolved_at', 'is', null)
    .executeTakeFirst();
  const row = await findReport(db, id);
  if (!row) throw refuse('report_not_found', messages.reportNotFound);
  if (Number(result.numUpdatedRows) === 0) throw refuse('report_resolved', messages.reportResolved);
  return presentReport(row);
}
