import type { emailVerification as hu } from '../hu/email-verification.ts';
import type { Translation } from '../translation.ts';

/**
 * Email verification (issue 29): the link at registration, REQUIRE_EMAIL_VERIFICATION, and a
 * change of address (the new one verified, the old one told).
 */
export const emailVerification = {
  // the verification message
  mailVerifySubject: 'Confirm your email address – Csomagküldő',
  mailVerifyBody:
    'Thanks for signing up to Csomagküldő! Please confirm that this email address is yours: open the link below (valid for 48 hours, single use):',
  mailVerifyAccountBody:
    'Please confirm that this email address on Csomagküldő is yours: open the link below (valid for 48 hours, single use):',
  mailVerifyChangeBody:
    'You entered this address as the new email address of your Csomagküldő account. The change takes effect when you open the link below (valid for 48 hours, single use); until then, your old address stays in use:',
  mailVerifyButton: 'Confirm email address',
  mailVerifyIgnore: "If you didn't enter this address, you don't need to do anything: nothing will change.",

  // the notice to the old address once the new one is verified
  mailEmailChangedSubject: 'Your email address has changed – Csomagküldő',
  mailEmailChangedBody: (email: string) =>
    `The email address of your Csomagküldő account has changed; from now on it is ${email}. We won't send any more emails about your account to this (old) address. If you didn't change it, contact the operator right away:`,
  mailEmailChangedContact: 'Contact the operator',

  // refusals
  verifyTokenInvalid:
    'This confirmation link is invalid, has expired or has already been used. Sign in to ask for a new one on your profile.',
  emailAlreadyVerified: 'Your email address is already confirmed: there is nothing to confirm.',
  verifyTooMany: "You've asked for too many confirmation emails: try again in an hour.",
  emailNotVerified:
    'Confirm your email address first: open the confirmation link in the email we sent you. You can ask for a new link on your profile.',

  // the link's page
  verifyEmailTitle: 'Confirm email address',
  verifyEmailWorking: 'Checking the link…',
  verifyEmailDone: (email: string) => `Thank you! You've confirmed your email address: ${email}.`,
  verifyEmailNoToken: 'The link is incomplete: open it again from the email, or ask for a new one on your profile.',
  verifyEmailToProfile: 'Go to my profile',

  // the profile page's notice
  emailUnverifiedNotice: (email: string) =>
    `Your email address (${email}) isn't confirmed yet: open the link in the email we sent to this address.`,
  emailPendingNotice: (email: string) =>
    `Your new email address (${email}) is waiting to be confirmed: open the link in the email we sent there. Until then, your old address stays in use.`,
  emailVerificationResend: 'Resend confirmation email',
  emailVerificationResent: (email: string) => `We've sent a new confirmation link to ${email}.`,
} as const satisfies Translation<typeof hu>;
