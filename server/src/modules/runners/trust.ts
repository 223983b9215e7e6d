import { messages } from '@csomag/domain/messages';
import { runnerDetailSchema, runnerParamsSchema } from '@csomag/domain/runner';
import {
  type RunnerFlags,
  type RunnerTrust,
  runnerFlagsQuerySchema,
  runnerFlagsSchema,
  runnerParcelsInTransitSchema,
  suspendBodySchema,
} from '@csomag/domain/trust';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Kysely } from 'kysely';
import { nowIso } from '../../db/database.ts';
import type { AccountRow, Database } from '../../db/schema.ts';
import { errorResponses, refuse } from '../../errors.ts';
import { GUARD_CODES, signedIn } from '../../plugins/auth.ts';
import { findRunnerByUserName } from '../auth/accounts.ts';
import { presentAccount } from '../auth/present.ts';
import { setRunnerTrust } from '../parcels/changes.ts';
import { accountGuard } from '../users/policy.ts';

const trustGuard = accountGuard('manageRunnerTrust');

/** Open 'Nem érkezett meg' reports on parcels each runner carried. */
async function openReportCounts(db: Kysely<Database>, runnerIds: number[]): Promise<Map<number, number>> {
  if (runnerIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('not_received_reports')
    .innerJoin('parcels', 'parcels.id', 'not_received_reports.parcel_id')
    .select(['parcels.runner_id', (eb) => eb.fn.countAll<number | string>().as('open')])
    .where('not_received_reports.resolved_at', 'is', null)
    .where('parcels.runner_id', 'in', runnerIds)
    .groupBy('parcels.runner_id')
    .execute();
  return new Map(rows.map((row) => [Number(row.runner_id), Number(row.open)]));
}

export async function runnerTrustOf(db: Kysely<Database>, runner: AccountRow): Promise<RunnerTrust> {
  return {
    approvedAt: runner.approved_at,
    suspendedAt: runner.suspended_at,
    suspendedReason: runner.suspended_reason,
    openReports: (await openReportCounts(db, [runner.id])).get(runner.id) ?? 0,
  };
}

export const presentRunnerDetail = async (db: Kysely<Database>, runner: AccountRow) => ({
  account: presentAccount(runner),
  trust: await runnerTrustOf(db, runner),
});

async function runnerOrRefuse(db: Kysely<Database>, userName: string) {
  const runner = await findRunnerByUserName(db, userName);
  if (!runner) throw refuse('runner_not_found', messages.runnerNotFound);
  return runner;
}

async function runnerFlags(db: Kysely<Database>, userNames: string[]): Promise<RunnerFlags> {
  if (userNames.length === 0) return { items: [] };
  const runners = await db
    .selectFrom('accounts')
    .selectAll()
    .where('role', '=', 'runner')
    .where('user_name', 'in', userNames)
    .execute();
  const open = await openReportCounts(
    db,
    runners.map((runner) => runner.id),
  );
  return {
    items: runners.map((runner) => ({
      userName: runner.user_name,
      awaitingApproval: runner.approved_at === null,
      suspended: runner.suspended_at !== null,
      openReports: open.get(runner.id) ?? 0,
    })),
  };
}

/** Parcels the runner carries now: a suspended runner's are reassigned by the back office. */
async function parcelsInTransit(db: Kysely<Database>, runner: AccountRow) {
  const rows = await db
    .selectFrom('parcels')
    .select(['id', 'sender_address', 'receiver_address', 'picked_up_at'])
    .where('runner_id', '=', runner.id)
    .where('status', '=', 'in_transit')
    .orderBy('picked_up_at')
    .orderBy('id')
    .limit(500)
    .execute();
  return {
    items: rows.map((row) => ({
      id: row.id,
      senderAddress: row.sender_address,
      receiverAddress: row.receiver_address,
      pickedUpAt: row.picked_up_at,
    })),
  };
}

/**
 * The back office's trust in runners (issue 15): approve, suspend with a reason, lift the
 * suspension. Each takes effect on the runner's next request (the guards read the account afresh)
 * and at once on their open live streams, on every instance (changes.ts setRunnerTrust).
 */
export const runnerTrustRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = app.store.db;
  const detail = { 200: runnerDetailSchema, ...errorResponses(...GUARD_CODES, 'runner_not_found') };

  app.post(
    '/runners/:userName/approve',
    {
      onRequest: trustGuard,
      schema: {
        tags: ['runners'],
        summary: 'Approve a runner: from now on they may carry parcels (superadmin; approving again changes nothing)',
        params: runnerParamsSchema,
        response: detail,
      },
    },
    async (request) => {
      const runner = await runnerOrRefuse(db, request.params.userName);
      const updated = runner.approved_at
        ? runner
        : await setRunnerTrust(app.changeFeed.forRequest(request.id), runner.id, { approved_at: nowIso() });
      request.log.info({ userName: runner.user_name, by: signedIn(request).user_name }, 'runner approved');
      return presentRunnerDetail(db, updated);
    },
  );

  app.post(
    '/runners/:userName/suspend',
    {
      onRequest: trustGuard,
      schema: {
        tags: ['runners'],
        summary: 'Suspend a runner with a reason: no waiting pool, pickup, assignment or hand-over until lifted',
        description: 'What they carry they may still deliver or give back. Suspending again replaces the reason.',
        params: runnerParamsSchema,
        body: suspendBodySchema,
        response: detail,
      },
    },
    async (request) => {
      const runner = await runnerOrRefuse(db, request.params.userName);
      const updated = await setRunnerTrust(app.changeFeed.forRequest(request.id), runner.id, {
        suspended_at: runner.suspended_at ?? nowIso(),
        suspended_reason: request.body.reason,
      });
      request.log.info({ userName: runner.user_name, by: signedIn(request).user_name }, 'runner suspended');
      return presentRunnerDetail(db, updated);
    },
  );

  app.post(
    '/runners/:userName/unsuspend',
    {
      onRequest: trustGuard,
      schema: {
        tags: ['runners'],
        summary: 'Lift a runner’s suspension (superadmin)',
        params: runnerParamsSchema,
        response: detail,
      },
    },
    async (request) => {
      const runner = await runnerOrRefuse(db, request.params.userName);
      const updated = await setRunnerTrust(app.changeFeed.forRequest(request.id), runner.id, {
        suspended_at: null,
        suspended_reason: null,
      });
      request.log.info({ userName: runner.user_name, by: signedIn(request).user_name }, 'runner unsuspended');
      return presentRunnerDetail(db, updated);
    },
  );

  app.get(
    '/runners/:userName/parcels-in-transit',
    {
      onRequest: trustGuard,
      schema: {
        tags: ['runners'],
        summary: 'The parcels a runner carries now, for reassigning a suspended runner’s (superadmin)',
        params: runnerParamsSchema,
        response: { 200: runnerParcelsInTransitSchema, ...errorResponses(...GUARD_CODES, 'runner_not_found') },
      },
    },
    async (request) => parcelsInTransit(db, await runnerOrRefuse(db, request.params.userName)),
  );

  app.get(
    '/runner-flags',
    {
      onRequest: trustGuard,
      schema: {
        tags: ['runners'],
        summary: 'The runner list’s badges (awaiting approval, suspended, open reports) for up to 100 user names',
        querystring: runnerFlagsQuerySchema,
        response: { 200: runnerFlagsSchema, ...errorResponses(...GUARD_CODES) },
      },
    },
    async (request) => runnerFlags(db, request.query.userNames),
  );
};
