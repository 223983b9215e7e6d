import { createHash, randomBytes } from 'node:crypto';
import type { Language } from '@csomag/domain/language';
import {
  EMAIL_VERIFICATION_RESENDS_PER_HOUR,
  EMAIL_VERIFICATION_TTL_MS,
  type EmailVerificationResult,
} from '@csomag/domain/mail';
import { messages } from '@csomag/domain/messages';
import { paths } from '@csomag/domain/paths';
import type { preHandlerHookHandler } from 'fastify';
import type { Kysely } from 'kysely';
import { nowIso } from '../../db/database.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import type { WindowCounter } from '../../db/rate-limits.ts';
import type { AccountRow, AccountUpdate, Database } from '../../db/schema.ts';
import { refuse, refuseField } from '../../errors.ts';
import { guardedBy } from '../../plugins/auth.ts';
import { type ComposedMail, composeMail } from '../mail/compose.ts';
import { enqueueMail } from '../mail/outbox.ts';
import { accountRelationship, mayAccount } from '../users/policy.ts';

/**
 * Email verification (issue 29, docs/decisions/0031): a link mailed to an address shows it is the
 * account's. Made like the forgotten password's: 256 random bits, kept only as their SHA-256, in
 * the link's fragment (`/EmailMegerosites#token=…`, never sent to a server or kept in a log), good
 * for 48 hours, used once by one conditional UPDATE. At registration the link goes to the new
 * account's address; a change of address goes to the new one, which replaces the old only once
 * its link is opened, and the old address is then told. Links point to config.mailOrigin, never
 * to a request's Host header.
 */

const HOUR_MS = 60 * 60 * 1000;
const tokenHash = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * What the link is for: the address just registered with, the account's address (asked again, or
 * set by the back office), or the new one the person asked for.
 */
export type VerificationPurpose = 'registration' | 'account' | 'change';
const bodyOf: Record<VerificationPurpose, string> = {
  registration: messages.mailVerifyBody,
  account: messages.mailVerifyAccountBody,
  change: messages.mailVerifyChangeBody,
};

/** The message with the link: essential mail (no stop link). */
export const emailVerificationMail = (
  name: string,
  link: string,
  purpose: VerificationPurpose,
  language: Language | null = null,
): ComposedMail =>
  composeMail(
    {
      subject: messages.mailVerifySubject,
      greeting: messages.mailGreeting(name),
      paragraphs: [bodyOf[purpose], messages.mailVerifyIgnore],
      action: { label: messages.mailVerifyButton, url: link },
    },
    language ?? undefined,
  );

/** To the old address once the new one is verified: what changed, and whom to tell if it was not them. */
export const emailChangedMail = (
  name: string,
  newEmail: string,
  contactUrl: string,
  language: Language | null = null,
): ComposedMail =>
  composeMail(
    {
      subject: messages.mailEmailChangedSubject,
      greeting: messages.mailGreeting(name),
      paragraphs: [messages.mailEmailChangedBody(newEmail)],
      action: { label: messages.mailEmailChangedContact, url: contactUrl },
    },
    language ?? undefined,
  );

/**
 * Stores a link for `email` and writes its message to the outbox, in the caller's transaction: the
 * message exists exactly when the change that asked for it committed. The caller nudges the mail
 * worker after the commit.
 */
export async function sendVerificationLink(
  trx: Kysely<Database>,
  origin: string,
  account: Pick<AccountRow, 'id' | 'name' | 'language'>,
  email: string,
  purpose: VerificationPurpose,
) {
  const token = randomBytes(32).toString('base64url');
  const now = Date.now();
  await trx
    .insertInto('email_verifications')
    .values({
      token_hash: tokenHash(token),
      account_id: account.id,
      email,
      created_at: new Date(now).toISOString(),
      expires_at: new Date(now + EMAIL_VERIFICATION_TTL_MS).toISOString(),
      used_at: null,
    })
    .execute();
  await enqueueMail(trx, {
    to: email,
    template: 'email_verification',
    composed: emailVerificationMail(
      account.name,
      `${origin}${paths.verifyEmail}#token=${token}`,
      purpose,
      account.language,
    ),
  });
}

const emailTaken = () => refuseField('email_taken', 'email', messages.emailTaken);
const tokenInvalid = () => refuseField('verify_token_invalid', 'token', messages.verifyTokenInvalid);

/**
 * Uses a link's token, in one transaction: the token is marked used by one conditional UPDATE (of
 * two at once, one wins). For the account's own address it is verified. For the new address it
 * asked for, that becomes its address (refused with 'email_taken' if another account has taken it
 * meanwhile — nothing changes, and the link stays good), verified, and the old address is told.
 * A token unknown, used, expired, or for an address the account neither has nor asks for any
 * more (a change asked again since): refused alike, nothing changed.
 */
export async function verifyEmail(
  ctx: { db: Kysely<Database>; origin: string },
  token: string,
): Promise<EmailVerificationResult> {
  const now = nowIso();
  try {
    return await ctx.db.transaction().execute(async (trx) => {
      const used = await trx
        .updateTable('email_verifications')
        .set({ used_at: now })
        .where('token_hash', '=', tokenHash(token))
        .where('used_at', 'is', null)
        .where('expires_at', '>', now)
        .returning(['account_id', 'email'])
        .executeTakeFirst();
      if (!used) throw tokenInvalid();
      const account = await trx.selectFrom('accounts').selectAll().where('id', '=', used.account_id).executeTakeFirst();
      if (!account) throw tokenInvalid();
      if (used.email === account.email) {
        await trx
          .updateTable('accounts')
          .set({ email_verified_at: account.email_verified_at ?? now, updated_at: now })
          .where('id', '=', account.id)
          .execute();
        return { email: account.email };
      }
      if (used.email !== account.pending_email) throw tokenInvalid();
      const holder = await trx
        .selectFrom('accounts')
        .select('id')
        .where('email', '=', used.email)
        .where('id', '!=', account.id)
        .executeTakeFirst();
      if (holder) throw emailTaken();
      await trx
        .updateTable('accounts')
        .set({ email: used.email, email_verified_at: now, pending_email: null, updated_at: now })
        .where('id', '=', account.id)
        .execute();
      // Links still out for this account name addresses it no longer has or asks for.
      await trx
        .updateTable('email_verifications')
        .set({ used_at: now })
        .where('account_id', '=', account.id)
        .where('used_at', 'is', null)
        .execute();
      await enqueueMail(trx, {
        to: account.email,
        template: 'email_changed',
        composed: emailChangedMail(account.name, used.email, `${ctx.origin}${paths.contact}`, account.language),
      });
      return { email: used.email };
    });
  } catch (error) {
    // Two accounts taking the same address at once: the unique index decides.
    if (isUniqueViolation(error)) throw emailTaken();
    throw error;
  }
}

/**
 * A fresh link, asked for by the signed-in account: for the new address it asked for if any, else
 * for its own if not verified yet; 409 when there is nothing to verify. Counted per account, 3 an
 * hour (429 past that). Answers the address the link went to.
 */
export async function resendVerification(
  ctx: { db: Kysely<Database>; limits: WindowCounter; origin: string },
  account: AccountRow,
): Promise<EmailVerificationResult> {
  const email = account.pending_email ?? (account.email_verified_at === null ? account.email : null);
  if (email === null) throw refuse('email_already_verified', messages.emailAlreadyVerified);
  const asked = await ctx.limits.hit(`email-verification:account:${account.id}`, HOUR_MS);
  if (asked.count > EMAIL_VERIFICATION_RESENDS_PER_HOUR) {
    throw refuse('too_many_verification_requests', messages.verifyTooMany);
  }
  const purpose = account.pending_email === null ? 'account' : 'change';
  await ctx.db.transaction().execute((trx) => sendVerificationLink(trx, ctx.origin, account, email, purpose));
  return { email };
}

/**
 * A change of address in a profile edit (issue 29). The person's own: `email` stays in use, the new
 * address waits in `pending_email` for the link mailed to it. The back office's, for another person
 * (a superadmin who edits their profile): set at once, as before, but not verified until its link
 * is opened, and the old address is told. `changes` go into the profile's UPDATE; `write` runs in
 * its transaction with the updated row.
 */
export function emailChange(actor: AccountRow, target: AccountRow, email: string, origin: string) {
  if (accountRelationship.self(actor, target)) {
    const changes: AccountUpdate = { pending_email: email };
    return {
      changes,
      write: (trx: Kysely<Database>, updated: AccountRow) =>
        sendVerificationLink(trx, origin, updated, email, 'change'),
    };
  }
  const changes: AccountUpdate = { email, email_verified_at: null, pending_email: null };
  return {
    changes,
    write: async (trx: Kysely<Database>, updated: AccountRow) => {
      await sendVerificationLink(trx, origin, updated, email, 'account');
      await enqueueMail(trx, {
        to: target.email,
        template: 'email_changed',
        composed: emailChangedMail(target.name, email, `${origin}${paths.contact}`, target.language),
      });
    },
  };
}

/** The refusal of REQUIRE_EMAIL_VERIFICATION, for the error lists of the routes that ask it. */
export const EMAIL_VERIFICATION_CODES = ['email_not_verified'] as const;

/**
 * REQUIRE_EMAIL_VERIFICATION=1 (off by default): an account whose address is not verified may not
 * send a parcel or take one on; the back office is exempt (users/policy.ts skipEmailVerification).
 * A route's guard, after its policy's.
 */
export const verifiedEmailGuard = (required: boolean): preHandlerHookHandler =>
  guardedBy((account) =>
    required && account.email_verified_at === null && !mayAccount(account, 'skipEmailVerification')
      ? refuse('email_not_verified', messages.emailNotVerified)
      : null,
  );
