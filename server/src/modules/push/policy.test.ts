import { describe, expect, it } from 'vitest';
import { everyone, people, signedIn, type Who } from '../../test/people.ts';
import { mayPush, PUSH_ACTIONS, type PushAction } from './policy.ts';

/** A device `sender` subscribed. */
const theDevice = { account_id: people.sender.id };

/** Who may do each action: to some device (a route's guard) and to the sender's device (the service). */
const table: Record<PushAction, { some: Who[]; this: Who[] }> = {
  readKey: { some: signedIn, this: signedIn },
  // Nobody, the superadmin included, reads or removes another's device.
  manageDevices: { some: signedIn, this: ['sender'] },
  managePreferences: { some: signedIn, this: signedIn },
};

describe('the push policy', () => {
  it('has a row for every action', () => {
    expect(Object.keys(table).sort()).toEqual([...PUSH_ACTIONS].sort());
  });

  for (const action of PUSH_ACTIONS) {
    for (const who of everyone) {
      const some = table[action].some.includes(who);
      const here = table[action].this.includes(who);
      it(`${some ? 'lets' : 'refuses'} ${who} ${action} some device, and ${here ? 'lets' : 'refuses'} the sender's`, () => {
        expect(mayPush(people[who], action)).toBe(some);
        expect(mayPush(people[who], action, theDevice)).toBe(here);
      });
    }
  }
});
