import { type Actor, hasRole, policyGuard } from '../../policy.ts';
import { mayDropPoint } from '../drop-points/policy.ts';
import { mayParcel } from '../parcels/policy.ts';

/**
 * Incidents ('Probléma bejelentése', issue 28). Reporting one is for whoever has the parcel in
 * hand: the parcel policy's `reportIncident` (the runner carrying it) or the drop point policy's
 * (the staff of the place where it waits) — which, the service tells by the parcel. Reading and
 * deciding them is the back office's.
 */
const rules = {
  report: (actor: Actor) => mayParcel(actor, 'reportIncident') || mayDropPoint(actor, 'reportIncident'),
  list: (actor: Actor) => hasRole(actor, 'superadmin'),
  view: (actor: Actor) => hasRole(actor, 'superadmin'),
  resolve: (actor: Actor) => hasRole(actor, 'superadmin'),
} satisfies Record<string, (actor: Actor) => boolean>;

export type IncidentAction = keyof typeof rules;
export const INCIDENT_ACTIONS = Object.keys(rules) as IncidentAction[];

export const mayIncident = (actor: Actor, action: IncidentAction): boolean => rules[action](actor);

export const incidentGuard = (action: IncidentAction) => policyGuard((actor) => mayIncident(actor, action));
