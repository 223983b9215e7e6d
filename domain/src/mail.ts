import { z } from 'zod';
import { emailField, passwordField } from './account.ts';
import { messages } from './messages.ts';

/**
 * Email (issue 29, docs/decisions/0031): what is sent, and the forgotten password's two steps.
 * Messages are written to an outbox with the change that caused them and sent over SMTP, or, with
 * no SMTP server configured, written as .eml files under DATA_DIR/mail.
 */

export const MAIL_TEMPLATES = ['password_reset'] as const;
export type MailTemplate = (typeof MAIL_TEMPLATES)[number];

/** A password reset link is good for this long, once. */
export const PASSWORD_RESET_TTL_MS = 60 * 60 * 1000;
/** Reset links asked per email address (and per client address) an hour. */
export const PASSWORD_RESET_MAX_PER_HOUR = 3;

/** POST /api/auth/password-reset: the address to send the link to. The answer is the same whether it is known or not. */
export const passwordResetRequestSchema = z.object({ email: emailField });
export type PasswordResetRequest = z.infer<typeof passwordResetRequestSchema>;

/** POST /api/auth/password-reset/confirm: the link's token and the new password. */
export const passwordResetConfirmSchema = z.object({
  token: z
    .string({ error: messages.resetTokenInvalid })
    .regex(/^[A-Za-z0-9_-]{43}$/, { error: messages.resetTokenInvalid }),
  password: passwordField,
});
export type PasswordResetConfirm = z.infer<typeof passwordResetConfirmSchema>;

export const MAIL_STATUSES = ['pending', 'sent', 'failed'] as const;
export type MailStatus = (typeof MAIL_STATUSES)[number];

/** 'Kimenő levelek': a message as the back office sees it (the body only as its subject says). */
export const outgoingMailSchema = z.object({
  id: z.number().int(),
  to: z.string(),
  template: z.enum(MAIL_TEMPLATES),
  subject: z.string(),
  createdAt: z.string(),
  status: z.enum(MAIL_STATUSES),
  attempts: z.number().int(),
  sentAt: z.string().nullable(),
  lastError: z.string().nullable(),
  /** Without SMTP: the .eml file under DATA_DIR/mail. */
  fileName: z.string().nullable(),
});
export type OutgoingMail = z.infer<typeof outgoingMailSchema>;
export const outgoingMailListSchema = z.object({
  items: z.array(outgoingMailSchema),
  /** Where messages go: an SMTP server, or .eml files. */
  transport: z.enum(['smtp', 'files']),
});
export type OutgoingMailList = z.infer<typeof outgoingMailListSchema>;
