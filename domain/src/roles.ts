export const ROLES = ['user', 'runner', 'superadmin'] as const;
export type Role = (typeof ROLES)[number];

/** Roles a person can choose at self-registration; the superadmin is created by configuration. */
export const SELF_REGISTER_ROLES = ['user', 'runner'] as const;
export type SelfRegisterRole = (typeof SELF_REGISTER_ROLES)[number];

export const RUNNER_STATUSES = ['inactive', 'active'] as const;
export type RunnerStatus = (typeof RUNNER_STATUSES)[number];

/**
 * What is true of a runner (issue 27), instead of SPEC's status field, which nothing ever changes
 * from 'inactive': approved by the back office, awaiting approval, or suspended.
 */
export const RUNNER_STANDINGS = ['approved', 'awaiting_approval', 'suspended'] as const;
export type RunnerStanding = (typeof RUNNER_STANDINGS)[number];

/** A suspension outweighs an approval; a runner never approved is awaiting it. */
export function runnerStanding(trust: { approvedAt: string | null; suspendedAt: string | null }): RunnerStanding {
  if (trust.suspendedAt !== null) return 'suspended';
  return trust.approvedAt === null ? 'awaiting_approval' : 'approved';
}
