/** The back-office screens' texts (web, SPEC §2.8); the server's refusals and toasts are in core.ts. */
export const backOffice = {
  // actions every back-office screen shares
  adminBack: 'Vissza',
  adminEdit: 'Szerkesztés',
  adminDelete: 'Törlés',
  adminHandOver: 'Leadás',

  // a parcel's fields as the back office labels them
  adminParcelId: 'Azonosító',
  adminParcelCreatedAt: 'Létrehozva',
  adminFrom: 'Honnan',
  adminTo: 'Hova',
  adminReason: 'Indok',

  // parcel list ('Csomaglistázás')
  adminParcelsTitle: 'Csomaglistázás',
  adminNewParcel: 'Új csomag',
  adminParcelsEmpty: 'Nincs a szűrésnek megfelelő csomag.',

  // parcel create, edit, delete
  adminCreateParcelTitle: 'Szuper Admin Csomag Létrehozás',
  adminSenderUser: 'Feladó felhasználó',
  adminCreateParcelSubmit: 'Létrehoz',
  adminEditParcelTitle: 'Csomag Szerkesztése',
  adminParcelSummary: (weight: string, sender: string, runner: string) =>
    `Súly: ${weight} · Feladó: ${sender} · Futár: ${runner}`,
  adminEditParcelSubmit: 'Módosít',
  adminDeleteParcelTitle: 'Csomag törlése',

  // assignment ('Csomagok futárhoz rendelése')
  adminAssignTitle: 'Csomagok futárhoz rendelése',
  adminAssignParcel: 'Csomag',
  adminChooseParcel: 'Válassz csomagot…',
  adminSelectedParcel: 'A kiválasztott csomag',
  adminChooseRunner: 'Válassz futárt…',
  adminRunnerChoice: (userName: string, name: string, distance: string) => `${userName} – ${name} (${distance})`,
  adminRunnerPositionUnknown: 'ismeretlen helyen',
  adminAssignSubmit: 'Hozzárendelés',

  // runners
  adminRegisterRunnerTitle: 'Szuper Admin Futár Regisztráció',
  adminRegisterRunnerSubmit: 'Regisztráció',
  adminRunnersTitle: 'Futárlistázás',
  adminNewRunner: 'Új futár',
  adminRunnerSearch: 'Keresés névre',
  adminRunnersEmpty: 'Nincs ilyen futár.',
  adminRunnerCard: (userName: string) => `Futár ${userName}`,
  adminEditRunnerTitle: 'Futár Szerkesztése',
  adminDeleteRunnerTitle: 'Futár törlése',
  adminCarriedParcelsTitle: 'Nála lévő csomagok',
  adminCarriedParcelsEmpty: 'Nincs nála csomag.',

  // the admin map
  adminMapTitle: 'Térkép',
  adminMapLabel: 'Csomagok térképe',
  adminMapTotal: (count: string) => `${count} csomag a térképen`,
  adminMapCluster: (count: number) => `${count} csomag`,
  adminMapDetails: 'Részletek',
  adminMapPopupReceiverAddress: 'Kiszállítási cím:',
  adminMapPopupRunner: 'Futár:',

  // the mail written about a parcel, on the incident detail (issue 28)
  adminParcelMessagesTitle: 'Levelek a csomagról',
  adminParcelMessagesNone: 'A csomagról nem készült levél.',
  adminParcelMessageTo: (to: string) => `Címzett: ${to}`,
  adminParcelMessageWritten: (at: string) => `Megírva: ${at}`,
} as const;
