import { type Actor, hasRole, policyGuard } from '../../policy.ts';

/**
 * 'Nem érkezett meg' reports (issue 15). Making one is a parcel's sender's or receiver's (the parcel
 * policy's `report`); reading and deciding them is the back office's.
 */
const rules = {
  list: (actor: Actor) => hasRole(actor, 'superadmin'),
  view: (actor: Actor) => hasRole(actor, 'superadmin'),
  resolve: (actor: Actor) => hasRole(actor, 'superadmin'),
} satisfies Record<string, (actor: Actor) => boolean>;

export type ReportAction = keyof typeof rules;
export const REPORT_ACTIONS = Object.keys(rules) as ReportAction[];

export const mayReport = (actor: Actor, action: ReportAction): boolean => rules[action](actor);

export const reportGuard = (action: ReportAction) => policyGuard((actor) => mayReport(actor, action));
