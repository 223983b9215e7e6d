import { describe, expect, it } from 'vitest';
import { everyone, people, trustedRunners, type Who } from '../../test/people.ts';
import { mayTrip, TRIP_ACTIONS, type TripAction } from './policy.ts';

/** A saved trip of `carrier`'s. */
const theTrip = { account_id: people.carrier.id };
const runners: Who[] = ['carrier', 'otherRunner', 'suspendedRunner', 'unapprovedRunner'];

/** Who may do each action: to some trip (a route's guard) and to `carrier`'s saved trip (the service). */
const table: Record<TripAction, { some: Who[]; this: Who[] }> = {
  // What a trip matches is the waiting pool: a runner the back office trusts.
  match: { some: trustedRunners, this: trustedRunners },
  // Planning and keeping one's trips stays open to any runner; another's is nobody's business.
  manage: { some: runners, this: ['carrier'] },
  receiveOffers: { some: trustedRunners, this: ['carrier'] },
};

describe('the trip policy', () => {
  it('has a row for every action', () => {
    expect(Object.keys(table).sort()).toEqual([...TRIP_ACTIONS].sort());
  });

  for (const action of TRIP_ACTIONS) {
    for (const who of everyone) {
      const some = table[action].some.includes(who);
      const here = table[action].this.includes(who);
      it(`${some ? 'lets' : 'refuses'} ${who} ${action} some trip, and ${here ? 'lets' : 'refuses'} the carrier's`, () => {
        expect(mayTrip(people[who], action)).toBe(some);
        expect(mayTrip(people[who], action, theTrip)).toBe(here);
      });
    }
  }
});
