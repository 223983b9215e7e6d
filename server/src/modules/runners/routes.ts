import { accountResponseSchema } from '@csomag/domain/account';
import {
  runnerCreateBodySchema,
  runnerDetailSchema,
  runnerListQuerySchema,
  runnerListSchema,
  runnerParamsSchema,
  runnerUpdateSchema,
} from '@csomag/domain/runner';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses } from '../../errors.ts';
import { GUARD_CODES, signedIn } from '../../plugins/auth.ts';
import { presentAccount } from '../auth/present.ts';
import { accountGuard, accountRelationship } from '../users/policy.ts';
import { createRunner, deleteRunner, findManagedRunner, listRunners, updateRunner } from './service.ts';
import { presentRunnerDetail, runnerTrustRoutes } from './trust.ts';

/** The back office's runners (SPEC §2.8); a runner reads and edits only their own profile here. */
export const runnerRoutes: FastifyPluginAsyncZod = async (app) => {
  await app.register(runnerTrustRoutes);
  app.get(
    '/runners',
    {
      onRequest: accountGuard('listRunners'),
      schema: {
        tags: ['runners'],
        summary: 'Runners by name, or nearest to a parcel first (near=<parcel id>); q searches name and user name',
        querystring: runnerListQuerySchema,
        response: {
          200: runnerListSchema,
          ...errorResponses(...GUARD_CODES, 'invalid_cursor', 'near_parcel_not_found'),
        },
      },
    },
    async (request) => listRunners(app.store, request.query),
  );

  app.post(
    '/runners',
    {
      onRequest: accountGuard('registerRunner'),
      schema: {
        tags: ['runners'],
        summary: 'Register a runner (inactive); the superadmin stays signed in as themself',
        body: runnerCreateBodySchema,
        response: { 201: accountResponseSchema, ...errorResponses(...GUARD_CODES, 'user_name_taken', 'email_taken') },
      },
    },
    async (request, reply) => {
      const runner = await createRunner(app.store.db, request.body, app.config.runnerApproval, app.config.mailOrigin);
      app.mail.nudge();
      request.log.info({ userName: runner.user_name, by: signedIn(request).user_name }, 'runner registered');
      return reply.status(201).send({ account: presentAccount(runner) });
    },
  );

  app.get(
    '/runners/:userName',
    {
      onRequest: accountGuard('viewRunner'),
      schema: {
        tags: ['runners'],
        summary: 'A runner (that runner or the superadmin)',
        params: runnerParamsSchema,
        response: { 200: runnerDetailSchema, ...errorResponses(...GUARD_CODES, 'runner_not_found') },
      },
    },
    async (request) => {
      const runner = await findManagedRunner(app.store.db, signedIn(request), request.params.userName, 'viewRunner');
      return presentRunnerDetail(app.store.db, runner);
    },
  );

  app.patch(
    '/runners/:userName',
    {
      onRequest: accountGuard('editRunner'),
      schema: {
        tags: ['runners'],
        summary: 'Edit a runner (that runner or the superadmin): name, password, phone, address',
        description: 'userName and email are read-only (equal values accepted); an empty password keeps the old one.',
        params: runnerParamsSchema,
        body: runnerUpdateSchema,
        response: {
          200: accountResponseSchema,
          ...errorResponses(
            ...GUARD_CODES,
            'runner_not_found',
            'user_name_read_only',
            'email_taken',
            'email_read_only',
          ),
        },
      },
    },
    async (request) => {
      const actor = signedIn(request);
      const runner = await findManagedRunner(app.store.db, actor, request.params.userName, 'editRunner');
      const keepSession = accountRelationship.self(actor, runner) ? request.sessionTokenHash : null;
      const updated = await updateRunner(app.store.db, actor, runner, request.body, keepSession);
      request.log.info({ userName: updated.user_name, by: actor.user_name }, 'runner updated');
      return { account: presentAccount(updated) };
    },
  );

  app.delete(
    '/runners/:userName',
    {
      onRequest: accountGuard('deleteRunner'),
      schema: {
        tags: ['runners'],
        summary: 'Delete a runner; refused (409) while they carry parcels',
        params: runnerParamsSchema,
        response: { 204: z.null(), ...errorResponses(...GUARD_CODES, 'runner_not_found', 'runner_carries_parcels') },
      },
    },
    async (request, reply) => {
      const admin = signedIn(request);
      await deleteRunner(app.changeFeed.forRequest(request.id), app.store.db, admin, request.params.userName);
      app.sessionCache?.clear();
      request.log.info({ userName: request.params.userName, by: admin.user_name }, 'runner deleted');
      return reply.status(204).send(null);
    },
  );
};
