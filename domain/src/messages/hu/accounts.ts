/** The accounts screens' texts (web): sign-in, registration, profiles (SPEC §2.3, §2.4, §2.6). */
export const accounts = {
  // sign-in
  signInTitle: 'Bejelentkezés',
  signInSubmit: 'Bejelentkezés',
  // "Még nincs fiókod? <link> vagy <link>." — the sentence around the two links
  signInNoAccount: 'Még nincs fiókod?',
  signInOr: 'vagy',
  signInRegisterAsRunner: 'regisztráció futárként',

  // registration
  registerChoiceTitle: 'Regisztráció',
  registerChoiceQuestion: 'Csomagot küldenél, vagy futárként szállítanál?',
  registerAsUser: 'Regisztráció felhasználóként',
  registerAsRunner: 'Regisztráció futárként',
  registerUserTitle: 'Felhasználói regisztráció',
  registerRunnerTitle: 'Futár regisztráció',
  registerSubmit: 'Regisztráció',
  registerHaveAccount: 'Van már fiókod?',
  registerSignIn: 'Bejelentkezés',

  // profile
  profileTitle: 'Profilom',
  profileBrandMotto: 'Közösségben erősebbek vagyunk.',

  // language (issue 30)
  languageInvalid: 'A nyelv magyar (hu) vagy angol (en) lehet.',
} as const;
