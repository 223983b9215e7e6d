import { messages } from '@csomag/domain/messages';
import type { Role } from '@csomag/domain/roles';
import type { preHandlerHookHandler } from 'fastify';
import type { AccountRow, ParcelRow } from '../../db/schema.ts';
import { refuse } from '../../errors.ts';
import { allowedBy, signedIn } from '../../plugins/auth.ts';

/** Who asks: an account, or nobody (signed out). */
export type Actor = Pick<AccountRow, 'id' | 'role'> | null;
/** What the parcel rules look at. */
export type ParcelFacts = Pick<ParcelRow, 'sender_id' | 'runner_id'>;

const is = (actor: Actor, ...roles: Role[]) => actor !== null && roles.includes(actor.role);
const sends = (actor: Actor, parcel: ParcelFacts) => actor !== null && parcel.sender_id === actor.id;
const carries = (actor: Actor, parcel: ParcelFacts) => actor !== null && parcel.runner_id === actor.id;

/**
 * Every "may this account do this to a parcel?" of the product, in one table: HTTP routes (their
 * guards), services (with the parcel in hand) and the live-update hub (topics) all ask it. Without
 * a parcel a rule answers whether the actor may do it to some parcel — what a route checks before
 * it reads one; with the parcel, whether to that one. The state a change needs (waiting, in
 * transit) is not a permission: the change's own conditional write checks it (changes.ts).
 */
const rules = {
  /** The public tracking view: anyone holding the id. */
  track: () => true,
  /** The full parcel (addresses, timeline with names, contacts). */
  view: (actor: Actor, parcel?: ParcelFacts) =>
    is(actor, 'superadmin') || (parcel ? sends(actor, parcel) || carries(actor, parcel) : is(actor, 'user', 'runner')),
  send: (actor: Actor) => is(actor, 'user', 'superadmin'),
  /** Whose parcel it can be: a parcel's sender is a user account. */
  beSender: (actor: Actor) => is(actor, 'user'),
  /** Name another account as the sender (the back office creating a parcel for a user). */
  sendForOthers: (actor: Actor) => is(actor, 'superadmin'),
  cancel: (actor: Actor, parcel?: ParcelFacts) => is(actor, 'user') && (!parcel || sends(actor, parcel)),
  listSent: (actor: Actor) => is(actor, 'user'),
  listIncoming: (actor: Actor) => is(actor, 'user'),
  /** The waiting pool (list, runner map) and its live changes. */
  listWaiting: (actor: Actor) => is(actor, 'runner', 'superadmin'),
  listCarried: (actor: Actor) => is(actor, 'runner'),
  /** Every parcel (back-office list, admin map) and every live change. */
  listAll: (actor: Actor) => is(actor, 'superadmin'),
  pickUp: (actor: Actor) => is(actor, 'runner'),
  deliver: (actor: Actor, parcel?: ParcelFacts) =>
    is(actor, 'superadmin') || (is(actor, 'runner') && (!parcel || carries(actor, parcel))),
  /** The back office hands over without standing at the door. */
  deliverWithoutPosition: (actor: Actor) => is(actor, 'superadmin'),
  giveBack: (actor: Actor, parcel?: ParcelFacts) => is(actor, 'runner') && (!parcel || carries(actor, parcel)),
  /** The QR code the receiver scans: only the runner carrying the parcel shows one. */
  showHandoverCode: (actor: Actor, parcel?: ParcelFacts) => is(actor, 'runner') && (!parcel || carries(actor, parcel)),
  edit: (actor: Actor) => is(actor, 'superadmin'),
  delete: (actor: Actor) => is(actor, 'superadmin'),
  assign: (actor: Actor) => is(actor, 'superadmin'),
} satisfies Record<string, (actor: Actor, parcel?: ParcelFacts) => boolean>;

export type ParcelAction = keyof typeof rules;
export const PARCEL_ACTIONS = Object.keys(rules) as ParcelAction[];

export const mayParcel = (actor: Actor, action: ParcelAction, parcel?: ParcelFacts): boolean =>
  rules[action](actor, parcel);

/** A route's guard from this policy: may the signed-in account do `action` to some parcel? */
export const parcelGuard = (action: ParcelAction) => allowedBy((actor) => mayParcel(actor, action));

/** What the back office's trust in a runner looks at (issue 15). */
export type CarrierTrust = Pick<AccountRow, 'role' | 'approved_at' | 'suspended_at' | 'suspended_reason'>;

/** The refusals of carrierGuard and assertMayCarry, for the routes' error lists. */
export const CARRIER_TRUST_CODES = ['runner_not_approved', 'runner_suspended'] as const;

/**
 * Why this runner may not take a parcel on now (null: they may): only runners the back office
 * approved and has not suspended see the waiting pool, pick up, are assigned or take a hand-over.
 * Finishing what they carry (deliver, give back) stays open to a suspended runner: the parcel is
 * safer delivered or back in the pool than stuck with them. Other roles are not runners: no answer here.
 */
export function carrierRefusal(account: CarrierTrust, as: 'self' | 'assignee' = 'self') {
  if (account.role !== 'runner') return null;
  if (account.suspended_at !== null) {
    const reason = account.suspended_reason ?? '';
    return as === 'self'
      ? refuse('runner_suspended', messages.runnerSuspended(reason))
      : refuse('runner_suspended', messages.assigneeSuspended(reason));
  }
  if (account.approved_at === null) {
    return as === 'self'
      ? refuse('runner_not_approved', messages.runnerNotApproved)
      : refuse('runner_not_approved', messages.assigneeNotApproved);
  }
  return null;
}

export function assertMayCarry(account: CarrierTrust, as: 'self' | 'assignee' = 'self') {
  const refusal = carrierRefusal(account, as);
  if (refusal) throw refusal;
}

/** parcelGuard for taking parcels on (the waiting pool, pickup, relay): the runner must be trusted too. */
export const carrierGuard = (action: ParcelAction): preHandlerHookHandler => {
  const guard = parcelGuard(action) as (request: Parameters<preHandlerHookHandler>[0]) => Promise<void>;
  return async (request) => {
    await guard(request);
    assertMayCarry(signedIn(request));
  };
};

/** The trust check alone, after a route's own guard (a trip's waiting parcels: trips/routes.ts). */
export const trustedCarrier: preHandlerHookHandler = async (request) => {
  if (request.account) assertMayCarry(request.account);
};
