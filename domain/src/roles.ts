export const ROLES = ['user', 'runner', 'superadmin'] as const;
export type Role = (typeof ROLES)[number];

/** Roles a person can choose at self-registration; the superadmin is created by configuration. */
export const SELF_REGISTER_ROLES = ['user', 'runner'] as const;
export type SelfRegisterRole = (typeof SELF_REGISTER_ROLES)[number];

export const RUNNER_STATUSES = ['inactive', 'active'] as const;
export type RunnerStatus = (typeof RUNNER_STATUSES)[number];
