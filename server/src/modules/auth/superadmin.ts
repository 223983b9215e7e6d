import { emailField, passwordField } from '@csomag/domain/account';
import type { Kysely } from 'kysely';
import { nowIso } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import { hasRole } from '../../policy.ts';
import { createAccount, findAccountByEmail, findAccountByUserName } from './accounts.ts';
import { hashPassword } from './passwords.ts';

/** A free user name derived from the email's local part ("ops.team@…" → "ops.team"). */
async function freeUserName(db: Kysely<Database>, email: string): Promise<string> {
  const base = (email.split('@')[0] ?? '')
    .replace(/[^A-Za-z0-9_.-]/g, '')
    .slice(0, 24)
    .padEnd(3, '0');
  for (let n = 0; ; n++) {
    const candidate = n === 0 ? base : `${base}${n}`;
    if (!(await findAccountByUserName(db, candidate))) return candidate;
  }
}

/**
 * Creates the superadmin, or sets the configured password on an existing one, so the
 * environment stays the source of truth. Refuses to turn someone else's account into an admin.
 */
export async function ensureSuperadmin(db: Kysely<Database>, rawEmail: string, password: string) {
  const email = emailField.parse(rawEmail);
  passwordField.parse(password);
  const existing = await findAccountByEmail(db, email);
  if (existing) {
    if (!hasRole(existing, 'superadmin')) throw new Error(`${email} already belongs to a ${existing.role} account`);
    await db
      .updateTable('accounts')
      // The operator set this address: it counts as verified (issue 29).
      .set({
        password_hash: await hashPassword(password),
        email_verified_at: existing.email_verified_at ?? nowIso(),
        updated_at: nowIso(),
      })
      .where('id', '=', existing.id)
      .execute();
    return existing;
  }
  const userName = await freeUserName(db, email);
  return createAccount(
    db,
    { name: 'Szuper Admin', userName, email, password, phoneNumber: '-', address: '-' },
    'superadmin',
    'auto',
    undefined,
    { verified: true },
  );
}
