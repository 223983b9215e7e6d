import { describe, expect, it } from 'vitest';
import { everyone, people, trustedRunners, type Who } from '../../test/people.ts';
import {
  linkRelationship,
  mayRelayOffer,
  offerRelationship,
  RELAY_OFFER_ACTIONS,
  type RelayOfferAction,
} from './policy.ts';

const runners: Who[] = ['carrier', 'otherRunner', 'suspendedRunner', 'unapprovedRunner'];
/** `carrier` offers the parcel they hold; nobody reserved it yet — or `otherRunner` did. */
const open = { runner_id: people.carrier.id, taken_by: null };
const reserved = { runner_id: people.carrier.id, taken_by: people.otherRunner.id };

/** Who may do each action: to some offer, to the open offer, to the one `otherRunner` reserved. */
const table: Record<RelayOfferAction, { some: Who[]; open: Who[]; reserved: Who[] }> = {
  // Every runner sees their own offers; others' only a runner who may take one on.
  list: { some: runners, open: trustedRunners, reserved: trustedRunners },
  make: { some: trustedRunners, open: trustedRunners, reserved: trustedRunners },
  withdraw: { some: runners, open: ['carrier'], reserved: ['carrier'] },
  reserve: { some: trustedRunners, open: ['otherRunner'], reserved: ['otherRunner'] },
  takeOver: { some: trustedRunners, open: trustedRunners, reserved: ['otherRunner'] },
};

describe('the relay-offer policy', () => {
  it('has a row for every action', () => {
    expect(Object.keys(table).sort()).toEqual([...RELAY_OFFER_ACTIONS].sort());
  });

  for (const action of RELAY_OFFER_ACTIONS) {
    for (const who of everyone) {
      const { some, open: toOpen, reserved: toReserved } = table[action];
      it(`${action}: ${who} ${some.includes(who)}/${toOpen.includes(who)}/${toReserved.includes(who)}`, () => {
        expect(mayRelayOffer(people[who], action)).toBe(some.includes(who));
        expect(mayRelayOffer(people[who], action, open)).toBe(toOpen.includes(who));
        expect(mayRelayOffer(people[who], action, reserved)).toBe(toReserved.includes(who));
      });
    }
  }

  it('knows the offerer, the runner it is kept for and a link’s issuer, and nobody signed out', () => {
    expect(offerRelationship.offerer(people.carrier, reserved)).toBe(true);
    expect(offerRelationship.reservedFor(people.otherRunner, reserved)).toBe(true);
    expect(offerRelationship.reservedFor(people.carrier, reserved)).toBe(false);
    expect(offerRelationship.reservedFor(null, open)).toBe(false);
    expect(linkRelationship.issuer(people.carrier, { issuerId: people.carrier.id })).toBe(true);
    expect(linkRelationship.issuer(people.otherRunner, { issuerId: people.carrier.id })).toBe(false);
  });
});
