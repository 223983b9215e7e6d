import { describe, expect, it } from 'vitest';
import { people as parties, person, theParcel } from '../../test/people.ts';
import { type Actor, mayRating, RATING_ACTIONS, type RatingAction, raterRoleOf } from './policy.ts';

/** Everyone a rating rule can meet: the rated runner, others of each role, nobody. */
const people = {
  anonymous: null,
  user: person(1, 'user'),
  ratedRunner: person(2, 'runner'),
  otherRunner: person(3, 'runner'),
  superadmin: person(4, 'superadmin'),
} as const satisfies Record<string, Actor>;
type Who = keyof typeof people;
const everyone = Object.keys(people) as Who[];
const signedIn = everyone.filter((who) => who !== 'anonymous');

/** Who may do each action: to some ratee (a route's guard) and to `ratedRunner` (the service). */
const table: Record<RatingAction, { some: Who[]; this: Who[] }> = {
  // Being a party of the parcel is the parcel's fact (the service's raterRoleOf).
  rate: { some: signedIn, this: signedIn },
  readAllOfParcel: { some: ['superadmin'], this: ['superadmin'] },
  listDeliveredToRate: { some: ['ratedRunner', 'otherRunner'], this: ['ratedRunner', 'otherRunner'] },
  readComments: { some: ['ratedRunner', 'otherRunner', 'superadmin'], this: ['ratedRunner', 'superadmin'] },
  readCommentDetails: { some: ['superadmin'], this: ['superadmin'] },
  moderateComments: { some: ['superadmin'], this: ['superadmin'] },
};

describe('the ratings policy', () => {
  it('has a row for every action', () => {
    expect(Object.keys(table).sort()).toEqual([...RATING_ACTIONS].sort());
  });

  it('never lets the rated runner see who wrote about them, nor hide what was written', () => {
    expect(mayRating(people.ratedRunner, 'readCommentDetails', people.ratedRunner)).toBe(false);
    expect(mayRating(people.ratedRunner, 'moderateComments', people.ratedRunner)).toBe(false);
  });

  for (const action of RATING_ACTIONS) {
    for (const who of everyone) {
      const some = table[action].some.includes(who);
      const here = table[action].this.includes(who);
      it(`${some ? 'lets' : 'refuses'} ${who} ${action} for some runner, and ${here ? 'lets' : 'refuses'} for the rated one`, () => {
        expect(mayRating(people[who], action)).toBe(some);
        expect(mayRating(people[who], action, people.ratedRunner)).toBe(here);
      });
    }
  }
});

describe('a rater’s part in a parcel', () => {
  it('is the parcel policy’s relationship: sender, then runner, then receiver; nobody else', () => {
    expect(raterRoleOf(parties.sender, theParcel)).toBe('sender');
    expect(raterRoleOf(parties.carrier, theParcel)).toBe('runner');
    expect(raterRoleOf(parties.receiver, theParcel)).toBe('receiver');
    for (const who of ['anonymous', 'otherUser', 'otherRunner', 'superadmin'] as const) {
      expect(raterRoleOf(parties[who], theParcel), who).toBeNull();
    }
    // Sending to one's own address: rated as the sender.
    const toSelf = { ...theParcel, sender_id: parties.receiver.id };
    expect(raterRoleOf(parties.receiver, toSelf)).toBe('sender');
  });
});
