import { messages } from '@csomag/domain/messages';
import type { Role } from '@csomag/domain/roles';
import type { preHandlerHookHandler } from 'fastify';
import type { AccountRow } from './db/schema.ts';
import { type AppError, refuse } from './errors.ts';
import { guardedBy } from './plugins/auth.ts';

/**
 * What every resource's policy shares (modules/<area>/policy.ts): who asks, their role, and the
 * back office's trust in a runner. Each policy is a table of rules `(actor, thing?) => boolean`;
 * routes, services, live topics, offers and notifications ask it, and nothing else decides a role
 * or a relationship (architecture.test.ts).
 */

/**
 * Who asks: an account — what the rules look at of it: role, the address it receives at, the back
 * office's trust — or nobody (signed out).
 */
export type Actor = Pick<AccountRow, 'id' | 'role' | 'address_key' | 'approved_at' | 'suspended_at'> | null;

/**
 * The receiver without an account (issue 29): the key in the link their mail carries proves they
 * are the one the sender addressed — for that parcel alone (parcels/receiver-link.ts checks it).
 */
export interface ReceiverByLink {
  readonly receiverOf: string;
}

export const hasRole = (actor: Pick<AccountRow, 'role'> | null, ...roles: Role[]) =>
  actor !== null && roles.includes(actor.role);

/**
 * Whether a runner may take parcels on: approved by the back office and not suspended (issue 15).
 * Finishing what they hold (deliver, give back, hand on by link) does not ask it: the parcel is
 * safer delivered or handed on.
 */
export const trusted = (actor: Actor) =>
  hasRole(actor, 'runner') && actor?.approved_at !== null && !actor?.suspended_at;

/** The refusals of trust, for the routes' error lists. */
export const CARRIER_TRUST_CODES = ['runner_not_approved', 'runner_suspended'] as const;

/**
 * Why the back office's trust keeps this account from taking parcels on (null: it does not):
 * suspended (with the reason) or not approved yet. `as`: told to the runner, or to the back office
 * naming them as an assignee. Only runners have trust to lose.
 */
function trustRefusal(
  account: Pick<AccountRow, 'role' | 'approved_at' | 'suspended_at' | 'suspended_reason'>,
  as: 'self' | 'assignee' = 'self',
): AppError | null {
  if (account.role !== 'runner') return null;
  if (account.suspended_at !== null) {
    const reason = account.suspended_reason ?? '';
    return refuse(
      'runner_suspended',
      as === 'self' ? messages.runnerSuspended(reason) : messages.assigneeSuspended(reason),
    );
  }
  if (account.approved_at === null) {
    return refuse('runner_not_approved', as === 'self' ? messages.runnerNotApproved : messages.assigneeNotApproved);
  }
  return null;
}

/** The same account as if the back office trusted it. */
const withTrust = <A extends NonNullable<Actor>>(account: A): A => ({
  ...account,
  approved_at: account.approved_at ?? 'approved',
  suspended_at: null,
});

/**
 * Why `account` may not (null: it may), as `may` — a policy's answer — says: when trust alone
 * stands in the way (the rule would let the same account in once trusted), the trust refusal
 * that says so; else 403.
 */
export function refusalBy<A extends NonNullable<Actor> & Pick<AccountRow, 'suspended_reason'>>(
  may: (actor: A) => boolean,
  account: A,
  as: 'self' | 'assignee' = 'self',
): AppError | null {
  if (may(account)) return null;
  const untrusted = trustRefusal(account, as);
  if (untrusted && may(withTrust(account))) return untrusted;
  return refuse('forbidden', messages.forbidden);
}

/** A route's guard from a policy's answer for the signed-in account (401 when signed out). */
export const policyGuard = (may: (actor: AccountRow) => boolean): preHandlerHookHandler =>
  guardedBy((account) => refusalBy(may, account));
