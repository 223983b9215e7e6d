import type { relayAdmin as hu } from '../hu/relay-admin.ts';
import type { Translation } from '../translation.ts';

/** Relay in the back office: the multi-leg filter and the custody override (issue 14). */
export const relayAdmin = {
  multiLegFilterInvalid: 'The “multi-leg” filter can only be true or false.',
  multiLegFilter: 'Multi-leg',
  multiLegFilterHint: 'Only parcels handed over from runner to runner',
  multiLegBadge: 'multi-leg',
  custodyOverrideTitle: 'Change responsible runner',
  custodyOverrideIntro: (runner: string) =>
    `${runner} is responsible for the parcel now. If someone else actually has it, name the new runner and say why you are changing it: the chain records it.`,
  custodyOverrideRunner: 'New responsible runner (username)',
  custodyOverrideReason: 'Reason for the change',
  custodyOverrideSubmit: 'Assign new responsible runner',
  custodyEventUnverified: '(cannot be verified)',
  custodyHash: (hash: string) => `hash ${hash}…`,
  custodyOverrideDone: (runner: string) => `Saved: ${runner} is now responsible for the parcel.`,
} as const satisfies Translation<typeof hu>;
