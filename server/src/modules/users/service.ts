import type { ProfileUpdate } from '@csomag/domain/account';
import { messages } from '@csomag/domain/messages';
import type { Kysely } from 'kysely';
import { nowIso } from '../../db/database.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import type { AccountRow, AccountUpdate, Database } from '../../db/schema.ts';
import { refuse, refuseField } from '../../errors.ts';
import { findAccountByEmail, findAccountByUserName } from '../auth/accounts.ts';
import { emailChange } from '../auth/email-verification.ts';
import { hashPassword } from '../auth/passwords.ts';
import { matchKeyOf } from '../places/match-key.ts';
import { type AccountFacts, mayAccount } from './policy.ts';

/**
 * A name nobody has is judged as a stranger's account: only who may act on any account (the
 * superadmin) learns that it does not exist; others get 403 either way.
 */
export const STRANGER: AccountFacts = { id: -1, role: 'user' };

/** The account behind a profile URL, if the actor may view or edit it. */
export async function findManagedAccount(
  db: Kysely<Database>,
  actor: AccountRow,
  userName: string,
  action: 'viewProfile' | 'editProfile',
): Promise<AccountRow> {
  const account = await findAccountByUserName(db, userName);
  if (!mayAccount(actor, action, account ?? STRANGER)) throw refuse('forbidden', messages.forbidden);
  if (!account) throw refuse('account_not_found', messages.accountNotFound);
  return account;
}

const emailTaken = () => refuseField('email_taken', 'email', messages.emailTaken);

/**
 * Saves a profile edit. The role and user name never change here (DESIGN §9); a runner's email
 * is read-only; a new password ends the account's other sessions.
 */
export async function updateProfile(
  db: Kysely<Database>,
  actor: AccountRow,
  target: AccountRow,
  patch: ProfileUpdate,
  keepSessionHash: string | null,
  /** The new address's key when the caller placed it at its door (placedMatchKey). */
  placedAddressKey?: string,
  /** Where the verification link of a new email points: config.mailOrigin (issue 29). */
  mailOrigin?: string,
): Promise<AccountRow> {
  const changes: AccountUpdate = { updated_at: nowIso() };
  if (patch.name !== undefined) changes.name = patch.name;
  if (patch.language !== undefined) changes.language = patch.language;
  if (patch.phoneNumber !== undefined) changes.phone = patch.phoneNumber;
  if (patch.address !== undefined) {
    changes.address = patch.address;
    // Incoming parcels follow the address.
    changes.address_key = placedAddressKey ?? matchKeyOf(patch.address);
  }
  // Forms send the read-only email back unchanged; only a different one is a change, and the
  // address already waiting for its link is none either (issue 29: email-verification.ts).
  let newEmail: ReturnType<typeof emailChange> | undefined;
  if (patch.email !== undefined && patch.email !== target.email && patch.email !== target.pending_email) {
    if (!mayAccount(actor, 'changeEmail', target)) {
      throw refuseField('email_read_only', 'email', messages.emailReadOnlyForRunner);
    }
    if (await findAccountByEmail(db, patch.email)) throw emailTaken();
    if (mailOrigin === undefined) throw new Error('a change of email needs the mail origin');
    newEmail = emailChange(actor, target, patch.email, mailOrigin);
    Object.assign(changes, newEmail.changes);
  }
  const newPassword = patch.password ? await hashPassword(patch.password) : undefined;
  if (newPassword) changes.password_hash = newPassword;
  try {
    return await db.transaction().execute(async (trx) => {
      const updated = await trx
        .updateTable('accounts')
        .set(changes)
        .where('id', '=', target.id)
        .returningAll()
        .executeTakeFirstOrThrow();
      await newEmail?.write(trx, updated);
      if (newPassword) {
        // Whoever knew the old password is signed out everywhere else.
        let others = trx.deleteFrom('sessions').where('account_id', '=', target.id);
        if (keepSessionHash) others = others.where('token_hash', '!=', keepSessionHash);
        await others.execute();
      }
      return updated;
    });
  } catch (error) {
    // Two people claiming the same email at once: the unique index decides.
    if (isUniqueViolation(error)) throw emailTaken();
    throw error;
  }
}
