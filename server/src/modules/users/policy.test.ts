import { describe, expect, it } from 'vitest';
import { person } from '../../test/people.ts';
import { ACCOUNT_ACTIONS, type AccountAction, type Actor, mayAccount } from './policy.ts';

/** Everyone an account rule can meet. The target is `runner` for runner actions, else `user`. */
const people = {
  anonymous: null,
  user: person(1, 'user'),
  otherUser: person(2, 'user'),
  runner: person(3, 'runner'),
  otherRunner: person(4, 'runner'),
  superadmin: person(5, 'superadmin'),
} as const satisfies Record<string, Actor>;
type Who = keyof typeof people;
const everyone = Object.keys(people) as Who[];
const signedIn = everyone.filter((who) => who !== 'anonymous');

/** Who may do each action: to some account (a route's guard) and to `target` (the service). */
const table: Record<AccountAction, { target: 'user' | 'runner'; some: Who[]; this: Who[] }> = {
  viewProfile: { target: 'user', some: signedIn, this: ['user', 'superadmin'] },
  editProfile: { target: 'user', some: signedIn, this: ['user', 'superadmin'] },
  exportData: { target: 'user', some: signedIn, this: ['user'] },
  eraseAccount: { target: 'user', some: ['user', 'otherUser', 'runner', 'otherRunner'], this: ['user'] },
  // Nobody changes a runner's email; a user's changes through editProfile's own check.
  changeEmail: { target: 'runner', some: signedIn, this: [] },
  viewRunner: { target: 'runner', some: ['runner', 'otherRunner', 'superadmin'], this: ['runner', 'superadmin'] },
  editRunner: { target: 'runner', some: ['runner', 'otherRunner', 'superadmin'], this: ['runner', 'superadmin'] },
  listRunners: { target: 'runner', some: ['superadmin'], this: ['superadmin'] },
  registerRunner: { target: 'runner', some: ['superadmin'], this: ['superadmin'] },
  deleteRunner: { target: 'runner', some: ['superadmin'], this: ['superadmin'] },
  manageRunnerTrust: { target: 'runner', some: ['superadmin'], this: ['superadmin'] },
  searchUsers: { target: 'user', some: ['superadmin'], this: ['superadmin'] },
  reportLocation: { target: 'runner', some: ['runner', 'otherRunner'], this: ['runner', 'otherRunner'] },
  geocode: { target: 'user', some: signedIn, this: signedIn },
  verifyOwnEmail: { target: 'user', some: signedIn, this: ['user'] },
  skipEmailVerification: { target: 'user', some: ['superadmin'], this: ['superadmin'] },
};

describe('the account policy', () => {
  it('has a row for every action', () => {
    expect(Object.keys(table).sort()).toEqual([...ACCOUNT_ACTIONS].sort());
  });

  it('lets a user change their own email, never a runner’s', () => {
    expect(mayAccount(people.user, 'changeEmail', people.user)).toBe(true);
    expect(mayAccount(people.runner, 'changeEmail', people.runner)).toBe(false);
    expect(mayAccount(people.superadmin, 'changeEmail', people.runner)).toBe(false);
  });

  for (const action of ACCOUNT_ACTIONS) {
    const target = people[table[action].target];
    for (const who of everyone) {
      const some = table[action].some.includes(who);
      const here = table[action].this.includes(who);
      it(`${some ? 'lets' : 'refuses'} ${who} ${action} some account, and ${here ? 'lets' : 'refuses'} the ${table[action].target}`, () => {
        expect(mayAccount(people[who], action)).toBe(some);
        expect(mayAccount(people[who], action, target)).toBe(here);
      });
    }
  }
});
