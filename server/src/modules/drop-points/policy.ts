import { type Actor, hasRole, policyGuard } from '../../policy.ts';

/**
 * Drop points ('Átvételi pont', issue 28): the back office manages them; anyone sees the active
 * ones — public places, like a parcel locker on the street (to choose one, also by a receiver
 * through their mail's link; on the maps); their staff see what comes and waits there and hand
 * parcels to the people who collect them.
 */

/** A drop point as far as its staff go: the accounts that staff it. */
export interface DropPointFacts {
  staffIds: readonly number[];
}

/** Staffs it: one of the accounts the back office named for it. */
export const staffs = (actor: Actor, point: DropPointFacts) => actor !== null && point.staffIds.includes(actor.id);

const rules = {
  manage: (actor: Actor) => hasRole(actor, 'superadmin'),
  /** The active ones: public places, for anyone (the route has no guard). */
  list: () => true,
  /** The ones I staff: anyone signed in (none, for most). */
  listStaffed: (actor: Actor) => actor !== null,
  /** Its parcels (on the way, waiting) and their drop-off codes: its staff and the back office. */
  work: (actor: Actor, point?: DropPointFacts) =>
    hasRole(actor, 'superadmin') || (hasRole(actor, 'user') && (!point || staffs(actor, point))),
  /** Be named as a drop point's staff: a user account (runners and the back office have their own work). */
  beStaff: (actor: Actor) => hasRole(actor, 'user'),
  /** Hand a waiting parcel to the person with its code: its staff. */
  release: (actor: Actor, point?: DropPointFacts) => hasRole(actor, 'user') && (!point || staffs(actor, point)),
  /** 'Probléma bejelentése' about a parcel waiting there (damaged, missing): its staff. */
  reportIncident: (actor: Actor, point?: DropPointFacts) => hasRole(actor, 'user') && (!point || staffs(actor, point)),
} satisfies Record<string, (actor: Actor, point?: DropPointFacts) => boolean>;

export type DropPointAction = keyof typeof rules;
export const DROP_POINT_ACTIONS = Object.keys(rules) as DropPointAction[];

export const mayDropPoint = (actor: Actor, action: DropPointAction, point?: DropPointFacts): boolean =>
  rules[action](actor, point);

export const dropPointGuard = (action: DropPointAction) => policyGuard((actor) => mayDropPoint(actor, action));
