import type { RaterRole } from '@csomag/domain/ratings';
import type { AccountRow, ParcelRow } from '../../db/schema.ts';
import { type Actor, hasRole as is, policyGuard } from '../../policy.ts';
import { relationship } from '../parcels/policy.ts';

export type { Actor };
/** What the rating rules look at: the rated account (a runner whose comments are read). */
export type RateeFacts = Pick<AccountRow, 'id' | 'role'>;

const self = (actor: Actor, ratee: RateeFacts) => actor !== null && actor.id === ratee.id;

/**
 * The actor's part in a parcel as a rater, by the parcel policy's relationships: one person, one
 * role — sender before runner before receiver; null when none (the back office rates nothing).
 */
export function raterRoleOf(
  actor: Actor,
  parcel: Pick<ParcelRow, 'sender_id' | 'runner_id' | 'receiver_key'>,
): RaterRole | null {
  if (relationship.sender(actor, parcel)) return 'sender';
  if (relationship.carrier(actor, parcel)) return 'runner';
  if (relationship.receiver(actor, parcel)) return 'receiver';
  return null;
}

/**
 * Every "may this account do this with ratings?" in one table, for the ratings routes and service.
 * Without a ratee a rule answers whether the actor may do it to some one (a route's guard); with
 * it, to that one. Whether the actor is a party of a parcel (its sender, receiver or runner) is
 * raterRoleOf's answer; the rules here are about the reader.
 */
const rules = {
  /** Rate a delivered parcel, and read one's own rating of it: a party of it (the service checks which). */
  rate: (actor: Actor) => actor !== null,
  /** Read every rating of a parcel, not only one's own. */
  readAllOfParcel: (actor: Actor) => is(actor, 'superadmin'),
  /** The runner's recent deliveries, to rate their senders. */
  listDeliveredToRate: (actor: Actor) => is(actor, 'runner'),
  /** The comments of a runner's ratings: the back office, and the rated runner themself. */
  readComments: (actor: Actor, ratee?: RateeFacts) =>
    is(actor, 'superadmin') || (is(actor, 'runner') && (!ratee || self(actor, ratee))),
  /** Who wrote a comment, on which parcel, and the hidden ones with their record. */
  readCommentDetails: (actor: Actor) => is(actor, 'superadmin'),
  /** Hide an abusive comment with a reason, or show it again. */
  moderateComments: (actor: Actor) => is(actor, 'superadmin'),
} satisfies Record<string, (actor: Actor, ratee?: RateeFacts) => boolean>;

export type RatingAction = keyof typeof rules;
export const RATING_ACTIONS = Object.keys(rules) as RatingAction[];

export const mayRating = (actor: Actor, action: RatingAction, ratee?: RateeFacts): boolean =>
  rules[action](actor, ratee);

/** A route's guard from this policy: may the signed-in account do `action` to some ratee? */
export const ratingGuard = (action: RatingAction) => policyGuard((actor) => mayRating(actor, action));
