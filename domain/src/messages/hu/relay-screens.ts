/** The relay screens: the hand-over QR, the Átveszem page, the legs on the tracking page (issue 14). */
export const relayScreens = {
  // the carrier's side: the in-progress card and its QR code
  relayHandOff: 'Átadás másik futárnak',
  relayHandOffClose: 'Bezárás',
  relayShowToRunner: (parcelId: string) =>
    `Mutasd meg a következő futárnak: a telefonjával beolvasva ő erősíti meg, hogy átvette. Csomag: ${parcelId}`,
  relayQrLabel: 'Futárátadási QR kód',
  relayPinText: (pin: string) =>
    `Ha nem tudja beolvasni: mondd meg neki a csomagazonosítót és ezt a kódot: ${pin}. A Futár átvétel oldalon írja be.`,

  // the next runner's side: /FutarAtvetel
  takeOverTitle: 'Csomag átvétele másik futártól',
  takeOverIntro: 'Ellenőrizd a csomagot, és erősítsd meg, hogy most már nálad van.',
  takeOverConfirm: 'Átveszem',
  takeOverDone: 'Átvetted a csomagot: most már nálad van.',
  relayHandedOn: (parcelId: string, runner: string) =>
    `Átadtad a(z) ${parcelId} azonosítójú csomagot: most ${runner} futárnál van.`,
  takeOverRunnersOnly: 'Csomagot csak futár vehet át másik futártól: jelentkezz be a futár fiókoddal.',
  takeOverByCodeTitle: 'Átvétel kóddal',
  takeOverByCodeHint:
    'Olvasd be az átadó futár QR kódját, vagy írd be a csomagazonosítót és a kódot, amelyet a telefonja mutat.',
  takeOverParcelIdLabel: 'Csomagazonosító',
  takeOverPinLabel: 'Az átadó futár kódja',
  takeOverFromRunnerLink: 'Átvétel másik futártól',
  takeOverCurrentHolder: 'Most nála van',
  takeOverFrom: 'Honnan',
  takeOverTo: 'Hova',

  // the back office: the parcel edit page's custody chain
  custodyChainTitle: 'Átadások lánca',
  custodyChainLabel: 'A csomag őrzési lánca',
  custodyChainVerified: 'A lánc ellenőrizve: sértetlen.',
  custodyChainBroken: (seq: string) => `A lánc sérült: a(z) ${seq}. bejegyzéstől nem ellenőrizhető.`,
  custodyStep: (from: string, to: string) => `${from} → ${to}`,
  custodyHow: (how: string) => `Megerősítette: ${how}`,
  custodyReason: (reason: string) => `Indok: ${reason}`,
  custodyPlace: (lat: string, lng: string) => `Hely: ${lat}, ${lng}`,
  custodyNobody: '—',
  custodyKindCreated: 'Létrehozás',
  custodyKindPickedUp: 'Felvétel',
  custodyKindAssigned: 'Kiosztás',
  custodyKindGivenBack: 'Visszaadás',
  custodyKindDelivered: 'Leadás',
  custodyKindHandedOverQr: 'QR kódos átadás',
  custodyKindRelayed: 'Futárváltás',
  custodyKindOverride: 'Felelős kijelölése',
  custodyKindStatusChanged: 'Státuszváltás',
  custodyKindCancelled: 'Visszavonás',
  custodyKindDeleted: 'Törlés',
  custodySender: 'feladó',
  custodyRunner: 'futár',
  custodyReceiver: 'címzett',
  custodyHowSender: 'a feladó',
  custodyHowRunner: 'a futár',
  custodyHowReceiverQr: 'az átvételi link birtokosa (QR kód)',
  custodyHowRunnerQr: 'az átvevő futár QR kóddal',
  custodyHowRunnerPin: 'az átvevő futár az átadó kódjával',
  custodyHowAdmin: 'az ügyfélszolgálat',
  custodyHowMigration: 'korábbi adatokból pótolva',

  // who confirmed a QR hand-over (issue 27): the receiver's page asks a name, the back office reads it
  handoverNameLabel: 'A neved',
  handoverConfirmedByAccount: (userName: string) => `Megerősítette: ${userName} (bejelentkezve)`,
  handoverConfirmedByLinkHolder: 'Megerősítette: a link birtokosa, bejelentkezés nélkül',
  handoverConfirmerName: (name: string) => `„${name}” néven`,
  handoverConfirmerNoName: 'név nélkül',
  handoverConfirmerSigned: 'aláírással',
  handoverConfirmerNotSigned: 'aláírás nélkül',

  // the tracking page's timeline
  relayLeg: (from: string, to: string, place: string | null, time: string) =>
    `Átadva: ${from} → ${to}${place ? `, ${place}` : ''}, ${time}`,
} as const;
