import { describe, expect, it } from 'vitest';
import { everyone, people } from '../../test/people.ts';
import { mayReport, REPORT_ACTIONS } from './policy.ts';

describe('the report policy', () => {
  // Making a report is the parcel policy's `report` (its sender or receiver): parcels/policy.test.ts.
  for (const action of REPORT_ACTIONS) {
    for (const who of everyone) {
      const allowed = who === 'superadmin';
      it(`${allowed ? 'lets' : 'refuses'} ${who} ${action} reports`, () => {
        expect(mayReport(people[who], action)).toBe(allowed);
      });
    }
  }
});
