import { describe, expect, it } from 'vitest';
import { everyone, people, type Who } from '../../test/people.ts';
import { mayTimetable, TIMETABLE_ACTIONS, type TimetableAction } from './policy.ts';

const table: Record<TimetableAction, Who[]> = {
  listFeeds: ['superadmin'],
};

describe('the timetable policy', () => {
  it('has a row for every action', () => {
    expect(Object.keys(table).sort()).toEqual([...TIMETABLE_ACTIONS].sort());
  });

  for (const action of TIMETABLE_ACTIONS) {
    for (const who of everyone) {
      const may = table[action].includes(who);
      it(`${may ? 'lets' : 'refuses'} ${who} ${action}`, () => {
        expect(mayTimetable(people[who], action)).toBe(may);
      });
    }
  }
});
