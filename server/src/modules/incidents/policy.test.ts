import { describe, expect, it } from 'vitest';
import { everyone, people, runners, users, type Who } from '../../test/people.ts';
import { INCIDENT_ACTIONS, type IncidentAction, mayIncident } from './policy.ts';

/**
 * Who may do each action at all (a route's guard). Which parcel a reporter may report on is the
 * parcel policy's (its carrier: parcels/policy.test.ts) or the drop point policy's (its staff).
 */
const table: Record<IncidentAction, Who[]> = {
  report: [...runners, ...users],
  list: ['superadmin'],
  view: ['superadmin'],
  resolve: ['superadmin'],
};

describe('the incident policy', () => {
  it('has a row for every action', () => {
    expect(Object.keys(table).sort()).toEqual([...INCIDENT_ACTIONS].sort());
  });
  for (const action of INCIDENT_ACTIONS) {
    for (const who of everyone) {
      const allowed = table[action].includes(who);
      it(`${allowed ? 'lets' : 'refuses'} ${who} ${action} incidents`, () => {
        expect(mayIncident(people[who], action)).toBe(allowed);
      });
    }
  }
});
