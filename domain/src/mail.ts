import { z } from 'zod';
import { emailField, passwordField } from './account.ts';
import { messages } from './messages.ts';

/**
 * Email (issue 29, docs/decisions/0031): what is sent, and the forgotten password's two steps.
 * Messages are written to an outbox with the change that caused them and sent over SMTP, or, with
 * no SMTP server configured, written as .eml files under DATA_DIR/mail.
 */

/**
 * What a receiver without an account is told of a parcel a sender addressed to their email: that
 * it is coming, picked up, that its runner is near (once), a failed attempt, where it waits
 * (a neighbour, a drop point), delivered. Each with the tracking link and a one-click stop.
 */
export const RECEIVER_MAIL_KINDS = [
  'coming',
  'picked_up',
  'near',
  'attempted',
  'with_neighbour',
  'at_drop_point',
  'delivered',
] as const;
export type ReceiverMailKind = (typeof RECEIVER_MAIL_KINDS)[number];

/** What a sender is told of their parcels by mail, each switchable on the profile page (on unless switched off). */
export const SENDER_MAIL_KINDS = ['picked_up', 'attempted', 'delivered', 'reported'] as const;
export type SenderMailKind = (typeof SENDER_MAIL_KINDS)[number];
export const senderMailKindLabels: Record<SenderMailKind, string> = {
  picked_up: messages.mailKindPickedUp,
  attempted: messages.mailKindAttempted,
  delivered: messages.mailKindDelivered,
  reported: messages.mailKindReported,
};
export const isSenderMailKind = (value: unknown): value is SenderMailKind =>
  SENDER_MAIL_KINDS.includes(value as SenderMailKind);

/** A runner is 'near' the receiver's door within this distance, on the way to it: told once. */
export const RECEIVER_NEAR_METRES = 1000;

export const MAIL_TEMPLATES = [
  'password_reset',
  'email_verification',
  'email_changed',
  'receiver_coming',
  'receiver_picked_up',
  'receiver_near',
  'receiver_attempted',
  'receiver_with_neighbour',
  'receiver_at_drop_point',
  'receiver_delivered',
  'sender_picked_up',
  'sender_attempted',
  'sender_delivered',
  'sender_reported',
] as const;
export type MailTemplate = (typeof MAIL_TEMPLATES)[number];
export const receiverTemplate = (kind: ReceiverMailKind) => `receiver_${kind}` as const satisfies MailTemplate;
export const senderTemplate = (kind: SenderMailKind) => `sender_${kind}` as const satisfies MailTemplate;

/** An email verification link is good this long, once (issue 29). */
export const EMAIL_VERIFICATION_TTL_MS = 48 * 60 * 60 * 1000;

/** GET/PATCH /api/me/mail-preferences: the address, whether it is verified, and the sender's switches. */
export const mailSettingsSchema = z.object({
  email: z.string(),
  verified: z.boolean(),
  /** A new address waiting for its link; the old one is used until then. */
  pendingEmail: z.string().nullable(),
  kinds: z.object(
    Object.fromEntries(SENDER_MAIL_KINDS.map((kind) => [kind, z.boolean()])) as Record<SenderMailKind, z.ZodBoolean>,
  ),
});
export type MailSettings = z.infer<typeof mailSettingsSchema>;
export const mailSettingsUpdateSchema = z.object({
  kinds: z
    .object(
      Object.fromEntries(SENDER_MAIL_KINDS.map((kind) => [kind, z.boolean().optional()])) as Record<
        SenderMailKind,
        z.ZodOptional<z.ZodBoolean>
      >,
    )
    .strict(),
});
export type MailSettingsUpdate = z.infer<typeof mailSettingsUpdateSchema>;

/** The link's token in a verification or one-click stop request (sent in the body, never in a URL a log keeps). */
const linkToken = z
  .string({ error: messages.mailLinkInvalid })
  .min(1, { error: messages.mailLinkInvalid })
  .max(500, { error: messages.mailLinkInvalid });
/** POST /api/auth/verify-email: the token from the verification link. */
export const emailVerificationSchema = z.object({ token: linkToken });
/** Verification links one account may ask for again an hour (POST /api/auth/verify-email/resend). */
export const EMAIL_VERIFICATION_RESENDS_PER_HOUR = 3;
/** What verify-email answers (the address now verified) and resend (the address the link went to). */
export const emailVerificationResultSchema = z.object({ email: z.string() });
export type EmailVerificationResult = z.infer<typeof emailVerificationResultSchema>;
/** POST /api/mail/unsubscribe (JSON from our page; the mail client's one-click POST carries it in the URL). */
export const unsubscribeBodySchema = z.object({ token: linkToken });
/** What the one-click stop switched off: mail about one parcel, or one kind of a sender's mail. */
export const unsubscribeResultSchema = z.object({
  stopped: z.enum(['parcel', 'sender_kind']),
  parcelId: z.string().nullable(),
  kind: z.enum(SENDER_MAIL_KINDS).nullable(),
});
export type UnsubscribeResult = z.infer<typeof unsubscribeResultSchema>;

/** GET /api/parcels/:id/receiver-code: what the receiver's link shows only to them (the header carries its key). */
export const RECEIVER_LINK_HEADER = 'x-receiver-link';

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
/** A message's status from its outcome: sent, failed for good, or neither yet (waiting). */
export const mailStatusOf = (message: { sentAt: string | null; failedAt: string | null }): MailStatus =>
  message.sentAt ? 'sent' : message.failedAt ? 'failed' : 'pending';

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

/** The messages listed for one parcel on the back office's incident detail, newest first. */
export const PARCEL_MESSAGES_LISTED = 50;

/**
 * A message about a parcel as the back office's incident detail lists it: to whom, what, when
 * written and what became of it (sent, failed, or neither yet: waiting). Never its body: the links
 * in it carry the receiver's key and the stop token.
 */
export const parcelMessageSchema = z.object({
  id: z.number().int(),
  to: z.string(),
  template: z.enum(MAIL_TEMPLATES),
  subject: z.string(),
  createdAt: z.string(),
  sentAt: z.string().nullable(),
  failedAt: z.string().nullable(),
});
export type ParcelMessage = z.infer<typeof parcelMessageSchema>;
