/**
 * The web's shared texts: the shell (header, menus, footer, status pages), the shared components
 * (form fields, parcel cards and details), map labels and the browser's position requests.
 */
export const shell = {
  // header and footer (SPEC §1)
  appName: 'Csomagküldő',
  homeLinkLabel: 'Csomagküldő – főoldal',
  mainMenuLabel: 'Főmenü',
  menuButtonLabel: 'Menü',
  signOut: 'Kijelentkezés',
  skipToContent: 'Ugrás a tartalomra',
  // the language switch (issue 30): its button shows the other language's own name
  languageSwitchHint: 'Az oldal nyelve',
  /** The switch, where neither a cookie nor local storage may be kept: nothing changes. */
  languageNotKept: 'Ez a böngésző nem engedi megjegyezni a nyelvet (a sütik és a helyi tárolás tiltva).',
  languageLabel: 'Nyelv',
  footerPrivacy: 'Adatvédelmi tájékoztató',
  footerContact: 'Kapcsolat',
  footerImprint: 'Impresszum',
  copyright: (year: number) => `© ${year} Csomagküldő`,

  // the menus (SPEC §2.2), in their order
  menuHome: 'Főoldal',
  menuLogin: 'Bejelentkezés',
  menuRegister: 'Regisztráció',
  menuTracking: 'Csomagkövetés',
  menuOverview: 'Áttekintés',
  menuWaitingParcels: 'Futárra váró csomagok',
  menuInProgressParcels: 'Folyamatban lévő csomagok',
  menuMap: 'Térkép',
  menuProfile: 'Profilom',
  menuSendParcel: 'Csomagfeladás',
  menuSentParcels: 'Feladott csomagok',
  menuIncomingParcels: 'Nekem címzett csomagok',
  menuRegisterRunner: 'Futár regisztráció',
  menuRunners: 'Futárlistázás',
  menuCreateParcel: 'Csomag létrehozás',
  menuParcels: 'Csomaglistázás',
  menuAssign: 'Futárhoz rendelés',

  // status pages
  pageNotFoundText: 'A keresett oldal nem létezik, vagy elköltözött.',
  errorPageTitle: 'Hiba történt',
  backToHome: 'Vissza a főoldalra',

  // account forms (components/account-form.tsx, profile-form.tsx, contact-fields.tsx)
  nameLabel: 'Név',
  userNameLabel: 'Felhasználónév',
  emailLabel: 'Email',
  passwordLabel: 'Jelszó',
  phoneNumberLabel: 'Telefonszám',
  addressLabel: 'Cím',
  newPasswordPlaceholder: 'Új jelszó (ha változtatnád)',
  saveButton: 'Mentés',
  cancelButton: 'Mégsem',

  // a parcel's fields, card and details, wherever a parcel is shown
  parcelIdLabel: 'ID',
  categoryLabel: 'Kategória',
  weightLabel: 'Súly',
  weightGramsLabel: 'Súly (gramm)',
  senderLabel: 'Feladó',
  runnerLabel: 'Futár',
  statusLabel: 'Státusz',
  categoryDocuments: 'Irat',
  categoryBooks: 'Könyv',
  categoryClothes: 'Ruha',
  categoryFood: 'Élelmiszer',
  categoryElectronics: 'Elektronika',
  categoryGift: 'Ajándék',
  categoryFragile: 'Törékeny',
  parcelCardLabel: (parcelId: string) => `Csomag ${parcelId}`,
  parcelCardPeople: (senderUser: string, runner: string) => `Feladó: ${senderUser} · Futár: ${runner}`,
  parcelCardSentAt: (time: string) => `Feladva: ${time}`,
  loadMore: 'Továbbiak betöltése',
  usefulInfoTitle: 'Hasznos tudnivalók',

  // map markers' titles (and alt texts) and maps' labels
  mapPickupPoint: 'Felvételi pont',
  mapDestinationPoint: 'Kiszállítási pont',
  mapBothPointsLabel: 'A feladási és a kiszállítási pont',
  mapYourRunner: 'A futárod',
  mapZoomIn: 'Nagyítás',
  mapZoomOut: 'Kicsinyítés',
  mapYou: 'Ez te vagy',
  mapAvailableParcel: 'Elérhető',
  mapParcelDestination: 'Hova',

  // why the browser gave no position (lib/geolocation.ts), after geolocationUnavailable
  geolocationDenied: 'Engedélyezd a helyhozzáférést a böngésződben.',
  geolocationPositionUnknown: 'A készülék most nem tudja meghatározni a helyzetét.',
  geolocationTimedOut: 'A helymeghatározás túl sokáig tartott.',
} as const;
