import { describe, expect, it } from 'vitest';
import { everyone, people, users, type Who } from '../../test/people.ts';
import { MAIL_ACTIONS, type MailAction, mayMail } from './policy.ts';

const table: Record<MailAction, Who[]> = {
  readOutbox: ['superadmin'],
  managePreferences: users,
};

describe('the mail policy', () => {
  it('has a row for every action', () => {
    expect(Object.keys(table).sort()).toEqual([...MAIL_ACTIONS].sort());
  });
  for (const action of MAIL_ACTIONS) {
    for (const who of everyone) {
      const may = table[action].includes(who);
      it(`${may ? 'lets' : 'refuses'} ${who} ${action}`, () => {
        expect(mayMail(people[who], action)).toBe(may);
      });
    }
  }
});
