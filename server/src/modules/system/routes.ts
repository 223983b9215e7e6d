import { configResponseSchema } from '@csomag/domain/config';
import { messages } from '@csomag/domain/messages';
import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sql } from 'kysely';
import { z } from 'zod';
import { missingMigrations } from '../../db/database.ts';
import { errorResponses } from '../../errors.ts';
import { sendError } from '../../plugins/errors.ts';

/** A load balancer's probe gives up after a few seconds; a hung database must answer sooner than that. */
const DATABASE_PROBE_MS = 2000;

const withTimeout = <T>(work: Promise<T>, ms: number) =>
  Promise.race([
    work,
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms).unref()),
  ]);

/** What keeps this instance from taking traffic: each failing part and why, in Hungarian. */
async function readinessProblems(app: FastifyInstance, state: { migrated: boolean }) {
  const problems: Record<string, string> = {};
  if (app.lifecycle.draining) problems.draining = messages.notReadyDraining;
  try {
    await withTimeout(sql`select 1`.execute(app.store.db), DATABASE_PROBE_MS);
    // Applied migrations stay applied: once all of ours are there, this is not asked again.
    if (!state.migrated) {
      state.migrated = (await withTimeout(missingMigrations(app.store), DATABASE_PROBE_MS)).length === 0;
    }
    if (!state.migrated) problems.migrations = messages.notReadyMigrations;
  } catch (error) {
    app.log.warn({ err: error }, 'readiness: database does not answer');
    problems.database = messages.notReadyDatabase;
  }
  if (!app.changeFeed.listening) problems.changeFeed = messages.notReadyChangeFeed;
  return problems;
}

export const systemRoutes: FastifyPluginAsyncZod = async (app) => {
  // Requests arriving while a check is under way share its answer: a flood of probes (or many load
  // balancers) costs the database one query a round trip, not one a request (issue 31).
  let checking: Promise<unknown> | null = null;
  const checkDatabase = () => {
    checking ??= sql`select 1`.execute(app.store.db).finally(() => {
      checking = null;
    });
    return checking;
  };
  app.get(
    '/health',
    {
      config: { rateLimit: false },
      schema: {
        tags: ['system'],
        response: { 200: z.object({ status: z.literal('ok'), store: z.string() }), ...errorResponses() },
      },
    },
    async (request, reply) => {
      try {
        await checkDatabase();
        return { status: 'ok' as const, store: app.store.dialect };
      } catch (error) {
        request.log.error({ err: error }, 'health check failed');
        return sendError(request, reply, 503, { code: 'unavailable', message: messages.databaseUnavailable });
      }
    },
  );

  const readiness = { migrated: false };
  app.get(
    '/ready',
    {
      schema: {
        tags: ['system'],
        summary:
          'Readiness for a load balancer: 503 while the database, its schema or live updates are not there, or while draining',
        response: { 200: z.object({ status: z.literal('ready') }), ...errorResponses('not_ready') },
      },
    },
    async (request, reply) => {
      const problems = await readinessProblems(app, readiness);
      const ready = Object.keys(problems).length === 0;
      app.metrics.setReady(ready);
      if (ready) return { status: 'ready' as const };
      return sendError(request, reply, 503, { code: 'not_ready', message: messages.notReady, fields: problems });
    },
  );

  app.get(
    '/config',
    {
      schema: {
        tags: ['system'],
        response: { 200: configResponseSchema, ...errorResponses() },
      },
    },
    async () => ({ tileUrl: app.config.tileUrl, publicUrl: app.config.publicUrl ?? null }),
  );
};
