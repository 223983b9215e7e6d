import type { Actor } from '../parcels/policy.ts';

/**
 * Trips are a runner's own (issue 13 item 6): only a runner plans or saves one, and only their own
 * saved trips are ever read (the service filters by owner). No role, the superadmin included, reads
 * another's.
 */
export const mayTrip = (actor: Actor) => actor !== null && actor.role === 'runner';
