/** Texts the server sends and the web shows across areas: sign-in, validation, parcels, the back office. */
export const core = {
  // sign-in (SPEC §5, DESIGN §6)
  emailTooShort: 'nem létező email cím',
  passwordTooShort: 'nem valid jelszó',
  wrongCredentials: 'Hibás email cím vagy jelszó.',
  alreadySignedIn: 'Már be vagy jelentkezve.',
  signedOut: 'Sikeres kijelentkezés.',
  signInRequired: 'Ehhez be kell jelentkezned.',
  forbidden: 'Ehhez nincs jogosultságod.',
  tooManyLoginAttempts: 'Túl sok sikertelen bejelentkezési kísérlet. Próbáld újra később.',
  tooManyRequests: 'Túl sok kérés. Próbáld újra később.',

  // registration and profiles (SPEC §2.4, §2.6)
  useEnglishLetters: 'Használd az angol ABC betűit',
  userNameTaken: 'Ez a felhasználónév már foglalt.',
  emailTaken: 'Ezzel az email címmel már regisztráltak.',
  profileSaved: 'Sikeres adatváltoztatás!',
  runnerSaved: 'Sikeres mentés!',

  // validation
  invalidBody: 'Hibás adatok. Ellenőrizd a kiemelt mezőket.',
  required: 'Kötelező mező.',
  invalidEmail: 'Érvénytelen email cím.',
  invalidUserName: 'A felhasználónév 3–32 karakter: az angol ABC betűi, számok, pont, kötőjel, aláhúzás.',
  passwordMin: 'A jelszó legalább 6 karakter legyen.',

  // generic
  notFound: 'Nem található.',
  badRequestUrl: 'Hibás kérés: a cím nem értelmezhető.',
  pageNotFound: 'Az oldal nem található (404)',
  serverError: 'Váratlan hiba történt. Próbáld újra később.',
  // operations (issue 9)
  databaseUnavailable: 'Az adatbázis most nem érhető el. Próbáld újra néhány másodperc múlva.',
  notReady: 'Ez a szerverpéldány most nem fogad forgalmat.',
  notReadyDatabase: 'Az adatbázis nem válaszol.',
  notReadyMigrations: 'Az adatbázis szerkezete nem naprakész.',
  notReadyChangeFeed: 'Az élő frissítések csatornája nem él.',
  notReadyDraining: 'A példány leáll.',
  crossOrigin: 'A kérés másik webhelyről érkezett, ezért elutasítottuk.',
  invalidEncoding: 'A kérés szövege nem érvényes UTF-8.',
  invalidQueryText:
    'A keresés vagy a szűrő szövegében vezérlőkarakter vagy hibás kódolású karakter van. Írd be újra a szöveget.',
  invalidText: 'A szövegben vezérlőkarakter vagy hibás kódolású karakter van.',
  bodyTooLarge: 'A kérés túl nagy.',
  unsupportedMediaType: 'A kérés formátumát nem ismerjük: JSON-t küldj.',
  networkError: 'Nem sikerült elérni a szervert. Ellenőrizd a kapcsolatot.',
  loading: 'Betöltés…',

  // parcels (SPEC §2.5–2.8, DESIGN §6)
  parcelNotFound: 'Nincs ilyen azonosítójú csomag.',
  parcelIdRequired: 'Add meg a csomag azonosítóját.',
  parcelTaken: 'Ezt a csomagot már felvette egy másik futár.',
  parcelAlreadyDelivered: 'Ezt a csomagot már leadták.',
  parcelNotWaiting: 'Ez a csomag már nem vár futárra.',
  parcelNotInTransit: 'Ez a csomag nincs szállítás alatt.',
  notYourParcel: 'Ezt a csomagot nem te szállítod.',
  parcelGivenBack: 'Visszaadtad a csomagot: újra a futárra várók között van.',
  parcelCancelled: 'Visszavontad a feladást.',
  cancelNotWaiting: 'A csomagot már felvette egy futár: a feladás nem vonható vissza.',
  destinationImprecise: 'A címzett pontos helye nem ismert — adj át QR kóddal',
  pinsHelp:
    'Nézd meg mindkét tűt: húzd az ajtóhoz, vagy jelezd, hogy jó helyen van. Futár QR kód nélkül csak pontos címre adhat le.',
  pinsUnconfirmed: 'A feladás előtt nézd meg a térképen mindkét tűt: húzd az ajtóhoz, vagy jelezd, hogy jó helyen van.',
  recipientPhoneInvalid: 'A telefonszám 6–20 karakter: számjegyek, szóköz, +, -, ( és ).',
  invalidPrecision: 'A pont pontossága street, settlement vagy manual lehet.',
  handoverInvalid: 'A QR kód érvénytelen vagy lejárt.',
  parcelAlreadyHandedOver: 'Ezt a csomagot már átvették.',
  copyHandoverLink: 'Link másolása',
  handoverLinkCopied: 'A link a vágólapra került.',
  copyFailed: 'Nem sikerült a vágólapra másolni.',
  shareHandoverLink: 'Megosztás',
  shareFailed: 'Nem sikerült megosztani a linket.',
  handoverShareTitle: 'Csomagátvétel',
  handoverShareText: 'Nyisd meg a linket, és hagyd jóvá a csomag átvételét.',
  geolocationUnavailable: 'A helymeghatározás nem elérhető.',
  parcelSent: 'Sikeres csomagfeladás!',
  parcelPickedUp: 'Sikeres csomagfelvétel!',
  parcelDelivered: 'Sikeres csomagleadás!',
  geocodeFailed: 'Geocode was not successful for the following reason: ZERO_RESULTS',
  tooFar: (distanceMetres: number) => `Túl messze vagy ${distanceMetres} méter távolságra`,

  // sending, profiles and live updates
  weightInvalid: 'A súly pozitív egész szám legyen (gramm).',
  weightTooHeavy: (maxGrams: number) => `A súly legfeljebb ${maxGrams} gramm lehet.`,
  invalidCoordinates: 'Érvénytelen koordináta.',
  invalidStatus: 'A státusz várakozik (waiting), szállítás alatt (in_transit) vagy leadott (delivered) lehet.',
  invalidLimit: (max: number) => `A limit 1 és ${max} közötti egész szám legyen.`,
  invalidCursor: 'Érvénytelen lapozási jel. Kezdd elölről a listát.',
  accountNotFound: 'Nincs ilyen felhasználó.',
  senderUserRequired: 'Add meg a feladó felhasználót.',
  senderUserNotUser: 'Feladó csak felhasználó (nem futár vagy admin) lehet.',
  senderUserNotSelf: 'Csak a saját nevedben adhatsz fel csomagot.',
  emailReadOnlyForRunner: 'Futár email címe nem módosítható.',
  invalidTopics: 'Érvénytelen téma. Lehetséges: parcel:<csomagazonosító>, parcels, me (vesszővel elválasztva).',
  tooManyStreams: 'Túl sok nyitott élő kapcsolat. Zárj be néhány lapot.',

  // runners: position and delivery
  invalidAccuracy: (maxMetres: number) => `A pontosság 0 és ${maxMetres} méter közötti szám legyen.`,
  positionRequired: 'A leadáshoz szükség van a pozíciódra (lat, lng, accuracy).',
  invalidNear: 'A hely (near) szélesség,hosszúság alakú legyen, például 47.4979,19.0402.',
  // the runner's waiting list (SPEC §2.7)
  waitingEmpty: 'Most nincs futárra váró csomag.',
  waitingEmptyInSettlement: 'Ezen a településen most nincs futárra váró csomag.',
  waitingSortLabel: 'Rendezés',
  waitingSortNearest: 'Legközelebbi elöl',
  waitingSortOldest: 'Legrégebben várakozó elöl',
  waitingSettlementLabel: 'Település',
  waitingPositionPending: 'A távolsághoz a helyzetedet kérjük; addig a legrégebben várakozó csomag áll elöl.',

  // back office: runners, parcels, admin map
  searchTooLong: 'A keresés legfeljebb 100 karakter lehet.',
  invalidRole: 'A szerepkör user, runner vagy superadmin lehet.',
  runnerNotFound: 'Nincs ilyen futár.',
  userNameReadOnly: 'A felhasználónév nem módosítható.',
  runnerCarriesParcels: (parcelIds: string) =>
    `A futár nem törölhető, amíg csomag van nála szállítás alatt: ${parcelIds}. Előbb ezeket kell leadni vagy átállítani.`,
  parcelNeedsRunner:
    'Szállítás alatt állapotba csak futárral rendelkező csomag kerülhet. Rendeld hozzá a csomagot egy futárhoz.',
  parcelChangedMeanwhile: 'A csomagot közben valaki módosította. Töltsd újra, és próbáld újra.',
  deliveredNeedsRunner: 'Leadottnak csak olyan csomag jelölhető, amelyet futár vitt. Előbb rendeld futárhoz.',
  statusChangeNeedsReason: 'Ehhez a státuszváltáshoz add meg az indokát.',
  deleteInTransitNeedsReason: (runner: string) =>
    `A csomag ${runner} futárnál van szállítás alatt: a törléshez add meg az indokát.`,
  reasonInvalid: 'Az indok 3–500 karakter legyen.',
  invalidBounds: 'Érvénytelen térképkivágás: a déli határ az északi, a nyugati a keleti alatt legyen.',
  invalidZoom: (max: number) => `A nagyítás 0 és ${max} közötti egész szám legyen.`,
  // back office screens (SPEC §2.8)
  runnerRegistered: 'Sikeres futárregisztráció!',
  runnerDeleted: 'A futárt töröltük.',
  parcelCreated: 'Sikeres csomaglétrehozás!',
  parcelSaved: 'Sikeres mentés!',
  parcelDeleted: 'A csomagot töröltük.',
  parcelAssigned: 'Sikeres hozzárendelés!',
  confirmRunnerDelete: (userName: string) => `Biztosan törölni akarod a ${userName} felhasználónevű futárt?`,
  confirmParcelDelete: (parcelId: string) => `Biztosan törölni akarod a(z) ${parcelId} ID-val rendelkező csomagot?`,
  confirmCarriedParcelDelete: (parcelId: string, runner: string) =>
    `Biztosan törölni akarod a(z) ${parcelId} ID-val rendelkező csomagot? ${runner} futárnál van szállítás alatt: írd le, miért törlöd. A futár azonnal látja, hogy a csomag kikerült a listájából.`,
  confirmAssign: (parcelId: string, runner: string) =>
    `Biztosan a(z) ${parcelId} azonosítójú csomagot ${runner} futárhoz rendeled?`,
  waitingForRunner: 'Futárra vár',
  incompleteBounds: 'A térképkivágásnak mind a négy oldala kell (south, west, north, east), vagy egyik sem.',
  metricsUnauthorized: 'Hiányzó vagy hibás hozzáférési kulcs.',
} as const;
