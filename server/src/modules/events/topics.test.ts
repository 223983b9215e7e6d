import type { LiveTopic } from '@csomag/domain/live';
import type { Role } from '@csomag/domain/roles';
import { describe, expect, it } from 'vitest';
import type { ParcelChange } from '../../db/change-feed.ts';
import type { AccountRow } from '../../db/schema.ts';
import { type Subscriber, subscriberOf, topicsFor } from './topics.ts';

const change = (overrides: Partial<ParcelChange> = {}): ParcelChange => ({
  kind: 'created',
  parcelId: 'AAAAAAAAAA',
  status: 'waiting',
  runner: null,
  senderUser: 'anna',
  receiverKey: '6720 szeged karasz utca 5',
  previous: null,
  ...overrides,
});

const subscriber = (role: Role | null, topics: LiveTopic[], userName = 'bela', addressKey = 'bela cime'): Subscriber =>
  // Only the columns the topics look at: the stream keeps nothing else of the account.
  subscriberOf(
    role === null ? null : ({ id: 1, role, user_name: userName, address_key: addressKey } as AccountRow),
    topics,
  );

describe('which changes reach which topics', () => {
  it('sends parcel:<id> to anyone subscribed to that parcel only', () => {
    expect(topicsFor(subscriber(null, ['parcel:AAAAAAAAAA']), change())).toEqual(['parcel:AAAAAAAAAA']);
    expect(topicsFor(subscriber(null, ['parcel:BBBBBBBBBB']), change())).toEqual([]);
  });

  it('sends the superadmin every change on parcels', () => {
    const admin = subscriber('superadmin', ['parcels']);
    expect(topicsFor(admin, change({ kind: 'delivered', status: 'delivered' }))).toEqual(['parcels']);
  });

  it('sends runners on parcels only changes to the waiting list', () => {
    const runner = subscriber('runner', ['parcels']);
    expect(topicsFor(runner, change())).toEqual(['parcels']);
    const pickedUp = change({
      kind: 'picked_up',
      status: 'in_transit',
      runner: 'cili',
      previous: { status: 'waiting', runner: null, receiverKey: 'x' },
    });
    expect(topicsFor(runner, pickedUp)).toEqual(['parcels']);
    const delivered = change({
      kind: 'delivered',
      status: 'delivered',
      previous: { status: 'in_transit', runner: 'cili', receiverKey: 'x' },
    });
    expect(topicsFor(runner, delivered)).toEqual([]);
  });

  it('sends a user on me their own parcels and those addressed to their address, nothing else', () => {
    const anna = subscriber('user', ['me'], 'Anna', 'anna cime');
    expect(topicsFor(anna, change({ senderUser: 'anna' }))).toEqual(['me']);
    expect(topicsFor(anna, change({ senderUser: 'bela', receiverKey: 'anna cime' }))).toEqual(['me']);
    expect(topicsFor(anna, change({ senderUser: 'bela', receiverKey: 'mas cim' }))).toEqual([]);
    const moved = change({
      senderUser: 'bela',
      receiverKey: 'uj cim',
      previous: { status: 'waiting', runner: null, receiverKey: 'anna cime' },
    });
    expect(topicsFor(anna, moved)).toEqual(['me']);
  });

  it('sends a runner on me the parcels they carry, or carried before the change', () => {
    const cili = subscriber('runner', ['me'], 'cili');
    expect(topicsFor(cili, change({ status: 'in_transit', runner: 'cili' }))).toEqual(['me']);
    expect(topicsFor(cili, change({ status: 'in_transit', runner: 'dani' }))).toEqual([]);
    const unassigned = change({
      status: 'waiting',
      runner: null,
      previous: { status: 'in_transit', runner: 'cili', receiverKey: 'x' },
    });
    expect(topicsFor(cili, unassigned)).toEqual(['me']);
  });

  it('sends a relay offer to every runner and the superadmin on parcels, and to nobody on other topics', () => {
    const offer = change({ kind: 'relay_offer', status: 'in_transit', runner: 'cili', senderUser: 'anna' });
    // Any runner, not only the offering one, and the superadmin: on parcels only.
    expect(topicsFor(subscriber('runner', ['parcels', 'me'], 'dani'), offer)).toEqual(['parcels']);
    expect(topicsFor(subscriber('runner', ['parcels', 'me', 'parcel:AAAAAAAAAA'], 'cili'), offer)).toEqual(['parcels']);
    expect(topicsFor(subscriber('superadmin', ['parcels', 'parcel:AAAAAAAAAA']), offer)).toEqual(['parcels']);
    // Its sender, its receiver and the tracking page hear nothing: the parcel has not changed.
    expect(topicsFor(subscriber('user', ['me', 'parcel:AAAAAAAAAA'], 'anna'), offer)).toEqual([]);
    expect(topicsFor(subscriber('user', ['me'], 'zoli', '6720 szeged karasz utca 5'), offer)).toEqual([]);
    expect(topicsFor(subscriber(null, ['parcel:AAAAAAAAAA']), offer)).toEqual([]);
    // A runner who did not ask for parcels: nothing.
    expect(topicsFor(subscriber('runner', ['me'], 'cili'), offer)).toEqual([]);
  });

  it('sends one message per matching topic', () => {
    const admin = subscriber('superadmin', ['parcels', 'parcel:AAAAAAAAAA']);
    expect(topicsFor(admin, change())).toEqual(['parcel:AAAAAAAAAA', 'parcels']);
  });
});
