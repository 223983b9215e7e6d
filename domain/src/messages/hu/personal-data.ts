/** A person's own data (issue 29): to download it, and to erase the account. */
export const personalData = {
  // 'Adataim letöltése' on the profile page
  myDataTitle: 'Adataim',
  myDataHint:
    'Minden, amit rólad tárolunk, egy JSON fájlban: a fiókod, a csomagjaid, az értékelések, az eszközeid és a neked küldött levelek.',
  myDataDownload: 'Adataim letöltése',
  // 'Fiók törlése'
  eraseTitle: 'Fiók törlése',
  eraseHint:
    'A fiókod és a személyes adataid véglegesen törlődnek; a csomagok útja névtelenül megmarad. Nem vonható vissza.',
  erasePasswordLabel: 'A jelszavad, megerősítésképp',
  eraseSubmit: 'Fiókom végleges törlése',
  eraseDone: 'A fiókodat töröltük. Köszönjük, hogy velünk voltál.',
  wrongPassword: 'Hibás jelszó.',
  eraseBlocked:
    'Amíg csomagod úton van (feladóként vagy futárként), a fiókod nem törölhető. Próbáld újra, ha mind célba ért.',
  erasedName: 'Törölt felhasználó',
  erasedAddress: '(törölt cím)',
} as const;
