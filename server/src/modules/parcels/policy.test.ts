import { describe, expect, it } from 'vitest';
import { everyone, people, runners, signedIn, theParcel, trustedRunners, users, type Who } from '../../test/people.ts';
import { mayParcel, mayParty, PARCEL_ACTIONS, type ParcelAction, parcelRefusal, relationship } from './policy.ts';

const superadmin: Who[] = ['superadmin'];

/**
 * Who may do each action: to some parcel (what a route's guard asks) and to this parcel, sent by
 * `sender` to `receiver`'s address and carried and held by `carrier` (what a service asks with the
 * parcel in hand). Runners the back office suspended or has not approved take nothing on.
 */
const table: Record<ParcelAction, { some: Who[]; this: Who[] }> = {
  track: { some: everyone, this: everyone },
  view: { some: [...users, ...runners, 'superadmin'], this: ['sender', 'carrier', 'superadmin'] },
  send: { some: [...users, 'superadmin'], this: [...users, 'superadmin'] },
  sendForOthers: { some: superadmin, this: superadmin },
  beSender: { some: users, this: users },
  cancel: { some: users, this: ['sender'] },
  listSent: { some: users, this: users },
  listIncoming: { some: users, this: users },
  listWaiting: { some: [...trustedRunners, 'superadmin'], this: [...trustedRunners, 'superadmin'] },
  listCarried: { some: runners, this: runners },
  listAll: { some: superadmin, this: superadmin },
  pickUp: { some: trustedRunners, this: trustedRunners },
  beAssigned: { some: trustedRunners, this: trustedRunners },
  deliver: { some: [...runners, 'superadmin'], this: ['carrier', 'superadmin'] },
  deliverWithoutPosition: { some: superadmin, this: superadmin },
  recordAttempt: { some: runners, this: ['carrier'] },
  startReturn: { some: runners, this: ['carrier'] },
  requestRedelivery: { some: [...users, 'superadmin'], this: ['sender', 'receiver', 'superadmin'] },
  handOverByPin: { some: runners, this: ['carrier'] },
  leaveWithNeighbour: { some: runners, this: ['carrier'] },
  seeNeighbourPin: { some: runners, this: ['carrier'] },
  collect: { some: users, this: ['receiver'] },
  reportIncident: { some: runners, this: ['carrier'] },
  chooseDropPoint: {
    some: [...users, ...runners, 'superadmin'],
    this: ['sender', 'receiver', 'carrier', 'superadmin'],
  },
  seeHandoverPin: { some: users, this: ['sender', 'receiver'] },
  seeAttempts: { some: signedIn, this: ['sender', 'receiver', 'carrier', 'superadmin'] },
  showHandoverCode: { some: runners, this: ['carrier'] },
  addPhoto: { some: runners, this: ['carrier'] },
  seeProof: { some: signedIn, this: ['sender', 'receiver', 'superadmin'] },
  report: { some: users, this: ['sender', 'receiver'] },
  offerForRelay: { some: trustedRunners, this: ['carrier'] },
  takeOver: { some: trustedRunners, this: ['otherRunner'] },
  seeCustody: { some: superadmin, this: superadmin },
  seeHandoverConfirmer: { some: superadmin, this: superadmin },
  receiveTripOffers: { some: trustedRunners, this: trustedRunners },
  edit: { some: superadmin, this: superadmin },
  delete: { some: superadmin, this: superadmin },
  assign: { some: superadmin, this: superadmin },
};

describe('the parcel policy', () => {
  it('has a row for every action', () => {
    expect(Object.keys(table).sort()).toEqual([...PARCEL_ACTIONS].sort());
  });

  for (const action of PARCEL_ACTIONS) {
    for (const who of everyone) {
      const some = table[action].some.includes(who);
      const here = table[action].this.includes(who);
      it(`${some ? 'lets' : 'refuses'} ${who} ${action} some parcel, and ${here ? 'lets' : 'refuses'} this one`, () => {
        expect(mayParcel(people[who], action)).toBe(some);
        expect(mayParcel(people[who], action, theParcel)).toBe(here);
      });
    }
  }

  it('lets a suspended runner finish what they hold, and nothing more', () => {
    const suspendedCarrier = {
      ...theParcel,
      runner_id: people.suspendedRunner.id,
      holder_id: people.suspendedRunner.id,
    };
    for (const action of [
      'deliver',
      'handOverByPin',
      'recordAttempt',
      'startReturn',
      'showHandoverCode',
      'addPhoto',
    ] as const) {
      expect(mayParcel(people.suspendedRunner, action, suspendedCarrier), action).toBe(true);
    }
    for (const action of ['offerForRelay', 'pickUp', 'listWaiting'] as const) {
      expect(mayParcel(people.suspendedRunner, action, suspendedCarrier), action).toBe(false);
    }
  });

  it('says why: the trust refusal when trust alone stands in the way, else 403', () => {
    const reason = { suspended_reason: 'Panasz' };
    expect(parcelRefusal({ ...people.suspendedRunner, ...reason }, 'pickUp')?.code).toBe('runner_suspended');
    expect(parcelRefusal({ ...people.unapprovedRunner, suspended_reason: null }, 'pickUp')?.code).toBe(
      'runner_not_approved',
    );
    // Not a matter of trust: a user may never pick up; the back office is never a carrier.
    expect(parcelRefusal({ ...people.sender, suspended_reason: null }, 'pickUp')?.code).toBe('forbidden');
    expect(parcelRefusal({ ...people.suspendedRunner, ...reason }, 'listAll')?.code).toBe('forbidden');
    expect(parcelRefusal({ ...people.carrier, suspended_reason: null }, 'pickUp')).toBeNull();
  });
});

describe('the receiver by the link in their mail (issue 29)', () => {
  const link = { receiverOf: 'PARCEL0001' };
  it('may to that parcel only what its receiver with an account may, and the choices after a failed attempt', () => {
    const byLink = PARCEL_ACTIONS.filter((action) => mayParty(link, action, 'PARCEL0001', theParcel));
    expect(byLink.sort()).toEqual(['chooseDropPoint', 'collect', 'requestRedelivery', 'seeAttempts', 'seeProof']);
    for (const action of byLink) expect(mayParcel(people.receiver, action, theParcel), action).toBe(true);
  });
  it('may nothing to another parcel', () => {
    expect(PARCEL_ACTIONS.filter((action) => mayParty(link, action, 'PARCEL0002', theParcel))).toEqual([]);
  });
  it('leaves an account to the policy table', () => {
    for (const action of PARCEL_ACTIONS) {
      expect(mayParty(people.receiver, action, 'PARCEL0001', theParcel)).toBe(
        mayParcel(people.receiver, action, theParcel),
      );
    }
  });
});

describe('who receives a parcel', () => {
  it('is a user living at its destination, never an empty address nor another role', () => {
    expect(relationship.receiver(people.receiver, theParcel)).toBe(true);
    expect(relationship.receiver(people.otherUser, theParcel)).toBe(false);
    const homeless = { ...people.otherUser, address_key: '' };
    expect(relationship.receiver(homeless, { receiver_key: '' })).toBe(false);
    const runnerThere = { ...people.otherRunner, address_key: theParcel.receiver_key };
    expect(relationship.receiver(runnerThere, theParcel)).toBe(false);
    expect(relationship.receiver(null, theParcel)).toBe(false);
  });
});
