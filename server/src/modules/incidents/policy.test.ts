import { describe, expect, it } from 'vitest';
import { everyone, people } from '../../test/people.ts';
import { INCIDENT_ACTIONS, mayIncident } from './policy.ts';

describe('the incident policy', () => {
  // Reporting one is the parcel policy's `reportIncident` (its carrier): parcels/policy.test.ts.
  for (const action of INCIDENT_ACTIONS) {
    for (const who of everyone) {
      const allowed = who === 'superadmin';
      it(`${allowed ? 'lets' : 'refuses'} ${who} ${action} incidents`, () => {
        expect(mayIncident(people[who], action)).toBe(allowed);
      });
    }
  }
});
