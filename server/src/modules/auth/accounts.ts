import type { NewAccount } from '@csomag/domain/account';
import { messages } from '@csomag/domain/messages';
import type { Role } from '@csomag/domain/roles';
import type { Kysely } from 'kysely';
import { nowIso } from '../../db/database.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import type { AccountRow, Database } from '../../db/schema.ts';
import { AppError, refuseField } from '../../errors.ts';
import { matchKeyOf } from '../places/match-key.ts';
import { hashPassword } from './passwords.ts';

/** User names are unique regardless of case, so "Anna" cannot impersonate "anna". */
const byUserName = (db: Kysely<Database>, userName: string) =>
  db
    .selectFrom('accounts')
    .selectAll()
    .where((eb) => eb(eb.fn('lower', ['user_name']), '=', userName.toLowerCase()));

export const findAccountByUserName = (db: Kysely<Database>, userName: string) =>
  byUserName(db, userName).executeTakeFirst();

/** A runner's account by user name; other accounts' names find nothing (runner pages and assignment). */
export const findRunnerByUserName = (db: Kysely<Database>, userName: string) =>
  byUserName(db, userName).where('role', '=', 'runner').executeTakeFirst();

export const findAccountByEmail = (db: Kysely<Database>, email: string) =>
  db.selectFrom('accounts').selectAll().where('email', '=', email.toLowerCase()).executeTakeFirst();

async function assertUnique(db: Kysely<Database>, userName: string, email: string) {
  const fields: Record<string, string> = {};
  if (await findAccountByUserName(db, userName)) fields.userName = messages.userNameTaken;
  if (await findAccountByEmail(db, email)) fields.email = messages.emailTaken;
  // Both fields are marked; the code names the first.
  if (fields.userName) throw new AppError('user_name_taken', fields.userName, fields);
  if (fields.email) throw new AppError('email_taken', fields.email, fields);
}

/** How an account's address starts out (issue 29). */
export interface NewAccountEmail {
  /** Taken as theirs from the start: the demo data, the superadmin from ADMIN_EMAIL. */
  verified?: boolean;
  /** Runs in the account's own transaction: the verification link stored and mailed with it. */
  withAccount?: (trx: Kysely<Database>, account: AccountRow) => Promise<void>;
}

/**
 * Creates an account; a taken user name or email is a 409 naming the field, even under a race.
 * A runner is approved at once with RUNNER_APPROVAL=auto, else waits for the back office (issue 15).
 */
export async function createAccount(
  db: Kysely<Database>,
  input: NewAccount,
  role: Role,
  runnerApproval: 'auto' | 'manual' = 'auto',
  /** The address's key when the caller placed it at its door (placedMatchKey). */
  placedAddressKey?: string,
  email: NewAccountEmail = {},
): Promise<AccountRow> {
  await assertUnique(db, input.userName, input.email);
  const now = nowIso();
  const passwordHash = await hashPassword(input.password);
  try {
    return await db.transaction().execute(async (trx) => {
      const account = await trx
        .insertInto('accounts')
        .values({
          user_name: input.userName,
          email: input.email,
          name: input.name,
          phone: input.phoneNumber,
          address: input.address,
          address_key: placedAddressKey ?? matchKeyOf(input.address),
          password_hash: passwordHash,
          role,
          runner_status: role === 'runner' ? 'inactive' : null,
          approved_at: role === 'runner' && runnerApproval === 'auto' ? now : null,
          email_verified_at: email.verified ? now : null,
          created_at: now,
          updated_at: now,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      await email.withAccount?.(trx, account);
      return account;
    });
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    await assertUnique(db, input.userName, input.email);
    throw refuseField('user_name_taken', 'userName', messages.userNameTaken);
  }
}
