import type { SavedTripsTable } from '../../db/schema.ts';
import { type Actor, hasRole, policyGuard } from '../../policy.ts';
import { mayParcel } from '../parcels/policy.ts';

/** What the saved-trip rules look at. */
export type SavedTripFacts = Pick<SavedTripsTable, 'account_id'>;

/** Saved it: a saved trip is its runner's own. */
const owner = (actor: Actor, trip: SavedTripFacts) => actor !== null && trip.account_id === actor.id;

/**
 * Trips are a runner's own (issue 13 item 6): only a runner plans or saves one, and only their own
 * saved trips are ever read — no role, the superadmin included, reads another's (the service reads
 * them by owner, so another's is a 404). What a trip matches is the waiting pool: seeing it, and
 * being offered its new parcels, asks the back office's trust as a pickup does.
 */
const rules = {
  /** The waiting parcels (and relay offers) on the way. */
  match: (actor: Actor) => mayParcel(actor, 'pickUp'),
  /** Save, list, pause, edit, delete one's saved trips. */
  manage: (actor: Actor, trip?: SavedTripFacts) => hasRole(actor, 'runner') && (!trip || owner(actor, trip)),
  /** New parcels offered to an active saved trip, live and by push. */
  receiveOffers: (actor: Actor, trip?: SavedTripFacts) =>
    mayParcel(actor, 'receiveTripOffers') && (!trip || owner(actor, trip)),
} satisfies Record<string, (actor: Actor, trip?: SavedTripFacts) => boolean>;

export type TripAction = keyof typeof rules;
export const TRIP_ACTIONS = Object.keys(rules) as TripAction[];

export const mayTrip = (actor: Actor, action: TripAction, trip?: SavedTripFacts): boolean => rules[action](actor, trip);

/** A route's guard: may the signed-in account do `action` to some trip (the trust refusal when that is why not)? */
export const tripGuard = (action: TripAction) => policyGuard((actor) => mayTrip(actor, action));
