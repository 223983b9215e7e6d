import type { PushSubscriptionsTable } from '../../db/schema.ts';
import { type Actor, policyGuard } from '../../policy.ts';

/** What the device rules look at. */
export type PushDeviceFacts = Pick<PushSubscriptionsTable, 'account_id'>;

/** Registered it: a device belongs to the account that subscribed it. */
const owner = (actor: Actor, device: PushDeviceFacts) => actor !== null && device.account_id === actor.id;

/**
 * Web Push (docs/decisions/0018): every signed-in account may be told about its own parcels, on its
 * own devices, with its own switches. Nobody — the superadmin included — reads or removes another's
 * devices or preferences (the service reads them by owner, so another's device is a 404).
 */
const rules = {
  /** The server's public key, to subscribe a device. */
  readKey: (actor: Actor) => actor !== null,
  /** Subscribe, list, remove one's devices. */
  manageDevices: (actor: Actor, device?: PushDeviceFacts) => actor !== null && (!device || owner(actor, device)),
  /** Which kinds one is told about. */
  managePreferences: (actor: Actor) => actor !== null,
} satisfies Record<string, (actor: Actor, device?: PushDeviceFacts) => boolean>;

export type PushAction = keyof typeof rules;
export const PUSH_ACTIONS = Object.keys(rules) as PushAction[];

export const mayPush = (actor: Actor, action: PushAction, device?: PushDeviceFacts): boolean =>
  rules[action](actor, device);

export const pushGuard = (action: PushAction) => policyGuard((actor) => mayPush(actor, action));
