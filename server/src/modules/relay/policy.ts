import type { RelayOffersTable } from '../../db/schema.ts';
import { type Actor, policyGuard } from '../../policy.ts';
import { mayParcel, type ParcelAction } from '../parcels/policy.ts';

/** What the relay-offer rules look at: who offered it, and who reserved it. */
export type RelayOfferFacts = Pick<RelayOffersTable, 'runner_id' | 'taken_by'>;

/** The relationships a runner can have with a relay offer, each defined once. */
export const offerRelationship = {
  /** Made it: the runner who held the parcel when offering it. */
  offerer: (actor: Actor, offer: RelayOfferFacts) => actor !== null && offer.runner_id === actor.id,
  /** The offer is kept for them ('Lefoglalom'). */
  reservedFor: (actor: Actor, offer: Pick<RelayOfferFacts, 'taken_by'>) =>
    actor !== null && offer.taken_by === actor.id,
} as const;

/** The runner → runner link ('Átadás másik futárnak'). */
export const linkRelationship = {
  /** Signed it: the runner who held the parcel when the link was made. */
  issuer: (actor: Actor, link: { issuerId: number }) => actor !== null && link.issuerId === actor.id,
} as const;

const { offerer, reservedFor } = offerRelationship;
const openTo = (actor: Actor, offer: RelayOfferFacts) => offer.taken_by === null || reservedFor(actor, offer);

/**
 * Every "may this runner do this to a relay offer?" (docs/decisions/0022): the parcel action each
 * one is (taking parcels on — seeing offers, reserving one, taking the parcel over — asks the back
 * office's trust as a pickup does), and the runner's relationship with the offer in hand.
 */
const rules = {
  /**
   * The open offers (waiting list, runner map, trip matches): every runner sees their own; others'
   * only a runner who may take one on.
   */
  list: { as: 'listCarried', offer: (actor, offer) => offerer(actor, offer) || mayParcel(actor, 'takeOver') },
  make: { as: 'offerForRelay', offer: () => true },
  withdraw: { as: 'listCarried', offer: offerer },
  /** 'Lefoglalom': another runner's offer nobody else reserved. */
  reserve: { as: 'takeOver', offer: (actor, offer) => !offerer(actor, offer) && openTo(actor, offer) },
  /** 'Átveszem' on an offered parcel: not while the offer is kept for someone else. */
  takeOver: { as: 'takeOver', offer: openTo },
} satisfies Record<string, { as: ParcelAction; offer: (actor: Actor, offer: RelayOfferFacts) => boolean }>;

export type RelayOfferAction = keyof typeof rules;
export const RELAY_OFFER_ACTIONS = Object.keys(rules) as RelayOfferAction[];

export const mayRelayOffer = (actor: Actor, action: RelayOfferAction, offer?: RelayOfferFacts): boolean =>
  mayParcel(actor, rules[action].as) && (!offer || rules[action].offer(actor, offer));

/** A route's guard: may the signed-in runner do `action` to some offer (the trust refusal when that is why not)? */
export const relayOfferGuard = (action: RelayOfferAction) => policyGuard((actor) => mayRelayOffer(actor, action));
