import { type Actor, hasRole, policyGuard } from '../../policy.ts';

/**
 * Incidents ('Probléma bejelentése', issue 28). Reporting one is the parcel policy's
 * `reportIncident` (the runner carrying it); reading and deciding them is the back office's.
 */
const rules = {
  list: (actor: Actor) => hasRole(actor, 'superadmin'),
  view: (actor: Actor) => hasRole(actor, 'superadmin'),
  resolve: (actor: Actor) => hasRole(actor, 'superadmin'),
} satisfies Record<string, (actor: Actor) => boolean>;

export type IncidentAction = keyof typeof rules;
export const INCIDENT_ACTIONS = Object.keys(rules) as IncidentAction[];

export const mayIncident = (actor: Actor, action: IncidentAction): boolean => rules[action](actor);

export const incidentGuard = (action: IncidentAction) => policyGuard((actor) => mayIncident(actor, action));
