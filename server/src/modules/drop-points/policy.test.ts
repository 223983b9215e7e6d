import { describe, expect, it } from 'vitest';
import { everyone, people, signedIn, users, type Who } from '../../test/people.ts';
import { DROP_POINT_ACTIONS, type DropPointAction, mayDropPoint } from './policy.ts';

/** Who may do each action: to some drop point (a route's guard), and to one `sender` staffs. */
const table: Record<DropPointAction, { some: Who[]; this: Who[] }> = {
  manage: { some: ['superadmin'], this: ['superadmin'] },
  list: { some: everyone, this: everyone },
  listStaffed: { some: signedIn, this: signedIn },
  work: { some: ['superadmin', ...users], this: ['superadmin', 'sender'] },
  beStaff: { some: users, this: users },
  release: { some: users, this: ['sender'] },
  reportIncident: { some: users, this: ['sender'] },
};

describe('the drop point policy', () => {
  it('has a row for every action', () => {
    expect(Object.keys(table).sort()).toEqual([...DROP_POINT_ACTIONS].sort());
  });
  // `sender` stands for a user account the back office named as its staff.
  const point = { staffIds: [people.sender.id] };
  for (const action of DROP_POINT_ACTIONS) {
    for (const who of everyone) {
      const some = table[action].some.includes(who);
      const here = table[action].this.includes(who);
      it(`${some ? 'lets' : 'refuses'} ${who} ${action} some drop point, and ${here ? 'lets' : 'refuses'} them this one`, () => {
        expect(mayDropPoint(people[who], action)).toBe(some);
        expect(mayDropPoint(people[who], action, point)).toBe(here);
      });
    }
  }
});
