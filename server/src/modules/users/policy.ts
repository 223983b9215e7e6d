import type { AccountRow } from '../../db/schema.ts';
import { type Actor, hasRole as is, policyGuard } from '../../policy.ts';

export type { Actor };
/** What the account rules look at. */
export type AccountFacts = Pick<AccountRow, 'id' | 'role'>;

/** The relationships an account can have with another, each defined once. */
export const accountRelationship = {
  /** The same account: one's own profile. */
  self: (actor: Pick<AccountRow, 'id'> | null, account: Pick<AccountRow, 'id'>) =>
    actor !== null && actor.id === account.id,
} as const;

const { self } = accountRelationship;

/**
 * Every "may this account do this to that account?" in one table, for the users, runners, location
 * and map routes and their services. Without a target a rule answers whether the actor may do it
 * to some account (a route's guard); with it, to that one.
 */
const rules = {
  /** A profile (SPEC §2.6, §2.7): its owner and the superadmin. */
  viewProfile: (actor: Actor, account?: AccountFacts) =>
    is(actor, 'superadmin') || (actor !== null && (!account || self(actor, account))),
  editProfile: (actor: Actor, account?: AccountFacts) =>
    is(actor, 'superadmin') || (actor !== null && (!account || self(actor, account))),
  /** A runner's email never changes, not even by the back office (SPEC §2.7, §2.8). */
  changeEmail: (actor: Actor, account?: AccountFacts) => actor !== null && account?.role !== 'runner',
  /** The runner pages: that runner and the superadmin. */
  viewRunner: (actor: Actor, account?: AccountFacts) =>
    is(actor, 'superadmin') || (is(actor, 'runner') && (!account || self(actor, account))),
  editRunner: (actor: Actor, account?: AccountFacts) =>
    is(actor, 'superadmin') || (is(actor, 'runner') && (!account || self(actor, account))),
  /** 'Adataim letöltése' (issue 29, GDPR Art. 15 and 20): the person themself, nobody for them. */
  exportData: (actor: Actor, account?: AccountFacts) => actor !== null && (!account || self(actor, account)),
  /** 'Fiók törlése' (GDPR Art. 17): a user or runner themself; the back office has its own deletion of runners. */
  eraseAccount: (actor: Actor, account?: AccountFacts) =>
    (is(actor, 'user') || is(actor, 'runner')) && (!account || self(actor, account)),
  listRunners: (actor: Actor) => is(actor, 'superadmin'),
  registerRunner: (actor: Actor) => is(actor, 'superadmin'),
  deleteRunner: (actor: Actor) => is(actor, 'superadmin'),
  /** Approve, suspend, lift a suspension; the runner flags and parcels the back office acts on (issue 15). */
  manageRunnerTrust: (actor: Actor) => is(actor, 'superadmin'),
  /** The back office's user picker (choosing a parcel's sender). */
  searchUsers: (actor: Actor) => is(actor, 'superadmin'),
  /** Share one's live position (shown only on the parcels one carries). */
  reportLocation: (actor: Actor) => is(actor, 'runner'),
  /** Place an address on the map (the send-parcel and edit forms). */
  geocode: (actor: Actor) => actor !== null,
  /** Ask for a new link to verify one's own address, or the new one asked for (issue 29). */
  verifyOwnEmail: (actor: Actor, account?: AccountFacts) => actor !== null && (!account || self(actor, account)),
  /** REQUIRE_EMAIL_VERIFICATION holds everyone but the back office, whose address the operator set. */
  skipEmailVerification: (actor: Actor) => is(actor, 'superadmin'),
} satisfies Record<string, (actor: Actor, account?: AccountFacts) => boolean>;

export type AccountAction = keyof typeof rules;
export const ACCOUNT_ACTIONS = Object.keys(rules) as AccountAction[];

export const mayAccount = (actor: Actor, action: AccountAction, account?: AccountFacts): boolean =>
  rules[action](actor, account);

/** A route's guard from this policy: may the signed-in account do `action` to some account? */
export const accountGuard = (action: AccountAction) => policyGuard((actor) => mayAccount(actor, action));
