import type { mail as hu } from '../hu/mail.ts';
import type { Translation } from '../translation.ts';

/**
 * Email (issue 29): the messages themselves, the forgotten password's pages, and the back office's
 * outgoing mail. Every message reads on a phone's mail client; none names a third person.
 */
export const mail = {
  // the password reset message
  mailPasswordResetSubject: 'Set a new password – Csomagküldő',
  mailGreeting: (name: string) => `Hi ${name},`,
  mailPasswordResetBody:
    'Someone – hopefully you – asked for a new password for your Csomagküldő account. You can set a new password once, within an hour, with the link below:',
  mailPasswordResetButton: 'Set a new password',
  mailPasswordResetIgnore: "If it wasn't you, you don't need to do anything: your password won't change.",
  mailSignature: 'Csomagküldő',
  mailAutomatic: "This email was sent automatically by Csomagküldő; please don't reply to it.",

  // 'Forgotten password'
  forgotPasswordLink: 'Forgotten your password?',
  forgotPasswordTitle: 'Forgotten password',
  forgotPasswordIntro: "Enter your account's email address: we'll send you a link to set a new password.",
  forgotPasswordSubmit: 'Send link',
  forgotPasswordSent:
    "If there is an account with this address, we've sent the link to it. Check your inbox (and your spam folder too); the link is valid for one hour.",
  resetPasswordTitle: 'Set a new password',
  resetPasswordLabel: 'New password',
  resetPasswordSubmit: 'Save password',
  resetPasswordDone:
    "Your new password is saved. We've signed you out on every device: sign in with your new password.",
  resetPasswordNoToken: 'The link is incomplete: open it again from the email, or ask for a new link.',
  resetTokenInvalid: 'This link is invalid, has expired or has already been used. Ask for a new link.',
  resetTooMany: 'Too many requests for this address: try again in an hour.',
  resetAskAgain: 'Ask for a new link',

  // the back office's outgoing mail
  mailOutboxTitle: 'Outgoing mail',
  mailOutboxMenu: 'Mail',
  mailOutboxEmpty: 'No mail has been sent yet.',
  mailOutboxViaSmtp: 'Mail is sent through the configured SMTP server.',
  mailOutboxViaFiles:
    'No SMTP server is configured (SMTP_URL): messages are saved as .eml files in the DATA_DIR/mail folder, where you can see what would have been sent.',
  mailStatusPending: 'waiting to be sent',
  mailStatusSent: 'sent',
  mailStatusFailed: 'failed',
  mailTemplatePasswordReset: 'Password reset',
  mailOutboxFile: (name: string) => `File: ${name}`,
  mailOutboxAttempts: (count: number) => `Attempt ${count}`,
  mailOutboxError: (error: string) => `Error: ${error}`,
} as const satisfies Translation<typeof hu>;
