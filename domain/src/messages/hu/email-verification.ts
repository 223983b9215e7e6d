/**
 * Email verification (issue 29): the link at registration, REQUIRE_EMAIL_VERIFICATION, and a
 * change of address (the new one verified, the old one told).
 */
export const emailVerification = {
  // the verification message
  mailVerifySubject: 'Erősítsd meg az e-mail címed – Csomagküldő',
  mailVerifyBody:
    'Köszönjük, hogy regisztráltál a Csomagküldőre! Kérjük, erősítsd meg, hogy ez az e-mail cím a tiéd: nyisd meg az alábbi linket (48 óráig érvényes, egyszer használható):',
  mailVerifyAccountBody:
    'Kérjük, erősítsd meg, hogy ez az e-mail cím a tiéd a Csomagküldőn: nyisd meg az alábbi linket (48 óráig érvényes, egyszer használható):',
  mailVerifyChangeBody:
    'Ezt a címet adtad meg a Csomagküldő-fiókod új e-mail címeként. A csere az alábbi link megnyitásával történik meg (48 óráig érvényes, egyszer használható); addig a régi címed marad érvényben:',
  mailVerifyButton: 'E-mail cím megerősítése',
  mailVerifyIgnore: 'Ha nem te adtad meg ezt a címet, nem kell tenned semmit: nem történik változás.',

  // the notice to the old address once the new one is verified
  mailEmailChangedSubject: 'Megváltozott az e-mail címed – Csomagküldő',
  mailEmailChangedBody: (email: string) =>
    `A Csomagküldő-fiókod e-mail címe megváltozott, mostantól ez: ${email}. Erre a (régi) címre a fiókodról több levelet nem küldünk. Ha nem te változtattad meg, azonnal vedd fel a kapcsolatot az üzemeltetővel:`,
  mailEmailChangedContact: 'Kapcsolat az üzemeltetővel',

  // refusals
  verifyTokenInvalid:
    'Ez a megerősítő link érvénytelen, lejárt vagy már felhasználták. Bejelentkezve a profilodon kérhetsz újat.',
  emailAlreadyVerified: 'Az e-mail címed már meg van erősítve: nincs mit megerősíteni.',
  verifyTooMany: 'Túl sok megerősítő levelet kértél: próbáld újra egy óra múlva.',
  emailNotVerified:
    'Ehhez előbb erősítsd meg az e-mail címed: nyisd meg a levelünkben küldött megerősítő linket. Új linket a profilodon kérhetsz.',

  // the link's page
  verifyEmailTitle: 'E-mail cím megerősítése',
  verifyEmailWorking: 'Ellenőrizzük a linket…',
  verifyEmailDone: (email: string) => `Köszönjük! Megerősítetted az e-mail címed: ${email}.`,
  verifyEmailNoToken: 'A link hiányos: nyisd meg újra a levélből, vagy kérj újat a profilodon.',
  verifyEmailToProfile: 'Tovább a profilomra',

  // the profile page's notice
  emailUnverifiedNotice: (email: string) =>
    `Az e-mail címed (${email}) még nincs megerősítve: nyisd meg a linket a levélben, amit erre a címre küldtünk.`,
  emailPendingNotice: (email: string) =>
    `Az új e-mail címed (${email}) megerősítésre vár: nyisd meg a linket a levélben, amit oda küldtünk. Addig a régi címed marad érvényben.`,
  emailVerificationResend: 'Megerősítő levél újraküldése',
  emailVerificationResent: (email: string) => `Új megerősítő linket küldtünk ide: ${email}.`,
} as const;
