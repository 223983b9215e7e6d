import { accountResponseSchema, loginBodySchema, meResponseSchema, registerBodySchema } from '@csomag/domain/account';
import {
  emailVerificationResultSchema,
  emailVerificationSchema,
  passwordResetConfirmSchema,
  passwordResetRequestSchema,
} from '@csomag/domain/mail';
import { messages } from '@csomag/domain/messages';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses, refuse } from '../../errors.ts';
import { endSession, GUARD_CODES, signedIn, startSession } from '../../plugins/auth.ts';
import { placedMatchKey } from '../places/match-key.ts';
import { accountGuard } from '../users/policy.ts';
import { createAccount, findAccountByEmail } from './accounts.ts';
import { resendVerification, sendVerificationLink, verifyEmail } from './email-verification.ts';
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
      // The address's verification link is stored and mailed with the account (issue 29).
      const account = await createAccount(app.store.db, input, role, app.config.runnerApproval, placedKey, {
        withAccount: (trx, created) =>
          sendVerificationLink(trx, app.config.mailOrigin, created, created.email, 'registration'),
      });
      app.mail.nudge();
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
      const context = { db: app.store.db, limits: app.limits, origin: app.config.mailOrigin };
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
      // Every session of the account ended: none is served here from memory (a rare event: all go).
      app.sessionCache?.clear();
      request.log.info('password reset');
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/auth/verify-email',
    {
      schema: {
        tags: ['auth'],
        summary:
          "Verifies an address with its link's token (48 h, once): the account's own, or the new one it asked for, which then replaces the old (told by mail)",
        body: emailVerificationSchema,
        response: {
          200: emailVerificationResultSchema,
          ...errorResponses('verify_token_invalid', 'email_taken'),
        },
      },
    },
    async (request) => {
      const verified = await verifyEmail({ db: app.store.db, origin: app.config.mailOrigin }, request.body.token);
      app.sessionCache?.clear();
      app.mail.nudge();
      request.log.info('email verified');
      return verified;
    },
  );

  app.post(
    '/auth/verify-email/resend',
    {
      onRequest: accountGuard('verifyOwnEmail'),
      schema: {
        tags: ['auth'],
        summary:
          'Mails a fresh verification link: to the new address asked for, else to the unverified own one (3 an hour)',
        response: {
          202: emailVerificationResultSchema,
          ...errorResponses(...GUARD_CODES, 'email_already_verified', 'too_many_verification_requests'),
        },
      },
    },
    async (request, reply) => {
      const context = { db: app.store.db, limits: app.limits, origin: app.config.mailOrigin };
      const sent = await resendVerification(context, signedIn(request));
      app.mail.nudge();
      return reply.status(202).send(sent);
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
