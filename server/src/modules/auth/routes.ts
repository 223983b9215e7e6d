import { accountResponseSchema, loginBodySchema, meResponseSchema, registerBodySchema } from '@csomag/domain/account';
import { passwordResetConfirmSchema, passwordResetRequestSchema } from '@csomag/domain/mail';
import { messages } from '@csomag/domain/messages';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses, refuse } from '../../errors.ts';
import { endSession, startSession } from '../../plugins/auth.ts';
import { placedMatchKey } from '../places/match-key.ts';
import { createAccount, findAccountByEmail } from './accounts.ts';
import { LoginLimiter } from './login-limiter.ts';
import { confirmPasswordReset, requestPasswordReset } from './password-reset.ts';
import { verifyPassword } from './passwords.ts';
import { presentAccount } from './present.ts';

export const authRoutes: FastifyPluginAsyncZod = async (app) => {
  const limiter = new LoginLimiter(app.limits);

  app.post(
    '/auth/register',
    {
      // 30 registrations per IP per hour (DESIGN §4).
      config: { rateLimit: { max: 30, timeWindow: '1 hour' } },
      schema: {
        tags: ['auth'],
        body: registerBodySchema,
        response: { 201: accountResponseSchema, ...errorResponses('user_name_taken', 'email_taken') },
      },
    },
    async (request, reply) => {
      const { role, ...input } = request.body;
      // Only a user receives parcels at their address: a runner's is not placed.
      const placedKey = role === 'user' ? await placedMatchKey(app.geocoder, input.address) : undefined;
      const account = await createAccount(app.store.db, input, role, app.config.runnerApproval, placedKey);
      await startSession(request, reply, account.id);
      request.log.info({ userName: account.user_name, role }, 'account registered');
      return reply.status(201).send({ account: presentAccount(account) });
    },
  );

  app.post(
    '/auth/password-reset',
    {
      schema: {
        tags: ['auth'],
        summary:
          'Asks for a password reset link by email (valid an hour, once); the same answer whether the address has an account or not',
        body: passwordResetRequestSchema,
        response: { 202: z.object({}), ...errorResponses('too_many_reset_requests') },
      },
    },
    async (request, reply) => {
      const origin = app.config.publicUrl ?? `${request.protocol}://${request.host}`;
      const context = { db: app.store.db, limits: app.limits, origin };
      const { sent } = await requestPasswordReset(context, request.body.email, request.ip);
      sent.then(
        () => app.mail.nudge(),
        (err: unknown) => request.log.error({ err }, 'a password reset link could not be written'),
      );
      return reply.status(202).send({});
    },
  );

  app.post(
    '/auth/password-reset/confirm',
    {
      schema: {
        tags: ['auth'],
        summary: "Sets a new password with a reset link's token; every session of the account ends",
        body: passwordResetConfirmSchema,
        response: { 204: z.null(), ...errorResponses('reset_token_invalid') },
      },
    },
    async (request, reply) => {
      await confirmPasswordReset(app.store.db, request.body);
      request.log.info('password reset');
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/auth/login',
    {
      schema: {
        tags: ['auth'],
        body: loginBodySchema,
        response: { 200: accountResponseSchema, ...errorResponses('wrong_credentials', 'too_many_login_attempts') },
      },
    },
    async (request, reply) => {
      const { email, password } = request.body;
      if (!(await limiter.tryAttempt(email, request.ip)))
        throw refuse('too_many_login_attempts', messages.tooManyLoginAttempts);
      const account = await findAccountByEmail(app.store.db, email);
      // A failure needs no recording: the attempt already counts as one until it succeeds.
      if (!(await verifyPassword(account?.password_hash, password)) || !account) {
        throw refuse('wrong_credentials', messages.wrongCredentials);
      }
      await limiter.recordSuccess(email, request.ip);
      await startSession(request, reply, account.id);
      return { account: presentAccount(account) };
    },
  );

  app.post(
    '/auth/logout',
    { schema: { tags: ['auth'], response: { 204: z.null(), ...errorResponses() } } },
    async (request, reply) => {
      await endSession(request, reply);
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/auth/me',
    { schema: { tags: ['auth'], response: { 200: meResponseSchema, ...errorResponses() } } },
    async (request) => ({
      account: request.account ? presentAccount(request.account) : null,
    }),
  );
};
