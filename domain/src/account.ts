import { z } from 'zod';
import { MIN_EMAIL_LENGTH, MIN_PASSWORD_LENGTH, USER_NAME_PATTERN } from './constants.ts';
import { LANGUAGES } from './language.ts';
import { messages } from './messages.ts';
import { ROLES, RUNNER_STANDINGS, RUNNER_STATUSES, SELF_REGISTER_ROLES } from './roles.ts';

/** Trimmed, non-empty text of at most `max` characters, with Hungarian messages. */
export const requiredText = (max: number) =>
  z
    .string({ error: messages.required })
    .trim()
    .min(1, { error: messages.required })
    .max(max, { error: `Legfeljebb ${max} karakter.` });

export const nameField = requiredText(100);
export const phoneField = requiredText(40);
export const addressField = requiredText(200);
export const userNameField = z
  .string({ error: messages.required })
  .trim()
  .regex(USER_NAME_PATTERN, { error: messages.invalidUserName });
// Stored in lower case: people type their email in any case.
export const emailField = z
  .string({ error: messages.required })
  .trim()
  .toLowerCase()
  .min(1, { error: messages.required })
  .max(254, { error: messages.invalidEmail })
  .pipe(z.email({ error: messages.invalidEmail }));
export const passwordField = z
  .string({ error: messages.required })
  .min(MIN_PASSWORD_LENGTH, { error: messages.passwordMin })
  .max(200, { error: 'Legfeljebb 200 karakter.' });

export const newAccountSchema = z.object({
  name: nameField,
  userName: userNameField,
  email: emailField,
  password: passwordField,
  phoneNumber: phoneField,
  address: addressField,
});
export type NewAccount = z.infer<typeof newAccountSchema>;

export const registerBodySchema = newAccountSchema.extend({
  role: z.enum(SELF_REGISTER_ROLES, { error: messages.selfRegisterRoleInvalid }),
});
export type RegisterBody = z.infer<typeof registerBodySchema>;

/** Sign-in keeps SPEC's client-side minimums; the server only checks the same shape. */
export const loginBodySchema = z.object({
  email: z.string().trim().toLowerCase().min(MIN_EMAIL_LENGTH, { error: messages.emailTooShort }).max(254),
  password: z.string().min(MIN_PASSWORD_LENGTH, { error: messages.passwordTooShort }).max(200),
});
export type LoginBody = z.infer<typeof loginBodySchema>;

/** An account as any client sees it — never a password or its hash. */
export const accountSchema = z.object({
  userName: z.string(),
  name: z.string(),
  email: z.string(),
  /** Whether `email` was shown to be theirs by the link mailed to it (issue 29). */
  emailVerified: z.boolean(),
  /** A new address waiting for its link; `email` stays in use until it is opened. */
  pendingEmail: z.string().nullable(),
  phoneNumber: z.string(),
  address: z.string(),
  role: z.enum(ROLES),
  /** SPEC's runner status field: 'inactive' from registration on, never changed; not shown (see `standing`). */
  status: z.enum(RUNNER_STATUSES).optional(),
  /**
   * A runner's standing with the back office and, while suspended, its reason (issue 27). An
   * account leaves the server only to itself or to the back office (users/policy.ts).
   */
  standing: z.object({ state: z.enum(RUNNER_STANDINGS), suspendedReason: z.string().nullable() }).optional(),
  /** The language they chose (issue 30); null: none yet, their browser's is used. */
  language: z.enum(LANGUAGES).nullable(),
});
export type Account = z.infer<typeof accountSchema>;

export const meResponseSchema = z.object({ account: accountSchema.nullable() });
/** What sign-in, registration and profile reads and edits answer. */
export const accountResponseSchema = z.object({ account: accountSchema });

/** A language of the product's (issue 30), chosen on the profile or by the switch. */
export const languageField = z.enum(LANGUAGES, { error: messages.languageInvalid });

/** Profile edit: every field optional; an empty password means "keep the old one". */
export const profileUpdateSchema = z.object({
  name: nameField.optional(),
  password: z.union([z.literal(''), passwordField]).optional(),
  phoneNumber: phoneField.optional(),
  address: addressField.optional(),
  email: emailField.optional(),
  language: languageField.optional(),
});
export type ProfileUpdate = z.infer<typeof profileUpdateSchema>;
