import { describe, expect, it } from 'vitest';
import { type Actor, mayParcel, PARCEL_ACTIONS, type ParcelAction } from './policy.ts';

/** Everyone a parcel rule can meet: the parcel's own people, others of each role, nobody. */
const people = {
  anonymous: null,
  sender: { id: 1, role: 'user' },
  otherUser: { id: 2, role: 'user' },
  carrier: { id: 3, role: 'runner' },
  otherRunner: { id: 4, role: 'runner' },
  superadmin: { id: 5, role: 'superadmin' },
} as const satisfies Record<string, Actor>;
type Who = keyof typeof people;
const everyone = Object.keys(people) as Who[];
const parcel = { sender_id: people.sender.id, runner_id: people.carrier.id };

/**
 * Who may do each action: to some parcel (what a route's guard asks) and to this parcel, sent by
 * `sender` and carried by `carrier` (what a service asks with the parcel in hand).
 */
const table: Record<ParcelAction, { some: Who[]; this: Who[] }> = {
  track: { some: everyone, this: everyone },
  view: {
    some: ['sender', 'otherUser', 'carrier', 'otherRunner', 'superadmin'],
    this: ['sender', 'carrier', 'superadmin'],
  },
  send: { some: ['sender', 'otherUser', 'superadmin'], this: ['sender', 'otherUser', 'superadmin'] },
  sendForOthers: { some: ['superadmin'], this: ['superadmin'] },
  beSender: { some: ['sender', 'otherUser'], this: ['sender', 'otherUser'] },
  cancel: { some: ['sender', 'otherUser'], this: ['sender'] },
  listSent: { some: ['sender', 'otherUser'], this: ['sender', 'otherUser'] },
  listIncoming: { some: ['sender', 'otherUser'], this: ['sender', 'otherUser'] },
  listWaiting: {
    some: ['carrier', 'otherRunner', 'superadmin'],
    this: ['carrier', 'otherRunner', 'superadmin'],
  },
  listCarried: { some: ['carrier', 'otherRunner'], this: ['carrier', 'otherRunner'] },
  listAll: { some: ['superadmin'], this: ['superadmin'] },
  pickUp: { some: ['carrier', 'otherRunner'], this: ['carrier', 'otherRunner'] },
  deliver: { some: ['carrier', 'otherRunner', 'superadmin'], this: ['carrier', 'superadmin'] },
  deliverWithoutPosition: { some: ['superadmin'], this: ['superadmin'] },
  giveBack: { some: ['carrier', 'otherRunner'], this: ['carrier'] },
  showHandoverCode: { some: ['carrier', 'otherRunner'], this: ['carrier'] },
  edit: { some: ['superadmin'], this: ['superadmin'] },
  delete: { some: ['superadmin'], this: ['superadmin'] },
  assign: { some: ['superadmin'], this: ['superadmin'] },
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
        expect(mayParcel(people[who], action, parcel)).toBe(here);
      });
    }
  }
});
