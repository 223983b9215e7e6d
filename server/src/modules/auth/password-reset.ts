import { createHash, randomBytes } from 'node:crypto';
import { PASSWORD_RESET_MAX_PER_HOUR, PASSWORD_RESET_TTL_MS, type PasswordResetConfirm } from '@csomag/domain/mail';
import { messages } from '@csomag/domain/messages';
import { paths } from '@csomag/domain/paths';
import type { Kysely } from 'kysely';
import { nowIso } from '../../db/database.ts';
import type { WindowCounter } from '../../db/rate-limits.ts';
import type { Database } from '../../db/schema.ts';
import { refuse, refuseField } from '../../errors.ts';
import { passwordResetMail } from '../mail/compose.ts';
import { enqueueMail } from '../mail/outbox.ts';
import { findAccountByEmail } from './accounts.ts';
import { hashPassword } from './passwords.ts';

/**
 * 'Elfelejtett jelszó' (issue 29, docs/decisions/0031): a link by email, single use, valid for an
 * hour. The token is 256 random bits, kept only as its SHA-256 (a leaked table opens nothing), and
 * rides in the link's fragment (`/UjJelszo#token=…`), which no server or proxy log sees. The answer
 * to a request is the same whether the address is known or not, and is given before that is looked up.
 */

const HOUR_MS = 60 * 60 * 1000;
const tokenHash = (token: string) => createHash('sha256').update(token).digest('hex');

export interface ResetContext {
  db: Kysely<Database>;
  limits: WindowCounter;
  /** Where the link points: config.mailOrigin (never a request's Host header). */
  origin: string;
}

/**
 * Asks for a link for `email`: counted per address and per client address (3 and 30 an hour),
 * refused past that; otherwise answered at once. The rest — for a known account only, a token
 * stored and its message written to the outbox in one transaction — is `sent`, which the caller
 * does not wait for: how long it takes says nothing about whether the address has an account.
 */
export async function requestPasswordReset(ctx: ResetContext, email: string, clientIp: string) {
  const perEmail = await ctx.limits.hit(`password-reset:email:${email}`, HOUR_MS);
  const perClient = await ctx.limits.hit(`password-reset:ip:${clientIp}`, HOUR_MS);
  if (perEmail.count > PASSWORD_RESET_MAX_PER_HOUR || perClient.count > PASSWORD_RESET_MAX_PER_HOUR * 10) {
    throw refuse('too_many_reset_requests', messages.resetTooMany);
  }
  return { sent: sendResetLink(ctx, email) };
}

async function sendResetLink(ctx: ResetContext, email: string) {
  const account = await findAccountByEmail(ctx.db, email);
  if (!account) return;
  const token = randomBytes(32).toString('base64url');
  const link = `${ctx.origin}${paths.resetPassword}#token=${token}`;
  const now = Date.now();
  await ctx.db.transaction().execute(async (trx) => {
    await trx
      .insertInto('password_resets')
      .values({
        token_hash: tokenHash(token),
        account_id: account.id,
        created_at: new Date(now).toISOString(),
        expires_at: new Date(now + PASSWORD_RESET_TTL_MS).toISOString(),
        used_at: null,
      })
      .execute();
    await enqueueMail(trx, {
      to: account.email,
      template: 'password_reset',
      composed: passwordResetMail(account.name, link, account.language ?? undefined),
    });
  });
}

/**
 * Sets the new password with a link's token: the token is used (one conditional UPDATE, so two
 * at once give one), the password replaced and every session of the account ended, in one
 * transaction. A token unknown, used or past its hour is refused alike.
 */
export async function confirmPasswordReset(db: Kysely<Database>, body: PasswordResetConfirm) {
  const passwordHash = await hashPassword(body.password);
  const now = nowIso();
  await db.transaction().execute(async (trx) => {
    const used = await trx
      .updateTable('password_resets')
      .set({ used_at: now })
      .where('token_hash', '=', tokenHash(body.token))
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .returning('account_id')
      .executeTakeFirst();
    if (!used) throw refuseField('reset_token_invalid', 'token', messages.resetTokenInvalid);
    await trx.updateTable('accounts').set({ password_hash: passwordHash }).where('id', '=', used.account_id).execute();
    await trx.deleteFrom('sessions').where('account_id', '=', used.account_id).execute();
    // Every other link asked for this account dies with the password it was for.
    await trx
      .updateTable('password_resets')
      .set({ used_at: now })
      .where('account_id', '=', used.account_id)
      .where('used_at', 'is', null)
      .execute();
  });
}
