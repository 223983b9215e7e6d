import type { Role } from '@csomag/domain/roles';
import type { Actor } from '../policy.ts';

/** The receiver address of the parcels the policy tests ask about (addressKey form). */
const RECEIVER_KEY = '1052 budapest vaci utca 12';

/**
 * Someone a policy rule can meet, as the rule sees them: a trusted runner unless `trust` says
 * otherwise, living at their own address unless `address_key` says where.
 */
export function person(
  id: number,
  role: Role,
  overrides: Partial<Pick<NonNullable<Actor>, 'address_key' | 'approved_at' | 'suspended_at'>> = {},
): NonNullable<Actor> {
  return {
    id,
    role,
    address_key: `${id} budapest sajat utca ${id}`,
    approved_at: role === 'runner' ? '2026-01-01T00:00:00.000Z' : null,
    suspended_at: null,
    ...overrides,
  };
}

/** Everyone the table tests use: the parcel's own people, others of each role, runners out of trust, nobody. */
export const people = {
  anonymous: null,
  sender: person(1, 'user'),
  receiver: person(2, 'user', { address_key: RECEIVER_KEY }),
  otherUser: person(3, 'user'),
  carrier: person(4, 'runner'),
  otherRunner: person(5, 'runner'),
  suspendedRunner: person(6, 'runner', { suspended_at: '2026-02-01T00:00:00.000Z' }),
  unapprovedRunner: person(7, 'runner', { approved_at: null }),
  superadmin: person(8, 'superadmin'),
} as const satisfies Record<string, Actor>;
export type Who = keyof typeof people;
export const everyone = Object.keys(people) as Who[];
export const signedIn = everyone.filter((who) => who !== 'anonymous');
export const runners: Who[] = ['carrier', 'otherRunner', 'suspendedRunner', 'unapprovedRunner'];
export const trustedRunners: Who[] = ['carrier', 'otherRunner'];
export const users: Who[] = ['sender', 'receiver', 'otherUser'];

/** A parcel `sender` sent to `receiver`'s address, carried (and held) by `carrier`. */
export const theParcel = {
  sender_id: people.sender.id,
  runner_id: people.carrier.id,
  receiver_key: RECEIVER_KEY,
  holder_kind: 'runner',
  holder_id: people.carrier.id,
} as const;
