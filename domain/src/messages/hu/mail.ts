/**
 * Email (issue 29): the messages themselves, the forgotten password's pages, and the back office's
 * outgoing mail. Every message reads on a phone's mail client; none names a third person.
 */
export const mail = {
  // the password reset message
  mailPasswordResetSubject: 'Új jelszó beállítása – Csomagküldő',
  mailGreeting: (name: string) => `Kedves ${name}!`,
  mailPasswordResetBody:
    'Valaki – remélhetőleg te – új jelszót kért a Csomagküldő-fiókodhoz. Az alábbi linken egy órán belül, egyszer állíthatsz be új jelszót:',
  mailPasswordResetButton: 'Új jelszó beállítása',
  mailPasswordResetIgnore: 'Ha nem te kérted, nem kell tenned semmit: a jelszavad nem változik.',
  mailSignature: 'Csomagküldő',
  mailAutomatic: 'Ezt a levelet a Csomagküldő küldte automatikusan; kérjük, ne válaszolj rá.',

  // 'Elfelejtett jelszó'
  forgotPasswordLink: 'Elfelejtetted a jelszavad?',
  forgotPasswordTitle: 'Elfelejtett jelszó',
  forgotPasswordIntro: 'Add meg a fiókod email címét: küldünk rá egy linket, amellyel új jelszót állíthatsz be.',
  forgotPasswordSubmit: 'Link küldése',
  forgotPasswordSent:
    'Ha ehhez a címhez tartozik fiók, elküldtük rá a linket. Nézd meg a postafiókodat (a levélszemét mappát is); a link egy óráig érvényes.',
  resetPasswordTitle: 'Új jelszó beállítása',
  resetPasswordLabel: 'Új jelszó',
  resetPasswordSubmit: 'Jelszó mentése',
  resetPasswordDone: 'Elmentettük az új jelszavad. Minden eszközön kiléptettünk: jelentkezz be az új jelszóval.',
  resetPasswordNoToken: 'A link hiányos: nyisd meg újra a levélből, vagy kérj új linket.',
  resetTokenInvalid: 'Ez a link érvénytelen, lejárt vagy már felhasználták. Kérj új linket.',
  resetTooMany: 'Túl sok kérés érkezett erre a címre: próbáld újra egy óra múlva.',
  resetAskAgain: 'Új link kérése',

  // the back office's outgoing mail
  mailOutboxTitle: 'Kimenő levelek',
  mailOutboxMenu: 'Levelek',
  mailOutboxEmpty: 'Még nem ment ki levél.',
  mailOutboxViaSmtp: 'A levelek a beállított SMTP szerveren mennek ki.',
  mailOutboxViaFiles:
    'Nincs SMTP szerver beállítva (SMTP_URL): a levelek .eml fájlként kerülnek a DATA_DIR/mail mappába, innen látod, mi ment volna ki.',
  mailStatusPending: 'küldésre vár',
  mailStatusSent: 'elküldve',
  mailStatusFailed: 'sikertelen',
  mailTemplatePasswordReset: 'Jelszó-visszaállítás',
  mailOutboxFile: (name: string) => `Fájl: ${name}`,
  mailOutboxAttempts: (count: number) => `${count}. próbálkozás`,
  mailOutboxError: (error: string) => `Hiba: ${error}`,
} as const;
