import { type Actor, hasRole, policyGuard } from '../../policy.ts';

/** The timetables in use are the back office's to see (which feeds, until when). */
const rules = {
  listFeeds: (actor: Actor) => hasRole(actor, 'superadmin'),
} satisfies Record<string, (actor: Actor) => boolean>;

export type TimetableAction = keyof typeof rules;
export const TIMETABLE_ACTIONS = Object.keys(rules) as TimetableAction[];

export const mayTimetable = (actor: Actor, action: TimetableAction): boolean => rules[action](actor);

export const timetableGuard = (action: TimetableAction) => policyGuard((actor) => mayTimetable(actor, action));
