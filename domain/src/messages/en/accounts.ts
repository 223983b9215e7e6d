import type { accounts as hu } from '../hu/accounts.ts';
import type { Translation } from '../translation.ts';

/** The accounts screens' texts (web): sign-in, registration, profiles (SPEC §2.3, §2.4, §2.6). */
export const accounts = {
  // sign-in
  signInTitle: 'Sign in',
  signInSubmit: 'Sign in',
  // "Don't have an account yet? <link> or <link>." — the sentence around the two links
  signInNoAccount: "Don't have an account yet?",
  signInOr: 'or',
  signInRegisterAsRunner: 'sign up as a runner',

  // registration
  registerChoiceTitle: 'Sign up',
  registerChoiceQuestion: 'Do you want to send parcels, or deliver them as a runner?',
  registerAsUser: 'Sign up as a user',
  registerAsRunner: 'Sign up as a runner',
  registerUserTitle: 'User registration',
  registerRunnerTitle: 'Runner registration',
  registerSubmit: 'Sign up',
  registerHaveAccount: 'Already have an account?',
  registerSignIn: 'Sign in',

  // profile
  profileTitle: 'My profile',
  profileBrandMotto: "We're stronger as a community.",

  // language (issue 30)
  languageInvalid: 'The language can be Hungarian (hu) or English (en).',
} as const satisfies Translation<typeof hu>;
