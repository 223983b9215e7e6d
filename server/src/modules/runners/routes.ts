import { accountResponseSchema } from '@csomag/domain/account';
import {
  runnerCreateBodySchema,
  runnerListQuerySchema,
  runnerListSchema,
  runnerParamsSchema,
  runnerUpdateSchema,
} from '@csomag/domain/runner';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses } from '../../errors.ts';
import { requireRole, signedIn } from '../../plugins/auth.ts';
import { presentAccount } from '../auth/present.ts';
import { createRunner, deleteRunner, findManagedRunner, listRunners, updateRunner } from './service.ts';

const errors = errorResponses(400, 401, 403, 404, 409);

/** The back office's runners (SPEC §2.8); a runner reads and edits only their own profile here. */
export const runnerRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/runners',
    {
      onRequest: requireRole('superadmin'),
      schema: {
        tags: ['runners'],
        summary: 'Runners by name, or nearest to a parcel first (near=<parcel id>); q searches name and user name',
        querystring: runnerListQuerySchema,
        response: { 200: runnerListSchema, ...errors },
      },
    },
    async (request) => listRunners(app.store.db, request.query),
  );

  app.post(
    '/runners',
    {
      onRequest: requireRole('superadmin'),
      schema: {
        tags: ['runners'],
        summary: 'Register a runner (inactive); the superadmin stays signed in as themself',
        body: runnerCreateBodySchema,
        response: { 201: accountResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      const runner = await createRunner(app.store.db, request.body);
      request.log.info({ userName: runner.user_name, by: signedIn(request).user_name }, 'runner registered');
      return reply.status(201).send({ account: presentAccount(runner) });
    },
  );

  app.get(
    '/runners/:userName',
    {
      onRequest: requireRole('runner', 'superadmin'),
      schema: {
        tags: ['runners'],
        summary: 'A runner (that runner or the superadmin)',
        params: runnerParamsSchema,
        response: { 200: accountResponseSchema, ...errors },
      },
    },
    async (request) => {
      const runner = await findManagedRunner(app.store.db, signedIn(request), request.params.userName);
      return { account: presentAccount(runner) };
    },
  );

  app.patch(
    '/runners/:userName',
    {
      onRequest: requireRole('runner', 'superadmin'),
      schema: {
        tags: ['runners'],
        summary: 'Edit a runner (that runner or the superadmin): name, password, phone, address',
        description: 'userName and email are read-only (equal values accepted); an empty password keeps the old one.',
        params: runnerParamsSchema,
        body: runnerUpdateSchema,
        response: { 200: accountResponseSchema, ...errors },
      },
    },
    async (request) => {
      const actor = signedIn(request);
      const runner = await findManagedRunner(app.store.db, actor, request.params.userName);
      const keepSession = actor.id === runner.id ? request.sessionTokenHash : null;
      const updated = await updateRunner(app.store.db, runner, request.body, keepSession);
      request.log.info({ userName: updated.user_name, by: actor.user_name }, 'runner updated');
      return { account: presentAccount(updated) };
    },
  );

  app.delete(
    '/runners/:userName',
    {
      onRequest: requireRole('superadmin'),
      schema: {
        tags: ['runners'],
        summary: 'Delete a runner; refused (409) while they carry parcels',
        params: runnerParamsSchema,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      const admin = signedIn(request);
      await deleteRunner(app.changeFeed, app.store.db, admin, request.params.userName);
      request.log.info({ userName: request.params.userName, by: admin.user_name }, 'runner deleted');
      return reply.status(204).send(null);
    },
  );
};
