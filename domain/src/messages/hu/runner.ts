/** The runner's screens' texts (web), and the receiver's QR handover page (SPEC §2.7). */
export const runner = {
  // dashboard
  runnerDashboardTitle: 'Futár áttekintés',
  deliveringTab: 'Szállítás alatt',
  waitingTab: 'Felvételre vár',
  runnerTipCapacity: 'Csak annyi csomagot vegyél fel, amennyit kényelmesen el tudsz vinni.',
  runnerTipDelivery: 'A csomagot a címtől 15 méteren belül adhatod le, vagy a címzett QR kóddal veheti át.',
  runnerTipPosition: 'Amíg csomag van nálad, a helyzeted a csomag követési oldalán látszik.',
  supportTitle: 'Kapcsolat',
  supportEmailLabel: 'Email:',
  supportPhoneLabel: 'Telefon:',
  supportOfficeLabel: 'Központ:',
  // placeholders until the community has its own support line (SPEC §2.7)
  supportEmail: 'segitseg@csomagkuldo.hu',
  supportPhone: '+36 1 234 5678',
  supportOffice: '1051 Budapest, Példa utca 1.',

  // waiting parcels, list and map
  waitingParcelsTitle: 'Futárra váró csomagok',
  waitingFor: (age: string) => `Vár: ${age}`,
  pickUpParcel: 'Csomag felvétele',
  pickUpShort: 'Felvétel',
  runnerMapTitle: 'Futártérkép',
  runnerMapLabel: 'Futárra váró csomagok térképe',
  popupFrom: 'Honnan:',
  popupTo: 'Hova:',
  popupId: 'ID:',
  popupAddress: 'Cím:',
  popupSender: 'Feladó:',

  // parcels in progress
  inProgressTitle: 'Folyamatban lévő csomagok',
  inProgressEmpty: 'Most nincs nálad szállítandó csomag.',
  callRecipient: 'Címzett hívása',
  callNamedRecipient: (name: string) => `Címzett hívása (${name})`,
  callSender: (name: string) => `Feladó hívása (${name})`,
  deliverWithoutQr: 'Leadás QR kód nélkül',
  deliverWithQr: 'Leadás QR kóddal',
  locatingForDelivery: 'A helyzeted meghatározása folyamatban… Addig is leadhatod QR kóddal.',
  giveBack: 'Visszaadom',

  // the runner's QR code
  qrPageTitle: 'QR kódos csomagleadás',
  qrShowToReceiver: (parcelId: string) =>
    `Mutasd meg a címzettnek: a telefonjával beolvasva ő hagyja jóvá az átvételt. Csomag: ${parcelId}`,
  qrCodeLabel: 'Átvételi QR kód',
  qrValidUntil: (time: string) => `Érvényes eddig: ${time}`,
  qrExpired: 'A QR kód lejárt.',
  qrRenew: 'Új QR kód',
  qrParcelHandedOver: (parcelId: string) => `A(z) ${parcelId} csomagot átvették.`,
  qrChooseParcel: 'Válaszd ki a leadandó csomagot a folyamatban lévő csomagjaid közül.',
  backToInProgress: 'Vissza a folyamatban lévő csomagokhoz',

  // the receiver's handover page
  handoverTitle: 'Csomagátvétel QR kóddal',
  acceptHandover: 'Átvétel',
  handoverThanks: 'Köszönjük, hogy a Csomagküldőt választottad.',
  handoverReceived: (parcelId: string) => `Átvetted a(z) ${parcelId} azonosítójú csomagot.`,
} as const;
